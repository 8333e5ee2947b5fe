// The "MyDelegate" of the custom-delegate guide, made correct: a
// SimpleDelegate that runs float32 ADD and SUB (two inputs, no fused
// activation, NumPy-style broadcasting up to rank 6) itself.
//
// Use it three ways:
//   * linked directly: TfLiteDummyDelegateCreate / TfLiteDummyDelegateDelete
//     (library tflite_c_dummy_delegate);
//   * as an external delegate: libtflite_c_dummy_external_delegate.so exports
//     tflite_plugin_create_delegate / tflite_plugin_destroy_delegate and takes
//     the options below as key/value strings, e.g. error_during_invoke:true;
//   * through any tool that accepts --external_delegate_path.
//
// Same C API as upstream's dummy delegate (tflite/delegates/utils/dummy_delegate),
// with two extra option fields at the end.
#ifndef TFLITE_C_EXAMPLES_DUMMY_DELEGATE_DUMMY_DELEGATE_H_
#define TFLITE_C_EXAMPLES_DUMMY_DELEGATE_DUMMY_DELEGATE_H_

#include <memory>

#include "tensorflow/lite/core/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif  // __cplusplus

typedef struct {
  // Op to claim: kTfLiteBuiltinAdd or kTfLiteBuiltinSub; any other value
  // (default -1) claims both.
  int allowed_builtin_code;
  // Fail in the delegate kernel's Init / Prepare / Eval, to exercise the
  // runtime's error and fallback paths.
  bool error_during_init;
  bool error_during_prepare;
  bool error_during_invoke;
  // SimpleDelegateInterface::Options (<= 0: no limit).
  int max_delegated_partitions;
  int min_nodes_per_partition;
} DummyDelegateOptions;

DummyDelegateOptions TfLiteDummyDelegateOptionsDefault();

// NULL options mean the defaults. Destroy with TfLiteDummyDelegateDelete
// after every interpreter using the delegate.
TfLiteDelegate* TfLiteDummyDelegateCreate(const DummyDelegateOptions* options);

void TfLiteDummyDelegateDelete(TfLiteDelegate* delegate);

#ifdef __cplusplus
}
#endif  // __cplusplus

inline std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)> TfLiteDummyDelegateCreateUnique(
    const DummyDelegateOptions* options) {
  return std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>(
      TfLiteDummyDelegateCreate(options), TfLiteDummyDelegateDelete);
}

#endif  // TFLITE_C_EXAMPLES_DUMMY_DELEGATE_DUMMY_DELEGATE_H_

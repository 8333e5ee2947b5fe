// Custom ops parse their custom_options once, in Init, where nothing can be
// reported; Prepare reports what Init found with CheckParsedOptions.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CUSTOM_OPTIONS_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CUSTOM_OPTIONS_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// `data` is the node's user data (nullptr when Init ran out of memory) with a
// std::string `error` saying why its options are unusable (empty if they
// are fine). Reports "<op>: <error>" and fails unless all is well.
template <typename OpData>
TfLiteStatus CheckParsedOptions(TfLiteContext* context, const char* op, const OpData* data) {
  if (data == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory", op);
    return kTfLiteError;
  }
  if (!data->error.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s: %s", op, data->error.c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CUSTOM_OPTIONS_H_

// The delegate the C API applies by default (issue 11; see
// src/c_api/default_xnnpack.h for when and how).
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_DEFAULT_DELEGATE_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_DEFAULT_DELEGATE_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

// A delegate with default options and `num_threads` threads (<= 1: none), to
// be deleted with TfLiteXNNPackDelegateDelete; nullptr when the library was
// built without XNNPACK or XNNPACK cannot run on this CPU.
TfLiteDelegate* MaybeCreateDefaultXnnpackDelegate(int num_threads);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_DEFAULT_DELEGATE_H_

// The definition behind the opaque TfLiteOperator handle
// (include/tensorflow/lite/core/c/operator.h). Core dispatches to these
// callbacks when a TfLiteRegistration's registration_external is set.
#ifndef TFLITE_C_SRC_CORE_OPERATOR_INTERNAL_H_
#define TFLITE_C_SRC_CORE_OPERATOR_INTERNAL_H_

#include <cstddef>
#include <string>

#include "tensorflow/lite/core/c/common.h"

struct TfLiteOperator {
  int32_t builtin_code = 0;
  std::string custom_name_storage;
  const char* custom_name = nullptr;  // null for builtins
  int version = 1;
  void* user_data = nullptr;

  void* (*init)(TfLiteOpaqueContext*, const char*, size_t) = nullptr;
  void* (*init_with_data)(void*, TfLiteOpaqueContext*, const char*, size_t) = nullptr;
  void (*free)(TfLiteOpaqueContext*, void*) = nullptr;
  void (*free_with_data)(void*, TfLiteOpaqueContext*, void*) = nullptr;
  TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*) = nullptr;
  TfLiteStatus (*prepare_with_data)(void*, TfLiteOpaqueContext*, TfLiteOpaqueNode*) = nullptr;
  TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*) = nullptr;
  TfLiteStatus (*invoke_with_data)(void*, TfLiteOpaqueContext*, TfLiteOpaqueNode*) = nullptr;
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteOpaqueContext*, TfLiteOpaqueNode*) = nullptr;
  struct TfLiteAsyncKernel* (*async_kernel_with_data)(void*, TfLiteOpaqueContext*,
                                                      TfLiteOpaqueNode*) = nullptr;
  uint64_t inplace_operator = 0;
  // Set when the operator wraps a legacy TfLiteRegistration (delegate kernels).
  int node_index = -1;
};

namespace tflite_c {
// A TfLiteRegistration that forwards to `op` (registration_external = op).
TfLiteRegistration RegistrationFromOperator(const TfLiteOperator* op);
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_OPERATOR_INTERNAL_H_

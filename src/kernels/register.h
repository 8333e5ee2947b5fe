// The builtin kernels. Each Register_* returns a registration with static
// lifetime; RegisterBuiltinKernels adds them all, with the op versions each
// one implements, to a resolver. Both come from one table,
// src/kernels/registrations.inc.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_H_

#include "src/core/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

void RegisterBuiltinKernels(MutableOpResolver* resolver);

namespace kernels {

#define TFLC_BUILTIN(code, register_fn, min_version, max_version) \
  const TfLiteRegistration* register_fn();
#define TFLC_CUSTOM(name, register_fn, min_version, max_version) \
  const TfLiteRegistration* register_fn();
#include "src/kernels/registrations.inc"
#undef TFLC_BUILTIN
#undef TFLC_CUSTOM

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_H_

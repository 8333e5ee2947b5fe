#include "src/kernels/register.h"

#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

void RegisterBuiltinKernels(MutableOpResolver* resolver) {
#define TFLC_BUILTIN(code, register_fn, min_version, max_version) \
  resolver->AddBuiltin(code, kernels::register_fn(), min_version, max_version);
#define TFLC_CUSTOM(name, register_fn, min_version, max_version) \
  resolver->AddCustom(name, kernels::register_fn(), min_version, max_version);
#include "src/kernels/registrations.inc"
#undef TFLC_BUILTIN
#undef TFLC_CUSTOM
}

}  // namespace tflite_c

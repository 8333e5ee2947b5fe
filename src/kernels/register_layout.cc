#include "src/kernels/register_groups.h"

#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

void RegisterLayoutKernels(MutableOpResolver* resolver) {
  (void)resolver;
}

}  // namespace tflite_c

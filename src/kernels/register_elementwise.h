// Registrations of the element-wise kernel group: unary math, activations,
// broadcasting binary ops, comparisons and logic, reductions, batch matmul.
// RegisterElementwiseKernels (register_elementwise.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_BATCH_MATMUL();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

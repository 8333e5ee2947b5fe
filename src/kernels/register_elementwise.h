// Registrations of the element-wise kernel group: unary math, activations,
// broadcasting binary ops, comparisons and logic, reductions, batch matmul.
// RegisterElementwiseKernels (register_elementwise.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_BATCH_MATMUL();

// elementwise.cc
const TfLiteRegistration* Register_ABS();
const TfLiteRegistration* Register_CEIL();
const TfLiteRegistration* Register_COS();
const TfLiteRegistration* Register_EXP();
const TfLiteRegistration* Register_FLOOR();
const TfLiteRegistration* Register_LOG();
const TfLiteRegistration* Register_LOGICAL_NOT();
const TfLiteRegistration* Register_NEG();
const TfLiteRegistration* Register_ROUND();
const TfLiteRegistration* Register_RSQRT();
const TfLiteRegistration* Register_SIGN();
const TfLiteRegistration* Register_SIN();
const TfLiteRegistration* Register_SQRT();
const TfLiteRegistration* Register_SQUARE();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

// Registrations of the element-wise kernel group: unary math, activations,
// broadcasting binary ops, comparisons and logic, reductions, batch matmul.
// RegisterElementwiseKernels (register_elementwise.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_BATCH_MATMUL();

// unary_math.cc
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

// Broadcasting binary ops: one file per op or family.
const TfLiteRegistration* Register_DIV();
const TfLiteRegistration* Register_MAXIMUM();
const TfLiteRegistration* Register_MINIMUM();
const TfLiteRegistration* Register_POW();
const TfLiteRegistration* Register_SQUARED_DIFFERENCE();
const TfLiteRegistration* Register_FLOOR_DIV();
const TfLiteRegistration* Register_FLOOR_MOD();

// comparisons.cc, logical.cc, select.cc
const TfLiteRegistration* Register_EQUAL();
const TfLiteRegistration* Register_NOT_EQUAL();
const TfLiteRegistration* Register_LESS();
const TfLiteRegistration* Register_LESS_EQUAL();
const TfLiteRegistration* Register_GREATER();
const TfLiteRegistration* Register_GREATER_EQUAL();
const TfLiteRegistration* Register_LOGICAL_AND();
const TfLiteRegistration* Register_LOGICAL_OR();
const TfLiteRegistration* Register_SELECT();
const TfLiteRegistration* Register_SELECT_V2();

// reduce.cc
const TfLiteRegistration* Register_MEAN();
const TfLiteRegistration* Register_SUM();
const TfLiteRegistration* Register_REDUCE_PROD();
const TfLiteRegistration* Register_REDUCE_MAX();
const TfLiteRegistration* Register_REDUCE_MIN();
const TfLiteRegistration* Register_REDUCE_ANY();
const TfLiteRegistration* Register_REDUCE_ALL();

// activations.cc, lut_activations.cc, rowwise_activations.cc, arg_min_max.cc
const TfLiteRegistration* Register_TANH();
const TfLiteRegistration* Register_HARD_SWISH();
const TfLiteRegistration* Register_ELU();
const TfLiteRegistration* Register_GELU();
const TfLiteRegistration* Register_LEAKY_RELU();
const TfLiteRegistration* Register_PRELU();
const TfLiteRegistration* Register_LOG_SOFTMAX();
const TfLiteRegistration* Register_L2_NORMALIZATION();
const TfLiteRegistration* Register_ARG_MAX();
const TfLiteRegistration* Register_ARG_MIN();
const TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION();  // local_response_norm.cc
const TfLiteRegistration* Register_FAKE_QUANT();                    // fake_quant.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_ELEMENTWISE_H_

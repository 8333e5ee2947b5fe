// The builtin kernels. Each Register_* returns a registration with static
// lifetime; RegisterBuiltinKernels adds them all, with the op versions each
// one implements, to a resolver.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_H_

#include "src/core/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

void RegisterBuiltinKernels(MutableOpResolver* resolver);

namespace kernels {

const TfLiteRegistration* Register_ADD();
const TfLiteRegistration* Register_SUB();
const TfLiteRegistration* Register_MUL();
const TfLiteRegistration* Register_FULLY_CONNECTED();
const TfLiteRegistration* Register_CONV_2D();
const TfLiteRegistration* Register_DEPTHWISE_CONV_2D();
const TfLiteRegistration* Register_TRANSPOSE_CONV();
const TfLiteRegistration* Register_CONV_3D();            // conv3d.cc
const TfLiteRegistration* Register_CONV_3D_TRANSPOSE();  // conv3d.cc
const TfLiteRegistration* Register_RESHAPE();
const TfLiteRegistration* Register_SOFTMAX();
const TfLiteRegistration* Register_LOGISTIC();
const TfLiteRegistration* Register_RELU();
const TfLiteRegistration* Register_RELU6();
const TfLiteRegistration* Register_RELU_N1_TO_1();
const TfLiteRegistration* Register_RELU_0_TO_1();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_H_

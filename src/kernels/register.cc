#include "src/kernels/register.h"

#include "src/kernels/register_groups.h"

#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver. Across
// each range the float32 semantics do not change: later versions add other
// element types (int8/int16 quantized, hybrid, float16, ...), which the
// kernels' Prepare rejects by name, or features the kernels implement
// (dilation, keep_num_dims, omitted bias, grouped convolution). Registering
// the whole range keeps such models loadable and makes unsupported types
// fail with a precise message instead of an unresolved-op error.
void RegisterBuiltinKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinAdd, Register_ADD(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinSub, Register_SUB(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinMul, Register_MUL(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinFullyConnected, Register_FULLY_CONNECTED(), 1, 13);
  resolver->AddBuiltin(kTfLiteBuiltinConv2d, Register_CONV_2D(), 1, 8);
  resolver->AddBuiltin(kTfLiteBuiltinDepthwiseConv2d, Register_DEPTHWISE_CONV_2D(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinTransposeConv, Register_TRANSPOSE_CONV(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinConv3d, Register_CONV_3D(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinConv3dTranspose, Register_CONV_3D_TRANSPOSE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinReshape, Register_RESHAPE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSoftmax, Register_SOFTMAX(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinLogistic, Register_LOGISTIC(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinRelu, Register_RELU(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinRelu6, Register_RELU6(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinReluN1To1, Register_RELU_N1_TO_1(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRelu0To1, Register_RELU_0_TO_1(), 1, 1);
  RegisterLayoutKernels(resolver);
  RegisterElementwiseKernels(resolver);
  RegisterControlFlowKernels(resolver);
  RegisterRecurrentKernels(resolver);
  RegisterStringKernels(resolver);
  RegisterExtraKernels(resolver);
  RegisterDetectionKernels(resolver);
  RegisterAudioKernels(resolver);
  RegisterRandomKernels(resolver);
  RegisterStablehloKernels(resolver);
}

}  // namespace tflite_c

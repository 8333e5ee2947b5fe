// Registrations of StableHLO's element-wise binary ops
// (stablehlo_elementwise.cc). RegisterStablehloKernels (register_stablehlo.cc)
// adds them; STABLEHLO_CASE is a control-flow op (register_control_flow.h).
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_STABLEHLO_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_STABLEHLO_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

// stablehlo_elementwise.cc
const TfLiteRegistration* Register_STABLEHLO_ADD();
const TfLiteRegistration* Register_STABLEHLO_MULTIPLY();
const TfLiteRegistration* Register_STABLEHLO_MAXIMUM();
const TfLiteRegistration* Register_STABLEHLO_MINIMUM();
const TfLiteRegistration* Register_STABLEHLO_AND();
const TfLiteRegistration* Register_STABLEHLO_SHIFT_LEFT();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_STABLEHLO_H_

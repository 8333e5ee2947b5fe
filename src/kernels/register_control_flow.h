// Registrations of the control-flow, resource-variable and sparse-constant
// kernels, added to the builtin resolver by RegisterControlFlowKernels
// (register_control_flow.cc).
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_CONTROL_FLOW_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_CONTROL_FLOW_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_WHILE();
const TfLiteRegistration* Register_IF();
const TfLiteRegistration* Register_STABLEHLO_CASE();
const TfLiteRegistration* Register_CALL_ONCE();
const TfLiteRegistration* Register_VAR_HANDLE();
const TfLiteRegistration* Register_READ_VARIABLE();
const TfLiteRegistration* Register_ASSIGN_VARIABLE();
const TfLiteRegistration* Register_DENSIFY();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_CONTROL_FLOW_H_

// Registrations of the recurrent kernels (LSTM and RNN families, SVDF), added to the
// builtin resolver by RegisterRecurrentKernels (register_recurrent.cc).
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_RECURRENT_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_RECURRENT_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_LSTM();
const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
const TfLiteRegistration* Register_SVDF();
const TfLiteRegistration* Register_RNN();
const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN();
const TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_RNN();
const TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM();

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_RECURRENT_H_

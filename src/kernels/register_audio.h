// Registrations of the spectral kernel group: the complex-number builtins
// (RFFT2D, REAL, IMAG, COMPLEX_ABS) and the audio custom ops upstream's
// default resolver carries (AudioSpectrogram, Mfcc), and the other custom op
// it registers, NumericVerify.
// RegisterAudioKernels (register_audio.cc) adds them all.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_AUDIO_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_AUDIO_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_RFFT2D();       // rfft2d.cc
const TfLiteRegistration* Register_REAL();         // complex.cc
const TfLiteRegistration* Register_IMAG();         // complex.cc
const TfLiteRegistration* Register_COMPLEX_ABS();  // complex.cc
// Custom ops.
const TfLiteRegistration* Register_AUDIO_SPECTROGRAM();  // audio_spectrogram.cc
const TfLiteRegistration* Register_MFCC();               // mfcc.cc
const TfLiteRegistration* Register_NUMERIC_VERIFY();     // numeric_verify.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_AUDIO_H_

#include "src/kernels/register_audio.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's: every op of this group has only
// version 1. AudioSpectrogram, Mfcc and NumericVerify are custom ops that
// upstream's BuiltinOpResolver registers by name, so models using them load
// without registering anything.
void RegisterAudioKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinRfft2d, Register_RFFT2D(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinReal, Register_REAL(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinImag, Register_IMAG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinComplexAbs, Register_COMPLEX_ABS(), 1, 1);
  resolver->AddCustom("AudioSpectrogram", Register_AUDIO_SPECTROGRAM(), 1, 1);
  resolver->AddCustom("Mfcc", Register_MFCC(), 1, 1);
  resolver->AddCustom("NumericVerify", Register_NUMERIC_VERIFY(), 1, 1);
}

}  // namespace tflite_c

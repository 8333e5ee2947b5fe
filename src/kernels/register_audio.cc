#include "src/kernels/register_audio.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's: every op of this group has only
// version 1.
void RegisterAudioKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinRfft2d, Register_RFFT2D(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinReal, Register_REAL(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinImag, Register_IMAG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinComplexAbs, Register_COMPLEX_ABS(), 1, 1);
}

}  // namespace tflite_c

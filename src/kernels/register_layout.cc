#include "src/kernels/register_layout.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver; the
// kernels implement every type those versions introduce, except where noted
// (such types are rejected in Prepare with a message naming them).
void RegisterLayoutKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinPad, Register_PAD(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinPadv2, Register_PADV2(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinMaxPool2d, Register_MAX_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinAveragePool2d, Register_AVERAGE_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinConcatenation, Register_CONCATENATION(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinDequantize, Register_DEQUANTIZE(), 1, 9);
  resolver->AddBuiltin(kTfLiteBuiltinMirrorPad, Register_MIRROR_PAD(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinQuantize, Register_QUANTIZE(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinTranspose, Register_TRANSPOSE(), 1, 9);
  resolver->AddBuiltin(kTfLiteBuiltinSpaceToDepth, Register_SPACE_TO_DEPTH(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinDepthToSpace, Register_DEPTH_TO_SPACE(), 1, 2);
  // Bilinear: FLOAT32 only; its quantized versions are rejected in Prepare.
  resolver->AddBuiltin(kTfLiteBuiltinResizeBilinear, Register_RESIZE_BILINEAR(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinResizeNearestNeighbor, Register_RESIZE_NEAREST_NEIGHBOR(), 1,
                       4);
  resolver->AddBuiltin(kTfLiteBuiltinSlice, Register_SLICE(), 1, 8);
  resolver->AddBuiltin(kTfLiteBuiltinTile, Register_TILE(), 1, 3);
  // Version 1 of BROADCAST_TO was withdrawn upstream (its op code changed).
  resolver->AddBuiltin(kTfLiteBuiltinBroadcastTo, Register_BROADCAST_TO(), 2, 4);
}

}  // namespace tflite_c

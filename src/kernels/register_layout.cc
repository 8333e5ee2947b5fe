#include "src/kernels/register_layout.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are those of TensorFlow Lite 2.19's builtin resolver (checked
// by tests/kernels/op_coverage_test.cc); the kernels implement every type those
// versions introduce, except where noted (such types are rejected in Prepare
// with a message naming them). Deliberate extras: CONCATENATION v5, SLICE v7
// and TRANSPOSE v7, the later upstream versions that carry INT4 values.
void RegisterLayoutKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinPad, Register_PAD(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinPadv2, Register_PADV2(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinMaxPool2d, Register_MAX_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinAveragePool2d, Register_AVERAGE_POOL_2D(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinL2Pool2d, Register_L2_POOL_2D(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinConcatenation, Register_CONCATENATION(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinDequantize, Register_DEQUANTIZE(), 1, 6);
  resolver->AddBuiltin(kTfLiteBuiltinMirrorPad, Register_MIRROR_PAD(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinQuantize, Register_QUANTIZE(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinTranspose, Register_TRANSPOSE(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinSpaceToDepth, Register_SPACE_TO_DEPTH(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinDepthToSpace, Register_DEPTH_TO_SPACE(), 1, 2);
  // Bilinear: FLOAT32 only; its quantized versions are rejected in Prepare.
  resolver->AddBuiltin(kTfLiteBuiltinResizeBilinear, Register_RESIZE_BILINEAR(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinResizeNearestNeighbor, Register_RESIZE_NEAREST_NEIGHBOR(), 1,
                       4);
  resolver->AddBuiltin(kTfLiteBuiltinSlice, Register_SLICE(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinTile, Register_TILE(), 1, 3);
  // Version 1 of BROADCAST_TO was withdrawn upstream (its op code changed).
  resolver->AddBuiltin(kTfLiteBuiltinBroadcastTo, Register_BROADCAST_TO(), 2, 3);
  // Index and data-movement ops: of these, only GATHER takes STRING tensors;
  // the others reject them (and INT4) in Prepare.
  resolver->AddBuiltin(kTfLiteBuiltinSplit, Register_SPLIT(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinSplitV, Register_SPLIT_V(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinUnpack, Register_UNPACK(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinPack, Register_PACK(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinStridedSlice, Register_STRIDED_SLICE(), 1, 8);
  // CAST: INT4 converts only to and from FLOAT32; INT2/UINT4 and FLOAT8
  // conversions are rejected in Prepare.
  resolver->AddBuiltin(kTfLiteBuiltinCast, Register_CAST(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinGather, Register_GATHER(), 1, 7);
  resolver->AddBuiltin(kTfLiteBuiltinSqueeze, Register_SQUEEZE(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinExpandDims, Register_EXPAND_DIMS(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinShape, Register_SHAPE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinTopkV2, Register_TOPK_V2(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinWhere, Register_WHERE(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinGatherNd, Register_GATHER_ND(), 1, 5);
  resolver->AddBuiltin(kTfLiteBuiltinReverseV2, Register_REVERSE_V2(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinFill, Register_FILL(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinZerosLike, Register_ZEROS_LIKE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRange, Register_RANGE(), 1, 2);
  resolver->AddBuiltin(kTfLiteBuiltinOneHot, Register_ONE_HOT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSpaceToBatchNd, Register_SPACE_TO_BATCH_ND(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinBatchToSpaceNd, Register_BATCH_TO_SPACE_ND(), 1, 4);
  // EMBEDDING_LOOKUP: INT2 and blockwise-quantized values and FLOAT16
  // outputs are rejected in Prepare.
  resolver->AddBuiltin(kTfLiteBuiltinEmbeddingLookup, Register_EMBEDDING_LOOKUP(), 1, 4);
  resolver->AddBuiltin(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(), 1, 3);
  // Pure data movement: these take any fixed-size element type (upstream's
  // kernels list fewer), moving values unchanged.
  resolver->AddBuiltin(kTfLiteBuiltinReverseSequence, Register_REVERSE_SEQUENCE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinMatrixDiag, Register_MATRIX_DIAG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinMatrixSetDiag, Register_MATRIX_SET_DIAG(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinBitcast, Register_BITCAST(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinDilate, Register_DILATE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloPad, Register_STABLEHLO_PAD(), 1, 1);
}

}  // namespace tflite_c

#include "src/kernels/register_extra.h"

#include "src/kernels/register_groups.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {

// Version ranges are TensorFlow Lite 2.19's: every op of this group but
// DYNAMIC_UPDATE_SLICE (1 to 3: v2 adds INT64 start indices, v3 FLOAT16
// operands, both handled) has only version 1.
void RegisterExtraKernels(MutableOpResolver* resolver) {
  using namespace kernels;  // NOLINT(build/namespaces): Register_* only
  resolver->AddBuiltin(kTfLiteBuiltinAddN, Register_ADD_N(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinAtan2, Register_ATAN2(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinCumsum, Register_CUMSUM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinDynamicUpdateSlice, Register_DYNAMIC_UPDATE_SLICE(), 1, 3);
  resolver->AddBuiltin(kTfLiteBuiltinRank, Register_RANK(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinBucketize, Register_BUCKETIZE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinBitwiseXor, Register_BITWISE_XOR(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinRightShift, Register_RIGHT_SHIFT(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinScatterNd, Register_SCATTER_ND(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloComposite, Register_STABLEHLO_COMPOSITE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinUnsortedSegmentSum, Register_UNSORTED_SEGMENT_SUM(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinUnsortedSegmentProd, Register_UNSORTED_SEGMENT_PROD(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinUnsortedSegmentMax, Register_UNSORTED_SEGMENT_MAX(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinUnsortedSegmentMin, Register_UNSORTED_SEGMENT_MIN(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinUnique, Register_UNIQUE(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinEmbeddingLookupSparse, Register_EMBEDDING_LOOKUP_SPARSE(), 1,
                       1);
  resolver->AddBuiltin(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloReduceWindow, Register_STABLEHLO_REDUCE_WINDOW(), 1,
                       1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloGather, Register_STABLEHLO_GATHER(), 1, 1);
  resolver->AddBuiltin(kTfLiteBuiltinStablehloScatter, Register_STABLEHLO_SCATTER(), 1, 1);
}

}  // namespace tflite_c

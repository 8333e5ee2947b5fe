// Small helpers shared by the index and data-movement kernels (squeeze,
// expand_dims, split, cast, shape, where, ...).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_INDEX_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_INDEX_UTIL_H_

#include <cstddef>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// The tensors of a one-input, one-output op (checking the arity).
TfLiteStatus GetUnaryTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                             const TfLiteTensor** input, TfLiteTensor** output);

// GetUnaryTensors for ops that move elements unchanged: the output must
// have the input's type, a fixed-size one.
TfLiteStatus GetMovableUnaryTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    const TfLiteTensor** input, TfLiteTensor** output);

// Reads a one-element integer tensor `what` (input `i`) holding an axis and
// maps it into [0, rank).
TfLiteStatus ReadAxisInput(TfLiteContext* context, TfLiteNode* node, int i, const char* op,
                           int rank, int* axis);

// Checks that `output` has the type of `input`, a fixed-size type whose
// element size it stores in *element_bytes.
TfLiteStatus CheckSameMovableType(TfLiteContext* context, const char* op,
                                  const TfLiteTensor* input, const TfLiteTensor* output,
                                  size_t* element_bytes);

// For ops that fill with a padding_value (DILATE, STABLEHLO_PAD): checks
// that `output` has the type of `input`, a fixed-size type, and that
// `padding` is one element of that type.
TfLiteStatus CheckPaddingValue(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                               const TfLiteTensor* padding, const TfLiteTensor* output);

// The Prepare of a one-gather kernel (axis_gather.h) with `num_inputs`
// inputs: the data, then 1-D INT32 or INT64 parameters (named `params` in
// messages). Plans now when every parameter is constant.
TfLiteStatus PrepareGatherOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                             int num_inputs, const char* params, GatherPlanFn plan);

// The registration of a kernel whose user data is a GatherOpData.
template <TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
          TfLiteStatus (*eval)(TfLiteContext*, TfLiteNode*)>
const TfLiteRegistration* GatherKernelRegistration() {
  return OpDataRegistration<GatherOpData, prepare, eval>();
}

// The registration of a one-gather kernel with the given Prepare and plan.
template <TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*), GatherPlanFn plan>
const TfLiteRegistration* GatherOpRegistration() {
  return GatherKernelRegistration<prepare, EvalGatherOp<plan>>();
}

// Sizes output 0 of a node from its input values.
using ResizeFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*);

// A ResizeFn's usual body: sizes output 0 to the shape held by input `i`
// (an integer tensor, named `what` in messages), refusing negative sizes.
TfLiteStatus ResizeOutputToShapeInput(TfLiteContext* context, TfLiteNode* node, int i,
                                      const char* op, const char* what);

// The end of Prepare for such ops: resizes now when the values are `known`
// (constant), else makes output 0 dynamic, to be sized by ResizeIfDynamic.
TfLiteStatus ResizeOrDefer(TfLiteContext* context, TfLiteNode* node, bool known, ResizeFn resize);
// The start of their Eval.
TfLiteStatus ResizeIfDynamic(TfLiteContext* context, TfLiteNode* node, ResizeFn resize);

// Reports a tensor `what` of rank above kMaxLayoutRank.
TfLiteStatus CheckLayoutRank(TfLiteContext* context, const char* op, const char* what,
                             const TfLiteTensor* t);

// Eval of ops whose output holds the input's bytes unchanged (reshapes).
TfLiteStatus CopyInputBytes(TfLiteContext* context, TfLiteNode* node);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_INDEX_UTIL_H_

// Moving data between one tensor and several pieces cut along one axis: the
// common core of SPLIT, SPLIT_V, UNPACK (one tensor into pieces) and PACK
// (pieces into one tensor). Viewed as [outer, axis, inner], piece i holds
// the axis positions [sum of sizes before i, + sizes[i]).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_SPLIT_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/scratch_vector.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct AxisPieces {
  int64_t outer = 1;           // product of the dimensions before the axis
  int64_t inner = 1;           // product of the dimensions after it
  internal::ScratchVector<int64_t> sizes;  // axis length of each piece
  size_t element_bytes = 0;
};

// Copies `whole` into pieces[i] (each of outer * sizes[i] * inner elements).
void SplitAxis(const AxisPieces& p, const void* whole, void* const* pieces);
// The inverse: writes `whole` from the pieces.
void JoinAxis(const AxisPieces& p, const void* const* pieces, void* whole);

// ---- kernels that cut input `input_index` into all their outputs -----------

struct SplitOpData {
  int axis = 0;
  bool planned_in_prepare = true;
  AxisPieces pieces;
};

// Checks that every output has the input's type, reports otherwise.
TfLiteStatus CheckOutputTypes(TfLiteContext* context, TfLiteNode* node, const char* op,
                              const TfLiteTensor* input);

// Resizes output i to the input's shape with dimension `axis` set to
// sizes[i] (dropped when `drop_axis`), and fills data->pieces.
TfLiteStatus ResizeSplitOutputs(TfLiteContext* context, TfLiteNode* node,
                                const TfLiteTensor* input, int axis,
                                const std::vector<int64_t>& sizes, bool drop_axis,
                                SplitOpData* data);

// Reads the op's parameters, sizes the outputs and fills data->pieces.
using SplitPlanFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*, SplitOpData*);

// The end of such a kernel's Prepare: plans now when the parameters are
// `known` (constant), else makes the outputs dynamic, leaving it to Eval.
TfLiteStatus FinishSplitPrepare(TfLiteContext* context, TfLiteNode* node, SplitOpData* data,
                                bool known, SplitPlanFn plan);

// Copies input `input_index` into the outputs as planned in data->pieces.
TfLiteStatus RunSplitOp(TfLiteContext* context, TfLiteNode* node, int input_index,
                        const SplitOpData& data);

// Such a kernel's Eval (planning first when Prepare could not); `plan` is
// nullptr for kernels that always plan in Prepare.
template <SplitPlanFn plan, int input_index>
TfLiteStatus EvalSplitOp(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<SplitOpData*>(node->user_data);
  if constexpr (plan != nullptr) {
    if (!data->planned_in_prepare) TF_LITE_ENSURE_OK(context, plan(context, node, data));
  }
  return RunSplitOp(context, node, input_index, *data);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_SPLIT_H_

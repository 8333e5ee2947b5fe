// The common core of the data-movement kernels whose output element at
// (i0, ..., ik) comes from one input element whose offset is a sum of one
// term per output axis: offset = offsets[0][i0] + ... + offsets[k][ik].
// Transposes (a permuted stride), slices (begin + i * stride), tiling and
// broadcasting (i modulo the input size, or 0), mirror padding and
// nearest-neighbour resizing (an index map) are all such gathers, so each of
// those kernels only computes its per-axis tables.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_GATHER_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_GATHER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/scratch_vector.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct AxisGather {
  // offsets[d] has one entry per output index along axis d, in elements.
  internal::ScratchVector<internal::ScratchVector<int64_t>> offsets;

  // An empty gather over `rank` output axes.
  explicit AxisGather(int rank = 0) : offsets(rank) {}

  // Axis d reads input positions `index[i]` of an axis with input stride
  // `stride`.
  void SetAxis(int d, const std::vector<int>& index, int64_t stride);
  // Axis d reads input positions begin, begin + step, ... (`count` of them).
  void SetLinearAxis(int d, int64_t begin, int64_t step, int count, int64_t stride);
};

// Writes every output element (row-major over the axes of `g`) from `input`.
// A rank-0 gather copies one element.
void RunAxisGather(const AxisGather& g, const void* input, void* output, size_t element_bytes);

// ---- kernels that are one gather from input 0 to output 0 -------------------

struct GatherOpData {
  size_t element_bytes = 0;
  bool planned_in_prepare = true;
  AxisGather gather;
};

// Reads the op's parameters, sizes output 0 and fills data->gather.
using GatherPlanFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*, GatherOpData*);

// The end of such a kernel's Prepare: plans now when the parameters are
// `known` (constant), else makes output 0 dynamic and leaves planning to Eval.
TfLiteStatus FinishGatherPrepare(TfLiteContext* context, TfLiteNode* node, GatherOpData* data,
                                 bool known, GatherPlanFn plan);

// Such a kernel's Eval (planning first when Prepare could not).
TfLiteStatus RunGatherOp(TfLiteContext* context, TfLiteNode* node, const GatherOpData& data);

template <GatherPlanFn plan>
TfLiteStatus EvalGatherOp(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<GatherOpData*>(node->user_data);
  if (!data->planned_in_prepare) TF_LITE_ENSURE_OK(context, plan(context, node, data));
  return RunGatherOp(context, node, *data);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_AXIS_GATHER_H_

// The common core of SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, which move
// data between a "space" tensor [batch, s1..sm, rest...] and a "batch"
// tensor [prod(block) * batch, q1..qm, rest...]. Batch-side element
// (k * batch + b, q1..qm) belongs at space position si = qi * block_i + ki -
// before_i, with (k1..km) the row-major digits of k over the block shape;
// positions outside the space tensor are padding (S2B) or cropped (B2S).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_SPACE_BATCH_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_SPACE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct SpaceBatchOpData {
  std::vector<int> block, before;  // per spatial dimension
  size_t element_bytes = 0;
  bool planned_in_prepare = true;
};

// Turns `shape`, a copy of the input's, into the output's, given the
// parameters (data->block, data->before and `after`, per spatial dim).
using SpaceBatchShapeFn = TfLiteStatus (*)(TfLiteContext*, const SpaceBatchOpData& data,
                                           const std::vector<int>& after, TfLiteIntArray* shape);

// The Prepare of both ops: checks arity, types and parameter ranks, then
// resizes now when block_shape and paddings/crops are constant, else makes
// the output dynamic.
TfLiteStatus PrepareSpaceBatchOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                 SpaceBatchShapeFn shape_fn);

// The Eval of both ops (resizing first when Prepare could not): input is
// the space side and output the batch side when `to_batch`, else the
// reverse. Padding holds the input's zero point.
TfLiteStatus EvalSpaceBatchOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                              bool to_batch, SpaceBatchShapeFn shape_fn);

// The registration of SPACE_TO_BATCH_ND (`to_batch`) or BATCH_TO_SPACE_ND.
template <const char* op, SpaceBatchShapeFn shape_fn, bool to_batch>
const TfLiteRegistration* SpaceBatchRegistration() {
  static const TfLiteRegistration r = MakeRegistration(
      InitOpData<SpaceBatchOpData>, FreeOpData<SpaceBatchOpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        return PrepareSpaceBatchOp(context, node, op, shape_fn);
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        return EvalSpaceBatchOp(context, node, op, to_batch, shape_fn);
      });
  return &r;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_SPACE_BATCH_H_

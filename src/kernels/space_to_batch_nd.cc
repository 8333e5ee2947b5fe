// SPACE_TO_BATCH_ND (input, block_shape, paddings): pads the m spatial
// dimensions after the batch (paddings [m, 2], before/after) and moves each
// block_shape-sized tile's positions into the batch dimension: output
// [prod(block) * batch, (s_i + pads) / block_i..., rest...]. Padding holds
// zeros (the zero point when quantized). block_shape and paddings are
// INT32; any fixed-size element type. Non-constant block_shape or paddings
// make the output dynamic.
#include <vector>

#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/space_batch.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SPACE_TO_BATCH_ND";

TfLiteStatus OutputShape(TfLiteContext* context, const internal::SpaceBatchOpData& data,
                         const std::vector<int>& after, TfLiteIntArray* shape) {
  for (size_t i = 0; i < data.block.size(); ++i) {
    int padded = 0;
    TF_LITE_ENSURE_OK(context, internal::AddDims(context, kOp, "padded dimension",
                                                 shape->data[i + 1], data.before[i], after[i],
                                                 &padded));
    if (padded % data.block[i] != 0) {
      TF_LITE_KERNEL_LOG(context, "%s: padded size %d of dimension %zu is not a multiple of %d",
                         kOp, padded, i + 1, data.block[i]);
      return kTfLiteError;
    }
    shape->data[i + 1] = padded / data.block[i];
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, kOp, "output batch", shape->data[0],
                                                data.block[i], &shape->data[0]));
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SPACE_TO_BATCH_ND() {
  return internal::SpaceBatchRegistration<kOp, OutputShape, true>();
}

}  // namespace kernels
}  // namespace tflite_c

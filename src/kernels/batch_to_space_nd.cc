// BATCH_TO_SPACE_ND (input, block_shape, crops): the inverse of
// SPACE_TO_BATCH_ND: moves batch groups of prod(block_shape) back into the
// m spatial dimensions after the batch, then crops them (crops [m, 2],
// before/after): output [batch / prod(block), s_i * block_i - crops...,
// rest...]. block_shape and crops are INT32; any fixed-size element type.
// Non-constant block_shape or crops make the output dynamic.
#include <vector>

#include "src/kernels/internal/space_batch.h"
#include "src/kernels/register_layout.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BATCH_TO_SPACE_ND";

TfLiteStatus OutputShape(TfLiteContext* context, const internal::SpaceBatchOpData& data,
                         const std::vector<int>& after, TfLiteIntArray* shape) {
  int64_t blocks = 1;
  for (size_t i = 0; i < data.block.size(); ++i) {
    const int64_t full = static_cast<int64_t>(shape->data[i + 1]) * data.block[i];
    if (data.before[i] + after[i] > full) {
      TF_LITE_KERNEL_LOG(context, "%s: crops of dimension %zu exceed its size %lld", kOp, i + 1,
                         static_cast<long long>(full));
      return kTfLiteError;
    }
    shape->data[i + 1] = static_cast<int>(full - data.before[i] - after[i]);
    blocks *= data.block[i];
  }
  if (shape->data[0] % blocks != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: batch %d is not a multiple of the block count %lld", kOp,
                       shape->data[0], static_cast<long long>(blocks));
    return kTfLiteError;
  }
  shape->data[0] = static_cast<int>(shape->data[0] / blocks);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BATCH_TO_SPACE_ND() {
  return internal::SpaceBatchRegistration<kOp, OutputShape, false>();
}

}  // namespace kernels
}  // namespace tflite_c

// BATCH_TO_SPACE_ND (input, block_shape, crops): the inverse of
// SPACE_TO_BATCH_ND: moves batch groups of prod(block_shape) back into the
// m spatial dimensions after the batch, then crops them (crops [m, 2],
// before/after): output [batch / prod(block), s_i * block_i - crops...,
// rest...]. block_shape and crops are INT32; any fixed-size element type.
// Non-constant block_shape or crops make the output dynamic.
#include <algorithm>
#include <vector>

#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/space_batch.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BATCH_TO_SPACE_ND";

TfLiteStatus OutputShape(TfLiteContext* context, const internal::SpaceBatchOpData& data,
                         const std::vector<int>& after, TfLiteIntArray* shape) {
  int64_t blocks = 1;
  for (size_t i = 0; i < data.block.size(); ++i) {
    int full = 0;
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, kOp, "uncropped dimension",
                                                shape->data[i + 1], data.block[i], &full));
    if (int64_t{data.before[i]} + after[i] > full) {
      TF_LITE_KERNEL_LOG(context, "%s: crops of dimension %zu exceed its size %lld", kOp, i + 1,
                         static_cast<long long>(full));
      return kTfLiteError;
    }
    shape->data[i + 1] = static_cast<int>(full - data.before[i] - after[i]);
    // The batch must be a multiple of every block product, so one beyond
    // INT_MAX is refused by the modulo below either way.
    blocks = std::min<int64_t>(blocks * data.block[i], int64_t{1} << 32);
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

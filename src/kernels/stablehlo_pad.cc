// STABLEHLO_PAD (operand, padding_value; TfLiteStablehloPadParams): places
// operand element i of each axis d at output position
// edge_padding_low[d] + i * (interior_padding[d] + 1); every other output
// element is padding_value. Axis d of size s becomes
// (s - 1) * (interior + 1) + 1 + low + high. Negative edge padding crops
// (elements landing before 0 or past the end are dropped). Any fixed-size
// element type, rank 1 to 8, as upstream.
//
// Like upstream: interior padding must be >= 0; when any output axis comes
// out <= 0 the output is empty with every axis 0.
#include <cstdint>

#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STABLEHLO_PAD";

struct OpData {
  int64_t offset[internal::kMaxLayoutRank];
  int64_t step[internal::kMaxLayoutRank];
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* p = static_cast<const TfLiteStablehloPadParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *padding;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &padding));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckPaddingValue(context, kOp, input, padding, output));
  const int rank = internal::NumDims(input);
  if (rank < 1 || rank > TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT) {
    TF_LITE_KERNEL_LOG(context, "%s: input rank %d is outside [1, %d]", kOp, rank,
                       TFLITE_STABLEHLO_PAD_PARAMS_MAX_DIMENSION_COUNT);
    return kTfLiteError;
  }
  int out[internal::kMaxLayoutRank];
  bool empty = false;
  for (int i = 0; i < rank; ++i) {
    const int64_t interior = p->interior_padding[i];
    if (interior < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: interior padding %lld of axis %d is negative", kOp,
                         static_cast<long long>(interior), i);
      return kTfLiteError;
    }
    // (s - 1) * (interior + 1) + 1 + low + high, each step checked.
    int64_t size;
    if (__builtin_add_overflow(interior, 1, &d->step[i]) ||
        !internal::SpreadExtent(internal::Dim(input, i), d->step[i], &size) ||
        !internal::AddEdges(size, p->edge_padding_low[i], p->edge_padding_high[i], &size) ||
        size > INT32_MAX) {
      TF_LITE_KERNEL_LOG(context, "%s: padded axis %d is too large", kOp, i);
      return kTfLiteError;
    }
    d->offset[i] = p->edge_padding_low[i];
    empty = empty || size <= 0;
    out[i] = static_cast<int>(size);
  }
  if (empty) {
    for (int i = 0; i < rank; ++i) out[i] = 0;
  }
  return context->ResizeTensor(context, output, internal::MakeIntArray(out, rank).release());
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* d = static_cast<const OpData*>(node->user_data);
  internal::SpreadElements(internal::InputAt(context, node, 0), d->offset, d->step,
                           internal::InputAt(context, node, 1)->data.raw_const,
                           internal::OutputAt(context, node, 0));
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_PAD() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// SPLIT_V (input, size_splits, axis): cuts the input along `axis` into
// pieces of the given sizes, one per output; one size may be -1 (the rest).
// size_splits is 1-D INT32 or INT64, axis a scalar INT32 (negative counts
// from the end). Any fixed-size element type, quantized values unchanged.
// Non-constant size_splits or axis make the outputs dynamic.
#include <vector>

#include "src/kernels/internal/axis_split.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SPLIT_V";

// Resolves a -1 entry and checks the sizes add up to `total`.
TfLiteStatus ResolveSizes(TfLiteContext* context, int64_t total, std::vector<int64_t>* sizes) {
  int unknown = -1;
  int64_t known = 0;
  for (size_t i = 0; i < sizes->size(); ++i) {
    const int64_t s = (*sizes)[i];
    if (s == -1 && unknown == -1) {
      unknown = static_cast<int>(i);
    } else if (s < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: invalid size_splits entry %lld", kOp,
                         static_cast<long long>(s));
      return kTfLiteError;
    } else {
      known += s;
    }
  }
  if (unknown >= 0 && known <= total) (*sizes)[unknown] = total - known;
  if ((unknown >= 0 && known > total) || (unknown < 0 && known != total)) {
    TF_LITE_KERNEL_LOG(context, "%s: size_splits add up to %lld, the dimension has %lld", kOp,
                       static_cast<long long>(known), static_cast<long long>(total));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::SplitOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  std::vector<int64_t> sizes;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "size_splits",
                                                     internal::InputAt(context, node, 1), &sizes));
  if (static_cast<int>(sizes.size()) != internal::NumOutputs(node)) {
    TF_LITE_KERNEL_LOG(context, "%s: need %d size_splits, have %zu", kOp,
                       internal::NumOutputs(node), sizes.size());
    return kTfLiteError;
  }
  int a;
  TF_LITE_ENSURE_OK(context,
                    internal::ReadAxisInput(context, node, 2, kOp, internal::NumDims(input), &a));
  TF_LITE_ENSURE_OK(context, ResolveSizes(context, internal::Dim(input, a), &sizes));
  return internal::ResizeSplitOutputs(context, node, input, a, sizes, false, data);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::SplitOpData*>(node->user_data);
  const int n = internal::NumOutputs(node);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, n < 1 ? 1 : n));
  const TfLiteTensor *input, *sizes, *axis;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &sizes));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &axis));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "axis", axis, kTfLiteInt32));
  if (sizes->type != kTfLiteInt32 && sizes->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "size_splits", sizes->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->pieces.element_bytes));
  TF_LITE_ENSURE_OK(context, internal::CheckOutputTypes(context, node, kOp, input));
  const bool known =
      internal::IsConstantOrPersistent(sizes) && internal::IsConstantOrPersistent(axis);
  return internal::FinishSplitPrepare(context, node, data, known, Plan);
}

}  // namespace

const TfLiteRegistration* Register_SPLIT_V() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::SplitOpData>, internal::FreeOpData<internal::SplitOpData>,
      Prepare, internal::EvalSplitOp<Plan, 0>);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

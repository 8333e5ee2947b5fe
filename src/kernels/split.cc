// SPLIT (axis, input): cuts the input into num_splits equal pieces along
// `axis` (a scalar INT32, negative counts from the end), one per output.
// FLOAT32, INT8/16/32/64, UINT8 (quantized values move unchanged) and any
// other fixed-size type. A non-constant axis makes the outputs dynamic.
#include <vector>

#include "src/kernels/internal/axis_split.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SPLIT";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::SplitOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 1);
  int a;
  TF_LITE_ENSURE_OK(context,
                    internal::ReadAxisInput(context, node, 0, kOp, internal::NumDims(input), &a));
  const int n = internal::NumOutputs(node);
  if (internal::Dim(input, a) % n != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: dimension %d of size %d does not split into %d equal pieces",
                       kOp, a, internal::Dim(input, a), n);
    return kTfLiteError;
  }
  const std::vector<int64_t> sizes(n, internal::Dim(input, a) / n);
  return internal::ResizeSplitOutputs(context, node, input, a, sizes, false, data);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::SplitOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteSplitParams*>(node->builtin_data);
  const int n = internal::NumOutputs(node);
  if (n < 1 || params->num_splits != n) {
    TF_LITE_KERNEL_LOG(context, "%s: num_splits %d does not match the %d outputs", kOp,
                       params->num_splits, n);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, n));
  const TfLiteTensor *axis, *input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &axis));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "axis", axis, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->pieces.element_bytes));
  TF_LITE_ENSURE_OK(context, internal::CheckOutputTypes(context, node, kOp, input));
  return internal::FinishSplitPrepare(context, node, data, internal::IsConstantOrPersistent(axis),
                                      Plan);
}

}  // namespace

const TfLiteRegistration* Register_SPLIT() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::SplitOpData>, internal::FreeOpData<internal::SplitOpData>,
      Prepare, internal::EvalSplitOp<Plan, 1>);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

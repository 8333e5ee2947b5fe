// UNPACK (input): splits the input along `axis` (negative counts from the
// end) into its `num` slices, one per output, each without that dimension.
// Any fixed-size element type; quantized outputs must share the input's
// scale and zero point (values move unchanged).
#include <vector>

#include "src/kernels/internal/axis_split.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "UNPACK";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::SplitOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  const int n = internal::NumOutputs(node);
  if (params->num != n || n < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: num %d does not match the %d outputs", kOp, params->num, n);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, n));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->pieces.element_bytes));
  TF_LITE_ENSURE_OK(context, internal::CheckOutputTypes(context, node, kOp, input));
  int axis;
  TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, params->axis,
                                                     internal::NumDims(input), &axis));
  if (internal::Dim(input, axis) != n) {
    TF_LITE_KERNEL_LOG(context, "%s: dimension %d has size %d, expected num = %d", kOp, axis,
                       internal::Dim(input, axis), n);
    return kTfLiteError;
  }
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* output = internal::OutputAt(context, node, i);
    if (output->params.scale != input->params.scale ||
        output->params.zero_point != input->params.zero_point) {
      TF_LITE_KERNEL_LOG(context, "%s: output %d quantization differs from the input's", kOp, i);
      return kTfLiteError;
    }
  }
  const std::vector<int64_t> sizes(n, 1);
  return internal::ResizeSplitOutputs(context, node, input, axis, sizes, true, data);
}

}  // namespace

const TfLiteRegistration* Register_UNPACK() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::SplitOpData>, internal::FreeOpData<internal::SplitOpData>,
      Prepare, internal::EvalSplitOp<nullptr, 0>);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

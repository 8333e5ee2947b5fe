// PACK (values_count inputs of one shape): stacks them along a new
// dimension `axis` of the output (negative counts from the end of the
// output's rank). Any fixed-size element type; quantized inputs must share
// the output's scale and zero point (values move unchanged).
#include <vector>

#include "src/kernels/internal/axis_split.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "PACK";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::AxisPieces*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  const int n = internal::NumInputs(node);
  if (params->values_count != n || n < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: values_count %d does not match the %d inputs", kOp,
                       params->values_count, n);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, n, n, 1));
  const TfLiteTensor* input0;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input0));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input0->type,
                                                       &data->element_bytes));
  if (output->type != input0->type) {
    return internal::TypeMismatch(context, kOp, "input", input0->type, "output", output->type);
  }
  const int rank = internal::NumDims(input0);
  int axis;
  TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, params->axis, rank + 1, &axis));
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* input;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &input));
    if (input->type != input0->type || !internal::SameShape(input->dims, input0->dims)) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d differs from input 0 in type or shape", kOp, i);
      return kTfLiteError;
    }
    if (input->params.scale != output->params.scale ||
        input->params.zero_point != output->params.zero_point) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d quantization differs from the output's", kOp, i);
      return kTfLiteError;
    }
  }
  data->outer = internal::DimsProduct(input0->dims, 0, axis);
  data->inner = internal::DimsProduct(input0->dims, axis, rank);
  data->sizes.assign(n, 1);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank + 1));
  for (int d = 0, i = 0; d <= rank; ++d) {
    shape->data[d] = d == axis ? n : internal::Dim(input0, i++);
  }
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const internal::AxisPieces*>(node->user_data);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::NumElements(output) == 0) return kTfLiteOk;
  std::vector<const void*> pieces(internal::NumInputs(node));
  for (size_t i = 0; i < pieces.size(); ++i) {
    pieces[i] = internal::InputAt(context, node, static_cast<int>(i))->data.raw;
  }
  internal::JoinAxis(data, pieces.data(), output->data.raw);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_PACK() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::AxisPieces>, internal::FreeOpData<internal::AxisPieces>,
      Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// FILL (dims, value): a tensor of shape `dims` (1-D INT32 or INT64) whose
// every element is the scalar `value`; the output has the value's type (any
// fixed-size type; quantized values must share the output's quantization; or
// STRING, whose output is dynamic and built at Eval). Non-constant dims make
// the output dynamic.

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/string_gather.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "FILL";

TfLiteStatus ResizeFromDims(TfLiteContext* context, TfLiteNode* node) {
  return internal::ResizeOutputToShapeInput(context, node, 0, kOp, "dims");
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *dims, *value;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &dims));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &value));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if ((dims->type != kTfLiteInt32 && dims->type != kTfLiteInt64) || internal::NumDims(dims) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: dims must be a 1-D INT32 or INT64 tensor", kOp);
    return kTfLiteError;
  }
  if (internal::NumElements(value) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: value must be a scalar", kOp);
    return kTfLiteError;
  }
  if (output->type != value->type) {
    return internal::TypeMismatch(context, kOp, "value", value->type, "output", output->type);
  }
  if (value->type == kTfLiteString) {
    TF_LITE_ENSURE_OK(context, internal::ResizeOrDefer(context, node,
                                                       internal::IsConstantOrPersistent(dims),
                                                       ResizeFromDims));
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  size_t element_bytes;
  TF_LITE_ENSURE_OK(context,
                    internal::GetElementBytes(context, kOp, "value", value->type, &element_bytes));
  if (value->params.scale != output->params.scale ||
      value->params.zero_point != output->params.zero_point) {
    TF_LITE_KERNEL_LOG(context, "%s: value quantization differs from the output's", kOp);
    return kTfLiteError;
  }
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(dims),
                                 ResizeFromDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* value = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (value->type == kTfLiteString) {
    // The shape comes from dims on every run: the output is always dynamic.
    TF_LITE_ENSURE_OK(context, ResizeFromDims(context, node));
    TF_LITE_ENSURE_OK(context, internal::CheckStringTensor(context, kOp, "value", value));
    return internal::WriteStrings(context, kOp, value, nullptr, internal::NumElements(output),
                                  output->dims, output);
  }
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeFromDims));
  internal::FillElements(output->data.raw, internal::NumElements(output), value->data.raw,
                         internal::ElementBytes(value->type));
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_FILL() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

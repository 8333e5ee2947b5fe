// SHAPE: the input's dimensions as a 1-D tensor of out_type (INT32 or
// INT64). Any input type.
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SHAPE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetUnaryTensors(context, node, kOp, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  // Without an options table out_type is NOTYPE, refused as upstream does.
  const TfLiteType out_type = static_cast<const TfLiteShapeParams*>(node->builtin_data)->out_type;
  if (out_type != kTfLiteInt32 && out_type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "out_type", out_type);
  }
  if (output->type != out_type) {
    return internal::TypeMismatch(context, kOp, "out_type", out_type, "output", output->type);
  }
  return internal::ResizeOutput(context, output, {internal::NumDims(input)});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  for (int d = 0; d < internal::NumDims(input); ++d) {
    if (output->type == kTfLiteInt64) {
      output->data.i64[d] = internal::Dim(input, d);
    } else {
      output->data.i32[d] = internal::Dim(input, d);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SHAPE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

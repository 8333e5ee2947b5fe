#include "src/kernels/internal/elementwise_unary.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareUnaryFloatOp(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  if (input->type != kTfLiteFloat32) return UnsupportedType(context, op, "input", input->type);
  if (output->type != input->type) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  return ResizeOutputLike(context, output, input->dims);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// RANK (input): the number of dimensions of input, as an INT32 scalar.
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "RANK";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteInt32));
  return internal::ResizeOutput(context, output, {});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  internal::OutputAt(context, node, 0)->data.i32[0] =
      internal::NumDims(internal::InputAt(context, node, 0));
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RANK() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

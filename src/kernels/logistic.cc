// LOGISTIC: out = 1 / (1 + exp(-x)). FLOAT32.
#include <Eigen/Core>

#include "src/kernels/internal/unary_op.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "LOGISTIC";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return internal::PrepareUnaryFloatOp(context, node, kOp);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const Eigen::Index n = internal::NumElements(input);
  // Eigen's float logistic (a rational approximation, exp() below -9) is what
  // upstream's default kernel evaluates, so using it keeps results identical
  // rather than merely close.
  Eigen::Map<Eigen::ArrayXf>(output->data.f, n) =
      Eigen::Map<const Eigen::ArrayXf>(input->data.f, n).logistic();
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_LOGISTIC() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

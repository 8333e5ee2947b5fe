// LOGISTIC: out = 1 / (1 + exp(-x)). FLOAT32; INT8 and UINT8 through a
// 256-entry table (the output scale must be 1/256, as upstream requires);
// INT16 with zero points 0 and output scale 2^-15 (int16_activation.h).
#include <Eigen/Core>
#include <cmath>

#include "src/kernels/internal/int16_activation.h"
#include "src/kernels/internal/lut8_op.h"
#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "LOGISTIC";

float Sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

struct OpData {
  internal::Lut8Data lut8;
  internal::Int16ActivationData int16;
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* op_data = static_cast<OpData*>(node->user_data);
  auto* data = &op_data->lut8;
  TF_LITE_ENSURE_OK(context, internal::PrepareLut8(context, node, kOp, Sigmoid, 1.0f / 256, data));
  if (data->active) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, internal::PrepareInt16Activation(
                                 context, node, kOp, internal::Int16Activation::kLogistic,
                                 &op_data->int16));
  if (op_data->int16.active) return kTfLiteOk;
  return internal::PrepareUnaryFloatOp(context, node, kOp);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const auto& op_data = *static_cast<const OpData*>(node->user_data);
  const auto& data = op_data.lut8;
  if (op_data.int16.active) {
    internal::EvalInt16Activation(input, output, op_data.int16);
    return kTfLiteOk;
  }
  if (data.active) {
    internal::EvalLut8(input, output, data);
    return kTfLiteOk;
  }
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
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// LOGISTIC: out = 1 / (1 + exp(-x)). FLOAT32; INT8 and UINT8 through a
// 256-entry table built in Prepare (the output scale must be 1/256, as
// upstream requires).
#include <Eigen/Core>
#include <cmath>

#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/unary_op.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "LOGISTIC";

struct OpData {
  int8_t lut_int8[internal::kLut8Size];
  uint8_t lut_uint8[internal::kLut8Size];
};

float Sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTensor* input,
                              TfLiteTensor* output, OpData* data) {
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  internal::QuantParams in_q, out_q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input", input, &in_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output", output, &out_q));
  if (output->params.scale != 1.0f / 256) {
    TF_LITE_KERNEL_LOG(context, "%s: quantized output scale must be 1/256, got %g", kOp,
                       output->params.scale);
    return kTfLiteError;
  }
  const internal::QuantParams in{input->params.scale, input->params.zero_point};
  const internal::QuantParams out{output->params.scale, output->params.zero_point};
  if (input->type == kTfLiteInt8) {
    internal::PopulateLut8<int8_t>(in, out, Sigmoid, data->lut_int8);
  } else {
    internal::PopulateLut8<uint8_t>(in, out, Sigmoid, data->lut_uint8);
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::GetOptionalInput(context, node, 0);
  if (input != nullptr && (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8)) {
    TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 1));
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
    return PrepareQuantized(context, input, output, static_cast<OpData*>(node->user_data));
  }
  return internal::PrepareUnaryFloatOp(context, node, kOp);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const Eigen::Index n = internal::NumElements(input);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  if (input->type == kTfLiteInt8) {
    internal::ApplyLut(input->data.int8, n, data.lut_int8, output->data.int8);
    return kTfLiteOk;
  }
  if (input->type == kTfLiteUInt8) {
    internal::ApplyLut(input->data.uint8, n, data.lut_uint8, output->data.uint8);
    return kTfLiteOk;
  }
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

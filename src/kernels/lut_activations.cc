// Activations whose quantized forms are tables:
//   TANH    FLOAT32; INT8/UINT8 through a 256-entry table; INT16 in
//           upstream's fixed point or interpolated table (int16_activation.h)
//   ELU, GELU (params.approximate selects the tanh form)
//           FLOAT32; INT8/UINT8 through a 256-entry table, as upstream
#include <cmath>

#include "src/kernels/internal/int16_activation.h"
#include "src/kernels/internal/lut8_op.h"
#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register_elementwise.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

// ---- float forms ----------------------------------------------------------------

struct TanhOp {
  static constexpr const char* kName = "TANH";
  float operator()(float x) const { return std::tanh(x); }
};
struct EluOp {
  static constexpr const char* kName = "ELU";
  float operator()(float x) const { return x < 0.0f ? std::expm1(x) : x; }
};

// ---- GELU -------------------------------------------------------------------------

constexpr char kGelu[] = "GELU";

// The functions upstream tabulates for quantized GELU (erfc form, which
// avoids cancellation for large negative inputs) and ELU.
float GeluExact(float x) { return 0.5f * x * std::erfc(x * -0.70710678118654752f); }
float GeluTanh(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}
float EluFloat(float x) { return x < 0.0f ? std::expm1(x) : x; }

TfLiteStatus GeluPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::Lut8Data*>(node->user_data);
  const auto* params = static_cast<const TfLiteGeluParams*>(node->builtin_data);
  const bool approximate = params != nullptr && params->approximate;
  TF_LITE_ENSURE_OK(context, internal::PrepareLut8(context, node, kGelu,
                                                   approximate ? GeluTanh : GeluExact, 0.0f, data));
  if (data->active) return kTfLiteOk;
  return internal::PrepareUnaryFloatOp(context, node, kGelu);
}

TfLiteStatus EluPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::Lut8Data*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::PrepareLut8(context, node, EluOp::kName, EluFloat, 0.0f, data));
  if (data->active) return kTfLiteOk;
  return internal::PrepareUnaryFloatOp(context, node, EluOp::kName);
}

TfLiteStatus EluEval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const internal::Lut8Data*>(node->user_data);
  if (!data.active) return internal::EvalUnaryFloatOp(context, node, EluOp());
  internal::EvalLut8(internal::InputAt(context, node, 0), internal::OutputAt(context, node, 0),
                     data);
  return kTfLiteOk;
}

TfLiteStatus GeluEval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const internal::Lut8Data*>(node->user_data);
  if (data.active) {
    internal::EvalLut8(internal::InputAt(context, node, 0), internal::OutputAt(context, node, 0),
                       data);
    return kTfLiteOk;
  }
  const auto* params = static_cast<const TfLiteGeluParams*>(node->builtin_data);
  if (params != nullptr && params->approximate) {
    return internal::EvalUnaryFloatOp(context, node, [](float x) {
      constexpr float kSqrt2OverPi = 0.7978845608028654f;
      return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
    });
  }
  return internal::EvalUnaryFloatOp(
      context, node, [](float x) { return 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f)); });
}

// ---- TANH: INT8/UINT8 through a table, else float --------------------------------

float Tanh(float x) { return std::tanh(x); }

struct TanhData {
  internal::Lut8Data lut8;
  internal::Int16ActivationData int16;
};

TfLiteStatus TanhPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* tanh_data = static_cast<TanhData*>(node->user_data);
  auto* data = &tanh_data->lut8;
  TF_LITE_ENSURE_OK(context, internal::PrepareLut8(context, node, TanhOp::kName, Tanh, 0.0f, data));
  if (data->active) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, internal::PrepareInt16Activation(context, node, TanhOp::kName,
                                                              internal::Int16Activation::kTanh,
                                                              &tanh_data->int16));
  if (tanh_data->int16.active) return kTfLiteOk;
  return internal::PrepareUnaryFloatOp(context, node, TanhOp::kName);
}

TfLiteStatus TanhEval(TfLiteContext* context, TfLiteNode* node) {
  const auto& tanh_data = *static_cast<const TanhData*>(node->user_data);
  const auto& data = tanh_data.lut8;
  if (tanh_data.int16.active) {
    internal::EvalInt16Activation(internal::InputAt(context, node, 0),
                                  internal::OutputAt(context, node, 0), tanh_data.int16);
    return kTfLiteOk;
  }
  if (!data.active) return internal::EvalUnaryFloatOp(context, node, TanhOp());
  internal::EvalLut8(internal::InputAt(context, node, 0), internal::OutputAt(context, node, 0),
                     data);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_TANH() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<TanhData>, internal::FreeOpData<TanhData>, TanhPrepare, TanhEval);
  return &r;
}

const TfLiteRegistration* Register_ELU() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::Lut8Data>, internal::FreeOpData<internal::Lut8Data>,
      EluPrepare, EluEval);
  return &r;
}

const TfLiteRegistration* Register_GELU() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<internal::Lut8Data>, internal::FreeOpData<internal::Lut8Data>,
      GeluPrepare, GeluEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

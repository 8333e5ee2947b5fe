// Activations whose quantized forms are tables:
//   TANH    FLOAT32; INT8/UINT8 through a 256-entry table; INT16 in
//           upstream's fixed point or interpolated table (int16_activation.h)
//   ELU, GELU (params.approximate selects the tanh form)
//           FLOAT32; INT8/UINT8 through a 256-entry table, as upstream
#include <cmath>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/internal/int16_activation.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::MapUnary;
using internal::TypeSet;
using internal::UnaryOpData;
using internal::UnaryPath;

// The table of an INT8 or UINT8 input (the scaffold applies it).
template <typename Fn>
TfLiteStatus PrepareLut8(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                         const TfLiteTensor* output, Fn fn, UnaryOpData* data) {
  TF_LITE_ENSURE_OK(context, internal::ReadUnaryQuantParams(context, op, input, output, data));
  internal::BuildUnaryLut(input->type, fn, data);
  return kTfLiteOk;
}

// ---- ELU ---------------------------------------------------------------------------

float Elu(float x) { return x < 0.0f ? std::expm1(x) : x; }

struct EluOp {
  static constexpr const char* kName = "ELU";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8};
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, UnaryOpData* data) {
    if (data->path == UnaryPath::kFloat) return kTfLiteOk;
    return PrepareLut8(context, kName, input, output, Elu, data);
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    return MapUnary<float>(context, node, Elu);
  }
};

// ---- GELU --------------------------------------------------------------------------

// The functions upstream tabulates for quantized GELU (erfc form, which
// avoids cancellation for large negative inputs).
float GeluExact(float x) { return 0.5f * x * std::erfc(x * -0.70710678118654752f); }
float GeluTanh(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}
// The float kernel's exact form (erf).
float GeluErf(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f)); }

bool Approximate(const TfLiteNode* node) {
  return static_cast<const TfLiteGeluParams*>(node->builtin_data)->approximate;
}

struct GeluOp {
  static constexpr const char* kName = "GELU";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8};
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                              TfLiteTensor* output, UnaryOpData* data) {
    TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kName));
    if (data->path == UnaryPath::kFloat) return kTfLiteOk;
    return PrepareLut8(context, kName, input, output, Approximate(node) ? GeluTanh : GeluExact,
                       data);
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    if (Approximate(node)) {
      return MapUnary<float>(context, node, [](float x) { return GeluTanh(x); });
    }
    return MapUnary<float>(context, node, [](float x) { return GeluErf(x); });
  }
};

// ---- TANH --------------------------------------------------------------------------

float Tanh(float x) { return std::tanh(x); }

// Paths: kFloat; kLut (INT8, UINT8); kQuantized (INT16, int16_activation.h).
struct TanhOp {
  static constexpr const char* kName = "TANH";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16};
  struct Data : UnaryOpData {
    internal::Int16ActivationData int16;
  };
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* data) {
    if (data->path == UnaryPath::kFloat) return kTfLiteOk;
    if (input->type == kTfLiteInt16) {
      data->path = UnaryPath::kQuantized;
      return internal::PrepareInt16Activation(context, node, kName,
                                              internal::Int16Activation::kTanh, &data->int16);
    }
    return PrepareLut8(context, kName, input, output, Tanh, data);
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    if (data.path == UnaryPath::kFloat) return MapUnary<float>(context, node, Tanh);
    internal::EvalInt16Activation(internal::InputAt(context, node, 0),
                                  internal::OutputAt(context, node, 0), data.int16);
    return kTfLiteOk;
  }
};

}  // namespace

const TfLiteRegistration* Register_TANH() { return internal::RegisterUnaryOp<TanhOp>(); }
const TfLiteRegistration* Register_ELU() { return internal::RegisterUnaryOp<EluOp>(); }
const TfLiteRegistration* Register_GELU() { return internal::RegisterUnaryOp<GeluOp>(); }

}  // namespace kernels
}  // namespace tflite_c

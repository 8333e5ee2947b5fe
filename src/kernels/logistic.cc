// LOGISTIC: out = 1 / (1 + exp(-x)). FLOAT32; INT8 and UINT8 through a
// 256-entry table (the output scale must be 1/256, as upstream requires);
// INT16 with zero points 0 and output scale 2^-15 (int16_activation.h).
#include <Eigen/Core>
#include <cmath>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/internal/int16_activation.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::UnaryOpData;
using internal::UnaryPath;

float Sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// Paths: kFloat; kLut (INT8, UINT8); kQuantized (INT16, int16_activation.h).
struct LogisticOp {
  static constexpr const char* kName = "LOGISTIC";
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8,
                                               kTfLiteInt16};
  static constexpr float kOutputScale8 = 1.0f / 256;
  struct Data : UnaryOpData {
    internal::Int16ActivationData int16;
  };

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* data) {
    if (input->type == kTfLiteFloat32) return kTfLiteOk;
    if (input->type == kTfLiteInt16) {
      data->path = UnaryPath::kQuantized;
      return internal::PrepareInt16Activation(context, node, kName,
                                              internal::Int16Activation::kLogistic, &data->int16);
    }
    TF_LITE_ENSURE_OK(context, internal::ReadUnaryQuantParams(context, kName, input, output, data));
    if (output->params.scale != kOutputScale8) {
      TF_LITE_KERNEL_LOG(context, "%s: quantized output scale must be %g, got %g", kName,
                         kOutputScale8, output->params.scale);
      return kTfLiteError;
    }
    internal::BuildUnaryLut(input->type, Sigmoid, data);
    return kTfLiteOk;
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    const TfLiteTensor* input = internal::InputAt(context, node, 0);
    TfLiteTensor* output = internal::OutputAt(context, node, 0);
    if (data.path == UnaryPath::kQuantized) {
      internal::EvalInt16Activation(input, output, data.int16);
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
};

}  // namespace

const TfLiteRegistration* Register_LOGISTIC() { return internal::RegisterUnaryOp<LogisticOp>(); }

}  // namespace kernels
}  // namespace tflite_c

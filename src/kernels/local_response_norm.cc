// LOCAL_RESPONSE_NORMALIZATION: FLOAT32 input of rank 4 (NHWC). Along the
// last dimension, each element is divided by a power of the weighted sum of
// squares of its neighbours:
//   out[c] = in[c] * (bias + alpha * sum(in[k]^2, |k - c| <= radius))^-beta
// The window includes both ends (2 * radius + 1 channels, clipped to the
// row), as in upstream's default kernel and TensorFlow's definition.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "LOCAL_RESPONSE_NORMALIZATION";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteLocalResponseNormParams*>(node->builtin_data);
  if (params->radius < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: radius %d is negative", kOp, params->radius);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::PrepareUnaryOp(context, node, kOp, {kTfLiteFloat32}));
  const int rank = internal::NumDims(internal::InputAt(context, node, 0));
  if (rank != 4) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be 4-D, got rank %d", kOp, rank);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteLocalResponseNormParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int64_t depth = internal::Dim(input, 3);
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = internal::NumElements(input) / depth;
  const int64_t radius = params.radius;
  // prefix[k] = alpha * (in[0]^2 + ... + in[k-1]^2), in double so that a
  // window sum (a difference of two prefixes) keeps float precision.
  std::vector<double> prefix(depth + 1);
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = input->data.f + r * depth;
    float* out = output->data.f + r * depth;
    prefix[0] = 0.0;
    for (int64_t c = 0; c < depth; ++c) {
      prefix[c + 1] = prefix[c] + static_cast<double>(params.alpha * in[c] * in[c]);
    }
    for (int64_t c = 0; c < depth; ++c) {
      const int64_t begin = std::max<int64_t>(0, c - radius);
      const int64_t end = std::min<int64_t>(depth, c + radius + 1);
      const float scale = params.bias + static_cast<float>(prefix[end] - prefix[begin]);
      out[c] = in[c] * std::pow(scale, -params.beta);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

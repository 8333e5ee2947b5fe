// SOFTMAX over the last dimension: out = exp(beta * (x - max)) / sum(...).
// FLOAT32, any rank >= 1.
#include <Eigen/Core>

#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/unary_op.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SOFTMAX";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::PrepareUnaryFloatOp(context, node, kOp));
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kOp);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  const float beta = params ? params->beta : 1.0f;
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = internal::NumElements(input) / depth;
  const float* in = input->data.f;
  float* out = output->data.f;

  auto run_rows = [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      Eigen::Map<const Eigen::ArrayXf> x(in + r * depth, depth);
      Eigen::Map<Eigen::ArrayXf> y(out + r * depth, depth);
      // Subtracting the max keeps exp() from overflowing.
      y = ((x - x.maxCoeff()) * beta).exp();
      y *= 1.0f / y.sum();
    }
  };
  // exp() dominates; count it as ~16 multiply-adds per element.
  const int threads = internal::ThreadsForWork(internal::KernelThreads(context), rows * depth * 16);
  internal::ParallelFor(threads, rows, run_rows);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SOFTMAX() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

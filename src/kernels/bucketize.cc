// BUCKETIZE (input) with params.boundaries (sorted floats): for each element,
// the number of boundaries <= it, as INT32. Input FLOAT32, FLOAT64, INT32 or
// INT64 (compared as double against the float boundaries).
#include <algorithm>
#include <cstdint>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BUCKETIZE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteBucketizeParams*>(node->builtin_data);
  if (params->num_boundaries < 0 || (params->num_boundaries > 0 && params->boundaries == nullptr)) {
    TF_LITE_KERNEL_LOG(context, "%s: missing boundaries", kOp);
    return kTfLiteError;
  }
  if (!std::is_sorted(params->boundaries, params->boundaries + params->num_boundaries)) {
    TF_LITE_KERNEL_LOG(context, "%s: boundaries must be sorted", kOp);
    return kTfLiteError;
  }
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(input->type, {kTfLiteFloat32, kTfLiteFloat64, kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteInt32));
  return internal::ResizeOutputLike(context, output, input->dims);
}

template <typename T>
void Bucketize(const T* in, int64_t n, const float* b, int nb, int32_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(in[i]);
    out[i] = static_cast<int32_t>(
        std::upper_bound(b, b + nb, v, [](double x, float y) { return x < y; }) - b);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteBucketizeParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  int32_t* out = internal::OutputAt(context, node, 0)->data.i32;
  const int64_t n = internal::NumElements(input);
  const float* b = params->boundaries;
  const int nb = params->num_boundaries;
  switch (input->type) {
    case kTfLiteFloat32: Bucketize(input->data.f, n, b, nb, out); break;
    case kTfLiteFloat64: Bucketize(input->data.f64, n, b, nb, out); break;
    case kTfLiteInt32: Bucketize(input->data.i32, n, b, nb, out); break;
    default: Bucketize(input->data.i64, n, b, nb, out); break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BUCKETIZE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

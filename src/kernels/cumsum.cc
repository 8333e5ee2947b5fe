// CUMSUM (input, axis): running sums along `axis` (a one-element INT32
// tensor in [-rank, rank)). `exclusive` leaves the current element out of its
// sum (the first sum is 0); `reverse` runs from the end of the axis. FLOAT32,
// INT32 and INT64 (integer sums wrap around on overflow).
#include <cstdint>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "CUMSUM";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &axis));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(input->type, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "axis", axis, kTfLiteInt32));
  if (internal::NumElements(axis) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: axis must have exactly one element", kOp);
    return kTfLiteError;
  }
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have at least one dimension", kOp);
    return kTfLiteError;
  }
  if (internal::IsConstantOrPersistent(axis)) {
    int normalized;
    TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, axis->data.i32[0],
                                                       internal::NumDims(input), &normalized));
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

template <typename T>
void CumSum(const T* in, T* out, int64_t outer, int64_t n, int64_t inner, bool exclusive,
            bool reverse) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      T acc = T(0);
      for (int64_t k = 0; k < n; ++k) {
        const int64_t pos = base + (reverse ? n - 1 - k : k) * inner;
        if (exclusive) {
          out[pos] = acc;
          acc = internal::WrappingAdd(acc, in[pos]);
        } else {
          acc = internal::WrappingAdd(acc, in[pos]);
          out[pos] = acc;
        }
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* axis_tensor = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const auto* params = static_cast<const TfLiteCumsumParams*>(node->builtin_data);
  const bool exclusive = params->exclusive;
  const bool reverse = params->reverse;
  const int rank = internal::NumDims(input);
  int axis;
  TF_LITE_ENSURE_OK(context,
                    internal::NormalizeAxis(context, kOp, axis_tensor->data.i32[0], rank, &axis));
  const int64_t outer = internal::DimsProduct(input->dims, 0, axis);
  const int64_t n = internal::Dim(input, axis);
  const int64_t inner = internal::DimsProduct(input->dims, axis + 1, rank);
  switch (input->type) {
    case kTfLiteFloat32:
      CumSum(input->data.f, output->data.f, outer, n, inner, exclusive, reverse);
      break;
    case kTfLiteInt32:
      CumSum(input->data.i32, output->data.i32, outer, n, inner, exclusive, reverse);
      break;
    default:
      CumSum(input->data.i64, output->data.i64, outer, n, inner, exclusive, reverse);
      break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_CUMSUM() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// ADD_N (x0, x1, ...): the element-wise sum of two or more tensors of one
// shape and type (FLOAT32 or INT32; INT32 sums wrap around on overflow).
#include <cstdint>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "ADD_N";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  if (internal::NumInputs(node) < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: expected at least 2 inputs, got %d", kOp,
                       internal::NumInputs(node));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context,
                    internal::CheckArity(context, node, kOp, 2, internal::NumInputs(node), 1));
  const TfLiteTensor* first;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &first));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(first->type, {kTfLiteFloat32, kTfLiteInt32})) {
    return internal::UnsupportedType(context, kOp, "input", first->type);
  }
  if (output->type != first->type) {
    return internal::TypeMismatch(context, kOp, "input", first->type, "output", output->type);
  }
  for (int i = 1; i < internal::NumInputs(node); ++i) {
    const TfLiteTensor* input;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &input));
    if (input->type != first->type) {
      return internal::TypeMismatch(context, kOp, "input 0", first->type, "another input",
                                    input->type);
    }
    if (!internal::SameShape(input->dims, first->dims)) {
      char a[64], b[64];
      TF_LITE_KERNEL_LOG(context, "%s: input %d shape %s differs from input 0 shape %s", kOp, i,
                         internal::ShapeToString(input->dims, a, sizeof(a)),
                         internal::ShapeToString(first->dims, b, sizeof(b)));
      return kTfLiteError;
    }
  }
  return internal::ResizeOutputLike(context, output, first->dims);
}

template <typename T>
void Sum(TfLiteContext* context, TfLiteNode* node, TfLiteTensor* output) {
  T* out = static_cast<T*>(output->data.data);
  const int64_t n = internal::NumElements(output);
  const T* in0 = static_cast<const T*>(internal::InputAt(context, node, 0)->data.data);
  for (int64_t j = 0; j < n; ++j) out[j] = in0[j];
  for (int i = 1; i < internal::NumInputs(node); ++i) {
    const T* in = static_cast<const T*>(internal::InputAt(context, node, i)->data.data);
    for (int64_t j = 0; j < n; ++j) out[j] = internal::WrappingAdd(out[j], in[j]);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (output->type == kTfLiteFloat32) {
    Sum<float>(context, node, output);
  } else {
    Sum<int32_t>(context, node, output);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_ADD_N() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

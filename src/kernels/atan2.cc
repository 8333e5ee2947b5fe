// ATAN2 (y, x): out = atan2(y, x) element-wise, the angle of the point (x, y)
// in (-pi, pi]. Both inputs and the output have one shape (no broadcasting,
// as upstream) and one type: FLOAT32 or FLOAT64.
#include <cmath>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register_extra.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "ATAN2";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *y, *x;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &y));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &x));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(y->type, {kTfLiteFloat32, kTfLiteFloat64})) {
    return internal::UnsupportedType(context, kOp, "input", y->type);
  }
  if (x->type != y->type) return internal::TypeMismatch(context, kOp, "y", y->type, "x", x->type);
  if (output->type != y->type) {
    return internal::TypeMismatch(context, kOp, "input", y->type, "output", output->type);
  }
  if (!internal::SameShape(y->dims, x->dims)) {
    char a[64], b[64];
    TF_LITE_KERNEL_LOG(context, "%s: y shape %s and x shape %s differ", kOp,
                       internal::ShapeToString(y->dims, a, sizeof(a)),
                       internal::ShapeToString(x->dims, b, sizeof(b)));
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, y->dims);
}

template <typename T>
void Atan2(const T* y, const T* x, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::atan2(y[i], x[i]);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* y = internal::InputAt(context, node, 0);
  const TfLiteTensor* x = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int64_t n = internal::NumElements(output);
  if (output->type == kTfLiteFloat32) {
    Atan2(y->data.f, x->data.f, output->data.f, n);
  } else {
    Atan2(y->data.f64, x->data.f64, output->data.f64, n);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_ATAN2() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// The shared body of float elementwise ops with one input and one output of
// the same shape (activations such as RELU and LOGISTIC).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_

#include <cstdint>

#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Checks one FLOAT32 input, one FLOAT32 output, and gives the output the
// input's shape.
TfLiteStatus PrepareUnaryFloatOp(TfLiteContext* context, TfLiteNode* node, const char* op);

// out[i] = fn(in[i]).
template <typename Fn>
TfLiteStatus EvalUnaryFloatOp(TfLiteContext* context, TfLiteNode* node, Fn fn) {
  const TfLiteTensor* input = InputAt(context, node, 0);
  TfLiteTensor* output = OutputAt(context, node, 0);
  const float* in = input->data.f;
  float* out = output->data.f;
  const int64_t n = NumElements(input);
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
  return kTfLiteOk;
}

// The registration of an op with no state whose Prepare is
// PrepareUnaryFloatOp and whose Eval applies `Op` (a functor with
// `float operator()(float)` and a `static constexpr const char* kName`).
template <typename Op>
const TfLiteRegistration* RegisterUnaryFloatOp() {
  static const TfLiteRegistration registration = MakeRegistration(
      nullptr, nullptr,
      [](TfLiteContext* context, TfLiteNode* node) {
        return PrepareUnaryFloatOp(context, node, Op::kName);
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        return EvalUnaryFloatOp(context, node, Op());
      });
  return &registration;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_UNARY_H_

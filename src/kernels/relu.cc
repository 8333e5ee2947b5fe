// The clamping activations: RELU max(0, x), RELU6 min(max(0, x), 6),
// RELU_N1_TO_1 min(max(-1, x), 1) and RELU_0_TO_1 min(max(0, x), 1). FLOAT32.
#include "src/kernels/internal/unary_op.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

// NaN propagates: both comparisons are false for it.
inline float ClampTo(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

struct ReluOp {
  static constexpr const char* kName = "RELU";
  float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
};
struct Relu6Op {
  static constexpr const char* kName = "RELU6";
  float operator()(float x) const { return ClampTo(x, 0.0f, 6.0f); }
};
struct ReluN1To1Op {
  static constexpr const char* kName = "RELU_N1_TO_1";
  float operator()(float x) const { return ClampTo(x, -1.0f, 1.0f); }
};
struct Relu0To1Op {
  static constexpr const char* kName = "RELU_0_TO_1";
  float operator()(float x) const { return ClampTo(x, 0.0f, 1.0f); }
};

}  // namespace

const TfLiteRegistration* Register_RELU() { return internal::RegisterUnaryFloatOp<ReluOp>(); }
const TfLiteRegistration* Register_RELU6() { return internal::RegisterUnaryFloatOp<Relu6Op>(); }
const TfLiteRegistration* Register_RELU_N1_TO_1() {
  return internal::RegisterUnaryFloatOp<ReluN1To1Op>();
}
const TfLiteRegistration* Register_RELU_0_TO_1() {
  return internal::RegisterUnaryFloatOp<Relu0To1Op>();
}

}  // namespace kernels
}  // namespace tflite_c

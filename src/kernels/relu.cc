// The clamping activations: RELU max(0, x), RELU6 min(max(0, x), 6),
// RELU_N1_TO_1 min(max(-1, x), 1) and RELU_0_TO_1 min(max(0, x), 1).
// FLOAT32; INT8 and UINT8 (and INT16 for RELU, zero points 0) requantize
// from the input's scale to the output's and clamp in the output's domain:
//   out = clamp(zp_out + (in - zp_in) * s_in / s_out, q(lo), q(hi))
// with q(v) = zp_out + round(v / s_out) limited to the type's range, as
// upstream's quantized kernels do.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

// NaN propagates: both comparisons are false for it.
inline float ClampTo(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

constexpr float kNoUpperBound = std::numeric_limits<float>::infinity();

struct ReluOp {
  static constexpr const char* kName = "RELU";
  static constexpr float kLo = 0.0f, kHi = kNoUpperBound;
  static constexpr bool kInt16 = true;
  float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
};
struct Relu6Op {
  static constexpr const char* kName = "RELU6";
  static constexpr float kLo = 0.0f, kHi = 6.0f;
  static constexpr bool kInt16 = false;
  float operator()(float x) const { return ClampTo(x, 0.0f, 6.0f); }
};
struct ReluN1To1Op {
  static constexpr const char* kName = "RELU_N1_TO_1";
  static constexpr float kLo = -1.0f, kHi = 1.0f;
  static constexpr bool kInt16 = false;
  float operator()(float x) const { return ClampTo(x, -1.0f, 1.0f); }
};
struct Relu0To1Op {
  static constexpr const char* kName = "RELU_0_TO_1";
  static constexpr float kLo = 0.0f, kHi = 1.0f;
  static constexpr bool kInt16 = false;
  float operator()(float x) const { return ClampTo(x, 0.0f, 1.0f); }
};

struct QuantizedRelu {
  internal::QuantizedMultiplier rescale;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

void TypeRange(TfLiteType type, int32_t* lo, int32_t* hi) {
  switch (type) {
    case kTfLiteInt8: *lo = -128; *hi = 127; break;
    case kTfLiteUInt8: *lo = 0; *hi = 255; break;
    default: *lo = -32768; *hi = 32767; break;
  }
}

template <typename Op>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  using namespace internal;  // NOLINT(build/namespaces)
  const TfLiteTensor* input = nullptr;
  TfLiteTensor* output = nullptr;
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, Op::kName, 1, 1, 1));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, Op::kName, &input));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, Op::kName, &output));
  if (input->type == kTfLiteFloat32) return PrepareUnaryFloatOp(context, node, Op::kName);
  const bool quantized = input->type == kTfLiteInt8 || input->type == kTfLiteUInt8 ||
                         (Op::kInt16 && input->type == kTfLiteInt16);
  if (!quantized) return UnsupportedType(context, Op::kName, "input", input->type);
  if (output->type != input->type) {
    return TypeMismatch(context, Op::kName, "input", input->type, "output", output->type);
  }
  QuantParams in_q, out_q;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, Op::kName, "input", input, &in_q));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, Op::kName, "output", output, &out_q));
  if (input->params.scale == 0.0f || output->params.scale == 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: quantized input and output need per-tensor quantization",
                       Op::kName);
    return kTfLiteError;
  }
  if (input->type == kTfLiteInt16 &&
      (input->params.zero_point != 0 || output->params.zero_point != 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 tensors need zero points of 0", Op::kName);
    return kTfLiteError;
  }
  auto* data = static_cast<QuantizedRelu*>(node->user_data);
  int32_t lo, hi;
  TypeRange(input->type, &lo, &hi);
  data->rescale = QuantizeMultiplier(static_cast<double>(input->params.scale) /
                                     static_cast<double>(output->params.scale));
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  const float s = output->params.scale;
  const int64_t q_lo = static_cast<int64_t>(output->params.zero_point) +
                       static_cast<int64_t>(std::round(Op::kLo / s));
  data->act_min = static_cast<int32_t>(std::max<int64_t>(lo, std::min<int64_t>(hi, q_lo)));
  if (Op::kHi == kNoUpperBound) {
    data->act_max = hi;
  } else {
    const int64_t q_hi = static_cast<int64_t>(output->params.zero_point) +
                         static_cast<int64_t>(std::round(Op::kHi / s));
    data->act_max = static_cast<int32_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q_hi)));
  }
  return ResizeOutputLike(context, output, input->dims);
}

template <typename T>
void EvalQuantized(const TfLiteTensor* input, TfLiteTensor* output, const QuantizedRelu& q) {
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = q.output_zero_point +
                      internal::MultiplyByQuantizedMultiplier(
                          static_cast<int32_t>(in[i]) - q.input_zero_point, q.rescale);
    out[i] = static_cast<T>(std::min(q.act_max, std::max(q.act_min, v)));
  }
}

template <typename Op>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const QuantizedRelu& q = *static_cast<const QuantizedRelu*>(node->user_data);
  switch (input->type) {
    case kTfLiteFloat32: return internal::EvalUnaryFloatOp(context, node, Op());
    case kTfLiteInt8: EvalQuantized<int8_t>(input, output, q); return kTfLiteOk;
    case kTfLiteUInt8: EvalQuantized<uint8_t>(input, output, q); return kTfLiteOk;
    case kTfLiteInt16: EvalQuantized<int16_t>(input, output, q); return kTfLiteOk;
    default: return internal::UnsupportedType(context, Op::kName, "input", input->type);
  }
}

template <typename Op>
const TfLiteRegistration* RegisterRelu() {
  static const TfLiteRegistration registration =
      internal::MakeRegistration(internal::InitOpData<QuantizedRelu>,
                                 internal::FreeOpData<QuantizedRelu>, Prepare<Op>, Eval<Op>);
  return &registration;
}

}  // namespace

const TfLiteRegistration* Register_RELU() { return RegisterRelu<ReluOp>(); }
const TfLiteRegistration* Register_RELU6() { return RegisterRelu<Relu6Op>(); }
const TfLiteRegistration* Register_RELU_N1_TO_1() { return RegisterRelu<ReluN1To1Op>(); }
const TfLiteRegistration* Register_RELU_0_TO_1() { return RegisterRelu<Relu0To1Op>(); }

}  // namespace kernels
}  // namespace tflite_c

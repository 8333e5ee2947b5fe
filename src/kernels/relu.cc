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

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

// NaN propagates: both comparisons are false for it.
inline float ClampTo(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

constexpr float kNoUpperBound = std::numeric_limits<float>::infinity();

using internal::UnaryPath;

// The scaffold's description of one clamp [kLo, kHi]: Prepare and Eval are
// shared (ClampingOp), each op supplies the bounds, its float form and
// whether INT16 is accepted.
struct QuantizedRelu : internal::UnaryOpData {
  internal::QuantizedMultiplier rescale;
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

template <typename Derived>
struct ClampingOp {
  using Data = QuantizedRelu;

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* data) {
    using namespace internal;  // NOLINT(build/namespaces)
    constexpr const char* op = Derived::kName;
    if (data->path == UnaryPath::kFloat) return kTfLiteOk;
    data->path = UnaryPath::kQuantized;
    TF_LITE_ENSURE_OK(context, ReadUnaryQuantParams(context, op, input, output, data));
    if (input->params.scale == 0.0f || output->params.scale == 0.0f) {
      TF_LITE_KERNEL_LOG(context, "%s: quantized input and output need per-tensor quantization",
                         op);
      return kTfLiteError;
    }
    if (input->type == kTfLiteInt16 &&
        (input->params.zero_point != 0 || output->params.zero_point != 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: INT16 tensors need zero points of 0", op);
      return kTfLiteError;
    }
    int32_t lo, hi;
    TypeRange(input->type, &lo, &hi);
    data->rescale = QuantizeMultiplier(static_cast<double>(input->params.scale) /
                                       static_cast<double>(output->params.scale));
    const float s = output->params.scale;
    const int64_t q_lo = static_cast<int64_t>(output->params.zero_point) +
                         static_cast<int64_t>(std::round(Derived::kLo / s));
    data->act_min = static_cast<int32_t>(std::max<int64_t>(lo, std::min<int64_t>(hi, q_lo)));
    if (Derived::kHi == kNoUpperBound) {
      data->act_max = hi;
    } else {
      const int64_t q_hi = static_cast<int64_t>(output->params.zero_point) +
                           static_cast<int64_t>(std::round(Derived::kHi / s));
      data->act_max = static_cast<int32_t>(std::min<int64_t>(hi, std::max<int64_t>(lo, q_hi)));
    }
    return kTfLiteOk;
  }

  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const Data& q) {
    return internal::MapUnary<T>(context, node, [&q](T x) {
      const int32_t shifted = static_cast<int32_t>(x) - q.in.zero_point;
      const int32_t v =
          q.out.zero_point + internal::MultiplyByQuantizedMultiplier(shifted, q.rescale);
      return static_cast<T>(std::min(q.act_max, std::max(q.act_min, v)));
    });
  }

  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& q) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32: return internal::MapUnary<float>(context, node, Derived::Float);
      case kTfLiteInt8: return EvalQuantized<int8_t>(context, node, q);
      case kTfLiteUInt8: return EvalQuantized<uint8_t>(context, node, q);
      default: return EvalQuantized<int16_t>(context, node, q);
    }
  }
};

constexpr internal::TypeSet kTypes8 = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8};

struct ReluOp : ClampingOp<ReluOp> {
  static constexpr const char* kName = "RELU";
  static constexpr float kLo = 0.0f, kHi = kNoUpperBound;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8,
                                               kTfLiteInt16};
  static float Float(float x) { return x < 0.0f ? 0.0f : x; }
};
struct Relu6Op : ClampingOp<Relu6Op> {
  static constexpr const char* kName = "RELU6";
  static constexpr float kLo = 0.0f, kHi = 6.0f;
  static constexpr internal::TypeSet kTypes = kTypes8;
  static float Float(float x) { return ClampTo(x, 0.0f, 6.0f); }
};
struct ReluN1To1Op : ClampingOp<ReluN1To1Op> {
  static constexpr const char* kName = "RELU_N1_TO_1";
  static constexpr float kLo = -1.0f, kHi = 1.0f;
  static constexpr internal::TypeSet kTypes = kTypes8;
  static float Float(float x) { return ClampTo(x, -1.0f, 1.0f); }
};
struct Relu0To1Op : ClampingOp<Relu0To1Op> {
  static constexpr const char* kName = "RELU_0_TO_1";
  static constexpr float kLo = 0.0f, kHi = 1.0f;
  static constexpr internal::TypeSet kTypes = kTypes8;
  static float Float(float x) { return ClampTo(x, 0.0f, 1.0f); }
};

}  // namespace

const TfLiteRegistration* Register_RELU() { return internal::RegisterUnaryOp<ReluOp>(); }
const TfLiteRegistration* Register_RELU6() { return internal::RegisterUnaryOp<Relu6Op>(); }
const TfLiteRegistration* Register_RELU_N1_TO_1() {
  return internal::RegisterUnaryOp<ReluN1To1Op>();
}
const TfLiteRegistration* Register_RELU_0_TO_1() {
  return internal::RegisterUnaryOp<Relu0To1Op>();
}

}  // namespace kernels
}  // namespace tflite_c

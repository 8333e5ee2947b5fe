// Element-wise math with one input and one output of the same type and shape:
// ABS, CEIL, COS, EXP, FLOOR, LOG, LOGICAL_NOT, NEG, ROUND, RSQRT, SIGN, SIN,
// SQRT, SQUARE. Every op takes FLOAT32; integer and quantized types follow
// upstream per op (see each op's kTypes):
//   ABS   INT8/INT16 quantized (|x - zp| rescaled), INT16 unquantized, INT32
//   EXP, LOG   INT8/INT16 quantized through a lookup table
//   RSQRT INT8 quantized (fixed-point 1/sqrt), INT16 quantized (lookup table)
//   SQRT  INT8/INT16 quantized (computed in float, truncated)
//   NEG   INT8, INT16, INT32, INT64 (plain two's-complement negation)
//   SIGN  INT32;  LOGICAL_NOT  BOOL only
// INT16 quantized tensors must have zero point 0. RSQRT and SQRT of quantized
// negative inputs fail at Invoke, as upstream.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register_elementwise.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::QuantParams;

struct OpData {
  QuantParams in, out;
  bool quantized = false;
  bool rescale = false;  // ABS: input and output scales differ
  internal::QuantizedMultiplier multiplier;
  int8_t lut8[internal::kLut8Size];
  int16_t lut16[internal::kLut16Size];
};

// Shared checks; fills data->in/out for quantized INT8 and INT16 tensors.
TfLiteStatus PrepareCommon(TfLiteContext* context, TfLiteNode* node, const char* op,
                           std::initializer_list<TfLiteType> types, bool uses_quantization,
                           OpData* data) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  if (!internal::TypeIn(input->type, types)) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  data->quantized = uses_quantization && (input->type == kTfLiteInt8 ||
                    (input->type == kTfLiteInt16 && input->quantization.type != kTfLiteNoQuantization));
  if (data->quantized) {
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, "input", input, &data->in));
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, "output", output, &data->out));
    if (input->type == kTfLiteInt16 && (data->in.zero_point != 0 || data->out.zero_point != 0)) {
      TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output must have zero point 0", op);
      return kTfLiteError;
    }
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

template <typename T, typename Fn>
TfLiteStatus Map(TfLiteContext* context, const TfLiteNode* node, Fn fn) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const T* in = static_cast<const T*>(input->data.data);
  T* out = static_cast<T*>(output->data.data);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
  return kTfLiteOk;
}

TfLiteStatus MapLut(TfLiteContext* context, const TfLiteNode* node, const OpData& data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  if (input->type == kTfLiteInt8) {
    return Map<int8_t>(context, node, [&](int8_t v) { return internal::LookupLut(v, data.lut8); });
  }
  return Map<int16_t>(context, node, [&](int16_t v) { return internal::LookupLut(v, data.lut16); });
}

// Fills the table matching the input type for out = fn(in).
template <typename Fn>
void BuildLut(TfLiteType type, OpData* data, Fn fn) {
  if (type == kTfLiteInt8) {
    internal::PopulateLut8<int8_t>(data->in, data->out, fn, data->lut8);
  } else {
    internal::PopulateLut16(data->in, data->out, fn, data->lut16);
  }
}

TfLiteStatus Unsupported(TfLiteContext* context, const TfLiteNode* node, const char* op) {
  return internal::UnsupportedType(context, op, "input", internal::InputAt(context, node, 0)->type);
}

// Reports a quantized input below the real value 0 (input zero point).
template <typename T>
TfLiteStatus CheckNonNegative(TfLiteContext* context, const TfLiteNode* node, const char* op,
                              int32_t zero_point) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const T* in = static_cast<const T*>(input->data.data);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < zero_point) {
      TF_LITE_KERNEL_LOG(context, "%s: input %lld is negative; %s is only defined for x >= 0",
                         op, static_cast<long long>(i), op);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// ---- the ops ----------------------------------------------------------------------
// Each op supplies kName, kTypes, an optional PrepareQuantized and Eval.

// Ops whose INT8/INT16 kernels ignore quantization (NEG) or have none.
struct NoQuantizedPrepare {
  static constexpr bool kUsesQuantization = false;
  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType, OpData*) { return kTfLiteOk; }
};

// A FLOAT32-only op computing `Fn`.
template <const char* Name, float (*Fn)(float)>
struct FloatOp : NoQuantizedPrepare {
  static constexpr const char* kName = Name;
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData&) {
    return Map<float>(context, node, Fn);
  }
};

float Sin(float x) { return std::sin(x); }
float Cos(float x) { return std::cos(x); }
float Floor(float x) { return std::floor(x); }
float Ceil(float x) { return std::ceil(x); }
// Ties to even, as tf.round (the default rounding mode of nearbyint).
float Round(float x) { return std::nearbyint(x); }
float Square(float x) { return x * x; }
float Rsqrt(float x) { return 1.0f / std::sqrt(x); }

constexpr char kSin[] = "SIN";
constexpr char kCos[] = "COS";
constexpr char kFloor[] = "FLOOR";
constexpr char kCeil[] = "CEIL";
constexpr char kRound[] = "ROUND";
constexpr char kSquare[] = "SQUARE";

struct AbsOp {
  static constexpr bool kUsesQuantization = true;
  static constexpr const char* kName = "ABS";
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32, kTfLiteInt8,
                                                               kTfLiteInt16, kTfLiteInt32};
  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType, OpData* data) {
    data->rescale = data->in.scale != data->out.scale;
    if (data->rescale) {
      data->multiplier = internal::QuantizeMultiplier(static_cast<double>(data->in.scale) /
                                                      static_cast<double>(data->out.scale));
    }
    return kTfLiteOk;
  }
  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    return Map<T>(context, node, [&](T v) {
      const int32_t magnitude = std::abs(static_cast<int32_t>(v) - d.in.zero_point);
      const int32_t scaled =
          d.rescale ? internal::MultiplyByQuantizedMultiplier(magnitude, d.multiplier) : magnitude;
      return internal::ClampTo<T>(scaled + d.out.zero_point);
    });
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return Map<float>(context, node, [](float x) { return std::fabs(x); });
      case kTfLiteInt32:
        // |INT32_MIN| wraps to itself, as in two's complement.
        return Map<int32_t>(context, node, [](int32_t x) {
          return x < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(x)) : x;
        });
      case kTfLiteInt8:
        return EvalQuantized<int8_t>(context, node, d);
      case kTfLiteInt16:
        if (d.quantized) return EvalQuantized<int16_t>(context, node, d);
        return Map<int16_t>(context, node, [](int16_t x) {
          return static_cast<int16_t>(std::abs(static_cast<int32_t>(x)));
        });
      default:
        return Unsupported(context, node, kName);
    }
  }
};

// EXP and LOG: FLOAT32, and quantized INT8/INT16 through a lookup table.
template <typename Derived>
struct LutOp {
  static constexpr bool kUsesQuantization = true;
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32, kTfLiteInt8,
                                                               kTfLiteInt16};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    if (internal::InputAt(context, node, 0)->type == kTfLiteFloat32) {
      return Map<float>(context, node, Derived::Real);
    }
    return MapLut(context, node, d);
  }
};

struct ExpOp : LutOp<ExpOp> {
  static constexpr const char* kName = "EXP";
  static float Real(float x) { return std::exp(x); }
  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType type, OpData* data) {
    BuildLut(type, data, Real);
    return kTfLiteOk;
  }
};

struct LogOp : LutOp<LogOp> {
  static constexpr const char* kName = "LOG";
  static float Real(float x) { return std::log(x); }
  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType type, OpData* data) {
    // log(x <= 0) saturates to the lowest representable output.
    const int32_t q_min = type == kTfLiteInt8 ? -128 : -32768;
    const float lowest = static_cast<float>(q_min - data->out.zero_point) * data->out.scale;
    BuildLut(type, data, [lowest](float x) { return x <= 0.0f ? lowest : std::log(x); });
    return kTfLiteOk;
  }
};

struct SqrtOp {
  static constexpr bool kUsesQuantization = true;
  static constexpr const char* kName = "SQRT";
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32, kTfLiteInt8,
                                                               kTfLiteInt16};
  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType, OpData*) { return kTfLiteOk; }
  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    TF_LITE_ENSURE_OK(context, CheckNonNegative<T>(context, node, kName, d.in.zero_point));
    return Map<T>(context, node, [&](T v) {
      const float real = d.in.scale * static_cast<float>(static_cast<int32_t>(v) - d.in.zero_point);
      // Truncation toward zero, not rounding, as upstream.
      return internal::ClampTo<T>(static_cast<int32_t>(std::sqrt(real) / d.out.scale) +
                                  d.out.zero_point);
    });
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return Map<float>(context, node, [](float x) { return std::sqrt(x); });
      case kTfLiteInt8:
        return EvalQuantized<int8_t>(context, node, d);
      case kTfLiteInt16:
        return EvalQuantized<int16_t>(context, node, d);
      default:
        return Unsupported(context, node, kName);
    }
  }
};

struct RsqrtOp {
  static constexpr bool kUsesQuantization = true;
  static constexpr const char* kName = "RSQRT";
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32, kTfLiteInt8,
                                                               kTfLiteInt16};
  // Fixed-point headroom for the intermediate 1/sqrt(q) of the INT8 kernel.
  static constexpr int kHeadroom = 20;

  static TfLiteStatus PrepareQuantized(TfLiteContext*, TfLiteType type, OpData* data) {
    if (type == kTfLiteInt16) {
      // 1/sqrt(x <= 0) saturates to the largest representable output.
      const float largest = 32767.0f * data->out.scale;
      BuildLut(type, data, [largest](float x) { return x <= 0.0f ? largest : 1.0f / std::sqrt(x); });
    } else {
      data->multiplier = internal::QuantizeMultiplier(
          1.0 / (std::sqrt(data->in.scale) * data->out.scale));
    }
    return kTfLiteOk;
  }
  static int8_t Int8(int8_t v, const OpData& d) {
    const int32_t q = static_cast<int32_t>(v) - d.in.zero_point;
    if (q == 0) return std::numeric_limits<int8_t>::max();  // 1/sqrt(0+) saturates
    int32_t inv_multiplier;
    int inv_shift;
    internal::InvSqrtQuantizedMultiplier(q, -1, &inv_multiplier, &inv_shift);
    const int32_t inv_sqrt =
        internal::MultiplyByQuantizedMultiplier(1, inv_multiplier, inv_shift + kHeadroom);
    const int32_t scaled = internal::MultiplyByQuantizedMultiplier(
        inv_sqrt, d.multiplier.multiplier, d.multiplier.shift - kHeadroom);
    return internal::ClampTo<int8_t>(scaled + d.out.zero_point);
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return Map<float>(context, node, Rsqrt);
      case kTfLiteInt8:
        TF_LITE_ENSURE_OK(context, CheckNonNegative<int8_t>(context, node, kName, d.in.zero_point));
        return Map<int8_t>(context, node, [&](int8_t v) { return Int8(v, d); });
      case kTfLiteInt16:
        TF_LITE_ENSURE_OK(context,
                          CheckNonNegative<int16_t>(context, node, kName, d.in.zero_point));
        return MapLut(context, node, d);
      default:
        return Unsupported(context, node, kName);
    }
  }
};

// Two's-complement negation that wraps (NEG of the minimum is the minimum).
template <typename T>
T WrappingNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(x));
}

struct NegOp : NoQuantizedPrepare {
  static constexpr const char* kName = "NEG";
  static constexpr std::initializer_list<TfLiteType> kTypes = {
      kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData&) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return Map<float>(context, node, [](float x) { return -x; });
      case kTfLiteInt8:
        return Map<int8_t>(context, node, WrappingNeg<int8_t>);
      case kTfLiteInt16:
        return Map<int16_t>(context, node, WrappingNeg<int16_t>);
      case kTfLiteInt32:
        return Map<int32_t>(context, node, WrappingNeg<int32_t>);
      case kTfLiteInt64:
        return Map<int64_t>(context, node, WrappingNeg<int64_t>);
      default:
        return Unsupported(context, node, kName);
    }
  }
};

struct SignOp : NoQuantizedPrepare {
  static constexpr const char* kName = "SIGN";
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteFloat32, kTfLiteInt32};
  // Unquantized INT8/INT16 are not SIGN types upstream; only these two.
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData&) {
    if (internal::InputAt(context, node, 0)->type == kTfLiteFloat32) {
      // NaN stays NaN; -0 and +0 give 0.
      return Map<float>(context, node, [](float x) {
        return std::isnan(x) ? x : static_cast<float>((x > 0.0f) - (x < 0.0f));
      });
    }
    return Map<int32_t>(context, node, [](int32_t x) { return (x > 0) - (x < 0); });
  }
};

struct LogicalNotOp : NoQuantizedPrepare {
  static constexpr const char* kName = "LOGICAL_NOT";
  static constexpr std::initializer_list<TfLiteType> kTypes = {kTfLiteBool};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const OpData&) {
    return Map<bool>(context, node, [](bool x) { return !x; });
  }
};

template <typename Op>
const TfLiteRegistration* RegisterUnary() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        auto* data = static_cast<OpData*>(node->user_data);
        TF_LITE_ENSURE_OK(context, PrepareCommon(context, node, Op::kName, Op::kTypes,
                                                 Op::kUsesQuantization, data));
        if (!data->quantized) return kTfLiteOk;
        return Op::PrepareQuantized(context, internal::InputAt(context, node, 0)->type, data);
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        return Op::Eval(context, node, *static_cast<const OpData*>(node->user_data));
      });
  return &r;
}

}  // namespace

const TfLiteRegistration* Register_ABS() { return RegisterUnary<AbsOp>(); }
const TfLiteRegistration* Register_CEIL() { return RegisterUnary<FloatOp<kCeil, Ceil>>(); }
const TfLiteRegistration* Register_COS() { return RegisterUnary<FloatOp<kCos, Cos>>(); }
const TfLiteRegistration* Register_EXP() { return RegisterUnary<ExpOp>(); }
const TfLiteRegistration* Register_FLOOR() { return RegisterUnary<FloatOp<kFloor, Floor>>(); }
const TfLiteRegistration* Register_LOG() { return RegisterUnary<LogOp>(); }
const TfLiteRegistration* Register_LOGICAL_NOT() { return RegisterUnary<LogicalNotOp>(); }
const TfLiteRegistration* Register_NEG() { return RegisterUnary<NegOp>(); }
const TfLiteRegistration* Register_ROUND() { return RegisterUnary<FloatOp<kRound, Round>>(); }
const TfLiteRegistration* Register_RSQRT() { return RegisterUnary<RsqrtOp>(); }
const TfLiteRegistration* Register_SIGN() { return RegisterUnary<SignOp>(); }
const TfLiteRegistration* Register_SIN() { return RegisterUnary<FloatOp<kSin, Sin>>(); }
const TfLiteRegistration* Register_SQRT() { return RegisterUnary<SqrtOp>(); }
const TfLiteRegistration* Register_SQUARE() { return RegisterUnary<FloatOp<kSquare, Square>>(); }

}  // namespace kernels
}  // namespace tflite_c

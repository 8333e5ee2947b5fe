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
#include <limits>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::MapUnary;
using internal::QuantParams;
using internal::TypeSet;
using internal::UnaryOpData;
using internal::UnaryPath;

// INT8, and INT16 when quantized, are quantized inputs for the ops that have
// quantized kernels: reads both tensors' parameters (INT16 ones must have
// zero point 0) and selects UnaryPath::kQuantized. Other types are left alone.
TfLiteStatus PrepareQuantized(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                              const TfLiteTensor* output, UnaryOpData* data) {
  const bool quantized =
      input->type == kTfLiteInt8 ||
      (input->type == kTfLiteInt16 && input->quantization.type != kTfLiteNoQuantization);
  if (!quantized) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, internal::ReadUnaryQuantParams(context, op, input, output, data));
  if (input->type == kTfLiteInt16 && (data->in.zero_point != 0 || data->out.zero_point != 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output must have zero point 0", op);
    return kTfLiteError;
  }
  data->path = UnaryPath::kQuantized;
  return kTfLiteOk;
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
// Each op is described for RegisterUnaryOp (elementwise_unary.h).

// A FLOAT32-only op computing `Fn`.
template <const char* Name, float (*Fn)(float)>
struct FloatOp {
  static constexpr const char* kName = Name;
  static constexpr TypeSet kTypes = {kTfLiteFloat32};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    return MapUnary<float>(context, node, Fn);
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
  static constexpr const char* kName = "ABS";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32};
  struct Data : UnaryOpData {
    bool rescale = false;  // the input and output scales differ
    internal::QuantizedMultiplier multiplier;
  };
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* data) {
    TF_LITE_ENSURE_OK(context, PrepareQuantized(context, kName, input, output, data));
    data->rescale = data->path == UnaryPath::kQuantized && data->in.scale != data->out.scale;
    if (data->rescale) {
      data->multiplier = internal::QuantizeMultiplier(static_cast<double>(data->in.scale) /
                                                      static_cast<double>(data->out.scale));
    }
    return kTfLiteOk;
  }
  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    return MapUnary<T>(context, node, [&](T v) {
      const int32_t magnitude = std::abs(static_cast<int32_t>(v) - d.in.zero_point);
      const int32_t scaled =
          d.rescale ? internal::MultiplyByQuantizedMultiplier(magnitude, d.multiplier) : magnitude;
      return internal::ClampTo<T>(scaled + d.out.zero_point);
    });
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    const TfLiteType type = internal::InputAt(context, node, 0)->type;
    if (d.path == UnaryPath::kQuantized) {
      if (type == kTfLiteInt8) return EvalQuantized<int8_t>(context, node, d);
      return EvalQuantized<int16_t>(context, node, d);
    }
    switch (type) {
      case kTfLiteFloat32:
        return MapUnary<float>(context, node, [](float x) { return std::fabs(x); });
      case kTfLiteInt32:
        // |INT32_MIN| wraps to itself, as in two's complement.
        return MapUnary<int32_t>(context, node, [](int32_t x) {
          return x < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(x)) : x;
        });
      case kTfLiteInt16:
        return MapUnary<int16_t>(context, node, [](int16_t x) {
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
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16};
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, UnaryOpData* data) {
    TF_LITE_ENSURE_OK(context, PrepareQuantized(context, Derived::kName, input, output, data));
    if (data->path == UnaryPath::kQuantized) {
      internal::BuildUnaryLut(input->type, Derived::QuantizedFunction(input->type, *data), data);
    }
    return kTfLiteOk;
  }
  // The scaffold applies the tables of quantized inputs; an unquantized
  // INT16 input goes through the table it never filled (all zeros).
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData& d) {
    if (d.path == UnaryPath::kFloat) return MapUnary<float>(context, node, Derived::Real);
    return internal::ApplyUnaryLut(context, node, d);
  }
};

struct ExpOp : LutOp<ExpOp> {
  static constexpr const char* kName = "EXP";
  static float Real(float x) { return std::exp(x); }
  static auto QuantizedFunction(TfLiteType, const UnaryOpData&) { return Real; }
};

struct LogOp : LutOp<LogOp> {
  static constexpr const char* kName = "LOG";
  static float Real(float x) { return std::log(x); }
  static auto QuantizedFunction(TfLiteType type, const UnaryOpData& data) {
    // log(x <= 0) saturates to the lowest representable output.
    const int32_t q_min = type == kTfLiteInt8 ? -128 : -32768;
    const float lowest = static_cast<float>(q_min - data.out.zero_point) * data.out.scale;
    return [lowest](float x) { return x <= 0.0f ? lowest : std::log(x); };
  }
};

struct SqrtOp {
  static constexpr const char* kName = "SQRT";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16};
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, UnaryOpData* data) {
    TF_LITE_ENSURE_OK(context, PrepareQuantized(context, kName, input, output, data));
    // INT16 is computed through its scales: without them there is no
    // result (upstream dereferences the missing parameters).
    if (input->type == kTfLiteInt16 && data->path != UnaryPath::kQuantized) {
      TF_LITE_KERNEL_LOG(context, "%s: an INT16 input needs quantization parameters", kName);
      return kTfLiteError;
    }
    return kTfLiteOk;
  }
  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node,
                                    const UnaryOpData& d) {
    TF_LITE_ENSURE_OK(context, CheckNonNegative<T>(context, node, kName, d.in.zero_point));
    return MapUnary<T>(context, node, [&](T v) {
      const float real = d.in.scale * static_cast<float>(static_cast<int32_t>(v) - d.in.zero_point);
      // Truncation toward zero, not rounding, as upstream. A quotient past
      // any output (an input scale near FLT_MAX makes it infinite) saturates
      // before the conversion to int32, which would be undefined.
      const float q = std::sqrt(real) / d.out.scale;
      const float kBeyond = 1048576.0f;
      return internal::ClampTo<T>(static_cast<int32_t>(q < kBeyond ? q : kBeyond) +
                                  d.out.zero_point);
    });
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return MapUnary<float>(context, node, [](float x) { return std::sqrt(x); });
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
  static constexpr const char* kName = "RSQRT";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16};
  // Fixed-point headroom for the intermediate 1/sqrt(q) of the INT8 kernel.
  static constexpr int kHeadroom = 20;
  struct Data : UnaryOpData {
    internal::QuantizedMultiplier multiplier;  // INT8
  };

  // INT8 in fixed point; INT16 through a table, applied in Eval after the
  // check of the input's sign (so the path stays kQuantized).
  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode*, const TfLiteTensor* input,
                              TfLiteTensor* output, Data* data) {
    TF_LITE_ENSURE_OK(context, PrepareQuantized(context, kName, input, output, data));
    if (data->path != UnaryPath::kQuantized) return kTfLiteOk;
    if (input->type == kTfLiteInt16) {
      // 1/sqrt(x <= 0) saturates to the largest representable output.
      const float largest = 32767.0f * data->out.scale;
      internal::BuildUnaryLut(
          input->type, [largest](float x) { return x <= 0.0f ? largest : 1.0f / std::sqrt(x); },
          data);
      data->path = UnaryPath::kQuantized;
    } else {
      data->multiplier = internal::QuantizeMultiplier(
          1.0 / (std::sqrt(data->in.scale) * data->out.scale));
    }
    return kTfLiteOk;
  }
  static int8_t Int8(int8_t v, const Data& d) {
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
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& d) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return MapUnary<float>(context, node, Rsqrt);
      case kTfLiteInt8:
        TF_LITE_ENSURE_OK(context, CheckNonNegative<int8_t>(context, node, kName, d.in.zero_point));
        return MapUnary<int8_t>(context, node, [&](int8_t v) { return Int8(v, d); });
      case kTfLiteInt16:
        TF_LITE_ENSURE_OK(context,
                          CheckNonNegative<int16_t>(context, node, kName, d.in.zero_point));
        return internal::ApplyUnaryLut(context, node, d);
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

// INT8 and INT16 are negated as plain integers, whatever their quantization.
struct NegOp {
  static constexpr const char* kName = "NEG";
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32,
                                     kTfLiteInt64};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    switch (internal::InputAt(context, node, 0)->type) {
      case kTfLiteFloat32:
        return MapUnary<float>(context, node, [](float x) { return -x; });
      case kTfLiteInt8:
        return MapUnary<int8_t>(context, node, WrappingNeg<int8_t>);
      case kTfLiteInt16:
        return MapUnary<int16_t>(context, node, WrappingNeg<int16_t>);
      case kTfLiteInt32:
        return MapUnary<int32_t>(context, node, WrappingNeg<int32_t>);
      case kTfLiteInt64:
        return MapUnary<int64_t>(context, node, WrappingNeg<int64_t>);
      default:
        return Unsupported(context, node, kName);
    }
  }
};

struct SignOp {
  static constexpr const char* kName = "SIGN";
  // Unquantized INT8/INT16 are not SIGN types upstream; only these two.
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData& d) {
    if (d.path == UnaryPath::kFloat) {
      // NaN stays NaN; -0 and +0 give 0.
      return MapUnary<float>(context, node, [](float x) {
        return std::isnan(x) ? x : static_cast<float>((x > 0.0f) - (x < 0.0f));
      });
    }
    return MapUnary<int32_t>(context, node, [](int32_t x) { return (x > 0) - (x < 0); });
  }
};

struct LogicalNotOp {
  static constexpr const char* kName = "LOGICAL_NOT";
  static constexpr TypeSet kTypes = {kTfLiteBool};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    // As bytes: any non-zero byte is true (see BoolAt).
    return MapUnary<uint8_t>(context, node, [](uint8_t x) -> uint8_t { return x == 0; });
  }
};

template <typename Op>
const TfLiteRegistration* Register() {
  return internal::RegisterUnaryOp<Op>();
}

}  // namespace

const TfLiteRegistration* Register_ABS() { return Register<AbsOp>(); }
const TfLiteRegistration* Register_CEIL() { return Register<FloatOp<kCeil, Ceil>>(); }
const TfLiteRegistration* Register_COS() { return Register<FloatOp<kCos, Cos>>(); }
const TfLiteRegistration* Register_EXP() { return Register<ExpOp>(); }
const TfLiteRegistration* Register_FLOOR() { return Register<FloatOp<kFloor, Floor>>(); }
const TfLiteRegistration* Register_LOG() { return Register<LogOp>(); }
const TfLiteRegistration* Register_LOGICAL_NOT() { return Register<LogicalNotOp>(); }
const TfLiteRegistration* Register_NEG() { return Register<NegOp>(); }
const TfLiteRegistration* Register_ROUND() { return Register<FloatOp<kRound, Round>>(); }
const TfLiteRegistration* Register_RSQRT() { return Register<RsqrtOp>(); }
const TfLiteRegistration* Register_SIGN() { return Register<SignOp>(); }
const TfLiteRegistration* Register_SIN() { return Register<FloatOp<kSin, Sin>>(); }
const TfLiteRegistration* Register_SQRT() { return Register<SqrtOp>(); }
const TfLiteRegistration* Register_SQUARE() { return Register<FloatOp<kSquare, Square>>(); }

}  // namespace kernels
}  // namespace tflite_c

// CAST: converts every element to the output's type, as C++ static_cast
// does (anything to BOOL is "!= 0"; COMPLEX64 to a real type keeps the real
// part), except that floating-point values going to an integer type are
// truncated toward zero and saturate at the type's limits, NaN giving its
// maximum (upstream 2.19 saturates so for INT32 and clamps for INT16 and
// UINT8; its later kernel saturates for every integer type). Input and output may each be BOOL,
// UINT8, INT8, UINT16, INT16, UINT32, INT32, INT64, FLOAT16, BFLOAT16,
// FLOAT32, FLOAT64 or COMPLEX64. The output has the input's shape.
// Packed INT4 (two values per byte, low nibble first) converts to FLOAT32
// (op version 6), and FLOAT32 to INT4 as upstream's later kernel does
// (clamped to [-8, 7], then truncated toward zero; NaN gives 7); INT4 with
// any other type is not supported.
#include <Eigen/Core>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "CAST";

using Complex = std::complex<float>;

template <typename T>
constexpr bool kIsHalf = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

// Truncates `v` toward zero, saturating at To's limits; NaN gives the maximum.
template <typename To, typename From>
To SaturatingToInteger(From v) {
  if (std::isnan(v)) return std::numeric_limits<To>::max();
  if (v < static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
  // max() + 1 is a power of two, so this bound is exact in From.
  const From upper = static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From(2);
  if (v >= upper) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}

template <typename From, typename To>
To Convert(From v) {
  if constexpr (kIsHalf<From>) {
    return Convert<float, To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (kIsHalf<To>) {
    return To(Convert<From, float>(v));
  } else if constexpr (std::is_same_v<From, Complex> && std::is_same_v<To, Complex>) {
    return v;
  } else if constexpr (std::is_same_v<From, Complex>) {
    return Convert<float, To>(v.real());
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return SaturatingToInteger<To>(v);
  } else if constexpr (std::is_same_v<To, Complex>) {
    return Complex(static_cast<float>(v), 0.0f);
  } else {
    return static_cast<To>(v);
  }
}

// Calls fn(T{}) with T the C++ type of `type`; false for other types.
template <typename Fn>
bool WithType(TfLiteType type, Fn&& fn) {
  switch (type) {
    case kTfLiteBool: fn(bool{}); return true;
    case kTfLiteUInt8: fn(uint8_t{}); return true;
    case kTfLiteInt8: fn(int8_t{}); return true;
    case kTfLiteUInt16: fn(uint16_t{}); return true;
    case kTfLiteInt16: fn(int16_t{}); return true;
    case kTfLiteUInt32: fn(uint32_t{}); return true;
    case kTfLiteInt32: fn(int32_t{}); return true;
    case kTfLiteInt64: fn(int64_t{}); return true;
    case kTfLiteFloat16: fn(Eigen::half{}); return true;
    case kTfLiteBFloat16: fn(Eigen::bfloat16{}); return true;
    case kTfLiteFloat32: fn(float{}); return true;
    case kTfLiteFloat64: fn(double{}); return true;
    case kTfLiteComplex64: fn(Complex{}); return true;
    default: return false;
  }
}

// INT4 -> FLOAT32: each value sign-extended.
TfLiteStatus Int4ToFloat(TfLiteContext* context, const TfLiteTensor* input, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "input", input));
  const auto* in = reinterpret_cast<const uint8_t*>(input->data.raw_const);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) output->data.f[i] = internal::Int4Value(in, i);
  return kTfLiteOk;
}

// FLOAT32 -> INT4: min(v, 7) (7 for NaN), then max(., -8), truncated.
TfLiteStatus FloatToInt4(TfLiteContext* context, const TfLiteTensor* input, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "output", output));
  auto* out = reinterpret_cast<uint8_t*>(output->data.raw);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) {
    float v = input->data.f[i];
    v = v < 7.0f ? v : 7.0f;
    v = v > -8.0f ? v : -8.0f;
    internal::SetInt4Bits(out, i, static_cast<uint8_t>(static_cast<int8_t>(v)));
  }
  if (n % 2 != 0) internal::SetInt4Bits(out, n, 0);  // the unused high nibble
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetUnaryTensors(context, node, kOp, &input, &output));
  if (input->type == kTfLiteInt4 || output->type == kTfLiteInt4) {
    if (!(input->type == kTfLiteInt4 && output->type == kTfLiteFloat32) &&
        !(input->type == kTfLiteFloat32 && output->type == kTfLiteInt4)) {
      TF_LITE_KERNEL_LOG(context, "%s: %s to %s is not supported (INT4 converts only to and "
                         "from FLOAT32)", kOp, TfLiteTypeGetName(input->type),
                         TfLiteTypeGetName(output->type));
      return kTfLiteError;
    }
    return internal::ResizeOutputLike(context, output, input->dims);
  }
  if (!WithType(input->type, [](auto) {})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  if (!WithType(output->type, [](auto) {})) {
    return internal::UnsupportedType(context, kOp, "output", output->type);
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (input->type == kTfLiteInt4) return Int4ToFloat(context, input, output);
  if (output->type == kTfLiteInt4) return FloatToInt4(context, input, output);
  const int64_t n = internal::NumElements(input);
  WithType(input->type, [&](auto from) {
    using From = decltype(from);
    WithType(output->type, [&](auto to) {
      using To = decltype(to);
      To* out = reinterpret_cast<To*>(output->data.raw);
      if constexpr (std::is_same_v<From, bool>) {
        // As bytes: any non-zero byte is true (see BoolAt).
        for (int64_t i = 0; i < n; ++i) out[i] = Convert<bool, To>(internal::BoolAt(input, i));
      } else {
        const From* in = reinterpret_cast<const From*>(input->data.raw);
        for (int64_t i = 0; i < n; ++i) out[i] = Convert<From, To>(in[i]);
      }
    });
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_CAST() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

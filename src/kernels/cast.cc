// CAST: converts every element to the output's type, as C++ static_cast
// does (floats truncate toward zero; anything to BOOL is "!= 0"; COMPLEX64
// to a real type keeps the real part). Input and output may each be BOOL,
// UINT8, INT8, UINT16, INT16, UINT32, INT32, INT64, FLOAT16, BFLOAT16,
// FLOAT32, FLOAT64 or COMPLEX64. The output has the input's shape.
#include <Eigen/Core>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/register_layout.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "CAST";

using Complex = std::complex<float>;

template <typename T>
constexpr bool kIsHalf = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

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
    return static_cast<To>(v.real());
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

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetUnaryTensors(context, node, kOp, &input, &output));
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
  const int64_t n = internal::NumElements(input);
  WithType(input->type, [&](auto from) {
    using From = decltype(from);
    WithType(output->type, [&](auto to) {
      using To = decltype(to);
      const From* in = reinterpret_cast<const From*>(input->data.raw);
      To* out = reinterpret_cast<To*>(output->data.raw);
      for (int64_t i = 0; i < n; ++i) out[i] = Convert<From, To>(in[i]);
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

// POW: out = x^y, broadcasting x against y. FLOAT32 (std::pow) and INT32
// (computed in double and truncated; negative exponents fail at Invoke).
// An INT32 result outside the type saturates: upstream converts the double
// with a plain cast, which is undefined there (x86-64 gives INT32_MIN, ARM
// saturates).
#include <cmath>
#include <cstdint>
#include <limits>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "POW";

struct PowOp {
  static constexpr const char* kName = kOp;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data);
};

TfLiteStatus PowOp::Eval(TfLiteContext* context, TfLiteNode* node,
                         const internal::BroadcastOpData& data) {
  const TfLiteTensor* exponent = internal::InputAt(context, node, 1);
  if (exponent->type == kTfLiteFloat32) {
    internal::MapBinary<float>(context, node, data,
                                          [](float a, float b) { return std::pow(a, b); });
    return kTfLiteOk;
  }
  for (int64_t i = 0, n = internal::NumElements(exponent); i < n; ++i) {
    if (exponent->data.i32[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: INT32 exponents must be >= 0, element %lld is %d", kOp,
                         static_cast<long long>(i), exponent->data.i32[i]);
      return kTfLiteError;
    }
  }
  internal::MapBinary<int32_t>(context, node, data, [](int32_t a, int32_t b) {
    const double r = std::pow(static_cast<double>(a), static_cast<double>(b));
    if (r >= 2147483647.0) return std::numeric_limits<int32_t>::max();
    if (r <= -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(r);
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_POW() { return internal::RegisterBinaryOp<PowOp>(); }

}  // namespace kernels
}  // namespace tflite_c

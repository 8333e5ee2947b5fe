// FLOOR_DIV: out = floor(x / y); FLOOR_MOD: out = x - floor(x / y) * y (the
// remainder takes the divisor's sign). Both broadcast x against y.
// FLOOR_DIV: FLOAT32, INT8, INT16, INT32; any zero divisor fails at Invoke.
// FLOOR_MOD: FLOAT32, INT8, INT16, INT32, INT64; integer zero divisors fail.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct FloorDivOp {
  static constexpr const char* kName = "FLOOR_DIV";
  static constexpr bool kFloatZeroIsError = true;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16,
                                               kTfLiteInt32};
  template <typename T>
  T operator()(T a, T b) const {
    // Computed in double as upstream, which is exact for these integer types.
    return static_cast<T>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
  }
};

struct FloorModOp {
  static constexpr const char* kName = "FLOOR_MOD";
  static constexpr bool kFloatZeroIsError = false;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt8, kTfLiteInt16,
                                               kTfLiteInt32, kTfLiteInt64};
  template <typename T>
  T operator()(T a, T b) const {
    T r;
    if constexpr (std::is_integral_v<T>) {
      // x % -1 is 0; skipping it also avoids the INT_MIN % -1 overflow.
      r = b == -1 ? T(0) : static_cast<T>(a % b);
    } else {
      r = std::fmod(a, b);
    }
    return (r != 0 && ((b < 0) != (r < 0))) ? static_cast<T>(r + b) : r;
  }
};

template <typename Op, typename T>
TfLiteStatus Run(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* divisor = internal::InputAt(context, node, 1);
  if (std::is_integral_v<T> || Op::kFloatZeroIsError) {
    const T* d = static_cast<const T*>(divisor->data.data);
    for (int64_t i = 0, n = internal::NumElements(divisor); i < n; ++i) {
      if (d[i] == 0) {
        TF_LITE_KERNEL_LOG(context, "%s: division by zero (divisor element %lld)", Op::kName,
                           static_cast<long long>(i));
        return kTfLiteError;
      }
    }
  }
  internal::MapBinary<T>(
      context, node, *static_cast<const internal::BroadcastOpData*>(node->user_data), Op());
  return kTfLiteOk;
}

template <typename Op>
TfLiteStatus EvalFloor(TfLiteContext* context, TfLiteNode* node) {
  switch (internal::OutputAt(context, node, 0)->type) {
    case kTfLiteFloat32:
      return Run<Op, float>(context, node);
    case kTfLiteInt8:
      return Run<Op, int8_t>(context, node);
    case kTfLiteInt16:
      return Run<Op, int16_t>(context, node);
    case kTfLiteInt32:
      return Run<Op, int32_t>(context, node);
    case kTfLiteInt64:
      return Run<Op, int64_t>(context, node);
    default:
      return internal::UnsupportedType(context, Op::kName, "output",
                                       internal::OutputAt(context, node, 0)->type);
  }
}

template <typename Op>
struct Described : Op {
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData&) {
    return EvalFloor<Op>(context, node);
  }
};

}  // namespace

const TfLiteRegistration* Register_FLOOR_DIV() { return internal::RegisterBinaryOp<Described<FloorDivOp>>(); }
const TfLiteRegistration* Register_FLOOR_MOD() { return internal::RegisterBinaryOp<Described<FloorModOp>>(); }

}  // namespace kernels
}  // namespace tflite_c

// StableHLO's element-wise binary ops: two operands of one shape and one type
// (no broadcasting), an output of the same type and shape.
//   STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM:
//     FLOAT16, FLOAT32, FLOAT64, INT8, INT16, INT32, INT64, UINT8, UINT16,
//     UINT32, UINT64 and BOOL (as upstream). Integers wrap around on
//     overflow; on BOOL, ADD and MAXIMUM are OR, MULTIPLY and MINIMUM AND.
//     MAXIMUM and MINIMUM return the first operand unless the second compares
//     greater (smaller), so a NaN first operand wins and a NaN second one
//     loses, as upstream's std::max / std::min.
//   STABLEHLO_AND: the same integer types and BOOL; bitwise (logical on BOOL).
//   STABLEHLO_SHIFT_LEFT: INT8, INT16, INT32 (as upstream). A shift outside
//     [0, bits) gives 0, as the StableHLO spec says (upstream leaves it to
//     C++, where it is undefined).
#include <Eigen/Core>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/elementwise_binary.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct AddFn {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return internal::WrappingAdd(a, b);
    }
  }
};
struct MultiplyFn {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return internal::WrappingMul(a, b);
    }
  }
};
struct MaximumFn {
  template <typename T>
  T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
struct MinimumFn {
  template <typename T>
  T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct AndFn {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(a & b);
    } else {
      return a;  // floating types are refused in Prepare
    }
  }
};
struct ShiftLeftFn {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      constexpr int64_t kBits = sizeof(T) * CHAR_BIT;
      const int64_t shift = static_cast<int64_t>(b);
      if (shift < 0 || shift >= kBits) return T(0);
      using U = internal::WrappingType<T>;
      return static_cast<T>(static_cast<U>(a) << shift);
    } else {
      return a;  // only integer types pass Prepare
    }
  }
};

// Runs `fn` on the element type of the output (which Prepare has checked).
template <typename Fn>
TfLiteStatus EvalOnType(TfLiteContext* context, TfLiteNode* node,
                        const internal::BroadcastOpData& data, const char* op, Fn fn) {
  const TfLiteType type = internal::OutputAt(context, node, 0)->type;
  auto run = [&](auto zero) {
    using T = decltype(zero);
    internal::MapBinary<T>(context, node, data, [&](T a, T b) { return fn(a, b); });
    return kTfLiteOk;
  };
  switch (type) {
    case kTfLiteFloat16: return run(Eigen::half());
    case kTfLiteFloat32: return run(float());
    case kTfLiteFloat64: return run(double());
    case kTfLiteInt8: return run(int8_t());
    case kTfLiteInt16: return run(int16_t());
    case kTfLiteInt32: return run(int32_t());
    case kTfLiteInt64: return run(int64_t());
    case kTfLiteUInt8: return run(uint8_t());
    case kTfLiteUInt16: return run(uint16_t());
    case kTfLiteUInt32: return run(uint32_t());
    case kTfLiteUInt64: return run(uint64_t());
    case kTfLiteBool:  // as bytes: any non-zero byte is true (see BoolAt)
      internal::MapBinary<uint8_t>(context, node, data, [&](uint8_t a, uint8_t b) -> uint8_t {
        return fn(a != 0, b != 0);
      });
      return kTfLiteOk;
    default: return internal::UnsupportedType(context, op, "output", type);
  }
}

#define TFLITE_C_STABLEHLO_INTEGER_TYPES                                                 \
  kTfLiteInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8, kTfLiteUInt16, \
      kTfLiteUInt32, kTfLiteUInt64, kTfLiteBool

struct AllTypes {
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat16, kTfLiteFloat32, kTfLiteFloat64,
                                               TFLITE_C_STABLEHLO_INTEGER_TYPES};
};
struct IntegerTypes {
  static constexpr internal::TypeSet kTypes = {TFLITE_C_STABLEHLO_INTEGER_TYPES};
};
struct ShiftTypes {
  static constexpr internal::TypeSet kTypes = {kTfLiteInt8, kTfLiteInt16, kTfLiteInt32};
};

#undef TFLITE_C_STABLEHLO_INTEGER_TYPES

constexpr char kAdd[] = "STABLEHLO_ADD";
constexpr char kMultiply[] = "STABLEHLO_MULTIPLY";
constexpr char kMaximum[] = "STABLEHLO_MAXIMUM";
constexpr char kMinimum[] = "STABLEHLO_MINIMUM";
constexpr char kAnd[] = "STABLEHLO_AND";
constexpr char kShiftLeft[] = "STABLEHLO_SHIFT_LEFT";

// The registration's view of one op: its name, types and function.
template <const char* kOpName, typename Fn, typename Types>
struct StablehloBinary {
  static constexpr const char* kName = kOpName;
  static constexpr bool kBroadcasts = false;
  static constexpr internal::TypeSet kTypes = Types::kTypes;
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data) {
    return EvalOnType(context, node, data, kName, Fn());
  }
};

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_ADD() {
  return internal::RegisterBinaryOp<StablehloBinary<kAdd, AddFn, AllTypes>>();
}
const TfLiteRegistration* Register_STABLEHLO_MULTIPLY() {
  return internal::RegisterBinaryOp<StablehloBinary<kMultiply, MultiplyFn, AllTypes>>();
}
const TfLiteRegistration* Register_STABLEHLO_MAXIMUM() {
  return internal::RegisterBinaryOp<StablehloBinary<kMaximum, MaximumFn, AllTypes>>();
}
const TfLiteRegistration* Register_STABLEHLO_MINIMUM() {
  return internal::RegisterBinaryOp<StablehloBinary<kMinimum, MinimumFn, AllTypes>>();
}
const TfLiteRegistration* Register_STABLEHLO_AND() {
  return internal::RegisterBinaryOp<StablehloBinary<kAnd, AndFn, IntegerTypes>>();
}
const TfLiteRegistration* Register_STABLEHLO_SHIFT_LEFT() {
  return internal::RegisterBinaryOp<
      StablehloBinary<kShiftLeft, ShiftLeftFn, ShiftTypes>>();
}

}  // namespace kernels
}  // namespace tflite_c

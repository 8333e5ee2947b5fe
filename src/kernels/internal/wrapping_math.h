// Integer arithmetic that wraps around on overflow (two's complement) instead
// of being undefined behaviour; float arithmetic is plain IEEE. Types
// narrower than int are computed in unsigned int, never in the (signed) int
// they would be promoted to. Used by ADD, SUB, MUL, the reductions, CUMSUM,
// ADD_N, SCATTER_ND and the segment sums.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_WRAPPING_MATH_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_WRAPPING_MATH_H_

#include <type_traits>

namespace tflite_c {
namespace kernels {
namespace internal {

template <typename T>
using WrappingType = std::common_type_t<std::make_unsigned_t<T>, unsigned>;

template <typename T>
inline T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = WrappingType<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
inline T WrappingSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = WrappingType<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <typename T>
inline T WrappingMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = WrappingType<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_WRAPPING_MATH_H_

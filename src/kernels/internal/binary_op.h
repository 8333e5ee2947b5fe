// The shared body of broadcasting elementwise ops with a fused activation
// (ADD, SUB, MUL): each op file only supplies its arithmetic.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_

#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct BinaryOpData {
  BroadcastPlan plan;
};

// Checks two inputs of one supported type (FLOAT32, INT32, INT64), an output
// of the same type and broadcast-compatible shapes, then sizes the output.
TfLiteStatus PrepareBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op);

// Integer arithmetic wraps around on overflow (two's complement) instead of
// being undefined behaviour; float arithmetic is plain IEEE.
template <typename T>
inline T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
inline T WrappingSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <typename T>
inline T WrappingMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename T, typename Fn>
void RunBinaryOp(const BinaryOpData& data, const TfLiteTensor* a, const TfLiteTensor* b,
                 TfLiteTensor* out, TfLiteFusedActivation activation, Fn fn) {
  const ActivationRange<T> range = GetActivationRange<T>(activation);
  BroadcastBinary<T>(data.plan, static_cast<const T*>(a->data.data),
                     static_cast<const T*>(b->data.data), static_cast<T*>(out->data.data),
                     [&](T x, T y) { return ApplyRange<T>(fn(x, y), range); });
}

// `Fn` is a functor with a templated `T operator()(T, T)`.
template <typename Fn>
TfLiteStatus EvalBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                          TfLiteFusedActivation activation, Fn fn) {
  const auto& data = *static_cast<const BinaryOpData*>(node->user_data);
  const TfLiteTensor* a = InputAt(context, node, 0);
  const TfLiteTensor* b = InputAt(context, node, 1);
  TfLiteTensor* out = OutputAt(context, node, 0);
  switch (out->type) {
    case kTfLiteFloat32:
      RunBinaryOp<float>(data, a, b, out, activation, [&](float x, float y) { return fn(x, y); });
      return kTfLiteOk;
    case kTfLiteInt32:
      RunBinaryOp<int32_t>(data, a, b, out, activation,
                           [&](int32_t x, int32_t y) { return fn(x, y); });
      return kTfLiteOk;
    case kTfLiteInt64:
      RunBinaryOp<int64_t>(data, a, b, out, activation,
                           [&](int64_t x, int64_t y) { return fn(x, y); });
      return kTfLiteOk;
    default:
      return UnsupportedType(context, op, "output", out->type);
  }
}

// The registration of an op described by `Op`: a functor with a templated
// `T operator()(T, T)`, a `static constexpr const char* kName` and a
// `Params` type (its builtin params struct, which has an `activation`).
template <typename Op>
const TfLiteRegistration* RegisterBinaryOp() {
  static const TfLiteRegistration registration = MakeRegistration(
      InitOpData<BinaryOpData>, FreeOpData<BinaryOpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        return PrepareBinaryOp(context, node, Op::kName);
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        const auto* params = static_cast<const typename Op::Params*>(node->builtin_data);
        const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
        return EvalBinaryOp(context, node, Op::kName, activation, Op());
      });
  return &registration;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_

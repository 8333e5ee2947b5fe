// The shared body of broadcasting elementwise ops with a fused activation
// (ADD, SUB, MUL): each op file only supplies its arithmetic. Quantized
// tensors (int8, uint8, int16) go through quant_binary.h.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_

#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_binary.h"
#include "src/kernels/internal/wrapping_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct BinaryOpData {
  BroadcastPlan plan;
  QuantBinaryParams quant;  // for int8, uint8 and int16 tensors
};

// Checks two inputs of one supported type (FLOAT32, INT32, INT64, or
// quantized INT8, UINT8, INT16), an output of the same type and
// broadcast-compatible shapes, then sizes the output. `pot_scale_int16` is
// the builtin flag of ADD and SUB (false for MUL).
TfLiteStatus PrepareBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                             QuantBinaryKind kind, TfLiteFusedActivation activation,
                             bool pot_scale_int16);

template <typename T, typename Fn>
void RunBinaryOp(const BinaryOpData& data, const TfLiteTensor* a, const TfLiteTensor* b,
                 TfLiteTensor* out, TfLiteFusedActivation activation, Fn fn) {
  const ActivationRange<T> range = GetActivationRange<T>(activation);
  BroadcastBinary<T>(data.plan, static_cast<const T*>(a->data.data),
                     static_cast<const T*>(b->data.data), static_cast<T*>(out->data.data),
                     [&](T x, T y) { return ApplyRange<T>(fn(x, y), range); });
}

template <typename T>
TfLiteStatus RunQuantBinaryOp(const BinaryOpData& data, QuantBinaryKind kind, const TfLiteTensor* a,
                              const TfLiteTensor* b, TfLiteTensor* out) {
  EvalQuantBinary<T>(kind, data.quant, data.plan, static_cast<const T*>(a->data.data),
                     static_cast<const T*>(b->data.data), static_cast<T*>(out->data.data));
  return kTfLiteOk;
}

// `Fn` is a functor with a templated `T operator()(T, T)`.
template <typename Fn>
TfLiteStatus EvalBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                          QuantBinaryKind kind, TfLiteFusedActivation activation, Fn fn) {
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
    case kTfLiteInt8:
      return RunQuantBinaryOp<int8_t>(data, kind, a, b, out);
    case kTfLiteUInt8:
      return RunQuantBinaryOp<uint8_t>(data, kind, a, b, out);
    case kTfLiteInt16:
      return RunQuantBinaryOp<int16_t>(data, kind, a, b, out);
    default:
      return UnsupportedType(context, op, "output", out->type);
  }
}

template <typename Params>
bool PotScaleInt16(const Params* params) {
  if constexpr (std::is_same_v<Params, TfLiteMulParams>) {
    return false;
  } else {
    return params == nullptr || params->pot_scale_int16;
  }
}

// The registration of an op described by `Op`: a functor with a templated
// `T operator()(T, T)`, a `static constexpr const char* kName`, a
// `static constexpr QuantBinaryKind kQuantKind` and a `Params` type (its
// builtin params struct, which has an `activation`).
template <typename Op>
const TfLiteRegistration* RegisterBinaryOp() {
  static const TfLiteRegistration registration = MakeRegistration(
      InitOpData<BinaryOpData>, FreeOpData<BinaryOpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        const auto* params = static_cast<const typename Op::Params*>(node->builtin_data);
        const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
        return PrepareBinaryOp(context, node, Op::kName, Op::kQuantKind, activation,
                               PotScaleInt16(params));
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        const auto* params = static_cast<const typename Op::Params*>(node->builtin_data);
        const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
        return EvalBinaryOp(context, node, Op::kName, Op::kQuantKind, activation, Op());
      });
  return &registration;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_BINARY_OP_H_

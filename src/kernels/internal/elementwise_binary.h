// The scaffold of element-wise ops over broadcast inputs. Binary ops whose two
// inputs share one type register through RegisterBinaryOp: ADD, SUB, MUL,
// DIV, POW, ATAN2, MAXIMUM/MINIMUM, FLOOR_DIV/FLOOR_MOD, SQUARED_DIFFERENCE,
// PRELU, the bitwise and logical ops, StableHLO's element-wise ops and the
// comparisons (T x T -> BOOL). SELECT_V2 (three inputs) calls
// PrepareBroadcastOp and walks the output with ForEachBroadcast.
//
// How to add a binary op to the family:
//  1. In the op's file, describe the op with a struct:
//       struct HypotOp {
//         static constexpr const char* kName = "HYPOT";
//         static constexpr TypeSet kTypes = {kTfLiteFloat32};  // accepted input types
//         static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
//                                  const BroadcastOpData& data) {
//           MapBinary<float>(context, node, data,
//                            [](float x, float y) { return std::hypot(x, y); });
//           return kTfLiteOk;
//         }
//       };
//     The scaffold's Prepare checks two inputs and one output of one type in
//     kTypes and broadcast-compatible shapes (rank <= kMaxBroadcastRank),
//     sizes the output and plans the broadcast that MapBinary walks.
//  2. Optional members:
//     - `using Data = ...;` a struct deriving from BroadcastOpData for
//       per-node state (the default is BroadcastOpData itself).
//     - `static TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*, Data*)`,
//       run after the common checks (options, quantization).
//     - `static constexpr bool kBroadcasts = false;` the inputs must have one
//       shape (checked before broadcasting).
//     - `static constexpr const char* kInputNames[2] = {"y", "x"};` names of
//       the inputs in messages (default "input 0" / "input 1").
//     - `static constexpr bool kQuantizedOutputTakesInputType = true;` a
//       quantized op's output gets the inputs' type whatever the model says.
//     - `static constexpr TfLiteType kOutputType = kTfLiteBool;` an output
//       type other than the inputs' (comparisons); Eval then walks the
//       output with ForEachBroadcast over data.nary.
//     Ops with a fused activation and upstream's quantized ADD/SUB/MUL
//     arithmetic derive from FusedArithmeticOp (below) and supply only the
//     arithmetic.
//  3. Register it: `return RegisterBinaryOp<HypotOp>();` from Register_HYPOT(),
//     declared in the op group's register_*.h and listed in its table.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_

#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/op_description.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/quant_binary.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

constexpr int kMaxNaryInputs = 3;

// Element strides of each input over the output's dimensions (0 where the
// input is broadcast).
struct NaryBroadcast {
  int num_inputs = 0;
  int rank = 0;
  int64_t dims[kMaxBroadcastRank] = {0};
  int64_t strides[kMaxNaryInputs][kMaxBroadcastRank] = {{0}};
};

// Plans of an element-wise op over inputs [first, first + count) of a node.
struct BroadcastOpData {
  NaryBroadcast nary;
  BroadcastPlan plan;  // of the first two inputs
};

// Checks `count` inputs starting at `first` (count <= kMaxNaryInputs) for
// rank <= kMaxBroadcastRank and broadcast-compatible shapes, resizes output 0
// to the broadcast shape and fills `data`. Types are the caller's business.
TfLiteStatus PrepareBroadcastOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                int first, int count, BroadcastOpData* data);

// What the common Prepare of a binary op checks (see the top of this file).
struct BinaryOpSpec {
  const char* name;
  TypeSet types;
  const char* const* input_names = nullptr;  // two names, or null
  bool broadcasts = true;
  bool quantized_output_takes_input_type = false;
  TfLiteType output_type = kTfLiteNoType;  // when not the inputs' type
};

// Checks arity (2 inputs, 1 output), the inputs' type against spec.types, the
// output's type (the inputs' or spec.output_type), the shapes, then as
// PrepareBroadcastOp over inputs 0 and 1.
TfLiteStatus PrepareBinaryOp(TfLiteContext* context, TfLiteNode* node, const BinaryOpSpec& spec,
                             BroadcastOpData* data);

// out = fn(a, b) elementwise over the plan of PrepareBinaryOp.
template <typename T, typename Fn>
void MapBinary(TfLiteContext* context, const TfLiteNode* node, const BroadcastOpData& data,
               Fn fn) {
  BroadcastBinary<T>(data.plan, static_cast<const T*>(InputAt(context, node, 0)->data.data),
                     static_cast<const T*>(InputAt(context, node, 1)->data.data),
                     static_cast<T*>(OutputAt(context, node, 0)->data.data), fn);
}

// Calls fn(out_index, in_index) for every output element in order, where
// in_index[i] is the matching element of input i.
template <typename Fn>
void ForEachBroadcast(const NaryBroadcast& b, Fn fn) {
  int64_t total = 1;
  for (int d = 0; d < b.rank; ++d) total *= b.dims[d];
  int64_t counter[kMaxBroadcastRank] = {0};
  int64_t in[kMaxNaryInputs] = {0};
  for (int64_t o = 0; o < total; ++o) {
    fn(o, static_cast<const int64_t*>(in));
    for (int d = b.rank - 1; d >= 0; --d) {
      for (int i = 0; i < b.num_inputs; ++i) in[i] += b.strides[i][d];
      if (++counter[d] < b.dims[d]) break;
      for (int i = 0; i < b.num_inputs; ++i) in[i] -= b.strides[i][d] * b.dims[d];
      counter[d] = 0;
    }
  }
}

// ---- ops with a fused activation: ADD, SUB, MUL ---------------------------------

struct FusedArithmeticData : BroadcastOpData {
  QuantBinaryParams quant;  // INT8, UINT8 and INT16
};

// A binary op with a fused activation over FLOAT32, INT32 and INT64 (integers
// wrap around) and upstream's quantized arithmetic over INT8, UINT8 and INT16
// (quant_binary.h). `Derived` supplies kName, `kQuantKind`, `Params` (its
// builtin params struct, which has an `activation`) and
// `template <typename T> static T Apply(T, T)`.
template <typename Derived>
struct FusedArithmeticOp {
  static constexpr TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64,
                                     kTfLiteInt8,    kTfLiteUInt8, kTfLiteInt16};
  // Some converted models declare a FLOAT32 output for quantized inputs.
  static constexpr bool kQuantizedOutputTakesInputType = true;
  using Data = FusedArithmeticData;

  static auto ParamsOf(const TfLiteNode* node) {
    return static_cast<const typename Derived::Params*>(node->builtin_data);
  }
  static TfLiteFusedActivation Activation(const TfLiteNode* node) {
    return ParamsOf(node)->activation;
  }
  // The builtin flag of ADD and SUB (MUL has none).
  static bool PotScaleInt16(const TfLiteNode* node) {
    if constexpr (std::is_same_v<typename Derived::Params, TfLiteMulParams>) {
      return false;
    } else {
      return ParamsOf(node)->pot_scale_int16;
    }
  }

  static TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, Data* data) {
    TF_LITE_ENSURE_OK(context, RequireParams(context, node, Derived::kName));
    const TfLiteTensor* a = InputAt(context, node, 0);
    if (!IsQuantizedType(a->type)) return kTfLiteOk;
    return PrepareQuantBinary(context, Derived::kName, Derived::kQuantKind, a,
                              InputAt(context, node, 1), OutputAt(context, node, 0),
                              Activation(node), PotScaleInt16(node), &data->quant);
  }

  template <typename T>
  static TfLiteStatus EvalPlain(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    const ActivationRange<T> range = GetActivationRange<T>(Activation(node));
    MapBinary<T>(context, node, data,
                 [range](T x, T y) { return ApplyRange<T>(Derived::Apply(x, y), range); });
    return kTfLiteOk;
  }
  template <typename T>
  static TfLiteStatus EvalQuantized(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    const T* a = static_cast<const T*>(InputAt(context, node, 0)->data.data);
    const T* b = static_cast<const T*>(InputAt(context, node, 1)->data.data);
    T* out = static_cast<T*>(OutputAt(context, node, 0)->data.data);
    const BroadcastPlan& plan = data.plan;
    // Same-shape inputs (one flat run after collapsing) split into ranges.
    // Requantizing one element costs about kQuantElementCost multiply-adds.
    constexpr int64_t kQuantElementCost = 24;
    const bool flat = plan.rank == 1 && plan.stride_a[0] == 1 && plan.stride_b[0] == 1;
    const int threads =
        flat ? ThreadsForWork(KernelThreads(context), plan.dims[0] * kQuantElementCost) : 1;
    if (threads > 1) {
      ParallelFor(threads, plan.dims[0], [&](int64_t begin, int64_t end) {
        BroadcastPlan part = plan;
        part.dims[0] = end - begin;
        EvalQuantBinary<T>(Derived::kQuantKind, data.quant, part, a + begin, b + begin,
                           out + begin);
      });
      return kTfLiteOk;
    }
    EvalQuantBinary<T>(Derived::kQuantKind, data.quant, plan, a, b, out);
    return kTfLiteOk;
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const Data& data) {
    switch (OutputAt(context, node, 0)->type) {
      case kTfLiteFloat32: return EvalPlain<float>(context, node, data);
      case kTfLiteInt32: return EvalPlain<int32_t>(context, node, data);
      case kTfLiteInt64: return EvalPlain<int64_t>(context, node, data);
      case kTfLiteInt8: return EvalQuantized<int8_t>(context, node, data);
      case kTfLiteUInt8: return EvalQuantized<uint8_t>(context, node, data);
      default: return EvalQuantized<int16_t>(context, node, data);
    }
  }
};

// ---- registration -----------------------------------------------------------------

template <typename Op>
using BinaryDataOf = typename DataOf<Op, BroadcastOpData>::type;

// The optional members of an op description, with their defaults.
template <typename Op, typename = void>
struct InputNamesOf {
  static constexpr const char* const* value = nullptr;
};
template <typename Op>
struct InputNamesOf<Op, std::void_t<decltype(Op::kInputNames)>> {
  static constexpr const char* const* value = Op::kInputNames;
};
template <typename Op, typename = void>
struct BroadcastsOf : std::true_type {};
template <typename Op>
struct BroadcastsOf<Op, std::void_t<decltype(Op::kBroadcasts)>>
    : std::bool_constant<Op::kBroadcasts> {};
template <typename Op, typename = void>
struct QuantizedOutputTakesInputTypeOf : std::false_type {};
template <typename Op>
struct QuantizedOutputTakesInputTypeOf<
    Op, std::void_t<decltype(Op::kQuantizedOutputTakesInputType)>>
    : std::bool_constant<Op::kQuantizedOutputTakesInputType> {};

template <typename Op, typename = void>
struct OutputTypeOf : std::integral_constant<TfLiteType, kTfLiteNoType> {};
template <typename Op>
struct OutputTypeOf<Op, std::void_t<decltype(Op::kOutputType)>>
    : std::integral_constant<TfLiteType, Op::kOutputType> {};

template <typename Op>
BinaryOpSpec BinarySpecOf() {
  BinaryOpSpec spec{Op::kName, Op::kTypes};
  spec.input_names = InputNamesOf<Op>::value;
  spec.broadcasts = BroadcastsOf<Op>::value;
  spec.quantized_output_takes_input_type = QuantizedOutputTakesInputTypeOf<Op>::value;
  spec.output_type = OutputTypeOf<Op>::value;
  return spec;
}

template <typename Op>
TfLiteStatus PrepareBinaryNode(TfLiteContext* context, TfLiteNode* node) {
  using Data = BinaryDataOf<Op>;
  static_assert(std::is_base_of_v<BroadcastOpData, Data>,
                "Op::Data must derive from BroadcastOpData");
  auto* data = static_cast<Data*>(node->user_data);
  TF_LITE_ENSURE_OK(context, PrepareBinaryOp(context, node, BinarySpecOf<Op>(), data));
  if constexpr (HasPrepareHook<Op>::value) return Op::Prepare(context, node, data);
  return kTfLiteOk;
}

template <typename Op>
TfLiteStatus EvalBinaryNode(TfLiteContext* context, TfLiteNode* node) {
  return Op::Eval(context, node, *static_cast<const BinaryDataOf<Op>*>(node->user_data));
}

// The registration of the op described by `Op` (see the top of this file).
template <typename Op>
const TfLiteRegistration* RegisterBinaryOp() {
  return RegisterWithData<BinaryDataOf<Op>, PrepareBinaryNode<Op>, EvalBinaryNode<Op>>();
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_

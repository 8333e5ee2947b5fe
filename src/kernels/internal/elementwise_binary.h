// Broadcasting for element-wise ops whose inputs and output differ in type
// (comparisons: T x T -> BOOL) or that have three inputs (SELECT_V2). Ops
// whose inputs and output share one type use BroadcastBinary (broadcast.h),
// which is faster; PrepareBroadcastOp computes the plans for both.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_

#include <cstdint>
#include <type_traits>

#include "src/kernels/internal/broadcast.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"

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

// For ops whose two inputs and output share one type, which must be in
// `types`: checks arity (2 inputs, 1 output) and types, then as above.
TfLiteStatus PrepareSameTypeBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                     TypeSet types, BroadcastOpData* data);

// out = fn(a, b) elementwise over the plan of PrepareSameTypeBinaryOp.
template <typename T, typename Fn>
void EvalSameTypeBinaryOp(TfLiteContext* context, const TfLiteNode* node,
                          const BroadcastOpData& data, Fn fn) {
  BroadcastBinary<T>(data.plan, static_cast<const T*>(InputAt(context, node, 0)->data.data),
                     static_cast<const T*>(InputAt(context, node, 1)->data.data),
                     static_cast<T*>(OutputAt(context, node, 0)->data.data), fn);
}

// Refuses inputs 0 and 1 of different shapes (ops that do not broadcast).
TfLiteStatus CheckSameShapeInputs(TfLiteContext* context, const TfLiteNode* node, const char* op);

// Whether an op description broadcasts: yes unless it declares
// `static constexpr bool kBroadcasts = false` (StableHLO's element-wise ops).
template <typename Op, typename = void>
struct Broadcasts : std::true_type {};
template <typename Op>
struct Broadcasts<Op, std::void_t<decltype(Op::kBroadcasts)>>
    : std::bool_constant<Op::kBroadcasts> {};

// The registration of a same-type binary op described by `Op`: `kName`,
// `kTypes` (a TypeSet), optionally `kBroadcasts` (above), and
// `static TfLiteStatus Eval(TfLiteContext*, TfLiteNode*, const BroadcastOpData&)`.
template <typename Op>
const TfLiteRegistration* RegisterSameTypeBinaryOp() {
  static const TfLiteRegistration r = MakeRegistration(
      InitOpData<BroadcastOpData>, FreeOpData<BroadcastOpData>,
      [](TfLiteContext* context, TfLiteNode* node) {
        TF_LITE_ENSURE_OK(context,
                          PrepareSameTypeBinaryOp(context, node, Op::kName, Op::kTypes,
                                                  static_cast<BroadcastOpData*>(node->user_data)));
        if constexpr (!Broadcasts<Op>::value) {
          return CheckSameShapeInputs(context, node, Op::kName);
        }
        return kTfLiteOk;
      },
      [](TfLiteContext* context, TfLiteNode* node) {
        return Op::Eval(context, node, *static_cast<const BroadcastOpData*>(node->user_data));
      });
  return &r;
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

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_ELEMENTWISE_BINARY_H_

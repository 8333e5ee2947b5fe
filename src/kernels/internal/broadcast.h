// NumPy-style broadcasting of two tensors for elementwise binary ops.
//
// Prepare computes a BroadcastPlan once: dimensions of size 1 in the output
// are dropped and neighbouring dimensions that broadcast the same way are
// merged, so Eval walks at most a few nested loops whose innermost one is a
// plain (vectorizable) loop with input strides 0 or 1.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_BROADCAST_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_BROADCAST_H_

#include <cstdint>

#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Highest input rank the binary ops accept (upstream allows 6).
constexpr int kMaxBroadcastRank = 6;

struct BroadcastPlan {
  int rank = 1;  // >= 1 after collapsing
  int64_t dims[kMaxBroadcastRank] = {1};
  int64_t stride_a[kMaxBroadcastRank] = {0};  // 0 along broadcast dims
  int64_t stride_b[kMaxBroadcastRank] = {0};
};

// Plan for inputs shaped `a` and `b` whose broadcast shape is `out`.
BroadcastPlan MakeBroadcastPlan(const TfLiteIntArray* a, const TfLiteIntArray* b,
                                const TfLiteIntArray* out);

// Calls row(pa, step_a, pb, step_b, n, out) for each innermost run of the
// output following `plan`, in order: out[i] pairs pa[i * step_a] with
// pb[i * step_b] for i < n (steps are 0 or 1 for row-major inputs).
template <typename T, typename Row>
void BroadcastRows(const BroadcastPlan& plan, const T* a, const T* b, T* out, Row row) {
  const int last = plan.rank - 1;
  const int64_t inner = plan.dims[last];
  const int64_t sa = plan.stride_a[last];
  const int64_t sb = plan.stride_b[last];
  int64_t outer = 1;
  for (int d = 0; d < last; ++d) outer *= plan.dims[d];
  if (inner == 0 || outer == 0) return;

  int64_t index[kMaxBroadcastRank] = {0};
  int64_t off_a = 0, off_b = 0;
  for (int64_t o = 0; o < outer; ++o) {
    row(a + off_a, sa, b + off_b, sb, inner, out);
    out += inner;
    // Advance the odometer over the outer dimensions.
    for (int d = last - 1; d >= 0; --d) {
      off_a += plan.stride_a[d];
      off_b += plan.stride_b[d];
      if (++index[d] < plan.dims[d]) break;
      off_a -= plan.stride_a[d] * plan.dims[d];
      off_b -= plan.stride_b[d] * plan.dims[d];
      index[d] = 0;
    }
  }
}

// out[i] = op(a[ia], b[ib]) over the whole output following `plan`.
template <typename T, typename Op>
void BroadcastBinary(const BroadcastPlan& plan, const T* a, const T* b, T* out, Op op) {
  BroadcastRows<T>(plan, a, b, out,
                   [&op](const T* pa, int64_t sa, const T* pb, int64_t sb, int64_t n, T* o) {
                     if (sa == 1 && sb == 1) {
                       for (int64_t i = 0; i < n; ++i) o[i] = op(pa[i], pb[i]);
                     } else if (sa == 0 && sb == 1) {
                       const T va = pa[0];
                       for (int64_t i = 0; i < n; ++i) o[i] = op(va, pb[i]);
                     } else if (sa == 1 && sb == 0) {
                       const T vb = pb[0];
                       for (int64_t i = 0; i < n; ++i) o[i] = op(pa[i], vb);
                     } else {
                       for (int64_t i = 0; i < n; ++i) o[i] = op(pa[i * sa], pb[i * sb]);
                     }
                   });
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_BROADCAST_H_

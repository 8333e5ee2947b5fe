#include "src/kernels/internal/broadcast.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Size of dimension `d` of `shape` once right-aligned to `rank` dimensions.
int AlignedDim(const TfLiteIntArray* shape, int rank, int d) {
  const int i = d - (rank - shape->size);
  return i < 0 ? 1 : shape->data[i];
}

}  // namespace

BroadcastPlan MakeBroadcastPlan(const TfLiteIntArray* a, const TfLiteIntArray* b,
                                const TfLiteIntArray* out) {
  BroadcastPlan plan;
  const int rank = out->size;
  bool a_bcast[kMaxBroadcastRank];
  bool b_bcast[kMaxBroadcastRank];
  int merged = 0;
  for (int d = 0; d < rank; ++d) {
    const int n = out->data[d];
    if (n == 0) {
      // Empty output: nothing will be computed.
      plan.rank = 1;
      plan.dims[0] = 0;
      return plan;
    }
    if (n == 1) continue;  // contributes nothing to any index
    const bool ab = AlignedDim(a, rank, d) == 1;
    const bool bb = AlignedDim(b, rank, d) == 1;
    if (merged > 0 && a_bcast[merged - 1] == ab && b_bcast[merged - 1] == bb) {
      plan.dims[merged - 1] *= n;
    } else {
      a_bcast[merged] = ab;
      b_bcast[merged] = bb;
      plan.dims[merged] = n;
      ++merged;
    }
  }
  if (merged == 0) {
    // Every dimension is 1: a single element.
    plan.rank = 1;
    plan.dims[0] = 1;
    plan.stride_a[0] = 0;
    plan.stride_b[0] = 0;
    return plan;
  }
  plan.rank = merged;
  int64_t extent_a = 1, extent_b = 1;
  for (int d = merged - 1; d >= 0; --d) {
    plan.stride_a[d] = a_bcast[d] ? 0 : extent_a;
    plan.stride_b[d] = b_bcast[d] ? 0 : extent_b;
    if (!a_bcast[d]) extent_a *= plan.dims[d];
    if (!b_bcast[d]) extent_b *= plan.dims[d];
  }
  return plan;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

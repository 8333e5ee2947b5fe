#include "src/kernels/internal/gemm.h"

#include <Eigen/Core>
#include <algorithm>

#include "src/kernels/internal/gemm_avx2.h"
#include "src/kernels/internal/parallel.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;
using MutableMap = Eigen::Map<RowMajor, Eigen::Unaligned, Eigen::OuterStride<>>;
using ConstRowVec = Eigen::Map<const Eigen::RowVectorXf>;
using MutableRowVec = Eigen::Map<Eigen::RowVectorXf>;

ConstMap View(const ConstMatrix& m) {
  return ConstMap(m.data, m.rows, m.cols, Eigen::OuterStride<>(m.stride));
}
MutableMap View(const MutableMatrix& m) {
  return MutableMap(m.data, m.rows, m.cols, Eigen::OuterStride<>(m.stride));
}

// Single-threaded product of one block.
void MultiplyBlock(const ConstMatrix& lhs, const ConstMatrix& rhs, const MutableMatrix& out,
                   const float* packed_rhs) {
  if (out.rows == 0 || out.cols == 0) return;
  if (lhs.cols == 0) {
    View(out).setZero();
    return;
  }
  if (MultiplyBlockAvx2(lhs, rhs, out, packed_rhs)) return;
  if (lhs.rows == 1) {
    // Vector times matrix: let Eigen pick its GEMV kernel.
    MutableRowVec(out.data, out.cols).noalias() =
        ConstRowVec(lhs.data, lhs.cols) * View(rhs).transpose();
    return;
  }
  View(out).noalias() = View(lhs) * View(rhs).transpose();
}

}  // namespace

void MatMulTransposedRhs(ConstMatrix lhs, ConstMatrix rhs, MutableMatrix out, int num_threads,
                         const float* packed_rhs) {
  const int threads = ThreadsForWork(num_threads, out.rows * out.cols * lhs.cols);
  if (threads == 1) {
    MultiplyBlock(lhs, rhs, out, packed_rhs);
    return;
  }
  if (out.rows >= out.cols) {
    // Split lhs rows (and the matching output rows).
    ParallelFor(threads, out.rows, [&](int64_t begin, int64_t end) {
      ConstMatrix l{lhs.data + begin * lhs.stride, end - begin, lhs.cols, lhs.stride};
      MutableMatrix o{out.data + begin * out.stride, end - begin, out.cols, out.stride};
      MultiplyBlock(l, rhs, o, packed_rhs);
    });
  } else {
    // Split rhs rows (the output columns).
    ParallelFor(threads, out.cols, [&](int64_t begin, int64_t end) {
      ConstMatrix r{rhs.data + begin * rhs.stride, end - begin, rhs.cols, rhs.stride};
      MutableMatrix o{out.data + begin, out.rows, end - begin, out.stride};
      MultiplyBlock(lhs, r, o, nullptr);  // a column range is not a whole panel
    });
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

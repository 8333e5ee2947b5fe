// Float matrix multiply used by FULLY_CONNECTED and CONV_2D.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_H_

#include <cstdint>

namespace tflite_c {
namespace kernels {
namespace internal {

// A row-major matrix view: element (r, c) is data[r * stride + c].
struct ConstMatrix {
  const float* data;
  int64_t rows;
  int64_t cols;
  int64_t stride;
};
struct MutableMatrix {
  float* data;
  int64_t rows;
  int64_t cols;
  int64_t stride;
};

// out = lhs * rhs^T, i.e. out(i, j) = sum_k lhs(i, k) * rhs(j, k).
// This is the natural shape of both users: activations [batch x depth] times
// weights stored [units x depth]. Requires lhs.cols == rhs.cols,
// out.rows == lhs.rows and out.cols == rhs.rows. `out` is overwritten.
// Splits the larger of the two output dimensions over up to `num_threads`.
// `packed_rhs`, when not null, is rhs already packed by PackRhsForAvx2
// (gemm_avx2.h) for the AVX2 path, which then does not pack it again.
void MatMulTransposedRhs(ConstMatrix lhs, ConstMatrix rhs, MutableMatrix out, int num_threads,
                         const float* packed_rhs = nullptr);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_H_

// The float GEMM's AVX2 path (x86-64, picked at run time): out = lhs * rhs^T
// with rhs packed 16 columns at a time and 4 x 16 outputs accumulated in
// registers. Each output is the plain dot product: a sum from 0 over k in
// order, one multiply and one add per term (contraction is off), so results
// do not depend on the blocking, the thread split or the vector width.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_AVX2_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_AVX2_H_

#include <cstdint>

#include "src/kernels/internal/gemm.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Fewer lhs rows than this go to the general GEMM: packing rhs costs about
// as much as a few rows of products.
constexpr int64_t kMinAvx2Rows = 8;
// Deeper products go to the general GEMM too: a panel (depth x 16 floats) is
// transient memory outside the interpreter's allocation account, kept at
// 1 MB or less.
constexpr int64_t kMaxAvx2Depth = 16384;

// Whether this CPU runs the AVX2 path (false off x86-64).
bool Avx2GemmAvailable();

// Floats in rhs's packed form (PackRhsForAvx2): [rows rounded up to 16] x
// cols.
int64_t PackedRhsSize(int64_t rows, int64_t cols);

// Writes rhs in the AVX2 path's panel layout (PackedRhsSize floats): panel p
// holds rhs rows 16p..16p+15 k-major, zeros past the last row. A constant
// rhs (a filter) packed once spares every product packing it again.
void PackRhsForAvx2(const ConstMatrix& rhs, float* packed);

// Computes out = lhs * rhs^T and returns true on a CPU with AVX2 (and lhs
// at least kMinAvx2Rows rows, depth in [1, kMaxAvx2Depth]); returns false, out untouched,
// otherwise (the caller then uses its general GEMM). `packed_rhs`, when not
// null, is rhs packed by PackRhsForAvx2 (rhs.data is then not read).
bool MultiplyBlockAvx2(const ConstMatrix& lhs, const ConstMatrix& rhs, const MutableMatrix& out,
                       const float* packed_rhs = nullptr);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_GEMM_AVX2_H_

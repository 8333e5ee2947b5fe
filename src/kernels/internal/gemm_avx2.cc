#include "src/kernels/internal/gemm_avx2.h"

#include <cstddef>
#include <new>

#include "src/kernels/internal/target_clones.h"

namespace tflite_c {
namespace kernels {
namespace internal {

#if defined(__GNUC__) && defined(__x86_64__)

namespace {

// Output columns per packed panel of rhs: two vectors of eight.
constexpr int kPanel = 16;
// Output rows per micro-tile: 4 x 2 accumulator vectors, plus two rhs
// vectors and a broadcast, stay within the 16 AVX registers.
constexpr int kRows = 4;

#define TFLITE_C_AVX2 __attribute__((target("avx2")))

// Copies rhs rows [j0, j0 + 16) (the output columns of one panel) into
// `panel`, k-major: panel[k * 16 + jj] = rhs(j0 + jj, k), zeros past the last
// rhs row. Each rhs row is read in order.
TFLITE_C_AVX2 void PackPanel(const ConstMatrix& rhs, int64_t j0, float* __restrict panel) {
  const int64_t n = rhs.rows - j0 < kPanel ? rhs.rows - j0 : kPanel;
  for (int64_t jj = 0; jj < kPanel; ++jj) {
    if (jj < n) {
      const float* src = rhs.data + (j0 + jj) * rhs.stride;
      for (int64_t k = 0; k < rhs.cols; ++k) panel[k * kPanel + jj] = src[k];
    } else {
      for (int64_t k = 0; k < rhs.cols; ++k) panel[k * kPanel + jj] = 0.f;
    }
  }
}

// rows x 16 outputs from `rows` lhs rows and one packed panel. Each output is
// the sum from 0 over k in order (contraction is off: a multiply, then an
// add), as a plain dot product rounds.
template <int kR>
TFLITE_C_AVX2 TFLITE_C_ALWAYS_INLINE void MicroTile(const float* lhs, int64_t lhs_stride,
                                                    const float* __restrict panel, int64_t depth,
                                                    float* out, int64_t out_stride, int64_t cols) {
  Float8 acc[kR][2] = {};
  for (int64_t k = 0; k < depth; ++k) {
    const Float8 b0 = *reinterpret_cast<const Float8*>(panel + k * kPanel);
    const Float8 b1 = *reinterpret_cast<const Float8*>(panel + k * kPanel + 8);
    for (int r = 0; r < kR; ++r) {
      const Float8 a = Float8{} + lhs[r * lhs_stride + k];
      acc[r][0] += a * b0;
      acc[r][1] += a * b1;
    }
  }
  for (int r = 0; r < kR; ++r) {
    float* o = out + r * out_stride;
    if (cols == kPanel) {
      *reinterpret_cast<Float8*>(o) = acc[r][0];
      *reinterpret_cast<Float8*>(o + 8) = acc[r][1];
    } else {
      alignas(32) float tmp[kPanel];
      *reinterpret_cast<Float8*>(tmp) = acc[r][0];
      *reinterpret_cast<Float8*>(tmp + 8) = acc[r][1];
      for (int64_t j = 0; j < cols; ++j) o[j] = tmp[j];
    }
  }
}

// `packed`: all of rhs packed, or null to pack each panel into `panel`.
TFLITE_C_AVX2 void MultiplyPanels(const ConstMatrix& lhs, const ConstMatrix& rhs,
                                  const MutableMatrix& out, const float* packed, float* scratch) {
  for (int64_t j0 = 0; j0 < rhs.rows; j0 += kPanel) {
    const float* panel = packed != nullptr ? packed + j0 * rhs.cols : scratch;
    if (packed == nullptr) PackPanel(rhs, j0, scratch);
    const int64_t cols = out.cols - j0 < kPanel ? out.cols - j0 : kPanel;
    int64_t i = 0;
    for (; i + kRows <= lhs.rows; i += kRows) {
      MicroTile<kRows>(lhs.data + i * lhs.stride, lhs.stride, panel, lhs.cols,
                       out.data + i * out.stride + j0, out.stride, cols);
    }
    for (; i < lhs.rows; ++i) {
      MicroTile<1>(lhs.data + i * lhs.stride, lhs.stride, panel, lhs.cols,
                   out.data + i * out.stride + j0, out.stride, cols);
    }
  }
}

}  // namespace

bool Avx2GemmAvailable() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  return has_avx2;
}

int64_t PackedRhsSize(int64_t rows, int64_t cols) {
  return (rows + kPanel - 1) / kPanel * kPanel * cols;
}

void PackRhsForAvx2(const ConstMatrix& rhs, float* packed) {
  for (int64_t j0 = 0; j0 < rhs.rows; j0 += kPanel) PackPanel(rhs, j0, packed + j0 * rhs.cols);
}

bool MultiplyBlockAvx2(const ConstMatrix& lhs, const ConstMatrix& rhs, const MutableMatrix& out,
                       const float* packed_rhs) {
  if (!Avx2GemmAvailable() || lhs.rows < kMinAvx2Rows || lhs.cols <= 0 ||
      lhs.cols > kMaxAvx2Depth) {
    return false;
  }
  if (packed_rhs != nullptr) {
    MultiplyPanels(lhs, rhs, out, packed_rhs, nullptr);
    return true;
  }
  float* panel = new (std::nothrow) float[static_cast<size_t>(lhs.cols) * kPanel];
  if (panel == nullptr) return false;  // the caller's GEMM needs no scratch of ours
  MultiplyPanels(lhs, rhs, out, nullptr, panel);
  delete[] panel;
  return true;
}

#else

bool Avx2GemmAvailable() { return false; }

int64_t PackedRhsSize(int64_t rows, int64_t cols) { return (rows + 15) / 16 * 16 * cols; }

void PackRhsForAvx2(const ConstMatrix&, float*) {}

bool MultiplyBlockAvx2(const ConstMatrix&, const ConstMatrix&, const MutableMatrix&, const float*) {
  return false;
}

#endif

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// The float GEMM behind FULLY_CONNECTED, CONV_2D and the recurrent kernels:
// out = lhs * rhs^T. On an x86-64 CPU with AVX2 (and at least kMinAvx2Rows
// lhs rows) it runs our register-tiled path, which promises the plain dot
// product's rounding: each output summed from 0 over k in order, one multiply
// and one add per term. The reference computes exactly that in float, and a
// double-precision product bounds both. A product from rhs packed
// beforehand (PackRhsForAvx2) equals the one that packs it.
#include "src/kernels/internal/gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "src/kernels/internal/gemm_avx2.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

struct Shape {
  int64_t m, n, k;
};

TEST(GemmTest, EqualsInOrderDotProductsAtEveryEdge) {
  const Shape shapes[] = {{8, 1, 1},   {8, 16, 3},    {9, 17, 5},     {11, 15, 64},  {12, 31, 96},
                          {13, 33, 7}, {64, 24, 144}, {100, 48, 300}, {9, 3, 16385}, {2, 5, 9},
                          {1, 40, 20}, {7, 16, 16},   {200, 3, 27}};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (const Shape& s : shapes) {
    for (int64_t pad : {0, 3}) {  // strides wider than the rows
      SCOPED_TRACE(::testing::Message() << s.m << "x" << s.n << "x" << s.k << " pad " << pad);
      const int64_t ls = s.k + pad, rs = s.k + pad, os = s.n + pad;
      std::vector<float> lhs(s.m * ls), rhs(s.n * rs), out(s.m * os, 12345.f);
      for (float& v : lhs) v = dist(rng);
      for (float& v : rhs) v = dist(rng);
      MatMulTransposedRhs({lhs.data(), s.m, s.k, ls}, {rhs.data(), s.n, s.k, rs},
                          {out.data(), s.m, s.n, os}, 1);
      // The same product from rhs packed beforehand (a conv filter's case).
      std::vector<float> packed(PackedRhsSize(s.n, s.k)), out_packed(out.size(), 12345.f);
      PackRhsForAvx2({rhs.data(), s.n, s.k, rs}, packed.data());
      MatMulTransposedRhs({lhs.data(), s.m, s.k, ls}, {rhs.data(), s.n, s.k, rs},
                          {out_packed.data(), s.m, s.n, os}, 1, packed.data());
      ASSERT_EQ(out_packed, out);
      const bool tiled = Avx2GemmAvailable() && s.m >= kMinAvx2Rows && s.k <= kMaxAvx2Depth;
      for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.n; ++j) {
          float in_order = 0;
          double exact = 0, magnitude = 0;
          for (int64_t k = 0; k < s.k; ++k) {
            in_order += lhs[i * ls + k] * rhs[j * rs + k];
            exact += double(lhs[i * ls + k]) * rhs[j * rs + k];
            magnitude += std::fabs(double(lhs[i * ls + k]) * rhs[j * rs + k]);
          }
          const float got = out[i * os + j];
          if (tiled) {
            ASSERT_EQ(got, in_order) << "(" << i << ", " << j << ")";
          }
          ASSERT_NEAR(got, exact, 1e-6 * magnitude + 1e-7) << "(" << i << ", " << j << ")";
        }
        for (int64_t j = s.n; j < os; ++j) {
          ASSERT_EQ(out[i * os + j], 12345.f) << "padding written at (" << i << ", " << j << ")";
        }
      }
    }
  }
}

}  // namespace
}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

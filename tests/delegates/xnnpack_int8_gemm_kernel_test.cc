// The 3x8c8 AVX2 int8 GEMM microkernel (per-channel weights), whose k loop
// our XNNPACK build runs as inline assembly (patch 0020) for rows of 24 to
// 4096 bytes and more than 16 output columns, against the matrix product
// and XNNPACK's fp32 requantization written out here. Every row count 1-3,
// column counts 1-70 (whole and partial blocks of 8, both sides of 16),
// depths 1-300 and the edges 23-25, 4095-4097 (the assembly's bounds and
// the C loop past them), input and output strides wider than a row,
// extreme inputs and weights. White-box: calls the microkernel directly;
// skipped where the CPU lacks AVX2.
#include <gtest/gtest.h>

#include <cfenv>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_int8_kernel_test_util.h"

#if TFLITE_C_WITH_XNNPACK && defined(__x86_64__)
#define TFLITE_C_TEST_QS8_GEMM 1

extern "C" void xnn_qs8_qc8w_gemm_minmax_fp32_ukernel_3x8c8__avx2(
    size_t mr, size_t nc, size_t kc, const int8_t* a, size_t a_stride, const void* w, int8_t* c,
    size_t cm_stride, size_t cn_stride, const tflite_c::testing::QC8Params* params);
#endif

namespace tflite_c {
namespace testing {
namespace {

#if TFLITE_C_TEST_QS8_GEMM

bool HasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

// One call of the kernel on an mr x kc input against nc columns, checked
// element by element; `extreme` draws only -128 and 127.
void CheckGemm(Int8Rng& r, size_t mr, size_t nc, size_t kc, bool extreme, const std::string& what) {
  SCOPED_TRACE(what + ": " + std::to_string(mr) + " rows, " + std::to_string(nc) + " columns, " +
               std::to_string(kc) + " deep");
  const auto value = [&] { return int8_t(extreme ? (r(0, 1) ? 127 : -128) : r(-128, 127)); };
  const size_t kr = (kc + 7) / 8 * 8;  // the kernel reads whole steps of 8
  const size_t a_stride = kc + size_t(r(0, 2)) * 8;
  std::vector<int8_t> a(mr * a_stride + 64);
  for (int8_t& v : a) v = value();
  // Packed per block of 8 columns: 8 int32 biases, then per step of 8
  // inputs 8 bytes of each column (zero past kc and past nc), then 8 float
  // scales.
  const size_t blocks = (nc + 7) / 8;
  const size_t block_bytes = 8 * 4 + kr * 8 + 8 * 4;
  std::vector<int32_t> bias(blocks * 8);
  std::vector<int8_t> kernel(blocks * 8 * kc);  // [column][k]
  std::vector<float> scale(blocks * 8);
  // 64-byte aligned, as XNNPACK allocates packed weights (the kernel loads
  // the scales with aligned loads).
  std::vector<uint8_t> storage(blocks * block_bytes + 128, 0);
  uint8_t* const packed =
      storage.data() + (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64) % 64;
  for (size_t n = 0; n < blocks * 8; ++n) {
    const bool used = n < nc;
    bias[n] = used ? r(-70000, 70000) : 0;
    // Scales that spread the sums over the int8 range and beyond it.
    scale[n] = used ? float(r(1, 4000)) / (1000.0f * float(kc) + 1000.0f) : 0.f;
    for (size_t k = 0; k < kc; ++k) kernel[n * kc + k] = used ? value() : 0;
  }
  for (size_t b = 0; b < blocks; ++b) {
    uint8_t* p = packed + b * block_bytes;
    std::memcpy(p, &bias[b * 8], 8 * 4);
    for (size_t k = 0; k < kc; ++k)
      for (size_t j = 0; j < 8; ++j)
        p[8 * 4 + (k / 8) * 64 + j * 8 + k % 8] = uint8_t(kernel[(b * 8 + j) * kc + k]);
    std::memcpy(p + 8 * 4 + kr * 8, &scale[b * 8], 8 * 4);
  }
  const OutputQuantization q = RandomOutputQuantization(r);
  const QC8Params& params = q.params;
  const int zero_point = q.zero_point, out_min = q.min, out_max = q.max;
  const size_t cm_stride = nc + size_t(r(0, 5));
  std::vector<int8_t> got(mr * cm_stride + 64, 0x55);
  xnn_qs8_qc8w_gemm_minmax_fp32_ukernel_3x8c8__avx2(mr, nc, kc, a.data(), a_stride, packed,
                                                    got.data(), cm_stride, 8, &params);
  for (size_t m = 0; m < mr; ++m) {
    for (size_t n = 0; n < cm_stride; ++n) {
      const int8_t g = got[m * cm_stride + n];
      if (n >= nc) {
        ASSERT_EQ(int(g), 0x55) << "row " << m << " written past its " << nc << " columns";
        continue;
      }
      int32_t acc = bias[n];
      for (size_t k = 0; k < kc; ++k)
        acc += int32_t(a[m * a_stride + k]) * int32_t(kernel[n * kc + k]);
      ASSERT_EQ(int(g), int(Requantize(acc, scale[n], zero_point, out_min, out_max)))
          << "row " << m << ", column " << n;
    }
  }
  for (size_t i = mr * cm_stride; i < got.size(); ++i)
    ASSERT_EQ(int(got[i]), 0x55) << "written past the last row";
}

TEST(XnnpackInt8GemmKernel, RowsColumnsAndDepthsMatchTheDefinition) {
  if (!HasAvx2()) GTEST_SKIP() << "the CPU has no AVX2";
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Int8Rng r;
  for (int it = 0; it < 3000; ++it) {
    CheckGemm(r, size_t(r(1, 3)), size_t(r(1, 70)), size_t(r(1, 300)), it % 4 == 0, "random");
    if (HasFailure()) return;
  }
}

TEST(XnnpackInt8GemmKernel, EdgesOfTheAssemblyLoop) {
  if (!HasAvx2()) GTEST_SKIP() << "the CPU has no AVX2";
  Int8Rng r;
  for (size_t kc : {16, 17, 23, 24, 25, 31, 32, 4088, 4095, 4096, 4097, 4105, 5000}) {
    for (size_t nc : {8, 16, 17, 24, 33}) {
      for (size_t mr = 1; mr <= 3; ++mr) {
        CheckGemm(r, mr, nc, kc, kc % 2 == 0, "edge");
        if (HasFailure()) return;
      }
    }
  }
}

#else

TEST(XnnpackInt8GemmKernel, RowsColumnsAndDepthsMatchTheDefinition) {
  GTEST_SKIP() << "x86-64 XNNPACK builds only";
}

#endif

}  // namespace
}  // namespace testing
}  // namespace tflite_c

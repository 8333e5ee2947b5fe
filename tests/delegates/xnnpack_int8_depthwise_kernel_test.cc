// The 9-tap per-channel int8 depthwise microkernel our XNNPACK build adds
// for AVX512-SKX machines (patch 0013, tap pairs multiplied with VPMADDWD),
// against the depthwise convolution and XNNPACK's fp32 requantization
// written out here: biases plus the nine products per channel, times the
// channel's scale, clamped, rounded to nearest even, plus the output zero
// point, saturated and clamped. Channel counts 1-150 (whole and partial
// blocks of 32), rows of 1-9 outputs, taps at the zero buffer, an input
// offset, a gap between output pixels, extreme weights and inputs.
// White-box: calls the microkernel directly; skipped where the CPU lacks
// AVX512-SKX.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/delegates/xnnpack_int8_kernel_test_util.h"

#if TFLITE_C_WITH_XNNPACK && defined(__x86_64__)
#define TFLITE_C_TEST_MADD16 1

using tflite_c::testing::QC8Params;

extern "C" void xnn_qs8_qc8w_dwconv_minmax_fp32_ukernel_9p32c__avx512skx_madd16(
    size_t channels, size_t output_width, const int8_t** input, const void* weights, int8_t* output,
    intptr_t input_stride, size_t output_increment, size_t input_offset, const int8_t* zero,
    const QC8Params* params);
#endif

namespace {

#if TFLITE_C_TEST_MADD16

using tflite_c::testing::OutputQuantization;
using tflite_c::testing::RandomOutputQuantization;
using tflite_c::testing::Requantize;
using Rng = tflite_c::testing::Int8Rng;

bool HasAvx512Skx() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512cd");
}

TEST(XnnpackInt8DepthwiseKernel, NineTapsMatchTheDefinition) {
  if (!HasAvx512Skx()) GTEST_SKIP() << "the CPU has no AVX512-SKX";
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Rng r;
  for (int it = 0; it < 6000; ++it) {
    const size_t channels = size_t(r(1, 150));
    const size_t width = size_t(r(1, 9));
    const bool extreme = it % 4 == 0;
    const auto value = [&] { return int8_t(extreme ? (r(0, 1) ? 127 : -128) : r(-128, 127)); };
    // Channels in blocks of 32: 32 int32 biases, 9 x 32 int8 taps, 32
    // float scales (a partial last block padded).
    const size_t blocks = (channels + 31) / 32;
    const size_t block_bytes = 32 * 4 + 9 * 32 + 32 * 4;
    std::vector<int32_t> bias(blocks * 32);
    std::vector<int8_t> kernel(blocks * 32 * 9);  // [channel][tap]
    std::vector<float> scale(blocks * 32);
    std::vector<uint8_t> packed(blocks * block_bytes + 64, 0);
    for (size_t c = 0; c < blocks * 32; ++c) {
      const bool used = c < channels;
      bias[c] = used ? r(-70000, 70000) : 0;
      scale[c] = used ? float(r(1, 20000)) * 1e-5f : 0.f;
      for (int t = 0; t < 9; ++t) kernel[c * 9 + t] = used ? value() : 0;
    }
    for (size_t b = 0; b < blocks; ++b) {
      uint8_t* p = packed.data() + b * block_bytes;
      std::memcpy(p, &bias[b * 32], 32 * 4);
      for (int t = 0; t < 9; ++t)
        for (int j = 0; j < 32; ++j) p[32 * 4 + t * 32 + j] = uint8_t(kernel[(b * 32 + j) * 9 + t]);
      std::memcpy(p + 32 * 4 + 9 * 32, &scale[b * 32], 32 * 4);
    }
    // Each output's nine taps: a row of the input, or the zero buffer.
    const size_t input_offset = size_t(r(0, 3)) * 64;
    const size_t row_bytes = channels + 32;
    std::vector<int8_t> input(width * 9 * row_bytes + input_offset + 64);
    for (int8_t& v : input) v = value();
    std::vector<int8_t> zero(channels + 64);
    for (int8_t& v : zero) v = int8_t(r(-3, 3));  // read as stored, never offset
    std::vector<const int8_t*> taps(width * 9);
    for (size_t i = 0; i < taps.size(); ++i) {
      taps[i] = r(0, 5) == 0 ? zero.data() : input.data() + i * row_bytes;  // before the offset
    }
    const OutputQuantization q = RandomOutputQuantization(r);
    const QC8Params& params = q.params;
    const int zero_point = q.zero_point, out_min = q.min, out_max = q.max;
    const size_t gap = size_t(r(0, 5));
    const size_t out_bytes = width * (channels + gap);
    std::vector<int8_t> got(out_bytes + 64, 0x55), want(out_bytes + 64, 0x55);
    for (size_t x = 0; x < width; ++x) {
      for (size_t c = 0; c < channels; ++c) {
        int32_t acc = bias[c];
        for (int t = 0; t < 9; ++t) {
          const int8_t* p = taps[x * 9 + t];
          const int8_t in = p == zero.data() ? p[c] : p[input_offset + c];
          acc += int32_t(in) * int32_t(kernel[c * 9 + t]);
        }
        want[x * (channels + gap) + c] = Requantize(acc, scale[c], zero_point, out_min, out_max);
      }
    }
    xnn_qs8_qc8w_dwconv_minmax_fp32_ukernel_9p32c__avx512skx_madd16(
        channels, width, taps.data(), packed.data(), got.data(), 9 * sizeof(void*), gap,
        input_offset, zero.data(), &params);
    for (size_t x = 0; x < width; ++x) {
      for (size_t c = 0; c < channels + gap; ++c) {
        const size_t i = x * (channels + gap) + c;
        if (c < channels) {
          ASSERT_EQ(int(got[i]), int(want[i]))
              << "output " << x << ", channel " << c << " of " << channels << ", case " << it;
        } else {
          ASSERT_EQ(int(got[i]), 0x55) << "the gap after output " << x << " was written";
        }
      }
    }
    for (size_t i = out_bytes; i < got.size(); ++i) {
      ASSERT_EQ(int(got[i]), 0x55) << "written past the last output, case " << it;
    }
  }
}

#else

TEST(XnnpackInt8DepthwiseKernel, NineTapsMatchTheDefinition) {
  GTEST_SKIP() << "x86-64 XNNPACK builds only";
}

#endif

}  // namespace

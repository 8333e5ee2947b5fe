// The integer loops behind the quantized convolutions (internal/qgemm.h) give
// exact results in every instruction-set variant: each case runs the
// dispatched variant (NEON on 32-bit ARM with NEON, AVX2 clones on x86-64,
// NEON baseline on AArch64) and, where the build has one, the separately
// compiled baseline copy, and compares both with a straightforward 64-bit
// reference written here. Lengths are odd and prime so vector tails are hit.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "src/kernels/internal/qgemm.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Runs `body` once per variant this build has, naming it in failures.
template <typename F>
void ForEachVariant(F body) {
  const bool has_separate_baseline = SetQGemmBaselineOnlyForTesting(false);
  {
    SCOPED_TRACE("dispatched variant");
    body();
  }
  if (has_separate_baseline) {
    SetQGemmBaselineOnlyForTesting(true);
    SCOPED_TRACE("baseline variant");
    body();
    SetQGemmBaselineOnlyForTesting(false);
  }
}

std::vector<int16_t> RandomInt16(std::mt19937* rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int16_t> v(n);
  for (auto& x : v) x = static_cast<int16_t>(d(*rng));
  return v;
}

TEST(QGemmVariants, GemmMatchesExactSums) {
  std::mt19937 rng(7);
  const int64_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {4, 8, 16}, {7, 3, 31}, {9, 13, 67}, {5, 17, 258}};
  for (const auto& s : shapes) {
    const int64_t m = s[0], n = s[1], k = s[2];
    SCOPED_TRACE(testing::Message() << "m=" << m << " n=" << n << " k=" << k);
    // Operands as the convolutions produce them: 8-bit values with a zero
    // point folded in, so in [-255, 255].
    const std::vector<int16_t> a = RandomInt16(&rng, m * k, -255, 255);
    const std::vector<int16_t> b = RandomInt16(&rng, n * k, -255, 255);
    std::vector<int64_t> ref(m * n, 0);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t p = 0; p < k; ++p) ref[i * n + j] += int64_t{a[i * k + p]} * b[j * k + p];
      }
    }
    ForEachVariant([&] {
      std::vector<int32_t> c(m * n, -1);
      QGemmS16(a.data(), m, k, b.data(), n, k, k, c.data(), n);
      for (int64_t e = 0; e < m * n; ++e) ASSERT_EQ(c[e], ref[e]) << "element " << e;
    });
  }
}

TEST(QGemmVariants, WidenWithOffsetMatchesReference) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t n : {1, 7, 16, 33, 101}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    std::vector<int8_t> s8(n);
    std::vector<uint8_t> u8(n);
    for (int64_t i = 0; i < n; ++i) {
      u8[i] = static_cast<uint8_t>(byte(rng));
      s8[i] = static_cast<int8_t>(byte(rng) - 128);
    }
    const int32_t s_offset = 37, u_offset = -128;
    ForEachVariant([&] {
      std::vector<int16_t> ws(n), wu(n);
      WidenWithOffset(s8.data(), n, s_offset, ws.data());
      WidenWithOffset(u8.data(), n, u_offset, wu.data());
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(ws[i], s8[i] + s_offset) << i;
        ASSERT_EQ(wu[i], u8[i] + u_offset) << i;
      }
    });
  }
}

// One depthwise output pixel: tap counts from 0 (every tap in the padding) to
// 25, channel counts that hit the 32-, 8- and 1-channel parts, int8 and uint8
// inputs at their extremes, taps reading anywhere in the input.
TEST(QGemmVariants, DepthwiseSumsMatchReference) {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int count : {0, 1, 4, 9, 25}) {
    for (int64_t channels : {1, 7, 8, 31, 32, 33, 77, 144}) {
      SCOPED_TRACE(testing::Message() << "taps=" << count << " channels=" << channels);
      const int64_t pixels = 30;
      std::vector<int8_t> s8(pixels * channels);
      std::vector<uint8_t> u8(pixels * channels);
      for (size_t i = 0; i < s8.size(); ++i) {
        u8[i] = static_cast<uint8_t>(i % 5 == 0 ? 255 : byte(rng));
        s8[i] = static_cast<int8_t>(i % 7 == 0 ? -128 : byte(rng) - 128);
      }
      const std::vector<int16_t> w = RandomInt16(&rng, 25 * channels, -255, 255);
      std::uniform_int_distribution<int64_t> pixel(0, pixels - 1);
      std::vector<const int8_t*> in_s(count);
      std::vector<const uint8_t*> in_u(count);
      std::vector<const int16_t*> filters(count);
      for (int t = 0; t < count; ++t) {
        const int64_t p = pixel(rng);
        in_s[t] = s8.data() + p * channels;
        in_u[t] = u8.data() + p * channels;
        filters[t] = w.data() + int64_t{t} * channels;
      }
      const int32_t s_offset = 128, u_offset = -3;
      std::vector<int64_t> ref_s(channels, 0), ref_u(channels, 0);
      for (int64_t c = 0; c < channels; ++c) {
        for (int t = 0; t < count; ++t) {
          ref_s[c] += int64_t{in_s[t][c] + s_offset} * filters[t][c];
          ref_u[c] += int64_t{in_u[t][c] + u_offset} * filters[t][c];
        }
      }
      ForEachVariant([&] {
        std::vector<int32_t> acc_s(channels + 1, 1000), acc_u(channels + 1, -1000);
        DepthwiseSums(reinterpret_cast<const uint8_t* const*>(in_s.data()), filters.data(), count,
                      channels, /*signed_input=*/true, s_offset, acc_s.data());
        DepthwiseSums(in_u.data(), filters.data(), count, channels, /*signed_input=*/false,
                      u_offset, acc_u.data());
        for (int64_t c = 0; c < channels; ++c) {
          ASSERT_EQ(acc_s[c], ref_s[c]) << "int8, channel " << c;
          ASSERT_EQ(acc_u[c], ref_u[c]) << "uint8, channel " << c;
        }
        EXPECT_EQ(acc_s[channels], 1000) << "wrote past the channels";
        EXPECT_EQ(acc_u[channels], -1000) << "wrote past the channels";
      });
    }
  }
}

// TFLite's reference rescaling, from its documented definition: the doubling
// high multiply h = round(x * 2^left * m / 2^31) with ties toward +infinity
// (gemmlowp's nudged form), then a division by 2^right that rounds ties away
// from zero (default) or toward +infinity (ruy, `half_up`).
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

int32_t ReferenceRescale(int32_t x, int32_t multiplier, int left, int right, bool half_up) {
  const int64_t product = int64_t{x} * (int64_t{1} << left) * multiplier;
  const int64_t h = FloorDiv(product + (int64_t{1} << 30), int64_t{1} << 31);
  if (right == 0) return static_cast<int32_t>(h);
  const int64_t div = int64_t{1} << right;
  if (half_up) return static_cast<int32_t>(FloorDiv(h + div / 2, div));
  const int64_t mag = ((h >= 0 ? h : -h) + div / 2) / div;
  return static_cast<int32_t>(h >= 0 ? mag : -mag);
}

template <typename T>
void CheckRequantize(bool half_up, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t n = 61;
  std::uniform_int_distribution<int32_t> sums_d(-(1 << 20), 1 << 20);
  std::uniform_int_distribution<int32_t> mult_d(1 << 30, std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int> shift_d(0, 12);
  std::vector<int32_t> sums(n), bias(n), mult(n), left(n), right(n);
  for (int64_t j = 0; j < n; ++j) {
    sums[j] = sums_d(rng);
    bias[j] = sums_d(rng) / 16;
    mult[j] = mult_d(rng);
    // Mostly right shifts (scales below 1), a few small left shifts.
    const bool up = j % 9 == 0;
    left[j] = up ? 1 : 0;
    right[j] = up ? 0 : shift_d(rng);
  }
  RequantizeParams p;
  p.bias = bias.data();
  p.multiplier = mult.data();
  p.left_shift = left.data();
  p.right_shift = right.data();
  p.half_up = half_up;
  p.out_offset = std::is_same<T, int8_t>::value ? -3 : 120;
  p.act_min = std::numeric_limits<T>::min();
  p.act_max = std::numeric_limits<T>::max();
  ForEachVariant([&] {
    std::vector<T> out(n);
    RequantizeRow(sums.data(), n, p, out.data());
    for (int64_t j = 0; j < n; ++j) {
      int64_t v = ReferenceRescale(sums[j] + bias[j], mult[j], left[j], right[j], half_up) +
                  int64_t{p.out_offset};
      v = v < p.act_min ? p.act_min : (v > p.act_max ? p.act_max : v);
      ASSERT_EQ(static_cast<int>(out[j]), v)
          << "j=" << j << " sum=" << sums[j] + bias[j] << " right=" << right[j];
    }
  });
}

TEST(QGemmVariants, RequantizeMatchesReferenceRounding) {
  CheckRequantize<int8_t>(/*half_up=*/false, 1);
  CheckRequantize<int8_t>(/*half_up=*/true, 2);
  CheckRequantize<uint8_t>(/*half_up=*/false, 3);
  CheckRequantize<uint8_t>(/*half_up=*/true, 4);
}

}  // namespace
}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#include "src/kernels/internal/qgemm.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Runtime dispatch without fixed ISA flags: GCC/Clang compile the annotated
// function once per target and pick one at load time (an ifunc). Other
// compilers get the baseline build.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && defined(__linux__)
#define TFLITE_C_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TFLITE_C_TARGET_CLONES
#endif

// Four rows of `a` against one row of `b`; the inner loops are plain dot
// products the compiler turns into multiply-add-pairs instructions.
TFLITE_C_TARGET_CLONES
void Kernel(const int16_t* a, int64_t m, int64_t lda, const int16_t* b, int64_t n, int64_t ldb,
            int64_t k, int32_t* c, int64_t ldc) {
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const int16_t* __restrict a0 = a + i * lda;
    const int16_t* __restrict a1 = a0 + lda;
    const int16_t* __restrict a2 = a1 + lda;
    const int16_t* __restrict a3 = a2 + lda;
    int32_t* c0 = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) {
      const int16_t* __restrict w = b + j * ldb;
      int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int64_t p = 0; p < k; ++p) {
        const int32_t wp = w[p];
        s0 += static_cast<int32_t>(a0[p]) * wp;
        s1 += static_cast<int32_t>(a1[p]) * wp;
        s2 += static_cast<int32_t>(a2[p]) * wp;
        s3 += static_cast<int32_t>(a3[p]) * wp;
      }
      c0[j] = s0;
      c0[ldc + j] = s1;
      c0[2 * ldc + j] = s2;
      c0[3 * ldc + j] = s3;
    }
  }
  for (; i < m; ++i) {
    const int16_t* __restrict ai = a + i * lda;
    for (int64_t j = 0; j < n; ++j) {
      const int16_t* __restrict w = b + j * ldb;
      int32_t s = 0;
      for (int64_t p = 0; p < k; ++p) s += static_cast<int32_t>(ai[p]) * w[p];
      c[i * ldc + j] = s;
    }
  }
}

template <typename T>
TFLITE_C_TARGET_CLONES void Widen(const T* __restrict src, int64_t n, int32_t offset,
                                  int16_t* __restrict dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<int16_t>(src[i] + offset);
}

template <typename T>
TFLITE_C_TARGET_CLONES void DepthwiseTap(const T* __restrict src, const int16_t* __restrict w,
                                         int64_t n, int32_t offset, int32_t* __restrict acc) {
  for (int64_t i = 0; i < n; ++i) acc[i] += (static_cast<int32_t>(src[i]) + offset) * w[i];
}

// Both rescaling conventions share their first step: the doubling high
// multiply h = floor((x * m + 2^30) / 2^31) (gemmlowp's nudged form equals
// it), computed from the low 32 bits of a logical 64-bit shift (equal to the
// arithmetic shift's) so that it vectorizes. They differ in the final
// division by 2^r: ruy rounds half up, (h >> r) + bit r-1 of h (no overflow);
// the default rounds half away from zero.
template <bool kHalfUp, typename T>
TFLITE_C_TARGET_CLONES void RequantizeLoop(const int32_t* __restrict sums, int64_t n,
                                           const RequantizeParams& p, T* __restrict out) {
  const int32_t* __restrict bias = p.bias;
  const int32_t* __restrict mult = p.multiplier;
  const int32_t* __restrict left = p.left_shift;
  const int32_t* __restrict right = p.right_shift;
  const int32_t lo = p.act_min, hi = p.act_max, offset = p.out_offset;
  for (int64_t j = 0; j < n; ++j) {
    const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(sums[j] + bias[j]) << left[j]);
    const int64_t product = static_cast<int64_t>(x) * mult[j] + (int64_t{1} << 30);
    const int32_t h = static_cast<int32_t>(static_cast<uint64_t>(product) >> 31);
    const int32_t r = right[j];
    int32_t round;
    if constexpr (kHalfUp) {
      round = r > 0 ? (h >> (r > 0 ? r - 1 : 0)) & 1 : 0;
    } else {
      const int32_t mask = static_cast<int32_t>((uint32_t{1} << r) - 1u);
      const int32_t threshold = (mask >> 1) + (h < 0 ? 1 : 0);
      round = (h & mask) > threshold ? 1 : 0;
    }
    int32_t v = (h >> r) + round + offset;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    out[j] = static_cast<T>(v);
  }
}

template <typename T>
void Requantize(const int32_t* sums, int64_t n, const RequantizeParams& p, T* out) {
  if (p.half_up) {
    RequantizeLoop<true>(sums, n, p, out);
  } else {
    RequantizeLoop<false>(sums, n, p, out);
  }
}

}  // namespace

void RequantizeRow(const int32_t* sums, int64_t n, const RequantizeParams& p, int8_t* out) {
  Requantize(sums, n, p, out);
}
void RequantizeRow(const int32_t* sums, int64_t n, const RequantizeParams& p, uint8_t* out) {
  Requantize(sums, n, p, out);
}

void FillRequantizeTable(const QuantConvParams& q, const TfLiteTensor* bias, int channels,
                         RequantizeTable* t) {
  const size_t n = static_cast<size_t>(channels);
  t->bias.assign(n, 0);
  t->multiplier.resize(n);
  t->left_shift.resize(n);
  t->right_shift.resize(n);
  for (size_t c = 0; c < n; ++c) {
    if (bias != nullptr) t->bias[c] = static_cast<int32_t>(BiasAt(bias, static_cast<int>(c)));
    const QuantizedMultiplier& m = q.channel_multipliers[c];
    t->multiplier[c] = m.multiplier;
    t->left_shift[c] = m.shift > 0 ? m.shift : 0;
    // Beyond 31 every sum rescales to 0 or -1 before rounding; cap to keep
    // the shifts defined.
    t->right_shift[c] = m.shift > 0 ? 0 : (-m.shift > 31 ? 31 : -m.shift);
  }
  t->half_up = q.round_half_up;
  t->out_offset = q.output_offset;
  t->act_min = q.act_min;
  t->act_max = q.act_max;
}

void WidenWithOffset(const int8_t* src, int64_t n, int32_t offset, int16_t* dst) {
  Widen(src, n, offset, dst);
}
void WidenWithOffset(const uint8_t* src, int64_t n, int32_t offset, int16_t* dst) {
  Widen(src, n, offset, dst);
}
void AccumulateDepthwiseTap(const int8_t* src, const int16_t* w, int64_t n, int32_t offset,
                            int32_t* acc) {
  DepthwiseTap(src, w, n, offset, acc);
}
void AccumulateDepthwiseTap(const uint8_t* src, const int16_t* w, int64_t n, int32_t offset,
                            int32_t* acc) {
  DepthwiseTap(src, w, n, offset, acc);
}

void QGemmS16(const int16_t* a, int64_t m, int64_t lda, const int16_t* b, int64_t n, int64_t ldb,
              int64_t k, int32_t* c, int64_t ldc) {
  Kernel(a, m, lda, b, n, ldb, k, c, ldc);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

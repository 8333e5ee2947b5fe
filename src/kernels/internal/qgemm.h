// Integer GEMM for the quantized convolutions: int16 operands (8-bit values
// with their zero points already folded in), exact int32 accumulation.
// Integer sums do not depend on the order of additions, so any blocking gives
// results bit-identical to a straightforward loop.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QGEMM_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QGEMM_H_

#include <cstdint>
#include <vector>

#include "src/kernels/internal/quant_conv.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Largest depth for which int32 accumulation of products of values in
// [-255, 255] cannot overflow.
constexpr int64_t kMaxQGemmDepth = 32768;

// c[i * ldc + j] = sum over p < k of a[i * lda + p] * b[j * ldb + p]
// for i < m, j < n (b holds one filter row per output column).
// These kernels pick their instruction set at run time: AVX2 or baseline SSE2
// on x86-64, NEON or VFP on 32-bit ARM; AArch64 always has NEON.
void QGemmS16(const int16_t* a, int64_t m, int64_t lda, const int16_t* b, int64_t n, int64_t ldb,
              int64_t k, int32_t* c, int64_t ldc);

// dst[i] = src[i] + offset for 8-bit src (patch rows of the quantized convs).
void WidenWithOffset(const int8_t* src, int64_t n, int32_t offset, int16_t* dst);
void WidenWithOffset(const uint8_t* src, int64_t n, int32_t offset, int16_t* dst);

// One output pixel of a multiplier-1 depthwise convolution with 8-bit input:
// acc[c] = sum over t < count of (inputs[t][c] + offset) * filters[t][c] for
// c < channels, inputs[t] and filters[t] pointing at channel 0 of tap t's
// input pixel and filter row, the input bytes INT8 (`signed_input`) or
// UINT8. Sums are kept in registers over the taps.
void DepthwiseSums(const uint8_t* const* inputs, const int16_t* const* filters, int count,
                   int64_t channels, bool signed_input, int32_t offset, int32_t* acc);

// Per-output-channel requantization in structure-of-arrays form, so a row of
// int32 sums is rescaled in one vectorizable pass:
//   v = rescale(sum[j] + bias[j], multiplier[j], shift[j]) + out_offset,
// clamped to [act_min, act_max]. `half_up` selects ruy's rounding (both
// steps round half up) instead of the default (doubling high multiply with
// ties away from zero, then a right shift rounding half away from zero).
struct RequantizeParams {
  const int32_t* bias = nullptr;        // n entries (zeros without a bias)
  const int32_t* multiplier = nullptr;  // n entries
  const int32_t* left_shift = nullptr;  // n entries, >= 0
  const int32_t* right_shift = nullptr; // n entries, >= 0
  bool half_up = false;
  int32_t out_offset = 0, act_min = 0, act_max = 0;
};
// Owns the arrays of RequantizeParams for all output channels of a kernel.
struct RequantizeTable {
  std::vector<int32_t> bias, multiplier, left_shift, right_shift;
  bool half_up = false;
  int32_t out_offset = 0, act_min = 0, act_max = 0;
  // Parameters for channels [first, first + n).
  RequantizeParams At(int first) const {
    return {bias.data() + first, multiplier.data() + first, left_shift.data() + first,
            right_shift.data() + first, half_up, out_offset, act_min, act_max};
  }
};

// Fills `t` from prepared quantization parameters and an int32 bias tensor
// (or none), for `channels` output channels.
void FillRequantizeTable(const QuantConvParams& q, const TfLiteTensor* bias, int channels,
                         RequantizeTable* t);

void RequantizeRow(const int32_t* sums, int64_t n, const RequantizeParams& p, int8_t* out);
void RequantizeRow(const int32_t* sums, int64_t n, const RequantizeParams& p, uint8_t* out);

// 8-bit quantized ADD and SUB, upstream's arithmetic (quant_binary.h) over
// rows. Each input is brought to the sum's common scale,
//   sign * MultiplyByQuantizedMultiplier((q - zero_point) << 20, m, -right)
// with m below 2^31 (no left shift: the input multipliers are at most 1/2);
// the sum is rescaled to the output with its multiplier and shifts, offset
// and clamped.
//
// (q - zero_point) * 2^20 * m / 2^31 is (q - zero_point) * m / 2^11, so with
// m = high * 2^11 + low the rounded doubling high multiply of an input is
//   d * high + ((d * low + 2^10) >> 11),  d = q - zero_point,
// exactly, in 32-bit arithmetic (|d| < 2^9, high < 2^20, low < 2^11).
constexpr int kQuantAddHeadroom = 20;
struct QuantAddInput {
  int32_t zero_point = 0, high = 0, low = 0, right = 0, sign = 1;
};
struct QuantAddOutput {
  int32_t offset = 0, multiplier = 0, left = 0, right = 0, act_min = 0, act_max = 0;
};
// Values are read and written as bytes XOR `flip`: 0 for UINT8, 0x80 for
// INT8, whose zero points, output offset and clamp range are then given 128
// higher (an int8 v is the byte (v + 128) ^ 0x80), so one loop serves both.
struct QuantAddRowParams {
  QuantAddInput a, b;
  QuantAddOutput out;
  uint8_t flip = 0;
};

// out[i] = a[i * a_step] (+/-) b[i * b_step] for i < n over 8-bit values,
// steps 0 or 1.
void QuantAddRow(const void* a, int64_t a_step, const void* b, int64_t b_step, int64_t n,
                 const QuantAddRowParams& p, void* out);

// Tests only: with `baseline_only` the functions above run their baseline
// loops even where a separately compiled NEON copy exists. Returns whether this
// build has such a copy (32-bit ARM), i.e. whether the switch changes anything.
bool SetQGemmBaselineOnlyForTesting(bool baseline_only);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QGEMM_H_

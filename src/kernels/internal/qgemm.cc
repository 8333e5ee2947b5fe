#include "src/kernels/internal/qgemm.h"

#include <atomic>
#include <cstring>

#include "src/kernels/internal/target_clones.h"

#if defined(__arm__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

namespace baseline {
#include "src/kernels/internal/qgemm_loops.inc"
}  // namespace baseline

// 32-bit ARM: NEON is optional in Debian's armhf ABI (ARMv7-A, VFPv3-D16), so
// the loops are compiled a second time for NEON and picked at run time from
// the kernel's hardware capabilities. AArch64 has NEON in its baseline, and
// x86-64 uses target clones (target_clones.h).
#if defined(__GNUC__) && !defined(__clang__) && defined(__arm__) && !defined(__ARM_NEON) && \
    defined(__linux__)
#define TFLITE_C_QGEMM_ARM_NEON 1
#pragma GCC push_options
#pragma GCC target("fpu=neon")
namespace neon {
#include "src/kernels/internal/qgemm_loops.inc"
}  // namespace neon
#pragma GCC pop_options
#endif

std::atomic<bool> g_baseline_only{false};

#if defined(TFLITE_C_QGEMM_ARM_NEON)
bool UseNeon() {
  static const bool has_neon = (getauxval(AT_HWCAP) & HWCAP_NEON) != 0;
  return has_neon && !g_baseline_only.load(std::memory_order_relaxed);
}
#define TFLITE_C_QGEMM_CALL(fn, ...) (UseNeon() ? neon::fn(__VA_ARGS__) : baseline::fn(__VA_ARGS__))
#else
#define TFLITE_C_QGEMM_CALL(fn, ...) baseline::fn(__VA_ARGS__)
#endif

template <typename T>
void Requantize(const int32_t* sums, int64_t n, const RequantizeParams& p, T* out) {
  if (p.half_up) {
    TFLITE_C_QGEMM_CALL(RequantizeLoop<true>, sums, n, p, out);
  } else {
    TFLITE_C_QGEMM_CALL(RequantizeLoop<false>, sums, n, p, out);
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
  TFLITE_C_QGEMM_CALL(Widen, src, n, offset, dst);
}
void WidenWithOffset(const uint8_t* src, int64_t n, int32_t offset, int16_t* dst) {
  TFLITE_C_QGEMM_CALL(Widen, src, n, offset, dst);
}
void DepthwiseSums(const uint8_t* const* inputs, const int16_t* const* filters, int count,
                   int64_t channels, bool signed_input, int32_t offset, int32_t* acc) {
  // An int8 v is the byte (v + 128) ^ 0x80.
  TFLITE_C_QGEMM_CALL(DepthwiseSumsLoop, inputs, filters, count, channels,
                      signed_input ? uint8_t{0x80} : uint8_t{0}, signed_input ? offset - 128 : offset,
                      acc);
}

void QuantAddRow(const void* a, int64_t a_step, const void* b, int64_t b_step, int64_t n,
                 const QuantAddRowParams& p, void* out) {
  TFLITE_C_QGEMM_CALL(QuantAddLoop, static_cast<const uint8_t*>(a), a_step,
                      static_cast<const uint8_t*>(b), b_step, n, p, static_cast<uint8_t*>(out));
}

bool SetQGemmBaselineOnlyForTesting(bool baseline_only) {
  g_baseline_only.store(baseline_only);
#if defined(TFLITE_C_QGEMM_ARM_NEON)
  return true;
#else
  return false;
#endif
}

void QGemmS16(const int16_t* a, int64_t m, int64_t lda, const int16_t* b, int64_t n, int64_t ldb,
              int64_t k, int32_t* c, int64_t ldc) {
  TFLITE_C_QGEMM_CALL(Kernel, a, m, lda, b, n, ldb, k, c, ldc);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

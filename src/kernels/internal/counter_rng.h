// Counter-based random number generators of Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3" (SC 2011): Philox4x32-10 and Threefry2x32-20,
// as the random ops and STABLEHLO_RNG_BIT_GENERATOR use them.
//
// Each is a pure function of a key and a counter (a bijection of the counter
// for a fixed key), so a stream is just a key plus a counter that advances
// by one per block. PhiloxStream is TensorFlow's stateful generator: the
// 64-bit key and the 128-bit counter words are little-endian (word 0 least
// significant), and seeding it with (seed, seed2) sets the key to `seed` and
// the counter's upper half to `seed2`.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_COUNTER_RNG_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_COUNTER_RNG_H_

#include <array>
#include <cstdint>

namespace tflite_c {
namespace kernels {
namespace internal {

using PhiloxBlock = std::array<uint32_t, 4>;
using ThreefryBlock = std::array<uint32_t, 2>;

// Ten Philox rounds of `counter` under the key (key0, key1).
PhiloxBlock Philox4x32(uint32_t key0, uint32_t key1, PhiloxBlock counter);

// Twenty Threefry rounds of `counter` under the key (key0, key1).
ThreefryBlock Threefry2x32(uint32_t key0, uint32_t key1, ThreefryBlock counter);

class PhiloxStream {
 public:
  PhiloxStream() = default;
  PhiloxStream(uint64_t key, uint64_t counter_high);

  // The block at the current counter; the counter then advances by one.
  PhiloxBlock Next();
  // Advances the counter by `blocks` (128-bit addition, wrapping).
  void Skip(uint64_t blocks);

 private:
  PhiloxBlock counter_{};
  uint32_t key_[2] = {0, 0};
};

// [0, 1) from the low 23 bits of `bits`: the float 1.m minus one, so every
// result is a multiple of 2^-23.
float UnitFloatFromBits(uint32_t bits);
// [0, 1) from 52 bits: the low 20 of `high` and all of `low`, as 1.m - 1.
double UnitDoubleFromBits(uint32_t high, uint32_t low);
// Two standard normal samples from two words by the Box-Muller transform in
// float arithmetic; the first uniform is raised to 1e-7 before its log.
void BoxMuller(uint32_t a, uint32_t b, float* first, float* second);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_COUNTER_RNG_H_

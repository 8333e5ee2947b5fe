#include "src/kernels/internal/counter_rng.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Round multipliers and key increments (the golden ratio and sqrt(3) - 1 in
// 32-bit fixed point) of the Philox paper.
constexpr uint64_t kPhiloxMul0 = 0xD2511F53u;
constexpr uint64_t kPhiloxMul1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxBump0 = 0x9E3779B9u;
constexpr uint32_t kPhiloxBump1 = 0xBB67AE85u;

// Threefry's key-schedule parity word and its eight rotation distances.
constexpr uint32_t kThreefryParity = 0x1BD11BDAu;
constexpr int kThreefryRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};

uint32_t RotateLeft(uint32_t x, int bits) { return (x << bits) | (x >> (32 - bits)); }

}  // namespace

PhiloxBlock Philox4x32(uint32_t key0, uint32_t key1, PhiloxBlock c) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = kPhiloxMul0 * c[0];
    const uint64_t p1 = kPhiloxMul1 * c[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c = {hi1 ^ c[1] ^ key0, lo1, hi0 ^ c[3] ^ key1, lo0};
    key0 += kPhiloxBump0;
    key1 += kPhiloxBump1;
  }
  return c;
}

ThreefryBlock Threefry2x32(uint32_t key0, uint32_t key1, ThreefryBlock c) {
  const uint32_t schedule[3] = {key0, key1, key0 ^ key1 ^ kThreefryParity};
  uint32_t x0 = c[0] + schedule[0];
  uint32_t x1 = c[1] + schedule[1];
  for (int round = 0; round < 20; ++round) {
    x0 += x1;
    x1 = RotateLeft(x1, kThreefryRotations[round % 8]) ^ x0;
    if (round % 4 == 3) {
      // Key injection number s after every fourth round.
      const uint32_t s = static_cast<uint32_t>(round / 4 + 1);
      x0 += schedule[s % 3];
      x1 += schedule[(s + 1) % 3] + s;
    }
  }
  return {x0, x1};
}

PhiloxStream::PhiloxStream(uint64_t key, uint64_t counter_high) {
  key_[0] = static_cast<uint32_t>(key);
  key_[1] = static_cast<uint32_t>(key >> 32);
  counter_[2] = static_cast<uint32_t>(counter_high);
  counter_[3] = static_cast<uint32_t>(counter_high >> 32);
}

PhiloxBlock PhiloxStream::Next() {
  const PhiloxBlock block = Philox4x32(key_[0], key_[1], counter_);
  Skip(1);
  return block;
}

void PhiloxStream::Skip(uint64_t blocks) {
  // 128-bit addition of `blocks`, one 32-bit word at a time.
  uint64_t carry = blocks;
  for (uint32_t& word : counter_) {
    const uint64_t sum = static_cast<uint64_t>(word) + (carry & 0xFFFFFFFFu);
    word = static_cast<uint32_t>(sum);
    carry = (carry >> 32) + (sum >> 32);
    if (carry == 0) break;
  }
}

float UnitFloatFromBits(uint32_t bits) {
  const uint32_t one_point_m = 0x3F800000u | (bits & 0x7FFFFFu);
  float f;
  std::memcpy(&f, &one_point_m, sizeof(f));
  return f - 1.0f;
}

double UnitDoubleFromBits(uint32_t high, uint32_t low) {
  const uint64_t one_point_m = (uint64_t{0x3FF} << 52) |
                               (static_cast<uint64_t>(high & 0xFFFFFu) << 32) | low;
  double d;
  std::memcpy(&d, &one_point_m, sizeof(d));
  return d - 1.0;
}

void BoxMuller(uint32_t a, uint32_t b, float* first, float* second) {
  constexpr float kMinRadiusUniform = 1.0e-7f;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const float u = std::max(UnitFloatFromBits(a), kMinRadiusUniform);
  // The angle is formed in double and rounded once to float, as TensorFlow.
  const float angle = static_cast<float>(kTwoPi * UnitFloatFromBits(b));
  const float radius = std::sqrt(-2.0f * std::log(u));
  *first = std::sin(angle) * radius;
  *second = std::cos(angle) * radius;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

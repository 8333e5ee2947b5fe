#include "src/kernels/internal/fingerprint64.h"

#include <utility>

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// FarmHash's odd multipliers (primes between 2^63 and 2^64).
constexpr uint64_t kMulA = 0xC3A5C85C97CB3127ull;
constexpr uint64_t kMulB = 0xB492B66FBE98F273ull;
constexpr uint64_t kMulC = 0x9AE16A3B2F90404Full;

uint64_t Load64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint64_t Load32(const unsigned char* p) {
  return static_cast<uint64_t>(p[0]) | static_cast<uint64_t>(p[1]) << 8 |
         static_cast<uint64_t>(p[2]) << 16 | static_cast<uint64_t>(p[3]) << 24;
}

// Rotation to the right (FarmHash's Rotate64); `bits` is in (0, 64).
uint64_t RotateRight(uint64_t v, int bits) { return (v >> bits) | (v << (64 - bits)); }

uint64_t FoldHigh(uint64_t v) { return v ^ (v >> 47); }

// Murmur-style mix of two words under an odd multiplier.
uint64_t MixPair(uint64_t u, uint64_t v, uint64_t mul) {
  const uint64_t a = FoldHigh((u ^ v) * mul);
  return FoldHigh((v ^ a) * mul) * mul;
}

uint64_t UpTo16(const unsigned char* s, size_t n) {
  const uint64_t mul = kMulC + n * 2;
  if (n >= 8) {
    const uint64_t a = Load64(s) + kMulC;
    const uint64_t b = Load64(s + n - 8);
    return MixPair(RotateRight(b, 37) * mul + a, (RotateRight(a, 25) + b) * mul, mul);
  }
  if (n >= 4) return MixPair(n + (Load32(s) << 3), Load32(s + n - 4), mul);
  if (n == 0) return kMulC;
  const uint32_t low = static_cast<uint32_t>(s[0]) + (static_cast<uint32_t>(s[n / 2]) << 8);
  const uint32_t high = static_cast<uint32_t>(n) + (static_cast<uint32_t>(s[n - 1]) << 2);
  return FoldHigh(low * kMulC ^ high * kMulA) * kMulC;
}

uint64_t From17To32(const unsigned char* s, size_t n) {
  const uint64_t mul = kMulC + n * 2;
  const uint64_t a = Load64(s) * kMulB;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + n - 8) * mul;
  const uint64_t d = Load64(s + n - 16) * kMulC;
  return MixPair(RotateRight(a + b, 43) + RotateRight(c, 30) + d,
                 a + RotateRight(b + kMulC, 18) + c, mul);
}

uint64_t From33To64(const unsigned char* s, size_t n) {
  const uint64_t mul = kMulC + n * 2;
  const uint64_t a = Load64(s) * kMulC;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + n - 8) * mul;
  const uint64_t d = Load64(s + n - 16) * kMulC;
  const uint64_t y = RotateRight(a + b, 43) + RotateRight(c, 30) + d;
  const uint64_t z = MixPair(y, a + RotateRight(b + kMulC, 18) + c, mul);
  const uint64_t e = Load64(s + 16) * mul;
  const uint64_t f = Load64(s + 24);
  const uint64_t g = (y + Load64(s + n - 32)) * mul;
  const uint64_t h = (z + Load64(s + n - 24)) * mul;
  return MixPair(RotateRight(e + f, 43) + RotateRight(g, 30) + h,
                 e + RotateRight(f + a, 18) + g, mul);
}

using Lanes = std::pair<uint64_t, uint64_t>;

// Folds 32 bytes at `s` and two seeds into two lanes.
Lanes Fold32(const unsigned char* s, uint64_t a, uint64_t b) {
  const uint64_t w = Load64(s), x = Load64(s + 8), y = Load64(s + 16), z = Load64(s + 24);
  a += w;
  b = RotateRight(b + a + z, 21);
  const uint64_t c = a;
  a += x + y;
  b += RotateRight(a, 44);
  return {a + z, b + c};
}

// Longer inputs: 64-byte blocks into a 56-byte state, then the last 64
// bytes (which may overlap the previous block) with a state-derived
// multiplier.
uint64_t Over64(const unsigned char* s, size_t n) {
  constexpr uint64_t kSeed = 81;
  uint64_t x = kSeed * kMulC + Load64(s);
  uint64_t y = kSeed * kMulB + 113;
  uint64_t z = FoldHigh(y * kMulC + 113) * kMulC;
  Lanes v{0, 0}, w{0, 0};
  const unsigned char* const blocks_end = s + ((n - 1) / 64) * 64;
  const unsigned char* const last = s + n - 64;
  for (const unsigned char* p = s; p != blocks_end; p += 64) {
    x = RotateRight(x + y + v.first + Load64(p + 8), 37) * kMulB;
    y = RotateRight(y + v.second + Load64(p + 48), 42) * kMulB;
    x ^= w.second;
    y += v.first + Load64(p + 40);
    z = RotateRight(z + w.first, 33) * kMulB;
    v = Fold32(p, v.second * kMulB, x + w.first);
    w = Fold32(p + 32, z + w.second, y + Load64(p + 16));
    std::swap(z, x);
  }
  const uint64_t mul = kMulB + ((z & 0xFF) << 1);
  w.first += (n - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  x = RotateRight(x + y + v.first + Load64(last + 8), 37) * mul;
  y = RotateRight(y + v.second + Load64(last + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + Load64(last + 40);
  z = RotateRight(z + w.first, 33) * mul;
  v = Fold32(last, v.second * mul, x + w.first);
  w = Fold32(last + 32, z + w.second, y + Load64(last + 16));
  std::swap(z, x);
  return MixPair(MixPair(v.first, w.first, mul) + FoldHigh(y) * kMulA + z,
                 MixPair(v.second, w.second, mul) + x, mul);
}

}  // namespace

uint64_t Fingerprint64(const void* data, size_t length) {
  const auto* s = static_cast<const unsigned char*>(data);
  if (length <= 16) return UpTo16(s, length);
  if (length <= 32) return From17To32(s, length);
  if (length <= 64) return From33To64(s, length);
  return Over64(s, length);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

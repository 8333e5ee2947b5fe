// Shared helpers of the INT4 kernel tests: packing values two per byte, low
// nibble first (upstream's layout), and reading them back sign-extended.
#ifndef TFLITE_C_TESTS_KERNELS_INT4_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_INT4_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tflite_c {
namespace testing {

// `v` (each in [-8, 7]) packed, padded with zero bytes to `bytes` (runtime
// INT4 tensors hold a byte per element).
inline std::vector<uint8_t> PackInt4(const std::vector<int>& v, size_t bytes = 0) {
  std::vector<uint8_t> out(std::max(bytes, (v.size() + 1) / 2), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    out[i / 2] |= static_cast<uint8_t>((v[i] & 0xF) << (i % 2 ? 4 : 0));
  }
  return out;
}

// The first `n` values of packed `bytes` (fewer if `bytes` runs out).
inline std::vector<int> UnpackInt4(const std::vector<uint8_t>& bytes, size_t n) {
  std::vector<int> out;
  for (size_t i = 0; i < n && i / 2 < bytes.size(); ++i) {
    const int nibble = (i % 2 == 0) ? (bytes[i / 2] & 0xF) : (bytes[i / 2] >> 4);
    out.push_back(nibble >= 8 ? nibble - 16 : nibble);
  }
  return out;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_INT4_TEST_UTIL_H_

// Shared by the tests of STABLEHLO_PAD, STABLEHLO_GATHER and STABLEHLO_SCATTER
// (stablehlo_pad_test.cc, stablehlo_gather_test.cc, stablehlo_scatter_test.cc):
// the int64 attribute vectors, membership in them, and raw tensor bytes.
#ifndef TFLITE_C_TESTS_KERNELS_STABLEHLO_DATA_OPS_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_STABLEHLO_DATA_OPS_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tflite_c {
namespace testing {

using I64s = std::vector<int64_t>;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

inline bool Has(const I64s& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_STABLEHLO_DATA_OPS_TEST_UTIL_H_

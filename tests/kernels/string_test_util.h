// Shared helpers of the string kernel tests: encoding strings into upstream's
// buffer layout, reading a string tensor back, and writing strings into an
// input through the opaque API.
#ifndef TFLITE_C_TESTS_KERNELS_STRING_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_STRING_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"

namespace tflite_c {
namespace testing {

// Upstream's layout: count, count + 1 offsets, bytes.
inline std::vector<uint8_t> EncodeStrings(const std::vector<std::string>& strings) {
  std::vector<const char*> ptrs;
  std::vector<int> lengths;
  for (const std::string& s : strings) {
    ptrs.push_back(s.data());
    lengths.push_back(static_cast<int>(s.size()));
  }
  char* buffer = nullptr;
  size_t bytes = 0;
  EXPECT_TRUE(StringBufferEncode(ptrs.data(), lengths.data(), static_cast<int>(strings.size()),
                                 &buffer, &bytes));
  std::vector<uint8_t> out(buffer, buffer + bytes);
  std::free(buffer);
  return out;
}

// All strings of a tensor; fails the test on a malformed one.
inline std::vector<std::string> ReadStrings(const TfLiteTensor* t) {
  std::vector<std::string> out;
  const int count = StringTensorCount(t);
  EXPECT_GE(count, 0);
  for (int i = 0; i < count; ++i) {
    const char* str;
    int len;
    EXPECT_TRUE(StringTensorGet(t, i, &str, &len));
    out.emplace_back(str, len);
  }
  return out;
}

// Writes `strings` into STRING tensor `t` through the opaque API.
inline TfLiteStatus WriteStrings(TfLiteTensor* t, const std::vector<std::string>& strings) {
  std::vector<const char*> ptrs;
  std::vector<int> lengths;
  for (const std::string& s : strings) {
    ptrs.push_back(s.data());
    lengths.push_back(static_cast<int>(s.size()));
  }
  return TfLiteOpaqueTensorWriteStrings(reinterpret_cast<TfLiteOpaqueTensor*>(t), ptrs.data(),
                                        static_cast<int>(ptrs.size()), lengths.data());
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_STRING_TEST_UTIL_H_

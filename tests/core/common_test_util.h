// Shared by the tests of src/core/common.cc's helpers (common_arrays_test.cc,
// common_tensor_test.cc).
#ifndef TFLITE_C_TESTS_CORE_COMMON_TEST_UTIL_H_
#define TFLITE_C_TESTS_CORE_COMMON_TEST_UTIL_H_

#include <initializer_list>

#include "tensorflow/lite/c/common.h"

namespace tflite_c {
namespace testing {

// A TfLiteIntArray holding `values` (free it with TfLiteIntArrayFree).
inline TfLiteIntArray* MakeIntArray(std::initializer_list<int> values) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(values.size()));
  int i = 0;
  for (int v : values) a->data[i++] = v;
  return a;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_CORE_COMMON_TEST_UTIL_H_

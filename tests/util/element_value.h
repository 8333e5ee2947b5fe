// One element of a tensor's raw bytes as a double, for tests that compare
// outputs of any numeric type with a tolerance (golden files, references).
#ifndef TFLITE_C_TESTS_UTIL_ELEMENT_VALUE_H_
#define TFLITE_C_TESTS_UTIL_ELEMENT_VALUE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tensorflow/lite/core/c/c_api_types.h"

namespace tflite_c {
namespace testing {

// Bytes of one element of the numeric types ElementValue reads; 0 for others.
inline size_t NumericElementBytes(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat64: case kTfLiteInt64: return 8;
    case kTfLiteFloat32: case kTfLiteInt32: return 4;
    case kTfLiteInt16: return 2;
    case kTfLiteInt8: case kTfLiteUInt8: case kTfLiteBool: return 1;
    default: return 0;
  }
}

// The element at `p` (unaligned is fine); NaN for types without a reading.
inline double ElementValue(const void* p, TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: { float v; std::memcpy(&v, p, 4); return v; }
    case kTfLiteFloat64: { double v; std::memcpy(&v, p, 8); return v; }
    case kTfLiteInt32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case kTfLiteInt64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case kTfLiteInt16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case kTfLiteInt8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case kTfLiteUInt8: case kTfLiteBool: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    default: return NAN;
  }
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_ELEMENT_VALUE_H_

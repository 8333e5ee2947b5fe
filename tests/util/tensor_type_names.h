// Short names for the schema's tensor types and the value vectors kernel
// tests build models from, so a test reads like its shapes and types:
//   using namespace tflite_c::testing::names;  // NOLINT(build/namespaces)
//   m.Input(F32, Shape{2, 3});
#ifndef TFLITE_C_TESTS_UTIL_TENSOR_TYPE_NAMES_H_
#define TFLITE_C_TESTS_UTIL_TENSOR_TYPE_NAMES_H_

#include <cstdint>
#include <vector>

#include "schema_generated.h"

namespace tflite_c {
namespace testing {
namespace names {

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I16 = tflite::TensorType_INT16;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto U8 = tflite::TensorType_UINT8;
constexpr auto BOOL = tflite::TensorType_BOOL;
constexpr auto STRING = tflite::TensorType_STRING;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;
using Shape = std::vector<int>;

}  // namespace names
}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_TENSOR_TYPE_NAMES_H_

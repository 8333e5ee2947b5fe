// CAST from floating-point types to integer types: values are truncated
// toward zero and saturate at the output type's limits; NaN gives the
// maximum (upstream 2.19's FLOAT32 -> INT32 rule, applied to every integer
// output as upstream's later kernel does).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using namespace tflite;  // NOLINT(build/namespaces): schema enums

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <typename From, typename To>
std::vector<To> Cast(TensorType from, TensorType to, const std::vector<From>& values) {
  OneOpModel m;
  m.Input(from, {static_cast<int>(values.size())});
  m.Output(to, {static_cast<int>(values.size())});
  m.Op(BuiltinOperator_CAST);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<From>(0, values);
  EXPECT_TRUE(m.Invoke()) << m.log();
  return m.Get<To>();
}

TEST(CastSaturationTest, FloatToInt32) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  // 2147483520 is the largest float below 2^31.
  EXPECT_EQ((Cast<float, int32_t>(TensorType_FLOAT32, TensorType_INT32,
                                  {3e9f, -3e9f, kNaN, kInf, -kInf, 2147483520.0f, -2147483648.0f,
                                   2147483648.0f, -1.5f, 1.5f})),
            (std::vector<int32_t>{kMax, kMin, kMax, kMax, kMin, 2147483520, kMin, kMax, -1, 1}));
}

TEST(CastSaturationTest, FloatToNarrowTypes) {
  EXPECT_EQ((Cast<float, int16_t>(TensorType_FLOAT32, TensorType_INT16,
                                  {40000.0f, -40000.0f, 32767.9f, -32768.5f, kNaN, -3.7f})),
            (std::vector<int16_t>{32767, -32768, 32767, -32768, 32767, -3}));
  EXPECT_EQ((Cast<float, uint8_t>(TensorType_FLOAT32, TensorType_UINT8,
                                  {300.0f, -5.0f, 255.9f, -0.9f, kNaN, 7.9f})),
            (std::vector<uint8_t>{255, 0, 255, 0, 255, 7}));
  EXPECT_EQ((Cast<float, int8_t>(TensorType_FLOAT32, TensorType_INT8,
                                 {200.0f, -200.0f, -kInf, kNaN, -128.9f})),
            (std::vector<int8_t>{127, -128, -128, 127, -128}));
  EXPECT_EQ((Cast<float, uint32_t>(TensorType_FLOAT32, TensorType_UINT32,
                                   {-1.0f, 5e9f, 4294967040.0f, kNaN})),
            (std::vector<uint32_t>{0, 4294967295u, 4294967040u, 4294967295u}));
}

TEST(CastSaturationTest, DoubleAndComplexToInteger) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ((Cast<double, int64_t>(TensorType_FLOAT64, TensorType_INT64,
                                   {1e19, -1e19, 9.2e18, -9223372036854775808.0, -2.5})),
            (std::vector<int64_t>{kMax, kMin, 9200000000000000000LL, kMin, -2}));
  // COMPLEX64 keeps the real part, then saturates like a float.
  EXPECT_EQ((Cast<std::complex<float>, int8_t>(TensorType_COMPLEX64, TensorType_INT8,
                                               {{200.0f, 1.0f}, {-3.5f, 9.0f}})),
            (std::vector<int8_t>{127, -3}));
}

}  // namespace
}  // namespace tflite_c

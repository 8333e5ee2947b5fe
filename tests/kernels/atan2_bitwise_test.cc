// ATAN2, BITWISE_XOR and RIGHT_SHIFT: one-op models run through the public C
// API; ATAN2's expected values come from std::atan2 on the same inputs, the
// bitwise ones are computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::SameTypeOp;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto F64 = tflite::TensorType_FLOAT64;
constexpr auto I32 = tflite::TensorType_INT32;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;

// ---- ATAN2 --------------------------------------------------------------------------

TEST(Atan2Test, AllQuadrantsFloat32AndFloat64) {
  const Floats y = {1, 1, -1, -1, 0, 0, 2.5f, -0.0f};
  const Floats x = {1, -1, -1, 1, -3, 0, 0, 1};
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F32, {{2, 4}, {2, 4}}, {2, 4});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, y);
    m.Set<float>(1, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const Floats out = m.Get<float>();
    ASSERT_EQ(out.size(), y.size());
    const float pi = 3.14159265f;
    const Floats expected = {pi / 4, 3 * pi / 4, -3 * pi / 4, -pi / 4, pi, 0, pi / 2, -0.0f};
    for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-6f) << i;
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F64, {{3}, {3}}, {3});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<double>(0, {1, -2, 3});
    m.Set<double>(1, {0.5, 0.25, -4});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<double>(),
              (std::vector<double>{std::atan2(1.0, 0.5), std::atan2(-2.0, 0.25),
                                   std::atan2(3.0, -4.0)}));
  }
}

TEST(Atan2Test, Errors) {
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F32, {{2}, {1}}, {2});
    ExpectPrepareError(m, "ATAN2: y shape [2] and x shape [1] differ");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, I32, {{2}, {2}}, {2});
    ExpectPrepareError(m, "ATAN2: input type INT32 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Input(F64, {2});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_ATAN2);
    ExpectPrepareError(m, "does not match");
  }
}

// ---- BITWISE_XOR / RIGHT_SHIFT --------------------------------------------------------------

TEST(BitwiseTest, XorAndRightShiftBroadcast) {
  {
    OneOpModel m;
    m.Input(tflite::TensorType_UINT8, {2, 2});
    m.Input(tflite::TensorType_UINT8, {2});
    m.Output(tflite::TensorType_UINT8, {2, 2});
    m.Op(tflite::BuiltinOperator_BITWISE_XOR);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {0xF0, 0x0F, 0xFF, 0x00});
    m.Set<uint8_t>(1, {0xFF, 0x01});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0x0F, 0x0E, 0x00, 0x01}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_RIGHT_SHIFT, I32, {{5}, {5}}, {5});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {-16, 16, 1 << 30, -1, 7});
    m.Set<int32_t>(1, {2, 2, 40, 5, -3});  // 40 -> 31, -3 -> 0
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{-4, 4, 0, -1, 7}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_BITWISE_XOR, F32, {{2}, {2}}, {2});
    ExpectPrepareError(m, "BITWISE_XOR");
  }
}

}  // namespace
}  // namespace tflite_c

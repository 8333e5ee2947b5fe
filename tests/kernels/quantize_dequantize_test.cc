// Tests of DEQUANTIZE and QUANTIZE. Each test builds a one-op model with
// ModelBuilder and runs it through the public C API, so it also covers loading,
// AllocateTensors (Prepare) and Invoke. Expected values are hand-computed;
// quantized cases check upstream's rounding rules bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using testing::Quantization;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- DEQUANTIZE / QUANTIZE ---------------------------------------------------------

TEST(DequantizeTest, Int8Uint8Int16) {
  {
    OneOpModel m;
    m.Input(I8, {3}, Q(0.5f, -1));
    m.Output(F32, {3});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {-128, -1, 127});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{-63.5f, 0, 64}));
  }
  {
    OneOpModel m;
    m.Input(U8, {2}, Q(0.25f, 128));
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {0, 255});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{-32, 31.75f}));
  }
  {
    OneOpModel m;
    m.Input(I16, {2}, Q(0.5f, 3));
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ExpectPrepareError(m, "INT16 input must have zero point 0");
  }
}

TEST(DequantizeTest, ConstantFloat16WeightsAreConvertedOnce) {
  OneOpModel m;
  // 1.0, -2.5, 65504 (largest half), 2^-24 (smallest subnormal half)
  m.Const<uint16_t>({4}, {0x3c00, 0xc100, 0x7bff, 0x0001}, tflite::TensorType_FLOAT16);
  m.Output(F32, {4});
  m.Op(tflite::BuiltinOperator_DEQUANTIZE, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1.0f, -2.5f, 65504.0f, 5.9604645e-8f}));
}

TEST(DequantizeTest, PerChannelConstant) {
  OneOpModel m;
  m.Const<int8_t>({2, 2}, {1, 2, 3, 4}, I8, Quantization{{0.5f, 2.0f}, {0, 1}, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_DEQUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0.5f, 1, 4, 6}));
}

TEST(QuantizeTest, FloatToInt8RoundsHalfAwayAndClamps) {
  OneOpModel m;
  m.Input(F32, {5});
  m.Output(I8, {5}, Q(0.5f, 1));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {0.25f, -0.25f, 1.0f, 1000.0f, -1000.0f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{2, 0, 3, 127, -128}));
}

// Upstream divides by the scale in double for per-tensor INT8 and UINT8
// outputs (its optimized kernel on x86) and in float for INT16 and
// per-channel outputs. x / s is -126.4999966 in double but rounds to exactly
// -126.5 in float, so the two round to -126 and -127.
TEST(QuantizeTest, PerTensorInt8AndUint8DivideInDouble) {
  const float x = -0.99213946f, s = 0.007842999882996082f;
  ASSERT_EQ(x / s, -126.5f);  // the tie in float this test is about
  const double in_double = static_cast<double>(x) / static_cast<double>(s);
  ASSERT_GT(in_double, -126.5);
  struct Case {
    tflite::TensorType type;
    int zero_point;
    bool per_channel;
    double expected;  // round(x / s) in the division upstream uses, + zero point
  };
  const Case cases[] = {
      {I8, -1, false, std::round(in_double) - 1},                  // -127
      {U8, 128, false, std::round(in_double) + 128},               // 2
      {I16, 0, false, std::round(x / s)},                          // -127
      {I8, -1, true, static_cast<double>(std::round(x / s)) - 1},  // -128
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(static_cast<int>(c.type)) + (c.per_channel ? " per-channel" : ""));
    OneOpModel m;
    m.Input(F32, {1, 2});
    if (c.per_channel) {
      Quantization q;
      q.scale = {s, 1.0f};
      q.zero_point = {c.zero_point, 0};
      q.quantized_dimension = 1;
      m.Output(c.type, {1, 2}, q);
    } else {
      m.Output(c.type, {1, 2}, Q(s, c.zero_point));
    }
    m.Op(tflite::BuiltinOperator_QUANTIZE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {x, 0.0f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    double got = 0;
    if (c.type == I8) got = m.Get<int8_t>()[0];
    if (c.type == U8) got = m.Get<uint8_t>()[0];
    if (c.type == I16) got = m.Get<int16_t>()[0];
    EXPECT_EQ(got, c.expected);
  }
}

TEST(QuantizeTest, Uint8ToInt8Requantize) {
  OneOpModel m;
  m.Input(U8, {3}, Q(0.5f, 128));
  m.Output(I8, {3}, Q(1.0f, 0));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  // The fixed-point multiply rounds ties upwards: 0.5 → 1, -0.5 → 0, 63.5 → 64.
  m.Set<uint8_t>(0, {129, 127, 255});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{1, 0, 64}));
}

TEST(QuantizeTest, RejectsUnsupportedPair) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Output(I32, {2}, Q(1.0f, 0));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ExpectPrepareError(m, "FLOAT32 input to INT32 output is not supported");
}

}  // namespace
}  // namespace tflite_c

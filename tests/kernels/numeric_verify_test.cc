// NumericVerify, the custom op upstream's default resolver registers for
// checking quantized tensors against their float originals, run as a one-op
// model through the public C API. Expected differences are worked out by
// hand from scale * (q - zero_point).
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Q;

constexpr auto F32 = tflite::TensorType_FLOAT32;
using Floats = std::vector<float>;
using Shape = std::vector<int>;

std::vector<uint8_t> Options(float tolerance, bool log_if_failed) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Float("tolerance", tolerance);
    fbb.Bool("log_if_failed", log_if_failed);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// A NumericVerify of a `type` input (quantized by `q`) against a float
// reference of `ref_shape` (default: the input's shape).
void VerifyOp(OneOpModel& m, tflite::TensorType type, const Shape& shape,
              testing::Quantization q, std::vector<uint8_t> options, Shape ref_shape = {}) {
  m.Input(type, shape, q);
  m.Input(F32, ref_shape.empty() ? shape : ref_shape);
  m.Output(F32, shape);
  m.CustomOp("NumericVerify", std::move(options));
}

void ExpectFloatsNear(const Floats& got, const Floats& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6f) << i;
}

TEST(NumericVerifyTest, SmallToleranceReportsStatisticsAndSucceeds) {
  // int8, scale 0.5, zero point -1: q {-1, 1, 3, 9} -> {0, 1, 2, 5}.
  OneOpModel m;
  VerifyOp(m, tflite::TensorType_INT8, {2, 2}, Q(0.5f, -1), Options(0.05f, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-1, 1, 3, 9});
  m.Set<float>(1, {0.25f, 0.75f, 2.0f, 4.0f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 2}));
  ExpectFloatsNear(m.Get<float>(), {-0.25f, 0.25f, 0.0f, 1.0f});
  // Differences {-0.25, 0.25, 0, 1}: mean 0.25, deviations {-0.5, 0, -0.25,
  // 0.75}, population std sqrt(0.875 / 4) = 0.4677072.
  EXPECT_NE(m.log().find("NumericVerify: std: 0.467707, mean: 0.250000, max_diff: 1.000000 "
                         "(scale: 0.500000, zero_point: -1)"),
            std::string::npos)
      << m.log();
}

TEST(NumericVerifyTest, WithoutLogIfFailedOnlyStatistics) {
  OneOpModel m;
  VerifyOp(m, tflite::TensorType_UINT8, {3}, Q(0.25f, 128), Options(5.0f, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {128, 132, 0});     // {0, 1, -32}
  m.Set<float>(1, {0.0f, 1.0f, 10.0f});  // far off, but only reported
  ASSERT_TRUE(m.Invoke()) << m.log();
  ExpectFloatsNear(m.Get<float>(), {0.0f, 0.0f, -42.0f});
  EXPECT_NE(m.log().find("max_diff: 42.000000"), std::string::npos) << m.log();
}

TEST(NumericVerifyTest, CheckedModeAcceptsDifferencesWithinTolerance) {
  // Tolerance 1 with scale 0.25: |difference| up to 0.25 passes.
  OneOpModel m;
  VerifyOp(m, tflite::TensorType_UINT8, {3}, Q(0.25f, 128), Options(1.0f, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {128, 132, 120});  // {0, 1, -2}
  m.Set<float>(1, {0.125f, 1.25f, -2.0f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  ExpectFloatsNear(m.Get<float>(), {-0.125f, -0.25f, 0.0f});
  EXPECT_EQ(m.log().find("std:"), std::string::npos) << m.log();
}

TEST(NumericVerifyTest, CheckedModeFailsAtTheFirstMismatch) {
  OneOpModel m;
  VerifyOp(m, tflite::TensorType_INT16, {3}, Q(0.5f, 0), Options(1.0f, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int16_t>(0, {2, 4, 6});  // {1, 2, 3}
  m.Set<float>(1, {1.0f, 2.75f, 3.0f});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("NumericVerify: mismatch at element 1: 2.750000 is quantized to 4 "
                         "with scale 0.500000 and zero point 0; |2.750000 - 2.000000| = "
                         "0.750000 > 0.500000 (tolerance 1.000000)"),
            std::string::npos)
      << m.log();
}

TEST(NumericVerifyTest, Float16InputIsWidened) {
  OneOpModel m;
  VerifyOp(m, tflite::TensorType_FLOAT16, {2}, {}, Options(0.0f, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint16_t>(0, {0x3E00, 0xC000});  // 1.5, -2
  m.Set<float>(1, {1.5f, -1.75f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  ExpectFloatsNear(m.Get<float>(), {0.0f, -0.25f});
}

TEST(NumericVerifyTest, RejectsBadTensorsAndOptions) {
  {
    OneOpModel m;
    VerifyOp(m, F32, {2}, {}, Options(1.0f, true));
    ExpectPrepareError(m, "NumericVerify: input type FLOAT32 is not supported");
  }
  {
    OneOpModel m;
    m.Input(tflite::TensorType_INT8, {2}, Q(1.0f, 0));
    m.Input(tflite::TensorType_INT8, {2}, Q(1.0f, 0));
    m.Output(F32, {2});
    m.CustomOp("NumericVerify", Options(1.0f, true));
    ExpectPrepareError(m, "NumericVerify: reference type INT8 is not supported");
  }
  {
    OneOpModel m;
    VerifyOp(m, tflite::TensorType_INT8, {2, 2}, Q(1.0f, 0), Options(1.0f, true), {3});
    ExpectPrepareError(m, "NumericVerify: reference shape [3] and input shape [2,2] differ in size");
  }
  {
    OneOpModel m;
    VerifyOp(m, tflite::TensorType_INT8, {2}, Q(1.0f, 0), {});
    ExpectPrepareError(m, "NumericVerify: custom options are missing or not a flexbuffer map");
  }
  {
    flexbuffers::Builder fbb;
    fbb.Map([&] { fbb.String("tolerance", "tight"); });
    fbb.Finish();
    OneOpModel m;
    VerifyOp(m, tflite::TensorType_INT8, {2}, Q(1.0f, 0), fbb.GetBuffer());
    ExpectPrepareError(m, "NumericVerify: option 'tolerance' is not a finite number");
  }
}

}  // namespace
}  // namespace tflite_c

// REVERSE_V2, FILL, ZEROS_LIKE, RANGE, ONE_HOT and BROADCAST_ARGS. Each test is
// a one-op model run through the public C API; expected values are
// hand-computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- REVERSE_V2 / FILL / ZEROS_LIKE / RANGE / ONE_HOT / BROADCAST_ARGS ------------------------

TEST(ReverseTest, ReversesListedAxes) {
  OneOpModel m;
  m.Input(I32, {2, 3});
  m.Const<int32_t>({1}, {-1});
  m.Output(I32, {2, 3});
  m.Op(tflite::BuiltinOperator_REVERSE_V2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{3, 2, 1, 6, 5, 4}));
}

TEST(FillTest, DynamicDimsAndZerosLike) {
  OneOpModel m;
  m.Input(I64, {2});
  m.Const<float>({}, {2.5f});
  m.Output(F32, {1});
  m.Op(tflite::BuiltinOperator_FILL);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int64_t>(0, {2, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{2.5f, 2.5f, 2.5f, 2.5f}));

  OneOpModel z;
  z.Input(I64, {3});
  z.Output(I64, {3});
  z.Op(tflite::BuiltinOperator_ZEROS_LIKE);
  ASSERT_TRUE(z.Allocate()) << z.log();
  z.Set<int64_t>(0, {7, 8, 9});
  ASSERT_TRUE(z.Invoke()) << z.log();
  EXPECT_EQ(z.Get<int64_t>(), (std::vector<int64_t>{0, 0, 0}));
}

TEST(FillTest, RejectsNonScalarValue) {
  OneOpModel m;
  m.Const<int32_t>({1}, {2});
  m.Input(F32, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_FILL);
  ExpectPrepareError(m, "FILL: value must be a scalar");
}

TEST(RangeTest, IntAndFloatRanges) {
  {
    OneOpModel m;
    m.Const<int32_t>({}, {10});
    m.Const<int32_t>({}, {3});
    m.Const<int32_t>({}, {-3});
    m.Output(I32, {3});
    m.Op(tflite::BuiltinOperator_RANGE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{10, 7, 4}));
  }
  {
    OneOpModel m;
    m.Input(F32, {});
    m.Const<float>({}, {1.0f});
    m.Const<float>({}, {0.25f});
    m.Output(F32, {0});
    m.Op(tflite::BuiltinOperator_RANGE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {0.5f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (Floats{0.5f, 0.75f}));
  }
  {
    OneOpModel m;
    m.Const<int32_t>({}, {0});
    m.Const<int32_t>({}, {3});
    m.Const<int32_t>({}, {-1});
    m.Output(I32, {3});
    m.Op(tflite::BuiltinOperator_RANGE);
    ExpectPrepareError(m, "delta must be non-zero and point from start to limit");
  }
}

TEST(OneHotTest, AxisZeroAndLast) {
  for (int axis : {-1, 0}) {
    OneOpModel m;
    m.Input(I32, {2});
    m.Const<int32_t>({}, {3});
    m.Const<float>({}, {1.0f});
    m.Const<float>({}, {0.0f});
    m.Output(F32, {2, 3});
    tflite::OneHotOptionsT o;
    o.axis = axis;
    m.Op(tflite::BuiltinOperator_ONE_HOT, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {2, 5});
    ASSERT_TRUE(m.Invoke()) << m.log();
    if (axis == -1) {
      EXPECT_EQ(m.Shape(), (Shape{2, 3}));
      EXPECT_EQ(m.Get<float>(), (Floats{0, 0, 1, 0, 0, 0}));
    } else {
      EXPECT_EQ(m.Shape(), (Shape{3, 2}));
      EXPECT_EQ(m.Get<float>(), (Floats{0, 0, 0, 0, 1, 0}));
    }
  }
}

TEST(BroadcastArgsTest, BroadcastsAndRejectsIncompatible) {
  OneOpModel m;
  m.Input(I32, {2});
  m.Input(I32, {3});
  m.Output(I32, {3});
  m.Op(tflite::BuiltinOperator_BROADCAST_ARGS);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 4});
  m.Set<int32_t>(1, {2, 3, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{2, 3, 4}));
  m.Set<int32_t>(1, {2, 3, 2});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("do not broadcast"), std::string::npos) << m.log();
}

}  // namespace
}  // namespace tflite_c

// Tests of PAD, PADV2 and MIRROR_PAD. Each test builds a one-op model with
// ModelBuilder and runs it through the public C API, so it also covers loading,
// AllocateTensors (Prepare) and Invoke. Expected values are hand-computed;
// quantized cases check upstream's rounding rules bit for bit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- PAD / PADV2 / MIRROR_PAD ----------------------------------------------------

TEST(PadTest, FloatConstantPaddings) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Const<int32_t>({4, 2}, {0, 0, 1, 0, 0, 2, 0, 0});
  m.Output(F32, {1, 3, 4, 1});
  m.Op(tflite::BuiltinOperator_PAD, Opts(tflite::PadOptionsT{}));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 3, 4, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
}

TEST(PadTest, QuantizedPadsWithZeroPoint) {
  OneOpModel m;
  m.Input(I8, {3}, Q(0.5f, -3));
  m.Const<int64_t>({1, 2}, {2, 1});
  m.Output(I8, {6}, Q(0.5f, -3));
  m.Op(tflite::BuiltinOperator_PAD);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {5, 6, 7});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-3, -3, 5, 6, 7, -3}));
}

TEST(PadTest, PadV2ConstantValueAndDynamicPaddings) {
  OneOpModel m;
  m.Input(F32, {2, 1});
  m.Input(I32, {2, 2});  // paddings only known at Invoke
  m.Const<float>({}, {9.5f});
  m.Output(F32, {2, 1});
  m.Op(tflite::BuiltinOperator_PADV2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2});
  m.Set<int32_t>(1, {1, 0, 0, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 2}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{9.5f, 9.5f, 1, 9.5f, 2, 9.5f}));
}

TEST(PadTest, RejectsBadPaddingsShapeAndNegativePadding) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2});
    m.Const<int32_t>({3, 2}, {0, 0, 0, 0, 0, 0});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_PAD);
    ExpectPrepareError(m, "paddings must have shape [2, 2]");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Const<int32_t>({1, 2}, {-1, 0});
    m.Output(F32, {1});
    m.Op(tflite::BuiltinOperator_PAD);
    ExpectPrepareError(m, "negative");
  }
}

tflite::BuiltinOptionsUnion MirrorOpts(tflite::MirrorPadMode mode) {
  tflite::MirrorPadOptionsT o;
  o.mode = mode;
  return Opts(o);
}

TEST(MirrorPadTest, ReflectAndSymmetric) {
  for (auto mode : {tflite::MirrorPadMode_REFLECT, tflite::MirrorPadMode_SYMMETRIC}) {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({2, 2}, {1, 0, 2, 2});
    m.Output(F32, {3, 7});
    m.Op(tflite::BuiltinOperator_MIRROR_PAD, MirrorOpts(mode));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{3, 7}));
    if (mode == tflite::MirrorPadMode_REFLECT) {
      EXPECT_EQ(m.Get<float>(), (std::vector<float>{6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1,  //
                                                    6, 5, 4, 5, 6, 5, 4}));
    } else {
      EXPECT_EQ(m.Get<float>(), (std::vector<float>{2, 1, 1, 2, 3, 3, 2,  //
                                                    2, 1, 1, 2, 3, 3, 2,  //
                                                    5, 4, 4, 5, 6, 6, 5}));
    }
  }
}

TEST(MirrorPadTest, RejectsPaddingLargerThanReflectAllows) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Const<int32_t>({1, 2}, {3, 0});
  m.Output(F32, {6});
  m.Op(tflite::BuiltinOperator_MIRROR_PAD, MirrorOpts(tflite::MirrorPadMode_REFLECT));
  ExpectPrepareError(m, "must be in [0, 2] for REFLECT");
}

}  // namespace
}  // namespace tflite_c

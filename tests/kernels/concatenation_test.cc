// Tests of CONCATENATION. Each test builds a one-op model with ModelBuilder and
// runs it through the public C API, so it also covers loading, AllocateTensors
// (Prepare) and Invoke. Expected values are hand-computed; quantized cases
// check upstream's rounding rules bit for bit.
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

// ---- CONCATENATION ---------------------------------------------------------------

tflite::BuiltinOptionsUnion ConcatOpts(int axis, tflite::ActivationFunctionType act =
                                                     tflite::ActivationFunctionType_NONE) {
  tflite::ConcatenationOptionsT o;
  o.axis = axis;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(ConcatenationTest, FloatAxisAndNegativeAxis) {
  for (int axis : {1, -1}) {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {2, 2});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(axis));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2});
    m.Set<float>(1, {3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 3}));
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  }
}

TEST(ConcatenationTest, FusedReluAndConstantInput) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Const<float>({1}, {-7});
  m.Output(F32, {3});
  m.Op(tflite::BuiltinOperator_CONCATENATION,
       ConcatOpts(0, tflite::ActivationFunctionType_RELU));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-1, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0, 2, 0}));
}

TEST(ConcatenationTest, Uint8InputsWithOtherScalesAreRequantized) {
  OneOpModel m;
  m.Input(U8, {2}, Q(1.0f, 128));
  m.Input(U8, {2}, Q(0.5f, 0));
  m.Output(U8, {4}, Q(1.0f, 128));
  m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {0, 200});
  m.Set<uint8_t>(1, {3, 255});  // reals 1.5 → round(1.5) = 2, 127.5 → 128
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0, 200, 130, 255}));
}

TEST(ConcatenationTest, AllConstantInputsAreFoldedInPrepare) {
  OneOpModel m;
  m.Const<int32_t>({1}, {4});
  m.Const<int32_t>({2}, {5, 6});
  m.Output(I32, {3});
  m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{4, 5, 6}));
}

TEST(ConcatenationTest, RejectsMismatchedShapesAndBadAxis) {
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {3});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(1));
    ExpectPrepareError(m, "input 1 has rank 1");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {3, 1});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(1));
    ExpectPrepareError(m, "does not match the first input");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Output(F32, {2, 1});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(2));
    ExpectPrepareError(m, "axis 2 is out of range for rank 2");
  }
}

}  // namespace
}  // namespace tflite_c

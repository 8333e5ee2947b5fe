// Tests of TRANSPOSE, SPACE_TO_DEPTH and DEPTH_TO_SPACE. Each test builds a
// one-op model with ModelBuilder and runs it through the public C API, so it
// also covers loading, AllocateTensors (Prepare) and Invoke. Expected values
// are hand-computed.
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

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- TRANSPOSE -----------------------------------------------------------------------

TEST(TransposeTest, ThreeDimensions) {
  OneOpModel m;
  m.Input(F32, {2, 3, 1});
  m.Const<int32_t>({3}, {1, 2, 0});
  m.Output(F32, {3, 1, 2});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(TransposeTest, SixDimensionsWithRuntimePerm) {
  OneOpModel m;
  m.Input(I8, {1, 2, 1, 2, 1, 2});
  m.Input(I32, {6});
  m.Output(I8, {2, 2, 2, 1, 1, 1});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {0, 1, 2, 3, 4, 5, 6, 7});
  m.Set<int32_t>(1, {5, 3, 1, 0, 2, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2, 2, 1, 1, 1}));
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{0, 4, 2, 6, 1, 5, 3, 7}));
}

TEST(TransposeTest, RejectsRepeatedAxis) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Const<int32_t>({2}, {0, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ExpectPrepareError(m, "perm repeats dimension 0");
}

// ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE ------------------------------------------------

TEST(SpaceDepthTest, SpaceToDepthAndBack) {
  tflite::SpaceToDepthOptionsT s2d;
  s2d.block_size = 2;
  OneOpModel m;
  m.Input(F32, {1, 2, 4, 1});
  m.Output(F32, {1, 1, 2, 4});
  m.Op(tflite::BuiltinOperator_SPACE_TO_DEPTH, Opts(s2d));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 1, 2, 4}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8}));

  tflite::DepthToSpaceOptionsT d2s;
  d2s.block_size = 2;
  OneOpModel back;
  back.Input(I8, {1, 1, 2, 4});
  back.Output(I8, {1, 2, 4, 1});
  back.Op(tflite::BuiltinOperator_DEPTH_TO_SPACE, Opts(d2s));
  ASSERT_TRUE(back.Allocate()) << back.log();
  back.Set<int8_t>(0, {1, 2, 5, 6, 3, 4, 7, 8});
  ASSERT_TRUE(back.Invoke()) << back.log();
  EXPECT_EQ(back.Get<int8_t>(), (std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(SpaceDepthTest, RejectsIndivisibleInput) {
  tflite::SpaceToDepthOptionsT o;
  o.block_size = 2;
  OneOpModel m;
  m.Input(F32, {1, 3, 2, 1});
  m.Output(F32, {1, 1, 1, 4});
  m.Op(tflite::BuiltinOperator_SPACE_TO_DEPTH, Opts(o));
  ExpectPrepareError(m, "block size 2 does not divide the input [1, 3, 2, 1]");
}

}  // namespace
}  // namespace tflite_c

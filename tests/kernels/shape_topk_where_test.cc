// SQUEEZE, EXPAND_DIMS, SHAPE, TOPK_V2 and WHERE. Each test is a one-op model
// run through the public C API; expected values are hand-computed.
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

// ---- SQUEEZE / EXPAND_DIMS / SHAPE ---------------------------------------------------------

TEST(ShapeOpsTest, SqueezeExpandDimsShape) {
  {
    OneOpModel m;
    m.Input(F32, {1, 2, 1});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_SQUEEZE, Opts(tflite::SqueezeOptionsT{}));
    ASSERT_TRUE(m.Allocate()) << m.log();
    EXPECT_EQ(m.Shape(), (Shape{2}));
  }
  {
    OneOpModel m;
    m.Input(F32, {1, 2, 1});
    m.Output(F32, {2});
    tflite::SqueezeOptionsT o;
    o.squeeze_dims = {1};
    m.Op(tflite::BuiltinOperator_SQUEEZE, Opts(o));
    ExpectPrepareError(m, "dimension 1 has size 2, not 1");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Input(I32, {1});
    m.Output(F32, {2, 3, 1});
    m.Op(tflite::BuiltinOperator_EXPAND_DIMS);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(1, {-2});
    m.Set<float>(0, {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (Shape{2, 1, 3}));
    EXPECT_EQ(m.Get<float>(), (Floats{1, 2, 3, 4, 5, 6}));
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 5, 3});
    m.Output(I64, {3});
    tflite::ShapeOptionsT o;
    o.out_type = tflite::TensorType_INT64;
    m.Op(tflite::BuiltinOperator_SHAPE, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int64_t>(), (std::vector<int64_t>{2, 5, 3}));
  }
}

// ---- TOPK_V2 / WHERE --------------------------------------------------------------------------

TEST(TopKTest, LargestFirstTiesKeepOrder) {
  OneOpModel m;
  m.Input(F32, {2, 4});
  m.Input(I32, {});
  m.Output(F32, {2, 2});
  m.Output(I32, {2, 2});
  m.Op(tflite::BuiltinOperator_TOPK_V2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 5, 3, 5, -1, -2, -3, 0});
  m.Set<int32_t>(1, {2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(0), (Floats{5, 5, 0, -1}));
  EXPECT_EQ(m.Get<int32_t>(1), (Ints{1, 3, 3, 0}));
  m.Set<int32_t>(1, {5});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("k must be one value in [0, 4]"), std::string::npos) << m.log();
}

TEST(WhereTest, CoordinatesOfTrueElements) {
  OneOpModel m;
  m.Input(BOOL, {2, 2});
  m.Output(I64, {0, 2});
  m.Op(tflite::BuiltinOperator_WHERE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {1, 0, 0, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 2}));
  EXPECT_EQ(m.Get<int64_t>(), (std::vector<int64_t>{0, 0, 1, 1}));
}

TEST(WhereTest, RejectsNonInt64Output) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Output(I32, {2, 1});
  m.Op(tflite::BuiltinOperator_WHERE);
  ExpectPrepareError(m, "WHERE: output type INT32 is not supported");
}

}  // namespace
}  // namespace tflite_c

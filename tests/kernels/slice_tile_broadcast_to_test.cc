// Tests of SLICE, TILE and BROADCAST_TO. Each test builds a one-op model with
// ModelBuilder and runs it through the public C API, so it also covers loading,
// AllocateTensors (Prepare) and Invoke. Expected values are hand-computed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;

using testing::ExpectPrepareError;
using testing::OneOpModel;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- SLICE / TILE / BROADCAST_TO ----------------------------------------------------------

TEST(SliceTest, SizeMinusOneTakesTheRest) {
  OneOpModel m;
  m.Input(F32, {3, 2});
  m.Const<int32_t>({2}, {1, 0});
  m.Const<int32_t>({2}, {-1, 1});
  m.Output(F32, {2, 1});
  m.Op(tflite::BuiltinOperator_SLICE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{3, 5}));
}

TEST(SliceTest, RuntimeBeginOutOfRangeFailsAtInvoke) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Input(I32, {1});
  m.Const<int32_t>({1}, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_SLICE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3});
  m.Set<int32_t>(1, {2});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("do not fit dimension 0 of size 3"), std::string::npos) << m.log();
}

TEST(TileTest, ConstantAndRuntimeMultiples) {
  {
    OneOpModel m;
    m.Input(I32, {2});
    m.Const<int32_t>({1}, {3});
    m.Output(I32, {6});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {1, 2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2}));
  }
  {
    OneOpModel m;
    m.Input(tflite::TensorType_BOOL, {2, 1});
    m.Input(tflite::TensorType_INT64, {2});
    m.Output(tflite::TensorType_BOOL, {2, 1});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 0});
    m.Set<int64_t>(1, {1, 2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2}));
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 0}));
  }
}

// Found by fuzz/model_fuzzer (a 8 GB allocation from TILE's plan): runtime
// multiples asking for a huge output are refused by the allocation limit
// before any per-axis plan is built, and an output with a zero dimension
// builds no plan for its other (huge) axes.
TEST(TileTest, MalformedHugeMultiplesBuildNoPlan) {
  struct Case {
    std::vector<int32_t> multiples;
    bool ok;
    std::vector<int> shape;
  };
  for (const Case& c : {Case{{1, 1073741823}, false, {}}, Case{{0, 2147483647}, true, {0, 2147483647}}}) {
    OneOpModel m;
    m.configure_options = [](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetMaxAllocationBytes(o, 64 << 20);
    };
    m.Input(F32, {2, 1});
    m.Input(I32, {2});
    m.Output(F32, {2, 1});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2});
    m.Set<int32_t>(1, c.multiples);
    EXPECT_EQ(m.Invoke(), c.ok) << m.log();
    if (c.ok) {
      EXPECT_EQ(m.Shape(), c.shape);
    } else {
      EXPECT_TRUE(testing::RefusedAsTooBig(m.log(), "allocation limit")) << m.log();
    }
  }
}

TEST(BroadcastToTest, AddsAndExpandsDimensions) {
  OneOpModel m;
  m.Input(F32, {2, 1});
  m.Const<int32_t>({3}, {2, 2, 3});
  m.Output(F32, {2, 2, 3});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
}

TEST(BroadcastToTest, RejectsIncompatibleShape) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Const<int32_t>({1}, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
  ExpectPrepareError(m, "input [3] does not broadcast to dimension 0 of size 2");
}

}  // namespace
}  // namespace tflite_c

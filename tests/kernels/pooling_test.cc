// Tests of MAX_POOL_2D and AVERAGE_POOL_2D. Each test builds a one-op model
// with ModelBuilder and runs it through the public C API, so it also covers
// loading, AllocateTensors (Prepare) and Invoke. Expected values are
// hand-computed; quantized cases check upstream's rounding rules bit for bit.
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

// ---- pooling ----------------------------------------------------------------------

tflite::BuiltinOptionsUnion PoolOpts(tflite::Padding padding, int stride, int filter,
                                     tflite::ActivationFunctionType act =
                                         tflite::ActivationFunctionType_NONE) {
  tflite::Pool2DOptionsT o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.filter_width = o.filter_height = filter;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(PoolTest, MaxPoolFloatSamePadding) {
  OneOpModel m;
  m.Input(F32, {1, 3, 3, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_SAME, 2, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2, 3, -4, 5, -6, 7, -8, -9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 2, 2, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{5, 3, 7, -9}));
}

TEST(PoolTest, MaxPoolInt8WithRelu) {
  OneOpModel m;
  m.Input(I8, {1, 2, 2, 1}, Q(0.5f, 10));
  m.Output(I8, {1, 1, 1, 1}, Q(0.5f, 10));
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D,
       PoolOpts(tflite::Padding_VALID, 1, 2, tflite::ActivationFunctionType_RELU));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-20, 3, 8, -1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{10}));  // max 8 < zero point 10
}

TEST(PoolTest, AveragePoolFloatCountsOnlyValidTaps) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_SAME, 1, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{2.5f, 3, 3.5f, 4}));
}

TEST(PoolTest, AveragePoolQuantizedRounding) {
  {
    // uint8: (1 + 2 + 2 + 2 + 2/2) / 4 → 7/4 rounds to 2 (half up).
    OneOpModel m;
    m.Input(U8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(U8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 1, 2, 2});  // sum 6 / 4 = 1.5 → 2
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{2}));
  }
  {
    // int8: negative sums round half away from zero: -6 / 4 = -1.5 → -2.
    OneOpModel m;
    m.Input(I8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(I8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {-1, -1, -2, -2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-2}));
  }
}

TEST(PoolTest, RejectsWrongRankAndType) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2, 1});
    m.Output(F32, {1, 1, 1});
    m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "input must be 4-D");
  }
  {
    OneOpModel m;
    m.Input(I32, {1, 2, 2, 1});
    m.Output(I32, {1, 1, 1, 1});
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "AVERAGE_POOL_2D: input type INT32 is not supported");
  }
}

}  // namespace
}  // namespace tflite_c

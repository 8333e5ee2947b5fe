// DYNAMIC_UPDATE_SLICE: the update is written at a start clamped into the
// operand; errors for mismatched types and ranks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I64 = tflite::TensorType_INT64;

using Floats = std::vector<float>;

TEST(DynamicUpdateSliceTest, WritesAtClampedStart) {
  OneOpModel m;
  m.Input(F32, {3, 4});
  m.Input(F32, {2, 2});
  m.Input(I64, {2});  // INT64 start indices (version 2)
  m.Output(F32, {3, 4});
  m.Op(tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  m.Set<float>(1, {-1, -2, -3, -4});
  m.Set<int64_t>(2, {1, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{0, 1, 2, 3, 4, -1, -2, 7, 8, -3, -4, 11}));
  // Starts beyond the end (or negative) are clamped so the update fits.
  m.Set<int64_t>(2, {7, -5});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{0, 1, 2, 3, -1, -2, 6, 7, -3, -4, 10, 11}));
}

TEST(DynamicUpdateSliceTest, Errors) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2});
    m.Input(F32, {3, 1});
    m.Const<int32_t>({2}, {0, 0});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE);
    ExpectPrepareError(m, "update shape [3,1] does not fit in operand shape [2,2]");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 2});
    m.Input(F32, {1, 1});
    m.Const<int32_t>({1}, {0});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE);
    ExpectPrepareError(m, "start_indices must be 1-D with 2 elements");
  }
}

}  // namespace
}  // namespace tflite_c

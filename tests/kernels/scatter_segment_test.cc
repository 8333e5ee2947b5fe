// SCATTER_ND, SEGMENT_SUM and UNSORTED_SEGMENT_{SUM,PROD,MAX,MIN}: one-op
// models run through the public C API; expected values are computed by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto I16 = tflite::TensorType_INT16;
constexpr auto BOOL = tflite::TensorType_BOOL;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;
using Shape = std::vector<int>;

// ---- SCATTER_ND ---------------------------------------------------------------------

TEST(ScatterNdTest, RowsIntoMatrixWithDuplicatesAccumulating) {
  OneOpModel m;
  m.Const<int32_t>({3, 1}, {2, 0, 2});
  m.Input(F32, {3, 2});
  m.Const<int32_t>({1 + 1}, {4, 2});
  m.Output(F32, {4, 2});
  m.Op(tflite::BuiltinOperator_SCATTER_ND);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 10, 20});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{4, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{3, 4, 0, 0, 11, 22, 0, 0}));
}

TEST(ScatterNdTest, ElementsWithDynamicShape) {
  OneOpModel m;
  m.Input(I32, {2, 2});  // indices
  m.Input(I64, {2});     // updates
  m.Input(I32, {2});     // shape
  m.Output(I64, {1, 1});
  m.Op(tflite::BuiltinOperator_SCATTER_ND);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {0, 1, 2, 0});
  m.Set<int64_t>(1, {7, -9});
  m.Set<int32_t>(2, {3, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{3, 2}));
  EXPECT_EQ(m.Get<int64_t>(), (std::vector<int64_t>{0, 7, 0, 0, -9, 0}));
  // An index outside the output fails at Invoke instead of writing out of bounds.
  m.Set<int32_t>(0, {0, 1, 3, 0});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("index 3 in row 1 is out of range [0, 3)"), std::string::npos) << m.log();
  m.Set<int32_t>(0, {0, -1, 0, 0});
  EXPECT_FALSE(m.Invoke());
  // So does a negative shape.
  m.Set<int32_t>(0, {0, 0, 0, 0});
  m.Set<int32_t>(2, {-3, 2});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("shape dimension 0 is negative (-3)"), std::string::npos) << m.log();
}

TEST(ScatterNdTest, BoolUpdatesOr) {
  OneOpModel m;
  m.Const<int32_t>({2, 1}, {1, 1});
  m.Input(BOOL, {2});
  m.Const<int32_t>({1}, {3});
  m.Output(BOOL, {3});
  m.Op(tflite::BuiltinOperator_SCATTER_ND);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {1, 1});  // BOOL elements are bytes
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0, 1, 0}));
}

TEST(ScatterNdTest, PrepareErrors) {
  {
    OneOpModel m;
    m.Const<int32_t>({2, 1}, {0, 1});
    m.Input(F32, {3});
    m.Const<int32_t>({1}, {4});
    m.Output(F32, {4});
    m.Op(tflite::BuiltinOperator_SCATTER_ND);
    ExpectPrepareError(m, "updates shape [3] does not fit indices shape [2,1] and shape [4]");
  }
  {
    OneOpModel m;
    m.Const<int32_t>({1, 1}, {0});
    m.Input(I16, {1});
    m.Const<int32_t>({1}, {4});
    m.Output(I16, {4});
    m.Op(tflite::BuiltinOperator_SCATTER_ND);
    ExpectPrepareError(m, "SCATTER_ND: updates type INT16 is not supported");
  }
  {
    OneOpModel m;
    m.Const<int32_t>({1, 3}, {0, 0, 0});
    m.Input(F32, {1});
    m.Const<int32_t>({2}, {4, 4});
    m.Output(F32, {4, 4});
    m.Op(tflite::BuiltinOperator_SCATTER_ND);
    ExpectPrepareError(m, "index depth 3 must be in [1, 2]");
  }
}

// ---- SEGMENT_SUM / UNSORTED_SEGMENT_* -------------------------------------------

TEST(SegmentSumTest, SortedIds) {
  OneOpModel m;
  m.Input(F32, {4, 2});
  m.Const<int32_t>({4}, {0, 0, 1, 2});
  m.Output(F32, {3, 2});
  m.Op(tflite::BuiltinOperator_SEGMENT_SUM);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{3, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{4, 6, 5, 6, 7, 8}));
}

TEST(SegmentSumTest, DynamicIdsValidatedAtInvoke) {
  OneOpModel m;
  m.Input(I32, {3});
  m.Input(I32, {3});
  m.Output(I32, {1});
  m.Op(tflite::BuiltinOperator_SEGMENT_SUM);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {5, 6, 7});
  m.Set<int32_t>(1, {0, 1, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2}));
  EXPECT_EQ(m.Get<int32_t>(), (Ints{5, 13}));
  m.Set<int32_t>(1, {0, 2, 2});  // skips id 1
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("element 1 is 2"), std::string::npos) << m.log();
  m.Set<int32_t>(1, {1, 1, 1});  // does not start at 0
  EXPECT_FALSE(m.Invoke());
}

TEST(SegmentSumTest, PrepareErrors) {
  OneOpModel m;
  m.Input(F32, {3, 2});
  m.Const<int32_t>({2}, {0, 1});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_SEGMENT_SUM);
  ExpectPrepareError(m, "segment_ids must be 1-D with 3 elements");
}

struct UnsortedCase {
  tflite::BuiltinOperator op;
  Floats expected;  // [3 segments, 2]
};

TEST(UnsortedSegmentTest, AllReductionsWithNegativeIdsSkippedAndEmptySegments) {
  // Rows: [1,2] id 2, [3,-4] id 0, [5,6] id -1 (skipped), [-7,8] id 2.
  // Segment 1 is empty.
  const float lo = std::numeric_limits<float>::lowest();
  const float hi = std::numeric_limits<float>::max();
  const std::vector<UnsortedCase> cases = {
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, {3, -4, 0, 0, -6, 10}},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD, {3, -4, 1, 1, -7, 16}},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, {3, -4, lo, lo, 1, 8}},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN, {3, -4, hi, hi, -7, 2}},
  };
  for (const UnsortedCase& c : cases) {
    OneOpModel m;
    m.Input(F32, {4, 2});
    m.Const<int32_t>({4}, {2, 0, -1, 2});
    m.Const<int32_t>({}, {3});
    m.Output(F32, {3, 2});
    m.Op(c.op);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2, 3, -4, 5, 6, -7, 8});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (Shape{3, 2}));
    EXPECT_EQ(m.Get<float>(), c.expected) << tflite::EnumNameBuiltinOperator(c.op);
  }
}

TEST(UnsortedSegmentTest, MatrixIdsInt32DataAndDynamicNumSegments) {
  OneOpModel m;
  m.Input(I32, {2, 2, 1});
  m.Input(I32, {2, 2});  // ids over the first two dimensions
  m.Input(I32, {1});     // num_segments
  m.Output(I32, {1, 1});
  m.Op(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 10, 100, 1000});
  m.Set<int32_t>(1, {1, 0, 1, 1});
  m.Set<int32_t>(2, {2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 1}));
  EXPECT_EQ(m.Get<int32_t>(), (Ints{10, 1101}));
  m.Set<int32_t>(2, {1});  // id 1 no longer fits
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("segment id 1 (element 0) is not below num_segments 1"),
            std::string::npos)
      << m.log();
}

TEST(UnsortedSegmentTest, PrepareErrors) {
  {
    OneOpModel m;
    m.Input(F32, {3, 2});
    m.Const<int32_t>({2}, {0, 1});
    m.Const<int32_t>({}, {2});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX);
    ExpectPrepareError(m, "segment_ids shape [2] must be a prefix of data shape [3,2]");
  }
  {
    OneOpModel m;
    m.Input(I64, {2});
    m.Const<int32_t>({2}, {0, 1});
    m.Const<int32_t>({}, {2});
    m.Output(I64, {2});
    m.Op(tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN);
    ExpectPrepareError(m, "UNSORTED_SEGMENT_MIN: data type INT64 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Const<int32_t>({2}, {0, 5});
    m.Const<int32_t>({}, {2});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD);
    ExpectPrepareError(m, "segment id 5 (element 1) is not below num_segments 2");
  }
}

}  // namespace
}  // namespace tflite_c

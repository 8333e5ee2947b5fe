// RANK and BUCKETIZE: one-op models run through the public C API; expected
// values are computed by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I8 = tflite::TensorType_INT8;

using Ints = std::vector<int32_t>;
using Shape = std::vector<int>;

TEST(RankTest, CountsDimensions) {
  OneOpModel m;
  m.Input(I8, {2, 1, 3});
  m.Output(I32, {});
  m.Op(tflite::BuiltinOperator_RANK);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{3}));
  EXPECT_EQ(m.Shape(), (Shape{}));
}

tflite::BuiltinOptionsUnion BucketizeOpts(std::vector<float> boundaries) {
  tflite::BucketizeOptionsT o;
  o.boundaries = std::move(boundaries);
  return Opts(o);
}

TEST(BucketizeTest, CountsBoundariesAtOrBelow) {
  OneOpModel m;
  m.Input(F32, {6});
  m.Output(I32, {6});
  m.Op(tflite::BuiltinOperator_BUCKETIZE, BucketizeOpts({0, 10, 100}));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-5, 0, 0.5f, 10, 150, 99.9f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{0, 1, 1, 2, 3, 2}));
  OneOpModel bad;
  bad.Input(F32, {1});
  bad.Output(I32, {1});
  bad.Op(tflite::BuiltinOperator_BUCKETIZE, BucketizeOpts({3, 1}));
  ExpectPrepareError(bad, "boundaries must be sorted");
}

}  // namespace
}  // namespace tflite_c

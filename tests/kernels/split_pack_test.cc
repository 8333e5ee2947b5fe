// SPLIT, SPLIT_V, UNPACK and PACK. Each test is a one-op model run through the
// public C API; expected values are hand-computed.
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
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- SPLIT / SPLIT_V / UNPACK / PACK ------------------------------------------------

tflite::BuiltinOptionsUnion SplitOpts(int n) {
  tflite::SplitOptionsT o;
  o.num_splits = n;
  return Opts(o);
}

TEST(SplitTest, EqualPiecesAlongNegativeAxis) {
  OneOpModel m;
  m.Const<int32_t>({}, {-1});
  m.Input(F32, {2, 4});
  m.Output(F32, {2, 2});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_SPLIT, SplitOpts(2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(0), (Floats{1, 2, 5, 6}));
  EXPECT_EQ(m.Get<float>(1), (Floats{3, 4, 7, 8}));
}

TEST(SplitTest, DynamicAxisAndUnevenSplitError) {
  OneOpModel m;
  m.Input(I32, {});
  m.Input(I8, {3, 2}, Q(0.5f, 1));
  m.Output(I8, {1, 2}, Q(0.5f, 1));
  m.Output(I8, {1, 2}, Q(0.5f, 1));
  m.Output(I8, {1, 2}, Q(0.5f, 1));
  m.Op(tflite::BuiltinOperator_SPLIT, SplitOpts(3));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {0});
  m.Set<int8_t>(1, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(2), (Shape{1, 2}));
  EXPECT_EQ(m.Get<int8_t>(2), (std::vector<int8_t>{5, 6}));
  m.Set<int32_t>(0, {1});  // 2 columns do not split in 3
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("does not split into 3"), std::string::npos) << m.log();
}

TEST(SplitTest, SplitVWithInferredSize) {
  OneOpModel m;
  m.Input(F32, {5});
  m.Const<int32_t>({2}, {2, -1});
  m.Const<int32_t>({}, {0});
  m.Output(F32, {2});
  m.Output(F32, {3});
  tflite::SplitVOptionsT o;
  o.num_splits = 2;
  m.Op(tflite::BuiltinOperator_SPLIT_V, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(0), (Floats{1, 2}));
  EXPECT_EQ(m.Get<float>(1), (Floats{3, 4, 5}));
}

TEST(SplitTest, SplitVRejectsSizesThatDoNotAddUp) {
  OneOpModel m;
  m.Input(F32, {5});
  m.Const<int32_t>({2}, {2, 2});
  m.Const<int32_t>({}, {0});
  m.Output(F32, {2});
  m.Output(F32, {2});
  tflite::SplitVOptionsT o;
  o.num_splits = 2;
  m.Op(tflite::BuiltinOperator_SPLIT_V, Opts(o));
  ExpectPrepareError(m, "size_splits add up to 4");
}

TEST(PackTest, UnpackThenPackAlongAxis1) {
  OneOpModel u;
  u.Input(F32, {2, 3});
  for (int i = 0; i < 3; ++i) u.Output(F32, {2});
  tflite::UnpackOptionsT uo;
  uo.num = 3;
  uo.axis = 1;
  u.Op(tflite::BuiltinOperator_UNPACK, Opts(uo));
  ASSERT_TRUE(u.Allocate()) << u.log();
  u.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(u.Invoke()) << u.log();
  EXPECT_EQ(u.Get<float>(1), (Floats{2, 5}));

  OneOpModel p;
  p.Input(F32, {2});
  p.Input(F32, {2});
  p.Output(F32, {2, 2});
  tflite::PackOptionsT po;
  po.values_count = 2;
  po.axis = -1;
  p.Op(tflite::BuiltinOperator_PACK, Opts(po));
  ASSERT_TRUE(p.Allocate()) << p.log();
  p.Set<float>(0, {1, 2});
  p.Set<float>(1, {3, 4});
  ASSERT_TRUE(p.Invoke()) << p.log();
  EXPECT_EQ(p.Get<float>(), (Floats{1, 3, 2, 4}));
}

TEST(PackTest, RejectsMismatchedShapesAndCounts) {
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Input(F32, {3});
    m.Output(F32, {2, 2});
    tflite::PackOptionsT o;
    o.values_count = 2;
    m.Op(tflite::BuiltinOperator_PACK, Opts(o));
    ExpectPrepareError(m, "input 1 differs from input 0");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Output(F32, {3});
    m.Output(F32, {3});
    tflite::UnpackOptionsT o;
    o.num = 2;
    o.axis = 1;
    m.Op(tflite::BuiltinOperator_UNPACK, Opts(o));
    ExpectPrepareError(m, "expected num = 2");
  }
}

}  // namespace
}  // namespace tflite_c

// GATHER (axis, batch dims, int64 positions, strings) and GATHER_ND. Each test
// is a one-op model run through the public C API; expected values are
// hand-computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- GATHER / GATHER_ND ---------------------------------------------------------------------

tflite::BuiltinOptionsUnion GatherOpts(int axis, int batch_dims = 0) {
  tflite::GatherOptionsT o;
  o.axis = axis;
  o.batch_dims = batch_dims;
  return Opts(o);
}

TEST(GatherTest, AxisAndInt64Positions) {
  OneOpModel m;
  m.Input(F32, {2, 3});
  m.Const<int64_t>({2, 2}, {2, 0, 1, 1});
  m.Output(F32, {2, 2, 2});
  m.Op(tflite::BuiltinOperator_GATHER, GatherOpts(-1));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{3, 1, 2, 2, 6, 4, 5, 5}));
}

TEST(GatherTest, BatchDims) {
  OneOpModel m;
  m.Input(I32, {2, 3});
  m.Input(I32, {2, 1});
  m.Output(I32, {2, 1});
  m.Op(tflite::BuiltinOperator_GATHER, GatherOpts(1, 1));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 3, 4, 5, 6});
  m.Set<int32_t>(1, {2, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{3, 4}));
}

TEST(GatherTest, StringInput) {
  const char* words[] = {"a", "bc", "def"};
  const int lengths[] = {1, 2, 3};
  char* buffer = nullptr;
  size_t bytes = 0;
  ASSERT_TRUE(StringBufferEncode(words, lengths, 3, &buffer, &bytes));
  std::vector<uint8_t> encoded(buffer, buffer + bytes);
  std::free(buffer);
  OneOpModel m;
  const int positions = m.Input(I32, {2});
  const int strings = m.builder().AddConstantBytes(tflite::TensorType_STRING, {3}, encoded);
  const int output = m.Output(tflite::TensorType_STRING, {2});
  // The string constant is the op's first input: add the operator by hand.
  const int op =
      m.builder().AddOperator(tflite::BuiltinOperator_GATHER, {strings, positions}, {output});
  m.builder().op(op).builtin_options = GatherOpts(0);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {2, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2}));
  const std::vector<uint8_t> out = m.Get<uint8_t>();
  const std::string text(out.begin(), out.end());
  EXPECT_NE(text.find("defa"), std::string::npos);
}

TEST(GatherTest, OutOfRangePositionFailsInvoke) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Input(I32, {1});
  m.Output(F32, {1});
  m.Op(tflite::BuiltinOperator_GATHER, GatherOpts(0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(1, {3});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("position 3 is out of range [0, 3)"), std::string::npos) << m.log();
}

TEST(GatherTest, RejectsBadBatchDims) {
  OneOpModel m;
  m.Input(F32, {2, 3});
  m.Input(I32, {3, 1});
  m.Output(F32, {2, 1});
  m.Op(tflite::BuiltinOperator_GATHER, GatherOpts(1, 1));
  ExpectPrepareError(m, "batch dimension 0 differs");
}

// Found by structured_fuzzer in CI (UBSan: null pointer passed to memcpy):
// params whose slices are empty ([2, 0]) copy nothing, and the indices are
// still checked.
TEST(GatherNdTest, MalformedEmptySlicesCopyNothing) {
  OneOpModel m;
  m.Input(F32, {2, 0});
  m.Input(I32, {3, 1});
  m.Output(F32, {3, 0});
  m.Op(tflite::BuiltinOperator_GATHER_ND);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(1, {1, 0, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_TRUE(m.Get<float>().empty());
  m.Set<int32_t>(1, {0, 2, 1});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("index 2 is out of range"), std::string::npos) << m.log();
}

TEST(GatherNdTest, RowsAndElements) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Const<int32_t>({2, 1}, {1, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_GATHER_ND);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{3, 4, 1, 2}));

  OneOpModel e;
  e.Input(F32, {2, 2});
  e.Input(I64, {1, 2});
  e.Output(F32, {1});
  e.Op(tflite::BuiltinOperator_GATHER_ND);
  ASSERT_TRUE(e.Allocate()) << e.log();
  e.Set<float>(0, {1, 2, 3, 4});
  e.Set<int64_t>(1, {1, 1});
  ASSERT_TRUE(e.Invoke()) << e.log();
  EXPECT_EQ(e.Get<float>(), (Floats{4}));
  e.Set<int64_t>(1, {0, 2});
  EXPECT_FALSE(e.Invoke());
  EXPECT_NE(e.log().find("index 2 is out of range"), std::string::npos) << e.log();
}

}  // namespace
}  // namespace tflite_c

// STRING paths of SLICE, TILE and FILL (as upstream: each copies whole
// strings; the output is a dynamic tensor whose buffer is built at Eval) and
// the refusal of STRING by CONCATENATION, which upstream does not support
// either. Models are built with ModelBuilder and run through the C API.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tests/kernels/string_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::EncodeStrings;
using testing::ExpectAllocateError;
using testing::ModelBuilder;
using testing::ReadStrings;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

constexpr auto STR = TensorType_STRING;

int AddStrings(ModelBuilder& b, const std::vector<int>& shape,
               const std::vector<std::string>& strings) {
  return b.AddConstantBytes(STR, shape, EncodeStrings(strings));
}

class Runner : public testing::ModelRunner {
 public:
  using ModelRunner::ModelRunner;
  // Writes strings into STRING input i and gives it `shape`.
  void SetStrings(int i, const std::vector<std::string>& strings, const std::vector<int>& shape) {
    ASSERT_EQ(testing::WriteStrings(input(i), strings), kTfLiteOk);
    TfLiteIntArrayFree(input(i)->dims);
    input(i)->dims = TfLiteIntArrayCreate(static_cast<int>(shape.size()));
    for (size_t d = 0; d < shape.size(); ++d) input(i)->dims->data[d] = shape[d];
  }
};

const std::vector<std::string> kWords = {"a", "", "h\xC3\xA9llo", "\xC3\xBC\xE2\x82\xAC",
                                         std::string("nul\0in", 6), "last one"};

// Strings of many lengths, some empty.
std::vector<std::string> ManyStrings(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(std::string(i % 7, static_cast<char>('a' + i % 26)) +
                                            std::to_string(i) + (i % 5 == 0 ? "\xE2\x82\xAC" : ""));
  for (int i = 0; i < n; i += 11) out[i].clear();
  return out;
}

// ---- SLICE ---------------------------------------------------------------------

TEST(StringSliceTest, ConstantBeginAndSize) {
  ModelBuilder b;
  const int x = b.AddInput(STR, {2, 3}, "x");
  const int begin = b.AddConstant<int32_t>({2}, {0, 1});
  const int size = b.AddConstant<int32_t>({2}, {2, -1});
  const int y = b.AddOutput(STR, {2, 2}, "y");
  b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.SetStrings(0, kWords, {2, 3});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{2, 2}));
  EXPECT_EQ(ReadStrings(r.output(0)),
            (std::vector<std::string>{"", kWords[2], kWords[4], kWords[5]}));
  // A second run with other strings rebuilds the buffer.
  r.SetStrings(0, {"1", "22", "333", "4444", "", "6"}, {2, 3});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(ReadStrings(r.output(0)), (std::vector<std::string>{"22", "333", "", "6"}));
}

TEST(StringSliceTest, RuntimeBeginAndSizeOnManyStrings) {
  ModelBuilder b;
  const int x = b.AddInput(STR, {10, 100}, "x");
  const int begin = b.AddInput(TensorType_INT64, {2}, "begin");
  const int size = b.AddInput(TensorType_INT64, {2}, "size");
  const int y = b.AddOutput(STR, {1, 1}, "y");
  b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<std::string> all = ManyStrings(1000);
  r.SetStrings(0, all, {10, 100});
  r.Set<int64_t>(1, {3, 17});
  r.Set<int64_t>(2, {5, 60});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{5, 60}));
  std::vector<std::string> want;
  for (int i = 3; i < 8; ++i)
    for (int j = 17; j < 77; ++j) want.push_back(all[i * 100 + j]);
  EXPECT_EQ(ReadStrings(r.output(0)), want);
  // Empty slice.
  r.Set<int64_t>(2, {0, 60});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{0, 60}));
  EXPECT_TRUE(ReadStrings(r.output(0)).empty());
  // Out of range at Invoke.
  r.Set<int64_t>(1, {8, 0});
  r.Set<int64_t>(2, {5, 1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("SLICE: begin 8, size 5 do not fit dimension 0 of size 10"),
            std::string::npos)
      << r.log();
}

TEST(StringSliceTest, ConstantStringInput) {
  ModelBuilder b;
  const int x = AddStrings(b, {3, 2}, kWords);
  const int begin = b.AddConstant<int32_t>({2}, {1, 0});
  const int size = b.AddConstant<int32_t>({2}, {2, 1});
  const int y = b.AddOutput(STR, {2, 1}, "y");
  b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{2, 1}));
  EXPECT_EQ(ReadStrings(r.output(0)), (std::vector<std::string>{kWords[2], kWords[4]}));
}

TEST(StringSliceTest, Errors) {
  {  // output type differs
    ModelBuilder b;
    const int x = b.AddInput(STR, {3}, "x");
    const int begin = b.AddConstant<int32_t>({1}, {0});
    const int size = b.AddConstant<int32_t>({1}, {1});
    const int y = b.AddOutput(TensorType_INT32, {1}, "y");
    b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
    ExpectAllocateError(b, "SLICE: input type STRING does not match output type INT32");
  }
  {  // constant begin out of range: caught in Prepare
    ModelBuilder b;
    const int x = b.AddInput(STR, {3}, "x");
    const int begin = b.AddConstant<int32_t>({1}, {2});
    const int size = b.AddConstant<int32_t>({1}, {2});
    const int y = b.AddOutput(STR, {2}, "y");
    b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
    ExpectAllocateError(b, "do not fit dimension 0 of size 3");
  }
  {  // an input holding fewer strings than its shape says
    ModelBuilder b;
    const int x = b.AddInput(STR, {3}, "x");
    const int begin = b.AddConstant<int32_t>({1}, {0});
    const int size = b.AddConstant<int32_t>({1}, {3});
    const int y = b.AddOutput(STR, {3}, "y");
    b.AddOperator(BuiltinOperator_SLICE, {x, begin, size}, {y}, 3);
    Runner r(b);
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.SetStrings(0, {"a", "b"}, {3});
    EXPECT_FALSE(r.Invoke());
    EXPECT_NE(r.log().find("SLICE: STRING input is malformed (2 strings for 3 elements)"),
              std::string::npos)
        << r.log();
  }
}

// ---- TILE ----------------------------------------------------------------------

TEST(StringTileTest, ConstantMultiples) {
  ModelBuilder b;
  const int x = b.AddInput(STR, {2, 3}, "x");
  const int m = b.AddConstant<int32_t>({2}, {2, 2});
  const int y = b.AddOutput(STR, {4, 6}, "y");
  b.AddOperator(BuiltinOperator_TILE, {x, m}, {y}, 2);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.SetStrings(0, kWords, {2, 3});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{4, 6}));
  std::vector<std::string> want;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) want.push_back(kWords[(i % 2) * 3 + j % 3]);
  EXPECT_EQ(ReadStrings(r.output(0)), want);
}

TEST(StringTileTest, RuntimeMultiplesManyStringsAndZero) {
  ModelBuilder b;
  const int x = b.AddInput(STR, {300}, "x");
  const int m = b.AddInput(TensorType_INT64, {1}, "m");
  const int y = b.AddOutput(STR, {1}, "y");
  b.AddOperator(BuiltinOperator_TILE, {x, m}, {y}, 2);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<std::string> all = ManyStrings(300);
  r.SetStrings(0, all, {300});
  r.Set<int64_t>(1, {4});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{1200}));
  std::vector<std::string> want;
  for (int k = 0; k < 4; ++k) want.insert(want.end(), all.begin(), all.end());
  EXPECT_EQ(ReadStrings(r.output(0)), want);
  r.Set<int64_t>(1, {0});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(0), (std::vector<int>{0}));
  EXPECT_TRUE(ReadStrings(r.output(0)).empty());
  r.Set<int64_t>(1, {-1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("TILE: multiple -1 of dimension 0 is invalid"), std::string::npos)
      << r.log();
}

TEST(StringTileTest, TooManyStringsIsAnErrorNotACrash) {
  ModelBuilder b;
  const int x = b.AddInput(STR, {2, 1}, "x");
  const int m = b.AddInput(TensorType_INT32, {2}, "m");
  const int y = b.AddOutput(STR, {1, 1}, "y");
  b.AddOperator(BuiltinOperator_TILE, {x, m}, {y}, 2);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.SetStrings(0, {"ab", "c"}, {2, 1});
  r.Set<int32_t>(1, {1 << 15, 1 << 15});  // 2^31 strings
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("do not fit in a STRING tensor"), std::string::npos) << r.log();
}

// ---- FILL ----------------------------------------------------------------------

TEST(StringFillTest, ConstantAndRuntimeDims) {
  {
    ModelBuilder b;
    const int dims = b.AddConstant<int32_t>({2}, {2, 3});
    const int v = b.AddInput(STR, {}, "v");
    const int y = b.AddOutput(STR, {2, 3}, "y");
    b.AddOperator(BuiltinOperator_FILL, {dims, v}, {y}, 2);
    Runner r(b);
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.SetStrings(0, {"h\xC3\xA9!"}, {});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Shape(0), (std::vector<int>{2, 3}));
    EXPECT_EQ(ReadStrings(r.output(0)), std::vector<std::string>(6, "h\xC3\xA9!"));
    r.SetStrings(0, {""}, {});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(ReadStrings(r.output(0)), std::vector<std::string>(6, ""));
  }
  {
    ModelBuilder b;
    const int dims = b.AddInput(TensorType_INT64, {3}, "dims");
    const int v = AddStrings(b, {}, {"xyz"});
    const int y = b.AddOutput(STR, {1}, "y");
    b.AddOperator(BuiltinOperator_FILL, {dims, v}, {y}, 2);
    Runner r(b);
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.Set<int64_t>(0, {4, 1, 250});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Shape(0), (std::vector<int>{4, 1, 250}));
    EXPECT_EQ(ReadStrings(r.output(0)), std::vector<std::string>(1000, "xyz"));
    r.Set<int64_t>(0, {2, 0, 5});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Shape(0), (std::vector<int>{2, 0, 5}));
    EXPECT_TRUE(ReadStrings(r.output(0)).empty());
    r.Set<int64_t>(0, {1 << 20, 1 << 20, 1});
    EXPECT_FALSE(r.Invoke());
    EXPECT_NE(r.log().find("do not fit in a STRING tensor"), std::string::npos) << r.log();
  }
}

TEST(StringFillTest, Errors) {
  {
    ModelBuilder b;
    const int dims = b.AddConstant<int32_t>({1}, {2});
    const int v = AddStrings(b, {2}, {"a", "b"});
    const int y = b.AddOutput(STR, {2}, "y");
    b.AddOperator(BuiltinOperator_FILL, {dims, v}, {y}, 2);
    ExpectAllocateError(b, "FILL: value must be a scalar");
  }
  {
    ModelBuilder b;
    const int dims = b.AddConstant<int32_t>({1}, {2});
    const int v = AddStrings(b, {}, {"a"});
    const int y = b.AddOutput(TensorType_UINT8, {2}, "y");
    b.AddOperator(BuiltinOperator_FILL, {dims, v}, {y}, 2);
    ExpectAllocateError(b, "FILL: value type STRING does not match output type UINT8");
  }
}

// ---- CONCATENATION -------------------------------------------------------------

TEST(StringConcatenationTest, NotSupportedAsUpstream) {
  ModelBuilder b;
  const int x0 = b.AddInput(STR, {2}, "x0");
  const int x1 = b.AddInput(STR, {2}, "x1");
  const int y = b.AddOutput(STR, {4}, "y");
  ConcatenationOptionsT o;
  b.AddOperator(BuiltinOperator_CONCATENATION, {x0, x1}, {y}, o);
  ExpectAllocateError(b, "not supported");
}

}  // namespace
}  // namespace tflite_c

// Index and data-movement kernels (split, pack,
// strided slice, cast, gather, squeeze, shape, top-k, where, ...). Each test
// is a one-op model run through the public C API; expected values are
// hand-computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto U8 = tflite::TensorType_UINT8;
constexpr auto BOOL = tflite::TensorType_BOOL;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;
using Shape = std::vector<int>;

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

// ---- STRIDED_SLICE ---------------------------------------------------------------------

// Masks in option order: begin, end, ellipsis, new_axis, shrink; then offset.
struct SliceMasks {
  int begin, end, ellipsis, new_axis, shrink;
  bool offset;
};

tflite::BuiltinOptionsUnion SliceOpts(SliceMasks s) {
  tflite::StridedSliceOptionsT o;
  o.begin_mask = s.begin;
  o.end_mask = s.end;
  o.ellipsis_mask = s.ellipsis;
  o.new_axis_mask = s.new_axis;
  o.shrink_axis_mask = s.shrink;
  o.offset = s.offset;
  return Opts(o);
}

// Runs a strided slice of a 2x3 input holding 1..6.
void RunSlice(Ints begin, Ints end, Ints strides, SliceMasks masks, Shape shape, Floats expected) {
  OneOpModel m;
  m.Input(F32, {2, 3});
  const int n = static_cast<int>(begin.size());
  m.Const<int32_t>({n}, begin);
  m.Const<int32_t>({n}, end);
  m.Const<int32_t>({n}, strides);
  m.Output(F32, shape);
  m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts(masks));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), shape);
  EXPECT_EQ(m.Get<float>(), expected);
}

TEST(StridedSliceTest, BasicsAndMasks) {
  RunSlice({0, 1}, {2, 3}, {1, 1}, {0, 0, 0, 0, 0, false}, {2, 2}, {2, 3, 5, 6});
  // Negative stride from the end, whole range via masks.
  RunSlice({0, -1}, {0, 0}, {1, -1}, {1, 3, 0, 0, 0, false}, {2, 3}, {3, 2, 1, 6, 5, 4});
  // Shrink the first dimension at index -1 (row 1).
  RunSlice({-1, 0}, {0, 3}, {1, 2}, {0, 0, 0, 0, 1, false}, {2}, {4, 6});
  // Ellipsis then a new axis at the end.
  RunSlice({0, 0}, {0, 0}, {1, 1}, {0, 0, 1, 2, 0, false}, {2, 3, 1},
           {1, 2, 3, 4, 5, 6});
  // A new axis in front; the remaining dimensions are implicit.
  RunSlice({0, 1}, {0, 2}, {1, 1}, {0, 0, 0, 1, 0, false}, {1, 1, 3}, {4, 5, 6});
  // offset: end counts from begin.
  RunSlice({1, 1}, {1, 2}, {1, 1}, {0, 0, 0, 0, 0, true}, {1, 2}, {5, 6});
  // Out-of-range bounds clamp; an empty range gives zero elements.
  RunSlice({0, 5}, {2, 9}, {1, 1}, {0, 0, 0, 0, 0, false}, {2, 0}, {});
}

TEST(StridedSliceTest, DynamicBeginAndErrors) {
  {
    OneOpModel m;
    m.Input(I32, {4});
    m.Input(I32, {1});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {2});
    m.Output(I32, {2});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 0, false}));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {10, 11, 12, 13});
    m.Set<int32_t>(1, {1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{11, 13}));
  }
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Const<int32_t>({1}, {0});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {0});
    m.Output(F32, {4});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 0, false}));
    ExpectPrepareError(m, "stride of dimension 0 is 0");
  }
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {5});
    m.Const<int32_t>({1}, {1});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 1, false}));
    ExpectPrepareError(m, "index 4 is out of range");
  }
}

// ---- CAST --------------------------------------------------------------------------------

TEST(CastTest, NumericAndBoolPairs) {
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Output(I32, {4});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1.9f, -1.9f, 0.0f, 100.5f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{1, -1, 0, 100}));
  }
  {
    OneOpModel m;
    m.Input(I64, {3});
    m.Output(BOOL, {3});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int64_t>(0, {0, 5, -1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));
  }
  {
    OneOpModel m;
    m.Input(U8, {2});
    m.Output(tflite::TensorType_FLOAT16, {2});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 255});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0x5bf8}));  // 1.0, 255.0
  }
}

TEST(CastTest, RejectsStrings) {
  OneOpModel m;
  m.Input(tflite::TensorType_STRING, {1});
  m.Output(F32, {1});
  m.Op(tflite::BuiltinOperator_CAST);
  ExpectPrepareError(m, "CAST: input type STRING is not supported");
}

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

// ---- REVERSE_V2 / FILL / ZEROS_LIKE / RANGE / ONE_HOT / BROADCAST_ARGS ------------------------

TEST(ReverseTest, ReversesListedAxes) {
  OneOpModel m;
  m.Input(I32, {2, 3});
  m.Const<int32_t>({1}, {-1});
  m.Output(I32, {2, 3});
  m.Op(tflite::BuiltinOperator_REVERSE_V2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{3, 2, 1, 6, 5, 4}));
}

TEST(FillTest, DynamicDimsAndZerosLike) {
  OneOpModel m;
  m.Input(I64, {2});
  m.Const<float>({}, {2.5f});
  m.Output(F32, {1});
  m.Op(tflite::BuiltinOperator_FILL);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int64_t>(0, {2, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{2.5f, 2.5f, 2.5f, 2.5f}));

  OneOpModel z;
  z.Input(I64, {3});
  z.Output(I64, {3});
  z.Op(tflite::BuiltinOperator_ZEROS_LIKE);
  ASSERT_TRUE(z.Allocate()) << z.log();
  z.Set<int64_t>(0, {7, 8, 9});
  ASSERT_TRUE(z.Invoke()) << z.log();
  EXPECT_EQ(z.Get<int64_t>(), (std::vector<int64_t>{0, 0, 0}));
}

TEST(FillTest, RejectsNonScalarValue) {
  OneOpModel m;
  m.Const<int32_t>({1}, {2});
  m.Input(F32, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_FILL);
  ExpectPrepareError(m, "FILL: value must be a scalar");
}

TEST(RangeTest, IntAndFloatRanges) {
  {
    OneOpModel m;
    m.Const<int32_t>({}, {10});
    m.Const<int32_t>({}, {3});
    m.Const<int32_t>({}, {-3});
    m.Output(I32, {3});
    m.Op(tflite::BuiltinOperator_RANGE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{10, 7, 4}));
  }
  {
    OneOpModel m;
    m.Input(F32, {});
    m.Const<float>({}, {1.0f});
    m.Const<float>({}, {0.25f});
    m.Output(F32, {0});
    m.Op(tflite::BuiltinOperator_RANGE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {0.5f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (Floats{0.5f, 0.75f}));
  }
  {
    OneOpModel m;
    m.Const<int32_t>({}, {0});
    m.Const<int32_t>({}, {3});
    m.Const<int32_t>({}, {-1});
    m.Output(I32, {3});
    m.Op(tflite::BuiltinOperator_RANGE);
    ExpectPrepareError(m, "delta must be non-zero and point from start to limit");
  }
}

TEST(OneHotTest, AxisZeroAndLast) {
  for (int axis : {-1, 0}) {
    OneOpModel m;
    m.Input(I32, {2});
    m.Const<int32_t>({}, {3});
    m.Const<float>({}, {1.0f});
    m.Const<float>({}, {0.0f});
    m.Output(F32, {2, 3});
    tflite::OneHotOptionsT o;
    o.axis = axis;
    m.Op(tflite::BuiltinOperator_ONE_HOT, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {2, 5});
    ASSERT_TRUE(m.Invoke()) << m.log();
    if (axis == -1) {
      EXPECT_EQ(m.Shape(), (Shape{2, 3}));
      EXPECT_EQ(m.Get<float>(), (Floats{0, 0, 1, 0, 0, 0}));
    } else {
      EXPECT_EQ(m.Shape(), (Shape{3, 2}));
      EXPECT_EQ(m.Get<float>(), (Floats{0, 0, 0, 0, 1, 0}));
    }
  }
}

TEST(BroadcastArgsTest, BroadcastsAndRejectsIncompatible) {
  OneOpModel m;
  m.Input(I32, {2});
  m.Input(I32, {3});
  m.Output(I32, {3});
  m.Op(tflite::BuiltinOperator_BROADCAST_ARGS);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 4});
  m.Set<int32_t>(1, {2, 3, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (Ints{2, 3, 4}));
  m.Set<int32_t>(1, {2, 3, 2});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("do not broadcast"), std::string::npos) << m.log();
}

// ---- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND ---------------------------------------------------

TEST(SpaceBatchTest, RoundTripWithPaddingAndCrops) {
  // [1, 2, 3, 1] padded to 2x4 (one zero column in front), blocks of 2x2.
  OneOpModel s;
  s.Input(U8, {1, 2, 3, 1}, Q(1.0f, 7));
  s.Const<int32_t>({2}, {2, 2});
  s.Const<int32_t>({2, 2}, {0, 0, 1, 0});
  s.Output(U8, {4, 1, 2, 1}, Q(1.0f, 7));
  s.Op(tflite::BuiltinOperator_SPACE_TO_BATCH_ND);
  ASSERT_TRUE(s.Allocate()) << s.log();
  s.Set<uint8_t>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(s.Invoke()) << s.log();
  EXPECT_EQ(s.Shape(), (Shape{4, 1, 2, 1}));
  // Padded rows: [7 1 2 3], [7 4 5 6]; batch k = (row parity, column parity).
  EXPECT_EQ(s.Get<uint8_t>(), (std::vector<uint8_t>{7, 2, 1, 3, 7, 5, 4, 6}));

  OneOpModel b;
  b.Input(U8, {4, 1, 2, 1}, Q(1.0f, 7));
  b.Const<int32_t>({2}, {2, 2});
  b.Const<int32_t>({2, 2}, {0, 0, 1, 0});
  b.Output(U8, {1, 2, 3, 1}, Q(1.0f, 7));
  b.Op(tflite::BuiltinOperator_BATCH_TO_SPACE_ND);
  ASSERT_TRUE(b.Allocate()) << b.log();
  b.Set<uint8_t>(0, {7, 2, 1, 3, 7, 5, 4, 6});
  ASSERT_TRUE(b.Invoke()) << b.log();
  EXPECT_EQ(b.Shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(b.Get<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

TEST(SpaceBatchTest, RejectsPaddingNotMultipleOfBlock) {
  OneOpModel m;
  m.Input(F32, {1, 3, 1});
  m.Const<int32_t>({1}, {2});
  m.Const<int32_t>({1, 2}, {0, 0});
  m.Output(F32, {2, 1, 1});
  m.Op(tflite::BuiltinOperator_SPACE_TO_BATCH_ND);
  ExpectPrepareError(m, "padded size 3 of dimension 1 is not a multiple of 2");
}

// ---- EMBEDDING_LOOKUP --------------------------------------------------------------------------

TEST(EmbeddingLookupTest, FloatAndHybridRows) {
  OneOpModel m;
  m.Input(I32, {2});
  m.Const<float>({3, 2}, {0, 1, 10, 11, 20, 21});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {2, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{20, 21, 0, 1}));
  m.Set<int32_t>(0, {3, 0});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("index 3 is out of range [0, 3)"), std::string::npos) << m.log();

  OneOpModel h;
  h.Input(I32, {1});
  h.Const<int8_t>({2, 2}, {1, -2, 3, 4}, I8, Q(0.5f, 0));
  h.Output(F32, {1, 2});
  h.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP);
  ASSERT_TRUE(h.Allocate()) << h.log();
  h.Set<int32_t>(0, {0});
  ASSERT_TRUE(h.Invoke()) << h.log();
  EXPECT_EQ(h.Get<float>(), (Floats{0.5f, -1.0f}));
}

}  // namespace
}  // namespace tflite_c

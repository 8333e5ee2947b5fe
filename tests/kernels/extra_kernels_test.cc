// Tests of the "extra" kernels of issue 5: CUMSUM, ADD_N, SCATTER_ND, ATAN2,
// SEGMENT_SUM and UNSORTED_SEGMENT_*, STABLEHLO_COMPOSITE. Each test is a
// one-op model run through the public C API; expected values are computed by
// hand or, for ATAN2, with std::atan2 on the same inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto F64 = tflite::TensorType_FLOAT64;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto I16 = tflite::TensorType_INT16;
constexpr auto BOOL = tflite::TensorType_BOOL;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;
using Shape = std::vector<int>;

// Declares one op whose inputs (of `inputs` shapes) and output all have
// element type `type`.
void SameTypeOp(OneOpModel& m, tflite::BuiltinOperator op, tflite::TensorType type,
                const std::vector<Shape>& inputs, const Shape& output) {
  for (const Shape& shape : inputs) m.Input(type, shape);
  m.Output(type, output);
  m.Op(op);
}

// ---- CUMSUM -------------------------------------------------------------------------

tflite::BuiltinOptionsUnion CumsumOpts(bool exclusive, bool reverse) {
  tflite::CumsumOptionsT o;
  o.exclusive = exclusive;
  o.reverse = reverse;
  return Opts(o);
}

struct CumsumCase {
  bool exclusive, reverse;
  int axis;
  Floats expected;
};

TEST(CumsumTest, AllFlagCombinationsOnBothAxes) {
  // input [[1, 2, 3], [4, 5, 6]]
  const std::vector<CumsumCase> cases = {
      {false, false, 1, {1, 3, 6, 4, 9, 15}},
      {true, false, 1, {0, 1, 3, 0, 4, 9}},
      {false, true, 1, {6, 5, 3, 15, 11, 6}},
      {true, true, 1, {5, 3, 0, 11, 6, 0}},
      {false, false, 0, {1, 2, 3, 5, 7, 9}},
      {true, true, -2, {4, 5, 6, 0, 0, 0}},
  };
  for (const CumsumCase& c : cases) {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({}, {c.axis});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(c.exclusive, c.reverse));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), c.expected)
        << "exclusive " << c.exclusive << " reverse " << c.reverse << " axis " << c.axis;
  }
}

TEST(CumsumTest, Int64AndDynamicAxis) {
  OneOpModel m;
  m.Input(I64, {3});
  m.Input(I32, {});
  m.Output(I64, {3});
  m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int64_t>(0, {int64_t{1} << 40, 2, -3});
  m.Set<int32_t>(1, {0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int64_t>(), (std::vector<int64_t>{int64_t{1} << 40, (int64_t{1} << 40) + 2,
                                                    (int64_t{1} << 40) - 1}));
  m.Set<int32_t>(1, {1});  // out of range for rank 1
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("axis"), std::string::npos) << m.log();
}

TEST(CumsumTest, Errors) {
  {
    OneOpModel m;
    m.Input(I8, {3});
    m.Const<int32_t>({}, {0});
    m.Output(I8, {3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "CUMSUM: input type INT8 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({}, {2});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "CUMSUM");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Const<int32_t>({2}, {0, 0});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "axis must have exactly one element");
  }
}

// ---- ADD_N --------------------------------------------------------------------------

TEST(AddNTest, SumsThreeFloatInputs) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Input(F32, {2, 2});
  m.Const<float>({2, 2}, {100, 200, 300, 400});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_ADD_N);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  m.Set<float>(1, {-1, 0.5f, 10, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{100, 202.5f, 313, 404}));
}

TEST(AddNTest, Int32WrapsAndErrors) {
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, I32, {{2}, {2}}, {2});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {std::numeric_limits<int32_t>::max(), -5});
    m.Set<int32_t>(1, {1, 7});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{std::numeric_limits<int32_t>::min(), 2}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, F32, {{2}, {3}}, {2});
    ExpectPrepareError(m, "input 1 shape [3] differs from input 0 shape [2]");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, F32, {{2}}, {2});
    ExpectPrepareError(m, "at least 2 inputs");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, I16, {{2}, {2}}, {2});
    ExpectPrepareError(m, "ADD_N: input type INT16 is not supported");
  }
}

// ---- ATAN2 --------------------------------------------------------------------------

TEST(Atan2Test, AllQuadrantsFloat32AndFloat64) {
  const Floats y = {1, 1, -1, -1, 0, 0, 2.5f, -0.0f};
  const Floats x = {1, -1, -1, 1, -3, 0, 0, 1};
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F32, {{2, 4}, {2, 4}}, {2, 4});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, y);
    m.Set<float>(1, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const Floats out = m.Get<float>();
    ASSERT_EQ(out.size(), y.size());
    const float pi = 3.14159265f;
    const Floats expected = {pi / 4, 3 * pi / 4, -3 * pi / 4, -pi / 4, pi, 0, pi / 2, -0.0f};
    for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-6f) << i;
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F64, {{3}, {3}}, {3});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<double>(0, {1, -2, 3});
    m.Set<double>(1, {0.5, 0.25, -4});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<double>(),
              (std::vector<double>{std::atan2(1.0, 0.5), std::atan2(-2.0, 0.25),
                                   std::atan2(3.0, -4.0)}));
  }
}

TEST(Atan2Test, Errors) {
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, F32, {{2}, {1}}, {2});
    ExpectPrepareError(m, "ATAN2: y shape [2] and x shape [1] differ");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ATAN2, I32, {{2}, {2}}, {2});
    ExpectPrepareError(m, "ATAN2: input type INT32 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Input(F64, {2});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_ATAN2);
    ExpectPrepareError(m, "does not match");
  }
}

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


// ---- STABLEHLO_COMPOSITE ------------------------------------------------------------

tflite::StableHLOCompositeOptionsT CompositeOpts(int subgraph) {
  tflite::StableHLOCompositeOptionsT o;
  o.name = "test.square_plus";
  o.decomposition_subgraph_index = subgraph;
  o.composite_attributes = {0x00, 0x00, 0x01};  // not interpreted
  o.version = 1;
  return o;
}

// Subgraph 0: out = COMPOSITE(x [2,2], b [2]) with decomposition `subgraph`.
// Subgraph 1: x * x + b (b broadcast over rows).
void BuildComposite(OneOpModel& m, int subgraph, int sub_inputs = 2) {
  const int x = m.Input(F32, {2, 2});
  const int b = m.Input(F32, {2});
  const int out = m.Output(F32, {2, 2});
  testing::ModelBuilder& mb = m.builder();
  mb.AddOperator(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, {x, b}, {out},
                 CompositeOpts(subgraph));
  mb.SetCurrentSubgraph(mb.AddSubgraph("decomposition"));
  const int sx = mb.AddInput(F32, {2, 2});
  const int sb = sub_inputs > 1 ? mb.AddInput(F32, {2}) : mb.AddConstant<float>({2}, {0, 0});
  const int sq = mb.AddTensor(F32, {2, 2});
  const int sy = mb.AddOutput(F32, {2, 2});
  tflite::MulOptionsT mul;
  mb.AddOperator(tflite::BuiltinOperator_MUL, {sx, sx}, {sq}, mul);
  tflite::AddOptionsT add;
  mb.AddOperator(tflite::BuiltinOperator_ADD, {sq, sb}, {sy}, add);
  mb.SetCurrentSubgraph(0);
}

TEST(StablehloCompositeTest, RunsTheDecompositionSubgraph) {
  OneOpModel m;
  BuildComposite(m, 1);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2, 3, 0.5f});
  m.Set<float>(1, {10, 20});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{11, 24, 19, 20.25f}));
  // A second run with new values reuses the prepared subgraph.
  m.Set<float>(0, {0, 1, 2, 3});
  m.Set<float>(1, {-1, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{-1, 2, 3, 10}));
}

TEST(StablehloCompositeTest, Errors) {
  {
    OneOpModel m;
    BuildComposite(m, 5);  // rejected when the model is checked (reported elsewhere)
    EXPECT_FALSE(m.Allocate());
  }
  {
    OneOpModel m;
    BuildComposite(m, 0);  // itself
    ExpectPrepareError(m, "STABLEHLO_COMPOSITE");
  }
  {
    OneOpModel m;
    BuildComposite(m, 1, /*sub_inputs=*/1);
    ExpectPrepareError(m, "the op has 2 inputs and 1 outputs but subgraph 1 has 1 and 1");
  }
}


// ---- FULLY_CONNECTED: hybrid and blockwise INT4 weights ----------------------------

constexpr auto I4 = tflite::TensorType_INT4;
constexpr auto F16 = tflite::TensorType_FLOAT16;

tflite::BuiltinOptionsUnion FcOpts(tflite::ActivationFunctionType act, bool asymmetric,
                                   bool keep_num_dims = false) {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  o.asymmetric_quantize_inputs = asymmetric;
  o.keep_num_dims = keep_num_dims;
  return Opts(o);
}

// Packs signed 4-bit values two per byte, low nibble first; each row of
// `depth` values starts on a new byte.
std::vector<uint8_t> PackInt4(const std::vector<int>& values, int depth) {
  std::vector<uint8_t> out;
  for (size_t r = 0; r < values.size() / depth; ++r) {
    for (int k = 0; k < depth; k += 2) {
      const int lo = values[r * depth + k] & 0xF;
      const int hi = k + 1 < depth ? values[r * depth + k + 1] & 0xF : 0;
      out.push_back(static_cast<uint8_t>(lo | (hi << 4)));
    }
  }
  return out;
}

// out[u] = bias[u] + sum_k x[k] * w[u][k] * scale(u, k), in double.
Floats FloatFc(const Floats& x, const std::vector<int>& w, const Floats& bias, int depth,
               const std::function<double(int, int)>& scale) {
  Floats out;
  for (size_t u = 0; u < bias.size(); ++u) {
    double acc = bias[u];
    for (int k = 0; k < depth; ++k) acc += double{x[k]} * w[u * depth + k] * scale(u, k);
    out.push_back(static_cast<float>(acc));
  }
  return out;
}

TEST(FullyConnectedHybridTest, Int8PerChannelSymmetricInputsWithRelu) {
  // max|x| = 63.5 = 127 * 0.5: the input quantizes exactly, so the result
  // equals the float computation with dequantized weights.
  const Floats x = {63.5f, -10, 2.5f, 0};
  const std::vector<int> w = {1, 2, 3, 4, -5, 6, -7, 8, 0, 0, 1, -1};
  const Floats bias = {0.5f, 0, 1};
  const Floats scales = {0.5f, 0.25f, 2};
  OneOpModel m;
  m.Input(F32, {1, 4});
  m.Const<int8_t>({3, 4}, std::vector<int8_t>(w.begin(), w.end()), I8,
                  {scales, {0, 0, 0}, 0});
  m.Const<float>({3}, bias);
  m.Output(F32, {1, 3});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_RELU, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  Floats expected = FloatFc(x, w, bias, 4, [&](int u, int) { return scales[u]; });
  for (float& v : expected) v = std::max(v, 0.0f);
  EXPECT_EQ(m.Get<float>(), expected);
  EXPECT_EQ(expected, (Floats{26, 0, 6}));
}

TEST(FullyConnectedHybridTest, Int4PerTensorAsymmetricInputsWithinQuantizationError) {
  const Floats x = {0.3f, -1.7f, 2.2f, 0.05f, -0.9f, 1.1f, 0.0f, 3.0f,   // batch 0
                    -0.2f, -0.4f, -0.6f, -0.8f, -1.0f, -1.2f, -1.4f, -1.6f};  // batch 1 (all < 0)
  const std::vector<int> w = {1, -2, 3, -4, 5, -6, 7, -8, 0, 1, 0, 1, 0, 1, 0, 1};
  const float scale = 0.125f;
  OneOpModel m;
  m.Input(F32, {2, 8});
  m.Const<uint8_t>({2, 8}, PackInt4(w, 8), I4, {{scale}, {0}, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_NONE, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats out = m.Get<float>();
  ASSERT_EQ(out.size(), 4u);
  for (int b = 0; b < 2; ++b) {
    const Floats row(x.begin() + 8 * b, x.begin() + 8 * b + 8);
    const Floats expected = FloatFc(row, w, {0, 0}, 8, [&](int, int) { return scale; });
    float lo = 0, hi = 0;
    for (float v : row) lo = std::min(lo, v), hi = std::max(hi, v);
    // Each input is off by at most one quantization step (rounding plus the
    // nudged zero point).
    const float tolerance = (hi - lo) / 255 * scale * 36 + 1e-5f;
    for (int u = 0; u < 2; ++u) EXPECT_NEAR(out[b * 2 + u], expected[u], tolerance) << b << u;
  }
}

// Blockwise INT4 weights [units 2, depth 8], blocks of 4, FLOAT16 scales.
void BuildBlockwise(OneOpModel& m, int blocksize, const std::vector<uint16_t>& scale_bits,
                    std::vector<int> scale_shape) {
  const std::vector<int> w = {1, -2, 3, -8, 7, 0, -1, 2, -1, -1, -1, -1, 2, 2, 2, 2};
  m.Input(F32, {1, 1, 8});
  const int weights = m.Const<uint8_t>({2, 8}, PackInt4(w, 8), I4);
  m.Const<float>({2}, {1, -1});
  m.Output(F32, {1, 1, 2});
  testing::ModelBuilder& b = m.builder();
  const int scales = b.AddConstant(F16, scale_shape, scale_bits);
  auto q = std::make_unique<tflite::QuantizationParametersT>();
  tflite::BlockwiseQuantizationT details;
  details.scales = scales;
  details.zero_points = -1;
  details.block_size = blocksize;
  q->details.Set(details);
  b.tensor(weights).quantization = std::move(q);
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_NONE, true, /*keep_num_dims=*/true));
}

TEST(FullyConnectedBlockwiseTest, Int4BlocksWithFloat16Scales) {
  // Scales 0.5, 0.25 | 1, 2 (FLOAT16 bits). The input spans [-128, 127] * 0.5,
  // so it quantizes exactly and the result equals the float computation.
  OneOpModel m;
  BuildBlockwise(m, 4, {0x3800, 0x3400, 0x3C00, 0x4000}, {2, 2});
  ASSERT_TRUE(m.Allocate()) << m.log();
  const Floats x = {-64, 63.5f, 1, -2, 0.5f, 3, 0, 10};
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{1, 1, 2}));
  const Floats block_scales = {0.5f, 0.25f, 1, 2};
  const std::vector<int> w = {1, -2, 3, -8, 7, 0, -1, 2, -1, -1, -1, -1, 2, 2, 2, 2};
  const Floats expected =
      FloatFc(x, w, {1, -1}, 8, [&](int u, int k) { return block_scales[u * 2 + k / 4]; });
  EXPECT_EQ(m.Get<float>(), expected);
  EXPECT_EQ(expected, (Floats{-79.125f, 54.5f}));
}

TEST(FullyConnectedInt4Test, Int8InputMatchesInt8WeightsOfTheSameValues) {
  const std::vector<int> w = {7, -8, 3, 0, -1, 2, 5, -6, 1, 1, -3, 4};  // [2 units, 6 depth]
  const std::vector<int8_t> x = {-128, 127, 5, -7, 0, 33, 12, -12, 64, -64, 1, 2};  // 2 batches
  std::vector<std::vector<int8_t>> outputs;
  for (bool int4 : {true, false}) {
    OneOpModel m;
    m.Input(I8, {2, 6}, testing::Q(0.25f, 3));
    if (int4) {
      m.Const<uint8_t>({2, 6}, PackInt4(w, 6), I4, {{0.5f, 0.125f}, {0, 0}, 0});
    } else {
      m.Const<int8_t>({2, 6}, std::vector<int8_t>(w.begin(), w.end()), I8,
                      {{0.5f, 0.125f}, {0, 0}, 0});
    }
    m.Const<int32_t>({2}, {100, -50});
    m.Output(I8, {2, 2}, testing::Q(0.75f, -4));
    m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
         FcOpts(tflite::ActivationFunctionType_NONE, false));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    outputs.push_back(m.Get<int8_t>());
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  // And both agree with the float computation to within one output step.
  for (int b = 0; b < 2; ++b) {
    for (int u = 0; u < 2; ++u) {
      double acc = (u == 0 ? 100 : -50) * 0.25 * (u == 0 ? 0.5 : 0.125);
      for (int k = 0; k < 6; ++k) {
        acc += (x[b * 6 + k] - 3) * 0.25 * w[u * 6 + k] * (u == 0 ? 0.5 : 0.125);
      }
      const double q = std::min(127.0, std::max(-128.0, std::round(acc / 0.75) - 4));
      EXPECT_NEAR(outputs[0][b * 2 + u], q, 1.0) << b << u;
    }
  }
}

TEST(FullyConnectedBlockwiseTest, Errors) {
  {
    OneOpModel m;
    BuildBlockwise(m, 3, {0x3C00, 0x3C00}, {2, 1});  // 3 does not divide 8
    ExpectPrepareError(m, "block size dividing depth 8");
  }
  {
    OneOpModel m;
    BuildBlockwise(m, 4, {0x3C00, 0x3C00, 0x3C00}, {3});  // 3 scales for 2 x 2 blocks
    ExpectPrepareError(m, "blockwise scales must hold 2 x 2 values");
  }
  {
    OneOpModel m;  // integer weights that are not constant
    m.Input(F32, {1, 4});
    m.Input(I8, {2, 4}, testing::Q(0.5f, 0));
    m.Output(F32, {1, 2});
    m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
         FcOpts(tflite::ActivationFunctionType_NONE, false));
    ExpectPrepareError(m, "must be constant");
  }
}


// ---- HARD_SWISH quantized --------------------------------------------------------------

template <typename T>
void CheckQuantizedHardSwish(tflite::TensorType type, float in_scale, int in_zp, float out_scale,
                             int out_zp) {
  constexpr int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::vector<T> all;
  for (int v = lo; v <= hi; ++v) all.push_back(static_cast<T>(v));
  const int n = static_cast<int>(all.size());
  OneOpModel m;
  m.Input(type, {n}, testing::Q(in_scale, in_zp));
  m.Output(type, {n}, testing::Q(out_scale, out_zp));
  m.Op(tflite::BuiltinOperator_HARD_SWISH);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, all);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<T> out = m.Get<T>();
  ASSERT_EQ(out.size(), all.size());
  int exact = 0;
  for (int i = 0; i < n; ++i) {
    const double x = (double{all[i]} - in_zp) * in_scale;
    const double y = x * std::min(6.0, std::max(0.0, x + 3)) / 6;
    const double q = std::min<double>(hi, std::max<double>(lo, std::round(y / out_scale) + out_zp));
    EXPECT_NEAR(out[i], q, 1.0) << "input " << int{all[i]};
    exact += out[i] == q;
  }
  EXPECT_GE(exact, n * 9 / 10);  // the fixed-point recipe is off by one rarely
}

TEST(HardSwishQuantizedTest, Int8AllInputs) {
  CheckQuantizedHardSwish<int8_t>(I8, 0.05f, -10, 0.03f, -60);
}

TEST(HardSwishQuantizedTest, UInt8AllInputs) {
  CheckQuantizedHardSwish<uint8_t>(tflite::TensorType_UINT8, 8.0f / 255, 128, 5.0f / 255, 30);
}

TEST(HardSwishQuantizedTest, Errors) {
  {
    OneOpModel m;
    m.Input(I8, {2}, testing::Q(1.0f, 0));
    m.Output(I8, {2}, testing::Q(1.0f / 256, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "HARD_SWISH: output scale");
  }
  {
    OneOpModel m;
    m.Input(I8, {2}, testing::Q(1.0f, 0));
    m.Output(tflite::TensorType_UINT8, {2}, testing::Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "does not match");
  }
  {
    OneOpModel m;
    m.Input(I16, {2}, testing::Q(1.0f, 0));
    m.Output(I16, {2}, testing::Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "HARD_SWISH");
  }
}


// ---- RESIZE_BILINEAR quantized ---------------------------------------------------------

tflite::BuiltinOptionsUnion ResizeOpts(bool align_corners, bool half_pixel_centers) {
  tflite::ResizeBilinearOptionsT o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return Opts(o);
}

// Bilinear resize of one-channel [h, w] data in double, with upstream's
// sampling rules; each value is rounded by `round`.
template <typename T>
std::vector<T> ReferenceResize(const std::vector<int>& in, int h, int w, int oh, int ow,
                               bool align, bool half, double (*round)(double)) {
  auto scale = [&](int i, int o) {
    return align && o > 1 ? double(i - 1) / (o - 1) : double(i) / o;
  };
  auto src = [&](int o, double sc) { return half ? (o + 0.5) * sc - 0.5 : o * sc; };
  std::vector<T> out;
  for (int y = 0; y < oh; ++y) {
    const double py = src(y, scale(h, oh));
    const int y0 = std::max(static_cast<int>(std::floor(py)), 0);
    const int y1 = std::min(static_cast<int>(std::ceil(py)), h - 1);
    const double dy = py - y0;
    for (int x = 0; x < ow; ++x) {
      const double px = src(x, scale(w, ow));
      const int x0 = std::max(static_cast<int>(std::floor(px)), 0);
      const int x1 = std::min(static_cast<int>(std::ceil(px)), w - 1);
      const double dx = px - x0;
      const double v = in[y0 * w + x0] * (1 - dy) * (1 - dx) + in[y0 * w + x1] * (1 - dy) * dx +
                       in[y1 * w + x0] * dy * (1 - dx) + in[y1 * w + x1] * dy * dx;
      out.push_back(static_cast<T>(round(v)));
    }
  }
  return out;
}

double RoundHalfAway(double v) { return std::round(v); }
double RoundHalfUp(double v) { return std::floor(v + 0.5); }

struct ResizeCase {
  int h, w, oh, ow;
  bool align, half;
};

template <typename T>
void CheckQuantizedResize(tflite::TensorType type, const std::vector<int>& values,
                          double (*round)(double)) {
  // Dyadic scales (1/2, 1/4, ...) keep upstream's 1/1024 fixed point exact.
  const std::vector<ResizeCase> cases = {{2, 2, 4, 4, false, true},
                                         {2, 2, 4, 4, false, false},
                                         {3, 3, 5, 5, true, false},
                                         {2, 4, 4, 2, false, true}};
  for (const ResizeCase& c : cases) {
    OneOpModel m;
    m.Input(type, {1, c.h, c.w, 1}, testing::Q(0.5f, 3));
    m.Const<int32_t>({2}, {c.oh, c.ow});
    m.Output(type, {1, c.oh, c.ow, 1}, testing::Q(0.5f, 3));
    m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, ResizeOpts(c.align, c.half));
    ASSERT_TRUE(m.Allocate()) << m.log();
    const std::vector<int> in(values.begin(), values.begin() + c.h * c.w);
    m.Set<T>(0, std::vector<T>(in.begin(), in.end()));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<T>(), ReferenceResize<T>(in, c.h, c.w, c.oh, c.ow, c.align, c.half, round))
        << c.h << "x" << c.w << " -> " << c.oh << "x" << c.ow << " align " << c.align
        << " half " << c.half;
  }
}

TEST(ResizeBilinearQuantizedTest, Int8IntegerRounding) {
  CheckQuantizedResize<int8_t>(I8, {-100, 51, 20, 127, -128, 3, 7, -9, 64}, RoundHalfAway);
}

TEST(ResizeBilinearQuantizedTest, UInt8FloatWeights) {
  CheckQuantizedResize<uint8_t>(tflite::TensorType_UINT8, {0, 255, 17, 100, 3, 250, 1, 129, 64},
                                RoundHalfUp);
}

TEST(ResizeBilinearQuantizedTest, Int16IntegerRounding) {
  CheckQuantizedResize<int16_t>(I16, {-30000, 12345, -7, 32767, 0, 5, -5, 1001, -1001},
                                RoundHalfAway);
}

TEST(ResizeBilinearQuantizedTest, UnsupportedType) {
  OneOpModel m;
  m.Input(I32, {1, 2, 2, 1});
  m.Const<int32_t>({2}, {4, 4});
  m.Output(I32, {1, 4, 4, 1});
  m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, ResizeOpts(false, false));
  ExpectPrepareError(m, "RESIZE_BILINEAR: input type INT32 is not supported");
}


// INT16 LOGISTIC / TANH: int16_activation_test.cc.


// ---- INT16 SOFTMAX ----------------------------------------------------------------------

tflite::BuiltinOptionsUnion SoftmaxOpts(float beta) {
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  return Opts(o);
}

TEST(SoftmaxInt16Test, MatchesFloatSoftmaxWithinFourSteps) {
  const float in_scale = 10.0f / 32768;  // inputs in [-10, 10)
  const std::vector<int16_t> x = {0,     3277,  -3277, 32767, -32768, 100,  12000, 12001,
                                  -5000, -5000, -5000, -5000, 20000,  -20000, 0, 1};
  for (float beta : {1.0f, 0.5f}) {
    OneOpModel m;
    m.Input(I16, {4, 4}, testing::Q(in_scale, 0));
    m.Output(I16, {4, 4}, testing::Q(1.0f / 32768, 0));
    m.Op(tflite::BuiltinOperator_SOFTMAX, SoftmaxOpts(beta));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int16_t>(0, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<int16_t> out = m.Get<int16_t>();
    ASSERT_EQ(out.size(), x.size());
    for (int r = 0; r < 4; ++r) {
      double mx = -1e9, sum = 0;
      for (int c = 0; c < 4; ++c) mx = std::max(mx, double{x[r * 4 + c]} * in_scale);
      for (int c = 0; c < 4; ++c) sum += std::exp(beta * (x[r * 4 + c] * in_scale - mx));
      for (int c = 0; c < 4; ++c) {
        const double p = std::exp(beta * (x[r * 4 + c] * in_scale - mx)) / sum;
        EXPECT_NEAR(out[r * 4 + c], std::min(32767.0, p * 32768), 4.0)
            << "row " << r << " col " << c << " beta " << beta;
      }
    }
  }
}

TEST(SoftmaxInt16Test, Errors) {
  OneOpModel m;
  m.Input(I16, {4}, testing::Q(0.001f, 0));
  m.Output(I16, {4}, testing::Q(1.0f / 256, 0));
  m.Op(tflite::BuiltinOperator_SOFTMAX, SoftmaxOpts(1.0f));
  ExpectPrepareError(m, "INT16 needs zero points 0 and output scale 1/32768");
}


// ---- DYNAMIC_UPDATE_SLICE / RANK / BUCKETIZE / BITWISE_XOR / RIGHT_SHIFT ----------------

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

TEST(BitwiseTest, XorAndRightShiftBroadcast) {
  {
    OneOpModel m;
    m.Input(tflite::TensorType_UINT8, {2, 2});
    m.Input(tflite::TensorType_UINT8, {2});
    m.Output(tflite::TensorType_UINT8, {2, 2});
    m.Op(tflite::BuiltinOperator_BITWISE_XOR);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {0xF0, 0x0F, 0xFF, 0x00});
    m.Set<uint8_t>(1, {0xFF, 0x01});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0x0F, 0x0E, 0x00, 0x01}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_RIGHT_SHIFT, I32, {{5}, {5}}, {5});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {-16, 16, 1 << 30, -1, 7});
    m.Set<int32_t>(1, {2, 2, 40, 5, -3});  // 40 -> 31, -3 -> 0
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{-4, 4, 0, -1, 7}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_BITWISE_XOR, F32, {{2}, {2}}, {2});
    ExpectPrepareError(m, "BITWISE_XOR");
  }
}


// ---- GELU / ELU quantized ----------------------------------------------------------------

template <typename T>
void CheckQuantizedUnary(tflite::TensorType type, tflite::BuiltinOperator op,
                         tflite::BuiltinOptionsUnion options, double (*fn)(double), float in_scale,
                         int in_zp, float out_scale, int out_zp) {
  constexpr int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::vector<T> all;
  for (int v = lo; v <= hi; ++v) all.push_back(static_cast<T>(v));
  const int n = static_cast<int>(all.size());
  OneOpModel m;
  m.Input(type, {n}, testing::Q(in_scale, in_zp));
  m.Output(type, {n}, testing::Q(out_scale, out_zp));
  m.Op(op, std::move(options));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, all);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<T> out = m.Get<T>();
  ASSERT_EQ(out.size(), all.size());
  int exact = 0;
  for (int i = 0; i < n; ++i) {
    const double y = fn((double{all[i]} - in_zp) * in_scale);
    const double q = std::min<double>(hi, std::max<double>(lo, std::round(y / out_scale) + out_zp));
    EXPECT_NEAR(out[i], q, 1.0) << "input " << int{all[i]};
    exact += out[i] == q;
  }
  EXPECT_GE(exact, n - 2);  // float vs double rounding at a tie, at most
}

double RefGelu(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double RefGeluTanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}
double RefElu(double x) { return x < 0 ? std::expm1(x) : x; }

tflite::BuiltinOptionsUnion GeluOpts(bool approximate) {
  tflite::GeluOptionsT o;
  o.approximate = approximate;
  return Opts(o);
}

TEST(QuantizedActivationTableTest, GeluInt8AndUInt8) {
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_GELU, GeluOpts(false), RefGelu, 0.04f,
                              5, 0.03f, -100);
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_GELU, GeluOpts(true), RefGeluTanh,
                              0.04f, 5, 0.03f, -100);
  CheckQuantizedUnary<uint8_t>(tflite::TensorType_UINT8, tflite::BuiltinOperator_GELU,
                               GeluOpts(false), RefGelu, 0.05f, 128, 0.025f, 20);
}

TEST(QuantizedActivationTableTest, EluInt8) {
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_ELU, {}, RefElu, 0.05f, 0, 0.04f, -3);
}


TEST(PreluQuantizedTest, Int8AlphaBroadcastAndErrors) {
  OneOpModel m;
  m.Input(I8, {2, 2}, testing::Q(0.5f, 0));
  m.Const<int8_t>({2}, {2, 4}, I8, testing::Q(0.25f, 0));  // alpha 0.5, 1.0
  m.Output(I8, {2, 2}, testing::Q(0.5f, 0));
  m.Op(tflite::BuiltinOperator_PRELU);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-4, 4, -6, 6});  // -2, 2, -3, 3
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-2, 4, -3, 6}));  // -1, 2, -1.5, 3
  OneOpModel bad;
  bad.Input(I16, {2}, testing::Q(0.5f, 0));
  bad.Const<int16_t>({2}, {1, 1}, I16, testing::Q(0.5f, 0));
  bad.Output(I16, {2}, testing::Q(0.5f, 0));
  bad.Op(tflite::BuiltinOperator_PRELU);
  ExpectPrepareError(bad, "PRELU");
}


// ---- LOG_SOFTMAX / L2_NORMALIZATION quantized -------------------------------------------

TEST(QuantizedRowwiseTest, LogSoftmaxInt8WithinOneStep) {
  const float in_scale = 0.1f;
  const std::vector<int8_t> x = {-128, 0, 10, 127, 5, 5, 5, 5, -20, -19, 40, 0};
  OneOpModel m;
  m.Input(I8, {3, 4}, testing::Q(in_scale, 0));
  m.Output(I8, {3, 4}, testing::Q(16.0f / 256, 127));
  m.Op(tflite::BuiltinOperator_LOG_SOFTMAX, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<int8_t> out = m.Get<int8_t>();
  for (int r = 0; r < 3; ++r) {
    double mx = -1e9, sum = 0;
    for (int c = 0; c < 4; ++c) mx = std::max(mx, x[r * 4 + c] * double{in_scale});
    for (int c = 0; c < 4; ++c) sum += std::exp(x[r * 4 + c] * double{in_scale} - mx);
    for (int c = 0; c < 4; ++c) {
      const double y = x[r * 4 + c] * double{in_scale} - mx - std::log(sum);
      const double q = std::max(-128.0, std::min(127.0, std::round(y / (16.0 / 256)) + 127));
      EXPECT_NEAR(out[r * 4 + c], q, 1.0) << r << "," << c;
    }
  }
  OneOpModel bad;
  bad.Input(I8, {4}, testing::Q(in_scale, 0));
  bad.Output(I8, {4}, testing::Q(1.0f / 256, -128));
  bad.Op(tflite::BuiltinOperator_LOG_SOFTMAX, {}, 2);
  ExpectPrepareError(bad, "INT8 output must have scale 16/256 and zero point 127");
}

TEST(QuantizedRowwiseTest, L2NormalizationInt8AndUInt8) {
  {
    OneOpModel m;
    m.Input(I8, {2, 3}, testing::Q(0.5f, -2));
    m.Output(I8, {2, 3}, testing::Q(1.0f / 128, 0));
    m.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {1, 2, -2, 10, -6, -2});  // centred: 3 4 0 | 12 -4 0
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<int8_t> out = m.Get<int8_t>();
    // 3/5, 4/5, 0 | 12/sqrt(160), -4/sqrt(160), 0, in 1/128 steps.
    const std::vector<double> want = {0.6, 0.8, 0, 12 / std::sqrt(160.0), -4 / std::sqrt(160.0), 0};
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(out[i], std::min(127.0, want[i] * 128), 1.0) << i;
  }
  {
    OneOpModel m;
    m.Input(tflite::TensorType_UINT8, {1, 2}, testing::Q(0.5f, 100));
    m.Output(tflite::TensorType_UINT8, {1, 2}, testing::Q(1.0f / 128, 128));
    m.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {103, 96});  // 3, -4
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<uint8_t> out = m.Get<uint8_t>();
    EXPECT_NEAR(out[0], 128 + 0.6 * 128, 1.0);
    EXPECT_NEAR(out[1], 128 - 0.8 * 128, 1.0);
  }
  OneOpModel bad;
  bad.Input(I8, {3}, testing::Q(0.5f, 0));
  bad.Output(I8, {3}, testing::Q(1.0f / 128, 5));
  bad.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
  ExpectPrepareError(bad, "INT8 output must have scale 1/128 and zero point 0");
}

}  // namespace
}  // namespace tflite_c

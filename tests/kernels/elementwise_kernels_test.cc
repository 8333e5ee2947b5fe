// Conformance table for the element-wise kernels (their section of
// src/kernels/registrations.inc).
// Every case is a one-op model built with ModelBuilder and run through the
// public C API: load, AllocateTensors (Prepare), copy inputs, Invoke, read
// the output. Expected values are hand-computed; quantized expectations
// follow upstream's integer rounding bit for bit. Error cases check that a
// bad model fails at AllocateTensors (or Invoke) with a precise message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using tflite_c::testing::CaptureError;
using tflite::BuiltinOperator;
using tflite::TensorType;
using testing::ModelBuilder;
using testing::Quantization;
using testing::TensorTypeOf;

// ---- the table's vocabulary ------------------------------------------------------

// One tensor of a case: an input fed at Invoke, a constant, or the output
// (whose `bytes` are the expected values).
struct Tensor {
  TensorType type = tflite::TensorType_FLOAT32;
  std::vector<int> shape;
  std::vector<uint8_t> bytes;
  Quantization q;
  bool constant = false;
};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
std::vector<uint8_t> Bools(const std::vector<int>& v) {
  return std::vector<uint8_t>(v.begin(), v.end());
}

template <typename T>
Tensor In(std::vector<int> shape, std::vector<T> values, Quantization q = {}) {
  return {TensorTypeOf<T>(), std::move(shape), Bytes(values), std::move(q), false};
}
template <typename T>
Tensor Const(std::vector<int> shape, std::vector<T> values) {
  return {TensorTypeOf<T>(), std::move(shape), Bytes(values), {}, true};
}
Tensor BoolIn(std::vector<int> shape, std::vector<int> values) {
  return {tflite::TensorType_BOOL, std::move(shape), Bools(values), {}, false};
}
template <typename T>
Tensor Out(std::vector<int> shape, std::vector<T> expected, Quantization q = {}) {
  return {TensorTypeOf<T>(), std::move(shape), Bytes(expected), std::move(q), false};
}
Tensor BoolOut(std::vector<int> shape, std::vector<int> expected) {
  return {tflite::TensorType_BOOL, std::move(shape), Bools(expected), {}, false};
}

Quantization Q(float scale, int64_t zero_point) { return {{scale}, {zero_point}, 0}; }

template <typename T>
tflite::BuiltinOptionsUnion Opts(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

struct Case {
  std::string name;
  BuiltinOperator op;
  std::vector<Tensor> inputs;
  Tensor output;
  tflite::BuiltinOptionsUnion options = {};
  int version = 1;
};

// gtest prints parameters on failure; the name is what identifies a case.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// ---- running a case through the C API --------------------------------------------

struct Outcome {
  bool allocated = false;
  bool invoked = false;
  std::string log;
  std::vector<uint8_t> bytes;
  std::vector<int> shape;
};

Outcome RunCase(const Case& c) {
  ModelBuilder b;
  std::vector<int> ins;
  for (const Tensor& t : c.inputs) {
    const int index = t.constant ? b.AddConstantBytes(t.type, t.shape, t.bytes)
                                 : b.AddInput(t.type, t.shape);
    if (!t.q.scale.empty()) b.SetQuantization(index, t.q);
    ins.push_back(index);
  }
  const int out = b.AddOutput(c.output.type, c.output.shape);
  if (!c.output.q.scale.empty()) b.SetQuantization(out, c.output.q);
  b.op(b.AddOperator(c.op, ins, {out}, c.version)).builtin_options = c.options;
  const std::vector<uint8_t> model_bytes = b.Finish();

  Outcome o;
  TfLiteModel* model = TfLiteModelCreate(model_bytes.data(), model_bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &o.log);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, false);  // kernel tests: builtin kernels
  TfLiteInterpreter* interpreter = model ? TfLiteInterpreterCreate(model, options) : nullptr;
  o.allocated = interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk;
  if (o.allocated) {
    int feed = 0;
    for (const Tensor& t : c.inputs) {
      if (t.constant) continue;
      TfLiteTensor* in = TfLiteInterpreterGetInputTensor(interpreter, feed++);
      EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, t.bytes.data(), t.bytes.size()), kTfLiteOk);
    }
    o.invoked = TfLiteInterpreterInvoke(interpreter) == kTfLiteOk;
    const TfLiteTensor* result = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    if (o.invoked) {
      const auto* data = static_cast<const uint8_t*>(TfLiteTensorData(result));
      o.bytes.assign(data, data + TfLiteTensorByteSize(result));
      for (int d = 0; d < TfLiteTensorNumDims(result); ++d) {
        o.shape.push_back(TfLiteTensorDim(result, d));
      }
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return o;
}

// Float outputs compare within a few ulps (libm differences); everything
// else must match exactly.
void ExpectOutput(const Case& c, const Outcome& o) {
  ASSERT_TRUE(o.allocated) << o.log;
  ASSERT_TRUE(o.invoked) << o.log;
  EXPECT_EQ(o.shape, c.output.shape);
  ASSERT_EQ(o.bytes.size(), c.output.bytes.size());
  if (c.output.type != tflite::TensorType_FLOAT32) {
    EXPECT_EQ(o.bytes, c.output.bytes);
    return;
  }
  const size_t n = o.bytes.size() / sizeof(float);
  std::vector<float> got(n), want(n);
  std::memcpy(got.data(), o.bytes.data(), o.bytes.size());
  std::memcpy(want.data(), c.output.bytes.data(), o.bytes.size());
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::fabs(want[i]))) << "element " << i;
    }
  }
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();

tflite::BatchMatMulOptionsT Adj(bool x, bool y) {
  tflite::BatchMatMulOptionsT o;
  o.adj_x = x;
  o.adj_y = y;
  return o;
}
tflite::ReducerOptionsT Keep(bool keep) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep;
  return o;
}

// ---- cases that must compute --------------------------------------------------------

std::vector<Case> ComputeCases() {
  using namespace tflite;  // NOLINT: BuiltinOperator_* names
  std::vector<Case> cases = {
      // BATCH_MATMUL
      {"BatchMatMulFloat", BuiltinOperator_BATCH_MATMUL,
       {In<float>({2, 2}, {1, 2, 3, 4}), Const<float>({2, 2}, {5, 6, 7, 8})},
       Out<float>({2, 2}, {19, 22, 43, 50})},
      {"BatchMatMulBroadcastAdjY", BuiltinOperator_BATCH_MATMUL,
       {In<float>({2, 1, 2}, {1, 2, 3, 4}), In<float>({1, 2, 2}, {0, 1, 1, 0})},
       Out<float>({2, 1, 2}, {2, 1, 4, 3}), Opts(Adj(false, true))},
      {"BatchMatMulAdjX", BuiltinOperator_BATCH_MATMUL,
       {In<float>({2, 1}, {1, 2}), In<float>({2, 1}, {3, 4})}, Out<float>({1, 1}, {11}),
       Opts(Adj(true, false))},
      // acc = (3-1)*2 + (5-1)*4 = 20; 20 * 0.5 * 0.25 / 0.1 = 25; 25 - 3.
      {"BatchMatMulInt8", BuiltinOperator_BATCH_MATMUL,
       {In<int8_t>({1, 2}, {3, 5}, Q(0.5f, 1)), In<int8_t>({2, 1}, {2, 4}, Q(0.25f, 0))},
       Out<int8_t>({1, 1}, {22}, Q(0.1f, -3))},
      {"BatchMatMulInt8ToInt32", BuiltinOperator_BATCH_MATMUL,
       {In<int8_t>({1, 2}, {3, 5}, Q(0.5f, 1)), In<int8_t>({2, 1}, {2, 4}, Q(0.25f, 0))},
       Out<int32_t>({1, 1}, {26})},
      // Unary math
      {"RsqrtFloat", BuiltinOperator_RSQRT, {In<float>({3}, {4, 0.25f, 0})},
       Out<float>({3}, {0.5f, 2, std::numeric_limits<float>::infinity()})},
      {"SqrtFloat", BuiltinOperator_SQRT, {In<float>({2}, {9, -1})}, Out<float>({2}, {3, kNaN})},
      {"AbsInt8Rescaled", BuiltinOperator_ABS, {In<int8_t>({2}, {-3, 2}, Q(1, 0))},
       Out<int8_t>({2}, {6, 4}, Q(0.5f, 0))},
      {"AbsInt32", BuiltinOperator_ABS, {In<int32_t>({2}, {-7, 7})}, Out<int32_t>({2}, {7, 7})},
      // exp(0) = 1 -> 10 - 128; exp(1) = 2.718 -> 27 - 128.
      {"ExpInt8Lut", BuiltinOperator_EXP, {In<int8_t>({2}, {0, 1}, Q(1, 0))},
       Out<int8_t>({2}, {-118, -101}, Q(0.1f, -128))},
      {"LogFloat", BuiltinOperator_LOG, {In<float>({2}, {1, 0})},
       Out<float>({2}, {0, -std::numeric_limits<float>::infinity()})},
      {"RoundHalfToEven", BuiltinOperator_ROUND, {In<float>({5}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f})},
       Out<float>({5}, {0, 2, 2, -0.0f, -2})},
      {"FloorCeil", BuiltinOperator_FLOOR, {In<float>({2}, {-1.5f, 1.5f})}, Out<float>({2}, {-2, 1})},
      {"Ceil", BuiltinOperator_CEIL, {In<float>({2}, {-1.5f, 1.5f})}, Out<float>({2}, {-1, 2})},
      {"SignFloat", BuiltinOperator_SIGN, {In<float>({4}, {-2, 0, 3, kNaN})},
       Out<float>({4}, {-1, 0, 1, kNaN})},
      {"NegInt32Wraps", BuiltinOperator_NEG, {In<int32_t>({3}, {1, -2, kInt32Min})},
       Out<int32_t>({3}, {-1, 2, kInt32Min})},
      {"SinCos", BuiltinOperator_COS, {In<float>({1}, {0})}, Out<float>({1}, {1})},
      {"Square", BuiltinOperator_SQUARE, {In<float>({2}, {-3, 2})}, Out<float>({2}, {9, 4})},
      {"LogicalNot", BuiltinOperator_LOGICAL_NOT, {BoolIn({2}, {1, 0})}, BoolOut({2}, {0, 1})},
      // Broadcasting binary ops
      {"DivBroadcast", BuiltinOperator_DIV,
       {In<float>({2, 2}, {2, 4, 6, 8}), Const<float>({1}, {2})}, Out<float>({2, 2}, {1, 2, 3, 4})},
      {"DivInt32Truncates", BuiltinOperator_DIV,
       {In<int32_t>({2}, {7, -7}), In<int32_t>({1}, {2})}, Out<int32_t>({2}, {3, -3})},
      {"MaximumInt8", BuiltinOperator_MAXIMUM,
       {In<int8_t>({2}, {-1, 5}, Q(1, 0)), In<int8_t>({}, {2}, Q(1, 0))},
       Out<int8_t>({2}, {2, 5}, Q(1, 0))},
      {"MinimumFloat", BuiltinOperator_MINIMUM,
       {In<float>({2, 1}, {1, 4}), In<float>({1, 2}, {2, 3})}, Out<float>({2, 2}, {1, 1, 2, 3})},
      {"SquaredDifferenceFloat", BuiltinOperator_SQUARED_DIFFERENCE,
       {In<float>({2}, {1, 2}), In<float>({1}, {3})}, Out<float>({2}, {4, 1})},
      {"SquaredDifferenceInt8", BuiltinOperator_SQUARED_DIFFERENCE,
       {In<int8_t>({1}, {3}, Q(1, 0)), In<int8_t>({1}, {1}, Q(1, 0))},
       Out<int8_t>({1}, {4}, Q(1, 0))},
      {"PowFloat", BuiltinOperator_POW, {In<float>({2}, {2, 3}), In<float>({1}, {3})},
       Out<float>({2}, {8, 27})},
      {"PowInt32", BuiltinOperator_POW, {In<int32_t>({2}, {2, -3}), In<int32_t>({1}, {3})},
       Out<int32_t>({2}, {8, -27})},
      // structured_fuzzer (UBSan: inf cast to int): results beyond INT32
      // saturate; 10^400 is inf in double, (-2)^31 fits exactly.
      {"PowInt32Saturates", BuiltinOperator_POW,
       {In<int32_t>({5}, {2, -3, 10, -10, -2}), In<int32_t>({5}, {31, 21, 400, 401, 31})},
       Out<int32_t>({5}, {2147483647, kInt32Min, 2147483647, kInt32Min, kInt32Min})},
      {"FloorDivInt32", BuiltinOperator_FLOOR_DIV,
       {In<int32_t>({2}, {7, -7}), In<int32_t>({1}, {2})}, Out<int32_t>({2}, {3, -4})},
      {"FloorModInt32", BuiltinOperator_FLOOR_MOD,
       {In<int32_t>({3}, {7, -7, 7}), In<int32_t>({3}, {3, 3, -3})}, Out<int32_t>({3}, {1, 2, -2})},
      {"FloorModFloat", BuiltinOperator_FLOOR_MOD, {In<float>({1}, {-7.5f}), In<float>({1}, {2})},
       Out<float>({1}, {0.5f})},
      // Comparisons, logic, select
      {"LessBroadcast", BuiltinOperator_LESS, {In<float>({3}, {1, 2, 3}), In<float>({}, {2})},
       BoolOut({3}, {1, 0, 0})},
      {"GreaterEqualInt64", BuiltinOperator_GREATER_EQUAL,
       {In<int64_t>({2}, {1, 2}), In<int64_t>({2}, {2, 2})}, BoolOut({2}, {0, 1})},
      // 2 * 1.0 == 4 * 0.5: compared as real values despite different scales.
      {"EqualInt8Rescaled", BuiltinOperator_EQUAL,
       {In<int8_t>({2}, {2, 2}, Q(1, 0)), In<int8_t>({2}, {4, 5}, Q(0.5f, 0))},
       BoolOut({2}, {1, 0})},
      {"NotEqualBool", BuiltinOperator_NOT_EQUAL, {BoolIn({2}, {1, 0}), BoolIn({2}, {1, 1})},
       BoolOut({2}, {0, 1})},
      {"LogicalAndBroadcast", BuiltinOperator_LOGICAL_AND,
       {BoolIn({2, 2}, {1, 0, 1, 1}), BoolIn({2}, {1, 0})}, BoolOut({2, 2}, {1, 0, 1, 0})},
      {"LogicalOr", BuiltinOperator_LOGICAL_OR, {BoolIn({2}, {1, 0}), BoolIn({2}, {0, 0})},
       BoolOut({2}, {1, 0})},
      {"SelectV2Broadcast", BuiltinOperator_SELECT_V2,
       {BoolIn({2}, {1, 0}), In<float>({2, 2}, {1, 2, 3, 4}), In<float>({}, {9})},
       Out<float>({2, 2}, {1, 9, 3, 9})},
      {"SelectRowCondition", BuiltinOperator_SELECT,
       {BoolIn({2}, {0, 1}), In<int32_t>({2, 2}, {1, 2, 3, 4}), In<int32_t>({2, 2}, {5, 6, 7, 8})},
       Out<int32_t>({2, 2}, {5, 6, 3, 4})},
      // Reductions
      {"MeanFloat", BuiltinOperator_MEAN,
       {In<float>({2, 3}, {1, 2, 3, 4, 5, 6}), Const<int32_t>({1}, {1})}, Out<float>({2}, {2, 5}),
       Opts(Keep(false))},
      {"MeanNegativeDuplicateAxesKeepDims", BuiltinOperator_MEAN,
       {In<float>({2, 3}, {1, 2, 3, 4, 5, 6}), Const<int32_t>({2}, {-1, 1})},
       Out<float>({2, 1}, {2, 5}), Opts(Keep(true))},
      {"SumInt32", BuiltinOperator_SUM,
       {In<int32_t>({2, 2}, {1, 2, 3, 4}), Const<int32_t>({1}, {0})}, Out<int32_t>({2}, {4, 6}),
       Opts(Keep(false))},
      {"SumRuntimeAxis", BuiltinOperator_SUM,
       {In<float>({2, 2}, {1, 2, 3, 4}), In<int32_t>({1}, {1})}, Out<float>({2}, {3, 7}),
       Opts(Keep(false))},
      {"ReduceMaxAll", BuiltinOperator_REDUCE_MAX,
       {In<float>({2, 2}, {1, 7, 3, 4}), Const<int32_t>({2}, {0, 1})}, Out<float>({}, {7}),
       Opts(Keep(false))},
      {"ReduceProd", BuiltinOperator_REDUCE_PROD,
       {In<float>({3}, {2, 3, 4}), Const<int32_t>({1}, {0})}, Out<float>({}, {24}),
       Opts(Keep(false))},
      {"ReduceAny", BuiltinOperator_REDUCE_ANY, {BoolIn({2, 2}, {0, 0, 0, 1}), Const<int32_t>({1}, {1})},
       BoolOut({2}, {0, 1}), Opts(Keep(false))},
      // 4-D spatial mean: 10 * 0.25 = 2.5 rounds up to 3.
      {"MeanInt8Spatial", BuiltinOperator_MEAN,
       {In<int8_t>({1, 2, 2, 1}, {1, 2, 3, 4}, Q(1, 0)), Const<int32_t>({2}, {1, 2})},
       Out<int8_t>({1, 1, 1, 1}, {3}, Q(1, 0)), Opts(Keep(true))},
      {"MeanInt8General", BuiltinOperator_MEAN,
       {In<int8_t>({1, 4}, {1, 2, 3, 4}, Q(1, 0)), Const<int32_t>({1}, {1})},
       Out<int8_t>({1}, {3}, Q(1, 0)), Opts(Keep(false))},
      // SUM int8: (10 - 4 * 2) * 0.5 / 0.25 = 4, + zero point 1.
      {"SumInt8", BuiltinOperator_SUM,
       {In<int8_t>({4}, {1, 2, 3, 4}, Q(0.5f, 2)), Const<int32_t>({1}, {0})},
       Out<int8_t>({}, {5}, Q(0.25f, 1)), Opts(Keep(false))},
      // Arg min / max
      {"ArgMaxInt64", BuiltinOperator_ARG_MAX,
       {In<float>({2, 3}, {1, 5, 5, 7, 2, 3}), Const<int32_t>({}, {1})}, Out<int64_t>({2}, {1, 0}),
       Opts([] {
         ArgMaxOptionsT o;
         o.output_type = TensorType_INT64;
         return o;
       }())},
      {"ArgMinAxis0", BuiltinOperator_ARG_MIN,
       {In<int32_t>({2, 2}, {1, 5, 0, 7}), Const<int32_t>({1}, {0})}, Out<int32_t>({2}, {1, 0})},
      // Activations
      {"LeakyReluFloat", BuiltinOperator_LEAKY_RELU, {In<float>({2}, {-2, 3})},
       Out<float>({2}, {-1, 3}), Opts([] {
         LeakyReluOptionsT o;
         o.alpha = 0.5f;
         return o;
       }())},
      // -4 * 0.5 = -2 (alpha), 6 * 1 (identity).
      {"LeakyReluInt16", BuiltinOperator_LEAKY_RELU, {In<int16_t>({2}, {-4, 6}, Q(1, 0))},
       Out<int16_t>({2}, {-2, 6}, Q(1, 0)), Opts([] {
         LeakyReluOptionsT o;
         o.alpha = 0.5f;
         return o;
       }())},
      {"PreluBroadcastAlpha", BuiltinOperator_PRELU,
       {In<float>({2, 2}, {-4, -4, 4, -8}), Const<float>({2}, {0.5f, 0.25f})},
       Out<float>({2, 2}, {-2, -1, 4, -2})},
      {"HardSwish", BuiltinOperator_HARD_SWISH, {In<float>({4}, {-4, 0, 1, 4})},
       Out<float>({4}, {0, 0, 4.0f / 6.0f, 4})},
      {"Tanh", BuiltinOperator_TANH, {In<float>({2}, {0, 100})}, Out<float>({2}, {0, 1})},
      {"Elu", BuiltinOperator_ELU, {In<float>({2}, {-1, 1})},
       Out<float>({2}, {-0.63212055882f, 1})},
      {"GeluExact", BuiltinOperator_GELU, {In<float>({2}, {0, 1})},
       Out<float>({2}, {0, 0.8413447461f})},
      {"LogSoftmax", BuiltinOperator_LOG_SOFTMAX, {In<float>({2, 2}, {0, 0, 1000, 0})},
       Out<float>({2, 2}, {-0.69314718f, -0.69314718f, 0, -1000})},
      {"L2Normalization", BuiltinOperator_L2_NORMALIZATION, {In<float>({1, 2}, {3, 4})},
       Out<float>({1, 2}, {0.6f, 0.8f})},
  };
  return cases;
}

class ElementwiseComputeTest : public ::testing::TestWithParam<Case> {};

TEST_P(ElementwiseComputeTest, MatchesHandComputedValues) {
  ExpectOutput(GetParam(), RunCase(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Elementwise, ElementwiseComputeTest,
                         ::testing::ValuesIn(ComputeCases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// ---- cases that must fail, with the message that says why ---------------------------

struct ErrorCase {
  Case model;
  bool at_invoke;  // false: AllocateTensors must fail
  std::string message;
};

std::vector<ErrorCase> ErrorCases() {
  using namespace tflite;  // NOLINT: BuiltinOperator_* names
  return {
      {{"SinInt32", BuiltinOperator_SIN, {In<int32_t>({1}, {0})}, Out<int32_t>({1}, {0})},
       false, "SIN: input type INT32 is not supported"},
      {{"DivInt8", BuiltinOperator_DIV, {In<int8_t>({1}, {1}), In<int8_t>({1}, {1})},
        Out<int8_t>({1}, {0})},
       false, "DIV: input type INT8 is not supported"},
      {{"MaximumMixedTypes", BuiltinOperator_MAXIMUM, {In<float>({1}, {1}), In<int32_t>({1}, {1})},
        Out<float>({1}, {0})},
       false, "does not match"},
      {{"LessShapes", BuiltinOperator_LESS, {In<float>({2}, {1, 2}), In<float>({3}, {1, 2, 3})},
        BoolOut({2}, {0, 0})},
       false, "not broadcastable"},
      {{"LessOutputNotBool", BuiltinOperator_LESS, {In<float>({1}, {1}), In<float>({1}, {2})},
        Out<float>({1}, {0})},
       false, "LESS: output type FLOAT32 is not supported"},
      {{"BatchMatMulInnerDims", BuiltinOperator_BATCH_MATMUL,
        {In<float>({2, 3}, {1, 2, 3, 4, 5, 6}), In<float>({2, 2}, {1, 2, 3, 4})},
        Out<float>({2, 2}, {0, 0, 0, 0})},
       false, "inner dimensions differ"},
      {{"BatchMatMulRank1", BuiltinOperator_BATCH_MATMUL,
        {In<float>({2}, {1, 2}), In<float>({2, 1}, {1, 2})}, Out<float>({1}, {0})},
       false, "rank 2 to 5"},
      {{"MeanAxisOutOfRange", BuiltinOperator_MEAN,
        {In<float>({2}, {1, 2}), Const<int32_t>({1}, {3})}, Out<float>({}, {0}), Opts(Keep(false))},
       false, "axis 3 is out of range"},
      {{"SelectV2FloatCondition", BuiltinOperator_SELECT_V2,
        {In<float>({1}, {1}), In<float>({1}, {1}), In<float>({1}, {2})}, Out<float>({1}, {0})},
       false, "condition type FLOAT32"},
      {{"LogicalAndFloat", BuiltinOperator_LOGICAL_AND, {In<float>({1}, {1}), In<float>({1}, {1})},
        Out<float>({1}, {0})},
       false, "LOGICAL_AND: input type FLOAT32 is not supported"},
      {{"RsqrtInt8MissingQuantization", BuiltinOperator_RSQRT, {In<int8_t>({1}, {1})},
        Out<int8_t>({1}, {0})},
       false, "must have affine quantization"},
      {{"RsqrtInt8Negative", BuiltinOperator_RSQRT, {In<int8_t>({1}, {-5}, Q(0.1f, 0))},
        Out<int8_t>({1}, {0}, Q(0.1f, 0))},
       true, "RSQRT is only defined for x >= 0"},
      {{"FloorDivByZero", BuiltinOperator_FLOOR_DIV, {In<int32_t>({1}, {1}), In<int32_t>({1}, {0})},
        Out<int32_t>({1}, {0})},
       true, "division by zero"},
      {{"DivInt32ByZero", BuiltinOperator_DIV, {In<int32_t>({1}, {1}), In<int32_t>({1}, {0})},
        Out<int32_t>({1}, {0})},
       true, "division by zero"},
      {{"PowNegativeInt32Exponent", BuiltinOperator_POW,
        {In<int32_t>({1}, {2}), In<int32_t>({1}, {-1})}, Out<int32_t>({1}, {0})},
       true, "exponents must be >= 0"},
  };
}

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.model.name; }

class ElementwiseErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ElementwiseErrorTest, FailsWithMessage) {
  const ErrorCase& c = GetParam();
  const Outcome o = RunCase(c.model);
  if (c.at_invoke) {
    ASSERT_TRUE(o.allocated) << o.log;
    EXPECT_FALSE(o.invoked);
  } else {
    EXPECT_FALSE(o.allocated);
  }
  EXPECT_NE(o.log.find(c.message), std::string::npos) << o.log;
}

INSTANTIATE_TEST_SUITE_P(Elementwise, ElementwiseErrorTest, ::testing::ValuesIn(ErrorCases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& info) {
                           return info.param.model.name;
                         });

}  // namespace
}  // namespace tflite_c

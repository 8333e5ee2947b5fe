// Regression tests for fuzz/ findings in kernels, each run through the C API
// on the builtin kernels (fuzz_regression_test.cc has the loader's and the
// model-level ones). The suite name matches "Fuzz", so CI also runs these
// under ASan+UBSan (label malformed).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schema_generated.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/error_capture.h"
#include "tests/util/model_builder.h"

namespace {

using tflite_c::testing::CaptureError;

// One builtin-only interpreter over model bytes, through the C API, deleted
// with everything it owns even when an assertion returns early. A non-zero
// `limit` sets TfLiteInterpreterOptionsSetMaxAllocationBytes.
struct CApiRun {
  std::string log;
  TfLiteModel* model = nullptr;
  TfLiteInterpreterOptions* options = nullptr;
  TfLiteInterpreter* it = nullptr;
  std::vector<uint8_t> bytes;
  explicit CApiRun(std::vector<uint8_t> b, int64_t limit = 0) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetUseXNNPACK(options, false);
    TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &log);
    if (limit > 0 && TfLiteInterpreterOptionsSetMaxAllocationBytes(options, limit) != kTfLiteOk) {
      return;
    }
    if (model != nullptr) it = TfLiteInterpreterCreate(model, options);
  }
  CApiRun(const CApiRun&) = delete;
  CApiRun& operator=(const CApiRun&) = delete;
  ~CApiRun() {
    TfLiteInterpreterDelete(it);
    TfLiteInterpreterOptionsDelete(options);
    TfLiteModelDelete(model);
  }
  void Set(int input, const void* data, size_t size) {
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, input), data, size),
              kTfLiteOk);
  }
  template <typename T>
  std::vector<T> Get(int output) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, output);
    const T* d = static_cast<const T*>(TfLiteTensorData(t));
    if (d == nullptr) return {};
    return std::vector<T>(d, d + TfLiteTensorByteSize(t) / sizeof(T));
  }
};

// structured_fuzzer: the harness fills every input with bytes of its own, so
// a BOOL input held 18; a WHILE condition subgraph returned it and WHILE read
// it as a C++ bool (UBSan: "load of value 18, which is not a valid value for
// type 'bool'"). A C client may write any byte into a BOOL tensor, so every
// kernel reading BOOL now reads bytes, any non-zero byte being true, and
// writes 0 and 1.
namespace bool_bytes {

using tflite::BuiltinOperator;
using tflite_c::testing::ModelBuilder;
constexpr auto kBool = tflite::TensorType_BOOL;
constexpr auto kI32 = tflite::TensorType_INT32;

// x: BOOL[4] -> NOT, AND(x, x), OR(x, false), CAST to INT32, SELECT_V2(x, a, b),
// REDUCE_ANY and REDUCE_ALL over axis 0, WHERE.
std::vector<uint8_t> ElementwiseModel() {
  ModelBuilder b;
  const int x = b.AddInput(kBool, {4}, "x");
  const int no = b.AddConstantBytes(kBool, {4}, {0, 0, 0, 0});
  const int a = b.AddConstant<int32_t>({4}, {10, 20, 30, 40});
  const int c = b.AddConstant<int32_t>({4}, {-1, -2, -3, -4});
  const int axis = b.AddConstant<int32_t>({1}, {0});
  const int o_not = b.AddOutput(kBool, {4}, "not");
  const int o_and = b.AddOutput(kBool, {4}, "and");
  const int o_or = b.AddOutput(kBool, {4}, "or");
  const int o_cast = b.AddOutput(kI32, {4}, "cast");
  const int o_sel = b.AddOutput(kI32, {4}, "select");
  const int o_any = b.AddOutput(kBool, {}, "any");
  const int o_all = b.AddOutput(kBool, {}, "all");
  const int o_where = b.AddOutput(tflite::TensorType_INT64, {4, 1}, "where");  // resized
  b.AddOperator(BuiltinOperator::BuiltinOperator_LOGICAL_NOT, {x}, {o_not});
  b.AddOperator(BuiltinOperator::BuiltinOperator_LOGICAL_AND, {x, x}, {o_and});
  b.AddOperator(BuiltinOperator::BuiltinOperator_LOGICAL_OR, {x, no}, {o_or});
  tflite::CastOptionsT cast;
  cast.in_data_type = kBool;
  cast.out_data_type = kI32;
  b.AddOperator(BuiltinOperator::BuiltinOperator_CAST, {x}, {o_cast}, cast);
  b.AddOperator(BuiltinOperator::BuiltinOperator_SELECT_V2, {x, a, c}, {o_sel});
  b.AddOperator(BuiltinOperator::BuiltinOperator_REDUCE_ANY, {x, axis}, {o_any},
                tflite::ReducerOptionsT{});
  b.AddOperator(BuiltinOperator::BuiltinOperator_REDUCE_ALL, {x, axis}, {o_all},
                tflite::ReducerOptionsT{});
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHERE, {x}, {o_where});
  return b.Finish();
}

// main (x: INT32[1], flag: BOOL[1]) -> WHILE: cond returns flag as it is;
// body returns (x + 1, x + 1 < 3).
std::vector<uint8_t> WhileModel() {
  ModelBuilder b;
  const int cond = b.AddSubgraph("cond");
  const int body = b.AddSubgraph("body");
  const int x = b.AddInput(kI32, {1}, "x");
  const int flag = b.AddInput(kBool, {1}, "flag");
  const int y = b.AddOutput(kI32, {1}, "y");
  const int f = b.AddOutput(kBool, {1}, "f");
  tflite::WhileOptionsT w;
  w.cond_subgraph_index = cond;
  w.body_subgraph_index = body;
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x, flag}, {y, f}, w);
  b.SetCurrentSubgraph(cond);
  b.AddInput(kI32, {1}, "x");
  const int cf = b.AddInput(kBool, {1}, "flag");
  b.SetOutputs({cf});
  b.SetCurrentSubgraph(body);
  const int bx = b.AddInput(kI32, {1}, "x");
  b.AddInput(kBool, {1}, "flag");
  const int one = b.AddConstant<int32_t>({1}, {1});
  const int three = b.AddConstant<int32_t>({1}, {3});
  const int next = b.AddOutput(kI32, {1}, "next");
  const int more = b.AddOutput(kBool, {1}, "more");
  b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {bx, one}, {next}, tflite::AddOptionsT{});
  b.AddOperator(BuiltinOperator::BuiltinOperator_LESS, {next, three}, {more});
  return b.Finish();
}

// main (flag: BOOL[1], x: INT32[1]) -> IF(flag) { x + 1 } else { x - 1 }.
std::vector<uint8_t> IfModel() {
  ModelBuilder b;
  const int then_branch = b.AddSubgraph("then");
  const int else_branch = b.AddSubgraph("else");
  const int flag = b.AddInput(kBool, {1}, "flag");
  const int x = b.AddInput(kI32, {1}, "x");
  const int y = b.AddOutput(kI32, {1}, "y");
  tflite::IfOptionsT o;
  o.then_subgraph_index = then_branch;
  o.else_subgraph_index = else_branch;
  b.AddOperator(BuiltinOperator::BuiltinOperator_IF, {flag, x}, {y}, o);
  for (int branch : {then_branch, else_branch}) {
    b.SetCurrentSubgraph(branch);
    const int bx = b.AddInput(kI32, {1}, "x");
    const int one = b.AddConstant<int32_t>({1}, {1});
    const int out = b.AddOutput(kI32, {1}, "y");
    if (branch == then_branch) {
      b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {bx, one}, {out}, tflite::AddOptionsT{});
    } else {
      b.AddOperator(BuiltinOperator::BuiltinOperator_SUB, {bx, one}, {out}, tflite::SubOptionsT{});
    }
  }
  return b.Finish();
}

}  // namespace bool_bytes

TEST(FuzzRegression, MalformedBoolBytesAreTrueWhenNonZero) {
  CApiRun r(bool_bytes::ElementwiseModel());
  ASSERT_NE(r.it, nullptr) << r.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteOk) << r.log;
  const uint8_t x[4] = {0, 1, 2, 18};
  r.Set(0, x, sizeof(x));
  ASSERT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteOk) << r.log;
  EXPECT_EQ(r.Get<uint8_t>(0), (std::vector<uint8_t>{1, 0, 0, 0}));  // NOT
  EXPECT_EQ(r.Get<uint8_t>(1), (std::vector<uint8_t>{0, 1, 1, 1}));  // AND
  EXPECT_EQ(r.Get<uint8_t>(2), (std::vector<uint8_t>{0, 1, 1, 1}));  // OR
  EXPECT_EQ(r.Get<int32_t>(3), (std::vector<int32_t>{0, 1, 1, 1}));  // CAST
  EXPECT_EQ(r.Get<int32_t>(4), (std::vector<int32_t>{-1, 20, 30, 40}));  // SELECT_V2
  EXPECT_EQ(r.Get<uint8_t>(5), (std::vector<uint8_t>{1}));            // ANY
  EXPECT_EQ(r.Get<uint8_t>(6), (std::vector<uint8_t>{0}));            // ALL
  EXPECT_EQ(r.Get<int64_t>(7), (std::vector<int64_t>{1, 2, 3}));      // WHERE
  const uint8_t y[4] = {2, 18, 255, 1};
  r.Set(0, y, sizeof(y));
  ASSERT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteOk) << r.log;
  EXPECT_EQ(r.Get<uint8_t>(0), (std::vector<uint8_t>{0, 0, 0, 0}));
  EXPECT_EQ(r.Get<uint8_t>(6), (std::vector<uint8_t>{1}));            // ALL
  EXPECT_EQ(r.Get<int64_t>(7), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(FuzzRegression, MalformedBoolBytesSteerWhileAndIf) {
  CApiRun loop(bool_bytes::WhileModel());
  ASSERT_NE(loop.it, nullptr) << loop.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(loop.it), kTfLiteOk) << loop.log;
  const int32_t zero = 0;
  for (uint8_t flag : {uint8_t{18}, uint8_t{0}}) {
    loop.Set(0, &zero, sizeof(zero));
    loop.Set(1, &flag, 1);
    ASSERT_EQ(TfLiteInterpreterInvoke(loop.it), kTfLiteOk) << loop.log;
    // 18 runs the body until x + 1 < 3 fails (x = 3); 0 never runs it.
    EXPECT_EQ(loop.Get<int32_t>(0), (std::vector<int32_t>{flag != 0 ? 3 : 0})) << int{flag};
  }
  CApiRun branch(bool_bytes::IfModel());
  ASSERT_NE(branch.it, nullptr) << branch.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(branch.it), kTfLiteOk) << branch.log;
  const int32_t ten = 10;
  for (uint8_t flag : {uint8_t{18}, uint8_t{0}, uint8_t{128}}) {
    branch.Set(0, &flag, 1);
    branch.Set(1, &ten, sizeof(ten));
    ASSERT_EQ(TfLiteInterpreterInvoke(branch.it), kTfLiteOk) << branch.log;
    EXPECT_EQ(branch.Get<int32_t>(0), (std::vector<int32_t>{flag != 0 ? 11 : 9})) << int{flag};
  }
}

// signature_fuzzer: WHERE's output shape is known only when it runs, so the
// operators after it are prepared and their memory planned inside Invoke.
// When that plan went over the allocation limit, Invoke failed but the
// subgraph stayed invokable; the next Invoke (here from a second signature
// runner) ran MUL with a null output (UBSan: store to null pointer; a
// SIGSEGV without it). A failed plan now leaves the subgraph uninvokable
// until AllocateTensors.
//   x FLOAT32 [n] -> WHERE -> w (dynamic);  x -> MUL(x, x) -> y
namespace plan_in_invoke {

std::vector<uint8_t> Model() {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int w = b.AddOutput(tflite::TensorType_INT64, {4, 1}, "w");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  b.AddOperator(tflite::BuiltinOperator_WHERE, {x}, {w});
  b.AddOperator(tflite::BuiltinOperator_MUL, {x, x}, {y}, tflite::MulOptionsT{});
  return b.Finish();
}

}  // namespace plan_in_invoke

TEST(FuzzRegression, MalformedPlanOverTheLimitInsideInvokeLeavesNothingToRun) {
  CApiRun r(plan_in_invoke::Model(), int64_t{64} << 20);
  ASSERT_NE(r.it, nullptr) << r.log;
  // 40 MB of input fits the limit; input and MUL's output together do not.
  const int n[1] = {10 << 20};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(r.it, 0, n, 1), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteOk) << r.log;
  TfLiteTensor* x = TfLiteInterpreterGetInputTensor(r.it, 0);
  ASSERT_NE(TfLiteTensorData(x), nullptr);
  std::memset(TfLiteTensorData(x), 0, TfLiteTensorByteSize(x));
  EXPECT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteError);
  EXPECT_NE(r.log.find("allocation limit"), std::string::npos) << r.log;
  r.log.clear();
  EXPECT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteError);
  EXPECT_NE(r.log.find("not ready"), std::string::npos) << r.log;
  // Back within the limit, AllocateTensors makes it runnable again.
  const int small[1] = {3};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(r.it, 0, small, 1), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteOk) << r.log;
  const float v[3] = {0, 2, -3};
  r.Set(0, v, sizeof(v));
  ASSERT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteOk) << r.log;
  EXPECT_EQ(r.Get<float>(1), (std::vector<float>{0, 4, 9}));
}

TEST(FuzzRegression, MalformedEmptyConcatenationInputIsSkipped) {
  tflite_c::testing::ModelBuilder b;
  const int e = b.AddInput(tflite::TensorType_FLOAT32, {0, 2}, "empty");
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 2}, "y");
  tflite::ConcatenationOptionsT o;
  o.axis = 0;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {e, x, e}, {y}, o);
  CApiRun r(b.Finish());
  ASSERT_NE(r.it, nullptr) << r.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteOk) << r.log;
  const float v[2] = {1.5f, -2.0f};
  r.Set(1, v, sizeof(v));
  ASSERT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteOk) << r.log;
  EXPECT_EQ(r.Get<float>(0), (std::vector<float>{1.5f, -2.0f}));
}

// structured_fuzzer: an int16 RSQRT's Prepare samples 1/sqrt(x) over the
// whole input range to fill its interpolation table. With an input scale of
// 1e36 (finite and positive, so valid) the range's ends overflow float to
// -inf and +inf, the samples in between are NaN, and they were converted to
// int16 (UBSan: "-nan is outside the range of representable values of type
// 'short'"). Every table fill now saturates, NaN giving 0.
// An INT16 -> INT16 unary `op` over 3 elements; `input_scale` > 0 gives
// both tensors quantization (zero points 0, output scale `output_scale`),
// 0 leaves them without.
std::vector<uint8_t> Int16UnaryModel(tflite::BuiltinOperator op, float input_scale,
                                     float output_scale) {
  tflite_c::testing::ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_INT16, {3}, "x");
  const int y = b.AddOutput(tflite::TensorType_INT16, {3}, "y");
  if (input_scale > 0) {
    tflite_c::testing::Quantization in, out;
    in.scale = {input_scale};
    in.zero_point = {0};
    out.scale = {output_scale};
    out.zero_point = {0};
    b.SetQuantization(x, in);
    b.SetQuantization(y, out);
  }
  b.AddOperator(op, {x}, {y});
  return b.Finish();
}

// Allocates `r` and invokes it on `x`; the output (empty, with the failure
// reported, when either step fails).
std::vector<int16_t> AllocateAndInvokeInt16(CApiRun& r, const std::vector<int16_t>& x) {
  if (r.it == nullptr || TfLiteInterpreterAllocateTensors(r.it) != kTfLiteOk) {
    ADD_FAILURE() << "AllocateTensors failed: " << r.log;
    return {};
  }
  r.Set(0, x.data(), x.size() * sizeof(int16_t));
  if (TfLiteInterpreterInvoke(r.it) != kTfLiteOk) {
    ADD_FAILURE() << "Invoke failed: " << r.log;
    return {};
  }
  return r.Get<int16_t>(0);
}

namespace int16_rsqrt {

std::vector<uint8_t> Model(float input_scale) {
  return Int16UnaryModel(tflite::BuiltinOperator_RSQRT, input_scale, 1.0f / 4096);
}

}  // namespace int16_rsqrt

// structured_fuzzer: SQRT of an INT16 tensor without quantization parameters
// divided by an output scale of 0 and converted the NaN to int (UBSan: "-nan
// is outside the range of representable values of type 'int'"; upstream
// dereferences the missing parameters). Prepare now refuses it; with an
// input scale large enough to make the root infinite the result saturates.
namespace int16_sqrt {

// `input_scale` 0: no quantization parameters.
std::vector<uint8_t> Model(float input_scale) {
  return Int16UnaryModel(tflite::BuiltinOperator_SQRT, input_scale, 1.0f / 256);
}

}  // namespace int16_sqrt

TEST(FuzzRegression, MalformedInt16SqrtWithoutQuantizationIsRefused) {
  CApiRun r(int16_sqrt::Model(0));
  ASSERT_NE(r.it, nullptr) << r.log;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteError);
  EXPECT_NE(r.log.find("SQRT: an INT16 input needs quantization parameters"), std::string::npos)
      << r.log;

  CApiRun huge(int16_sqrt::Model(1e36f));
  EXPECT_EQ(AllocateAndInvokeInt16(huge, {0, 1, 32767}), (std::vector<int16_t>{0, 32767, 32767}));

  // An ordinary scale: sqrt(16) = 4 and sqrt(2.25) = 1.5 at 1/256.
  CApiRun ok(int16_sqrt::Model(1.0f / 64));
  EXPECT_EQ(AllocateAndInvokeInt16(ok, {1024, 144, 0}), (std::vector<int16_t>{1024, 384, 0}));
}

TEST(FuzzRegression, MalformedInt16RsqrtTableOverAnOverflowingRange) {
  CApiRun huge(int16_rsqrt::Model(1e36f));
  EXPECT_EQ(AllocateAndInvokeInt16(huge, {0, 1, 32767}).size(), 3u);

  // The table still follows 1/sqrt(x) with an ordinary scale, where its
  // 0.5-wide segments can (near 0 linear segments cannot: the curve is too
  // steep there), and negative inputs are refused at Invoke.
  CApiRun r(int16_rsqrt::Model(1.0f / 256));
  const std::vector<int16_t> got = AllocateAndInvokeInt16(r, {4096, 16384, 25600});  // 16, 64, 100
  const int want[3] = {1024, 512, 410};  // 0.25, 0.125, 0.1 at 1/4096
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 4) << i;
  const int16_t negative[3] = {4096, -256, 16384};
  r.Set(0, negative, sizeof(negative));
  EXPECT_EQ(TfLiteInterpreterInvoke(r.it), kTfLiteError);
  EXPECT_NE(r.log.find("x >= 0"), std::string::npos) << r.log;
}

// structured_fuzzer (ASan: heap-buffer-overflow WRITE in the quantized ADD's
// broadcast loop): ADD(x, x) -> t, ADD(t, x) -> y, where x is an INT8 [1,65536]
// variable input, t a VARIANT [1,8,8,3] tensor (so dynamic: the second ADD is
// prepared only during Invoke) and y a UINT8 [1,8,8,3] tensor that is both a
// subgraph input and the graph's output. Quantized ADD gives its output the
// input's type and shape, as upstream's does, so the lazily prepared second
// ADD grew y from 192 to 65536 bytes while y kept the buffer it had been
// given as an input, and the ADD wrote past it. A tensor placed before the
// node being prepared cannot move (it may hold data), so Invoke now fails.
namespace retyped_add_output {

std::vector<uint8_t> Model(bool output_is_also_input) {
  using tflite::TensorType;
  tflite_c::testing::ModelBuilder b;
  const int t = b.AddTensor(TensorType::TensorType_VARIANT, {1, 8, 8, 3}, "add");
  const int x = b.AddTensor(TensorType::TensorType_INT8, {1, 65536}, "input");
  const int y = b.AddTensor(TensorType::TensorType_UINT8, {1, 8, 8, 3}, "output");
  b.SetVariable(x);
  tflite_c::testing::Quantization q;
  q.scale = {0.5f};
  q.zero_point = {0};
  for (int i : {t, x, y}) b.SetQuantization(i, q);
  b.SetInputs(output_is_also_input ? std::vector<int>{x, y} : std::vector<int>{x});
  b.SetOutputs({y});
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {t});
  b.AddOperator(tflite::BuiltinOperator_ADD, {t, x}, {y});
  return b.Finish();
}

// Allocates and invokes on x[i] = i % 7 - 3; Invoke's status.
TfLiteStatus Run(CApiRun& r) {
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(r.it), kTfLiteOk) << r.log;
  std::vector<int8_t> x(65536);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(i % 7) - 3;
  r.Set(0, x.data(), x.size());
  return TfLiteInterpreterInvoke(r.it);
}

}  // namespace retyped_add_output

TEST(FuzzRegression, MalformedLazyPrepareCannotGrowATensorAlreadyPlaced) {
  CApiRun r(retyped_add_output::Model(true));
  ASSERT_NE(r.it, nullptr) << r.log;
  EXPECT_EQ(retyped_add_output::Run(r), kTfLiteError);
  EXPECT_NE(r.log.find("Tensor 2 (output) grew to 65536 bytes when node 1 was prepared, but "
                       "nodes before it already use its 192-byte buffer"),
            std::string::npos)
      << r.log;

  // The same graph with y only an output: y becomes INT8 [1,65536] and, all
  // scales being equal, holds t + x = 3x.
  CApiRun ok(retyped_add_output::Model(false));
  ASSERT_NE(ok.it, nullptr) << ok.log;
  ASSERT_EQ(retyped_add_output::Run(ok), kTfLiteOk) << ok.log;
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(ok.it, 0);
  EXPECT_EQ(TfLiteTensorType(out), kTfLiteInt8);
  const std::vector<int8_t> got = ok.Get<int8_t>(0);
  ASSERT_EQ(got.size(), 65536u);
  for (size_t i = 0; i < got.size(); i += 97) {
    EXPECT_EQ(got[i], 3 * (static_cast<int>(i % 7) - 3)) << i;
  }
}

}  // namespace

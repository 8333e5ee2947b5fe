// Table-driven tests of the first builtin kernels (ADD, SUB, MUL,
// FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, RESHAPE, SOFTMAX, LOGISTIC,
// RELU family), each case a one-op model built with ModelBuilder and run
// through the public C API, so every case also exercises model loading,
// AllocateTensors (Prepare) and Invoke. Expected values are hand-computed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/core/op_resolver.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using tflite::BuiltinOperator;
using tflite::TensorType;

// ---- test case description ------------------------------------------------

struct TensorSpec {
  TensorType type = tflite::TensorType_FLOAT32;
  std::vector<int> shape;
  std::vector<double> values;  // converted to `type` when written
  enum Kind { kInput, kConstant, kOmitted } kind = kInput;
};

TensorSpec F32(std::vector<int> shape, std::vector<double> values) {
  return {tflite::TensorType_FLOAT32, std::move(shape), std::move(values), TensorSpec::kInput};
}
TensorSpec I32(std::vector<int> shape, std::vector<double> values) {
  return {tflite::TensorType_INT32, std::move(shape), std::move(values), TensorSpec::kInput};
}
TensorSpec I64(std::vector<int> shape, std::vector<double> values) {
  return {tflite::TensorType_INT64, std::move(shape), std::move(values), TensorSpec::kInput};
}
TensorSpec Typed(TensorType type, std::vector<int> shape) {
  size_t n = 1;
  for (int d : shape) n *= d;
  return {type, std::move(shape), std::vector<double>(n, 0.0), TensorSpec::kInput};
}
TensorSpec Const(TensorSpec t) {
  t.kind = TensorSpec::kConstant;
  return t;
}
TensorSpec Omitted() { return {tflite::TensorType_FLOAT32, {}, {}, TensorSpec::kOmitted}; }

enum class Outcome { kOk, kPrepareFails, kInvokeFails };

struct OpCase {
  OpCase(std::string name, BuiltinOperator op, tflite::BuiltinOptionsUnion options,
         std::vector<TensorSpec> inputs, TensorSpec output, Outcome outcome = Outcome::kOk,
         std::string error_substring = "", int version = 1)
      : name(std::move(name)),
        op(op),
        options(std::move(options)),
        inputs(std::move(inputs)),
        output(std::move(output)),
        outcome(outcome),
        error_substring(std::move(error_substring)),
        version(version) {}

  std::string name;
  BuiltinOperator op;
  tflite::BuiltinOptionsUnion options;
  std::vector<TensorSpec> inputs;  // op inputs in order
  TensorSpec output;               // expected type, shape and values
  Outcome outcome;
  std::string error_substring;  // when not empty, must appear in the error log
  int version;                  // of the op in the model
};

// ---- options ----------------------------------------------------------------

template <typename T>
tflite::BuiltinOptionsUnion Options(T value) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::move(value));
  return u;
}

constexpr auto kNone = tflite::ActivationFunctionType_NONE;
constexpr auto kRelu = tflite::ActivationFunctionType_RELU;
constexpr auto kRelu6 = tflite::ActivationFunctionType_RELU6;
constexpr auto kReluN1To1 = tflite::ActivationFunctionType_RELU_N1_TO_1;
constexpr auto kSame = tflite::Padding_SAME;
constexpr auto kValid = tflite::Padding_VALID;

tflite::BuiltinOptionsUnion AddOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::AddOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}
tflite::BuiltinOptionsUnion SubOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::SubOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}
tflite::BuiltinOptionsUnion MulOpts(tflite::ActivationFunctionType act = kNone) {
  tflite::MulOptionsT o;
  o.fused_activation_function = act;
  return Options(o);
}
tflite::BuiltinOptionsUnion FcOpts(tflite::ActivationFunctionType act = kNone,
                                   bool keep_num_dims = false,
                                   tflite::FullyConnectedOptionsWeightsFormat format =
                                       tflite::FullyConnectedOptionsWeightsFormat_DEFAULT) {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  o.keep_num_dims = keep_num_dims;
  o.weights_format = format;
  return Options(o);
}
tflite::BuiltinOptionsUnion ConvOpts(tflite::Padding padding, int stride_h = 1, int stride_w = 1,
                                     int dilation_h = 1, int dilation_w = 1,
                                     tflite::ActivationFunctionType act = kNone) {
  tflite::Conv2DOptionsT o;
  o.padding = padding;
  o.stride_h = stride_h;
  o.stride_w = stride_w;
  o.dilation_h_factor = dilation_h;
  o.dilation_w_factor = dilation_w;
  o.fused_activation_function = act;
  return Options(o);
}
tflite::BuiltinOptionsUnion DepthwiseOpts(tflite::Padding padding, int multiplier, int stride_h = 1,
                                          int stride_w = 1, int dilation_h = 1, int dilation_w = 1,
                                          tflite::ActivationFunctionType act = kNone) {
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = padding;
  o.depth_multiplier = multiplier;
  o.stride_h = stride_h;
  o.stride_w = stride_w;
  o.dilation_h_factor = dilation_h;
  o.dilation_w_factor = dilation_w;
  o.fused_activation_function = act;
  return Options(o);
}
tflite::BuiltinOptionsUnion ReshapeOpts(std::vector<int> new_shape) {
  tflite::ReshapeOptionsT o;
  o.new_shape = std::move(new_shape);
  return Options(o);
}
tflite::BuiltinOptionsUnion SoftmaxOpts(float beta) {
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  return Options(o);
}

// ---- running one case through the C API ---------------------------------

std::vector<uint8_t> ToBytes(const TensorSpec& t) {
  std::vector<uint8_t> bytes;
  auto append = [&bytes](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  };
  for (double v : t.values) {
    switch (t.type) {
      case tflite::TensorType_FLOAT32: {
        const float f = static_cast<float>(v);
        append(&f, sizeof f);
        break;
      }
      case tflite::TensorType_INT32: {
        const int32_t i = static_cast<int32_t>(v);
        append(&i, sizeof i);
        break;
      }
      case tflite::TensorType_INT64: {
        const int64_t i = static_cast<int64_t>(v);
        append(&i, sizeof i);
        break;
      }
      case tflite::TensorType_INT8: {
        const int8_t i = static_cast<int8_t>(v);
        append(&i, sizeof i);
        break;
      }
      default:
        ADD_FAILURE() << "test helper: unhandled tensor type " << t.type;
    }
  }
  return bytes;
}

std::vector<double> FromBytes(TfLiteType type, const std::vector<uint8_t>& bytes) {
  std::vector<double> out;
  auto read = [&](auto zero) {
    using T = decltype(zero);
    for (size_t i = 0; i + sizeof(T) <= bytes.size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, bytes.data() + i, sizeof v);
      out.push_back(static_cast<double>(v));
    }
  };
  if (type == kTfLiteFloat32) read(0.0f);
  if (type == kTfLiteInt32) read(int32_t{0});
  if (type == kTfLiteInt64) read(int64_t{0});
  return out;
}

void CollectError(void* user_data, const char* format, va_list args) {
  char buffer[1024];
  std::vsnprintf(buffer, sizeof buffer, format, args);
  auto* log = static_cast<std::string*>(user_data);
  *log += buffer;
  *log += "\n";
}

struct RunResult {
  TfLiteStatus model_status = kTfLiteOk;  // kTfLiteError if the model did not load
  TfLiteStatus allocate_status = kTfLiteError;
  TfLiteStatus invoke_status = kTfLiteError;
  std::vector<int> output_shape;
  std::vector<double> output_values;
  std::string log;
};

std::vector<uint8_t> BuildModel(const OpCase& c) {
  ModelBuilder b;
  std::vector<int> op_inputs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const TensorSpec& t = c.inputs[i];
    const std::string name = "in" + std::to_string(i);
    switch (t.kind) {
      case TensorSpec::kOmitted:
        op_inputs.push_back(-1);
        break;
      case TensorSpec::kConstant:
        op_inputs.push_back(b.AddConstantBytes(t.type, t.shape, ToBytes(t), name));
        break;
      case TensorSpec::kInput:
        op_inputs.push_back(b.AddInput(t.type, t.shape, name));
        break;
    }
  }
  const int out = b.AddOutput(c.output.type, c.output.shape, "out");
  b.AddOperator(c.op, op_inputs, {out}, c.options, c.version);
  return b.Finish();
}

RunResult RunCase(const OpCase& c, int num_threads = 1) {
  RunResult r;
  const std::vector<uint8_t> bytes = BuildModel(c);
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  if (model == nullptr) {
    r.model_status = kTfLiteError;
    return r;
  }
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetNumThreads(options, num_threads);
  TfLiteInterpreterOptionsSetErrorReporter(options, CollectError, &r.log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter == nullptr) {
    r.model_status = kTfLiteError;
  } else {
    r.allocate_status = TfLiteInterpreterAllocateTensors(interpreter);
    if (r.allocate_status == kTfLiteOk) {
      int input_index = 0;
      for (const TensorSpec& t : c.inputs) {
        if (t.kind != TensorSpec::kInput) continue;
        TfLiteTensor* tensor = TfLiteInterpreterGetInputTensor(interpreter, input_index++);
        const std::vector<uint8_t> data = ToBytes(t);
        EXPECT_EQ(TfLiteTensorCopyFromBuffer(tensor, data.data(), data.size()), kTfLiteOk);
      }
      r.invoke_status = TfLiteInterpreterInvoke(interpreter);
      if (r.invoke_status == kTfLiteOk) {
        const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
        for (int d = 0; d < TfLiteTensorNumDims(out); ++d) {
          r.output_shape.push_back(TfLiteTensorDim(out, d));
        }
        std::vector<uint8_t> data(TfLiteTensorByteSize(out));
        EXPECT_EQ(TfLiteTensorCopyToBuffer(out, data.data(), data.size()), kTfLiteOk);
        r.output_values = FromBytes(TfLiteTensorType(out), data);
      }
    }
    TfLiteInterpreterDelete(interpreter);
  }
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return r;
}

// Float results must match within 1e-5 relative (absolute below 1).
void ExpectNear(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::fabs(want[i]))) << "element " << i;
  }
}

class KernelCaseTest : public ::testing::TestWithParam<OpCase> {};

TEST_P(KernelCaseTest, Runs) {
  const OpCase& c = GetParam();
  const RunResult r = RunCase(c);
  ASSERT_EQ(r.model_status, kTfLiteOk) << r.log;
  switch (c.outcome) {
    case Outcome::kOk:
      ASSERT_EQ(r.allocate_status, kTfLiteOk) << r.log;
      ASSERT_EQ(r.invoke_status, kTfLiteOk) << r.log;
      EXPECT_EQ(r.output_shape, c.output.shape);
      ExpectNear(r.output_values, c.output.values);
      break;
    case Outcome::kPrepareFails:
      EXPECT_NE(r.allocate_status, kTfLiteOk);
      break;
    case Outcome::kInvokeFails:
      ASSERT_EQ(r.allocate_status, kTfLiteOk) << r.log;
      EXPECT_NE(r.invoke_status, kTfLiteOk);
      break;
  }
  if (!c.error_substring.empty()) {
    EXPECT_NE(r.log.find(c.error_substring), std::string::npos)
        << "log does not mention \"" << c.error_substring << "\":\n"
        << r.log;
  }
}

std::string CaseName(const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; }

// ---- the cases ----------------------------------------------------------------
// One case per line group, name first; clang-format would put every field on
// its own line.
// clang-format off

// 1..9 as a [1, 3, 3, 1] image, and a 2x2 window of ones as conv / depthwise
// filters: each output is the sum of the input pixels under the window.
TensorSpec Image3x3() { return F32({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }
TensorSpec Ones2x2Filter() { return Const(F32({1, 2, 2, 1}, {1, 1, 1, 1})); }
TensorSpec ZeroBias1() { return Const(F32({1}, {0})); }

std::vector<OpCase> BinaryCases() {
  using B = BuiltinOperator;
  constexpr B kAdd = tflite::BuiltinOperator_ADD;
  constexpr B kSub = tflite::BuiltinOperator_SUB;
  constexpr B kMul = tflite::BuiltinOperator_MUL;
  return {
      {"AddSameShape", kAdd, AddOpts(),
       {F32({1, 2, 2, 1}, {1, 2, 3, 4}), F32({1, 2, 2, 1}, {10, 20, 30, 40})},
       F32({1, 2, 2, 1}, {11, 22, 33, 44})},
      {"AddBroadcastRow", kAdd, AddOpts(),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), Const(F32({3}, {10, 20, 30}))},
       F32({2, 3}, {11, 22, 33, 14, 25, 36})},
      {"AddBroadcastBothSides", kAdd, AddOpts(),
       {F32({2, 1}, {1, 2}), F32({1, 3}, {10, 20, 30})},
       F32({2, 3}, {11, 21, 31, 12, 22, 32})},
      {"AddBroadcastSixDims", kAdd, AddOpts(),
       {F32({2, 1, 1, 1, 1, 1}, {1, 2}), F32({1, 1, 1, 1, 1, 3}, {10, 20, 30})},
       F32({2, 1, 1, 1, 1, 3}, {11, 21, 31, 12, 22, 32})},
      {"AddScalarRelu", kAdd, AddOpts(kRelu),
       {F32({}, {-1}), F32({4}, {-2, 0.5, 3, 1})},
       F32({4}, {0, 0, 2, 0})},
      {"AddRelu6", kAdd, AddOpts(kRelu6),
       {F32({4}, {1, 5, 7, -1}), F32({4}, {0, 2, 0, 0})},
       F32({4}, {1, 6, 6, 0})},
      {"AddReluN1To1", kAdd, AddOpts(kReluN1To1),
       {F32({4}, {-3, 0.25, 2, 0}), F32({4}, {0, 0, 0, 0.5})},
       F32({4}, {-1, 0.25, 1, 0.5})},
      {"AddInt32", kAdd, AddOpts(),
       {I32({3}, {1, -2, 3}), I32({1}, {10})},
       I32({3}, {11, 8, 13})},
      {"AddInt32Relu", kAdd, AddOpts(kRelu),
       {I32({3}, {1, -20, 3}), I32({3}, {1, 2, 3})},
       I32({3}, {2, 0, 6})},
      {"AddInt64", kAdd, AddOpts(),
       {I64({2}, {5000000000.0, 1}), I64({2}, {1, 2})},
       I64({2}, {5000000001.0, 3})},
      {"AddInt8Unsupported", kAdd, AddOpts(),
       {Typed(tflite::TensorType_INT8, {2}), Typed(tflite::TensorType_INT8, {2})},
       Typed(tflite::TensorType_INT8, {2}), Outcome::kPrepareFails, "INT8"},
      {"AddMixedTypes", kAdd, AddOpts(),
       {F32({2}, {1, 2}), I32({2}, {1, 2})},
       F32({2}, {0, 0}), Outcome::kPrepareFails, "ADD"},
      {"AddNotBroadcastable", kAdd, AddOpts(),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({4, 3}, std::vector<double>(12, 1.0))},
       F32({4, 3}, {}), Outcome::kPrepareFails, "not broadcastable"},
      {"SubBroadcast", kSub, SubOpts(),
       {F32({2, 2}, {5, 6, 7, 8}), F32({2}, {1, 2})},
       F32({2, 2}, {4, 4, 6, 6})},
      {"SubReversedBroadcastRelu", kSub, SubOpts(kRelu),
       {F32({2}, {1, 2}), F32({2, 2}, {5, 0, 0, 5})},
       F32({2, 2}, {0, 2, 1, 0})},
      {"SubInt32", kSub, SubOpts(),
       {I32({2}, {5, -5}), I32({2}, {7, -7})},
       I32({2}, {-2, 2})},
      {"MulScalarBroadcast", kMul, MulOpts(),
       {F32({2, 2}, {1, 2, 3, 4}), Const(F32({1}, {-2}))},
       F32({2, 2}, {-2, -4, -6, -8})},
      {"MulRelu", kMul, MulOpts(kRelu),
       {F32({2, 2}, {1, -2, 3, -4}), F32({2, 1}, {2, -1})},
       F32({2, 2}, {2, 0, 0, 4})},
      {"MulInt32", kMul, MulOpts(),
       {I32({3}, {2, -3, 4}), I32({3}, {5, 6, -7})},
       I32({3}, {10, -18, -28})},
      {"MulShapeMismatch", kMul, MulOpts(),
       {F32({3}, {1, 2, 3}), F32({2}, {1, 2})},
       F32({3}, {}), Outcome::kPrepareFails, "MUL"},
  };
}

std::vector<OpCase> FullyConnectedCases() {
  constexpr auto kFc = tflite::BuiltinOperator_FULLY_CONNECTED;
  // out[b] = W in[b] + bias with W = [[1, 0, -1], [0.5, 0.5, 0.5]], bias = [1, -1]:
  // rows [1 2 3] -> [-1, 2] and [4 5 6] -> [-1, 6.5].
  auto in = [] { return F32({2, 3}, {1, 2, 3, 4, 5, 6}); };
  auto weights = [] { return Const(F32({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5})); };
  auto bias = [] { return Const(F32({2}, {1, -1})); };
  return {
      {"FcBias", kFc, FcOpts(), {in(), weights(), bias()}, F32({2, 2}, {-1, 2, -1, 6.5})},
      {"FcRelu", kFc, FcOpts(kRelu), {in(), weights(), bias()}, F32({2, 2}, {0, 2, 0, 6.5})},
      {"FcNoBiasInput", kFc, FcOpts(), {in(), weights()}, F32({2, 2}, {-2, 3, -2, 7.5}),
       Outcome::kOk, "", 6},
      {"FcOmittedBias", kFc, FcOpts(), {in(), weights(), Omitted()},
       F32({2, 2}, {-2, 3, -2, 7.5})},
      {"FcFlattensInput", kFc, FcOpts(), {F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), weights(), bias()},
       F32({2, 2}, {-1, 2, -1, 6.5})},
      {"FcKeepNumDims", kFc, FcOpts(kNone, true),
       {F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), weights(), bias()},
       F32({1, 2, 2}, {-1, 2, -1, 6.5}), Outcome::kOk, "", 5},
      {"FcNonConstantWeights", kFc, FcOpts(),
       {in(), F32({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5}), bias()}, F32({2, 2}, {-1, 2, -1, 6.5})},
      {"FcShuffledWeightsUnsupported", kFc,
       FcOpts(kNone, false, tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8),
       {in(), weights(), bias()}, F32({2, 2}, {}), Outcome::kPrepareFails, "weights format", 2},
      {"FcInt8WeightsUnsupported", kFc, FcOpts(),
       {in(), Const(Typed(tflite::TensorType_INT8, {2, 3})), bias()}, F32({2, 2}, {}),
       Outcome::kPrepareFails, "INT8", 3},
      {"FcBiasSizeMismatch", kFc, FcOpts(), {in(), weights(), Const(F32({3}, {1, 2, 3}))},
       F32({2, 2}, {}), Outcome::kPrepareFails, "bias"},
      {"FcDepthMismatch", kFc, FcOpts(), {F32({1, 5}, {1, 2, 3, 4, 5}), weights(), bias()},
       F32({1, 2}, {}), Outcome::kPrepareFails, "FULLY_CONNECTED"},
  };
}

std::vector<OpCase> ConvCases() {
  constexpr auto kConv = tflite::BuiltinOperator_CONV_2D;
  return {
      // 1x1: each pixel (a, b) -> (a, b, a + b + 10).
      {"ConvPointwise", kConv, ConvOpts(kValid),
       {F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
        Const(F32({3, 1, 1, 2}, {1, 0, 0, 1, 1, 1})), Const(F32({3}, {0, 0, 10}))},
       F32({1, 2, 2, 3}, {1, 2, 13, 3, 4, 17, 5, 6, 21, 7, 8, 25})},
      {"ConvValid", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      // SAME pads one row/column at the end (the odd total goes after).
      {"ConvSame", kConv, ConvOpts(kSame), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {12, 16, 9, 24, 28, 15, 15, 17, 9})},
      {"ConvSameStride2", kConv, ConvOpts(kSame, 2, 2), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {12, 9, 15, 9})},
      {"ConvValidStride2x1", kConv, ConvOpts(kValid, 2, 1),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 1, 2, 1}, {12, 16})},
      // Dilation 2: the 2x2 window spans 3x3, taking the corners.
      {"ConvValidDilation2", kConv, ConvOpts(kValid, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 1, 1, 1}, {20})},
      {"ConvSameDilation2", kConv, ConvOpts(kSame, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {5, 10, 5, 10, 20, 10, 5, 10, 5})},
      {"ConvNoBias", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      {"ConvOmittedBias", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter(), Omitted()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      // Two channels in, two out: sums 10 and 1 - 2 - 3 + 4 = 0, bias -20 / 5, RELU.
      {"ConvMultiChannelBiasRelu", kConv, ConvOpts(kValid, 1, 1, 1, 1, kRelu),
       {F32({1, 1, 2, 2}, {1, 2, 3, 4}), Const(F32({2, 1, 2, 2}, {1, 1, 1, 1, 1, -1, -1, 1})),
        Const(F32({2}, {-20, 5}))},
       F32({1, 1, 1, 2}, {0, 5})},
      {"ConvBatch2Relu6", kConv, ConvOpts(kValid, 1, 1, 1, 1, kRelu6),
       {F32({2, 1, 2, 1}, {1, 2, 3, 4}), Const(F32({1, 1, 2, 1}, {1, 1})), ZeroBias1()},
       F32({2, 1, 1, 1}, {3, 6})},
      // Two groups of 2 input channels: (1, 2) . (1, 1) = 3, (3, 4) . (1, -1) = -1.
      {"ConvGrouped", kConv, ConvOpts(kValid),
       {F32({1, 1, 1, 4}, {1, 2, 3, 4}), Const(F32({2, 1, 1, 2}, {1, 1, 1, -1})),
        Const(F32({2}, {0, 0}))},
       F32({1, 1, 1, 2}, {3, -1}), Outcome::kOk, "", 6},
      {"ConvInputRank3", kConv, ConvOpts(kValid),
       {F32({3, 3, 1}, std::vector<double>(9, 1.0)), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "CONV_2D"},
      {"ConvChannelMismatch", kConv, ConvOpts(kValid),
       {F32({1, 2, 2, 3}, std::vector<double>(12, 1.0)),
        Const(F32({1, 1, 1, 2}, {1, 1})), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "CONV_2D"},
      {"ConvHybridUnsupported", kConv, ConvOpts(kValid),
       {Image3x3(), Const(Typed(tflite::TensorType_INT8, {1, 2, 2, 1})), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "INT8", 2},
      {"ConvBiasSizeMismatch", kConv, ConvOpts(kValid),
       {Image3x3(), Ones2x2Filter(), Const(F32({2}, {0, 0}))}, F32({1, 2, 2, 1}, {}),
       Outcome::kPrepareFails, "bias"},
      {"ConvZeroStride", kConv, ConvOpts(kValid, 0, 1),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 2, 2, 1}, {}),
       Outcome::kPrepareFails, "stride"},
  };
}

std::vector<OpCase> DepthwiseCases() {
  constexpr auto kDw = tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
  // Channel 0 is summed with weights 1, channel 1 weighted 1, 2, 3, 4:
  // 1 + 3 + 5 + 7 = 16 and 2 + 8 + 18 + 32 = 60.
  auto in2x2x2 = [] { return F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}); };
  auto filter2ch = [] { return Const(F32({1, 2, 2, 2}, {1, 1, 1, 2, 1, 3, 1, 4})); };
  return {
      {"DepthwiseValid", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), filter2ch(), Const(F32({2}, {0, 0}))}, F32({1, 1, 1, 2}, {16, 60})},
      {"DepthwiseBiasRelu", kDw, DepthwiseOpts(kValid, 1, 1, 1, 1, 1, kRelu),
       {in2x2x2(), filter2ch(), Const(F32({2}, {1, -100}))}, F32({1, 1, 1, 2}, {17, 0})},
      {"DepthwiseNoBias", kDw, DepthwiseOpts(kValid, 1), {in2x2x2(), filter2ch()},
       F32({1, 1, 1, 2}, {16, 60})},
      // Multiplier 2: input channel c feeds output channels 2c and 2c + 1.
      {"DepthwiseMultiplier2", kDw, DepthwiseOpts(kValid, 2),
       {F32({1, 1, 1, 2}, {2, 3}), Const(F32({1, 1, 1, 4}, {1, 2, 3, 4})),
        Const(F32({4}, {0, 0, 0, 1}))},
       F32({1, 1, 1, 4}, {2, 4, 9, 13})},
      {"DepthwiseSame", kDw, DepthwiseOpts(kSame, 1), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {12, 16, 9, 24, 28, 15, 15, 17, 9})},
      {"DepthwiseSameStride2", kDw, DepthwiseOpts(kSame, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 2, 2, 1}, {12, 9, 15, 9})},
      {"DepthwiseSameDilation2", kDw, DepthwiseOpts(kSame, 1, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {5, 10, 5, 10, 20, 10, 5, 10, 5}), Outcome::kOk, "", 2},
      {"DepthwiseFilterNotDepthwise", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), Const(F32({2, 1, 1, 2}, {1, 1, 1, 1})), Const(F32({2}, {0, 0}))},
       F32({1, 2, 2, 2}, {}), Outcome::kPrepareFails, "DEPTHWISE_CONV_2D"},
      {"DepthwiseChannelsNotMultiple", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), Const(F32({1, 1, 1, 3}, {1, 1, 1})), Const(F32({3}, {0, 0, 0}))},
       F32({1, 2, 2, 3}, {}), Outcome::kPrepareFails, "DEPTHWISE_CONV_2D"},
      {"DepthwiseInt32Unsupported", kDw, DepthwiseOpts(kValid, 1),
       {I32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
        Const(I32({1, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1}))},
       I32({1, 1, 1, 2}, {}), Outcome::kPrepareFails, "INT32"},
  };
}

std::vector<OpCase> ReshapeCases() {
  constexpr auto kReshape = tflite::BuiltinOperator_RESHAPE;
  auto six = [] { return F32({2, 3}, {1, 2, 3, 4, 5, 6}); };
  return {
      {"ReshapeFromParams", kReshape, ReshapeOpts({3, 2}), {six()},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      {"ReshapeParamsInferred", kReshape, ReshapeOpts({-1}), {six()},
       F32({6}, {1, 2, 3, 4, 5, 6})},
      {"ReshapeConstShapeTensor", kReshape, {}, {six(), Const(I32({2}, {-1, 2}))},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      // The shape tensor wins over the params when both are present.
      {"ReshapeShapeTensorOverridesParams", kReshape, ReshapeOpts({6}),
       {six(), Const(I32({3}, {1, 3, 2}))}, F32({1, 3, 2}, {1, 2, 3, 4, 5, 6})},
      // A shape tensor fed at run time: the output is sized during Invoke.
      {"ReshapeDynamicShape", kReshape, {}, {six(), I32({2}, {3, -1})},
       F32({3, 2}, {1, 2, 3, 4, 5, 6})},
      {"ReshapeToScalar", kReshape, {}, {F32({1, 1}, {7}), Const(I32({0}, {}))},
       F32({}, {7})},
      {"ReshapeInt32Data", kReshape, ReshapeOpts({2, 2}), {I32({4}, {1, 2, 3, 4})},
       I32({2, 2}, {1, 2, 3, 4})},
      {"ReshapeWrongElementCount", kReshape, {}, {six(), Const(I32({2}, {4, -1}))},
       F32({4, 1}, {}), Outcome::kPrepareFails, "RESHAPE"},
      {"ReshapeTwoUnknownDims", kReshape, {}, {six(), Const(I32({2}, {-1, -1}))}, F32({6}, {}),
       Outcome::kPrepareFails, "-1"},
      {"ReshapeDynamicWrongCount", kReshape, {}, {six(), I32({2}, {4, 4})}, F32({4, 4}, {}),
       Outcome::kInvokeFails, "RESHAPE"},
  };
}

std::vector<OpCase> ActivationCases() {
  constexpr auto kSoftmax = tflite::BuiltinOperator_SOFTMAX;
  constexpr auto kLogistic = tflite::BuiltinOperator_LOGISTIC;
  const double ln3 = std::log(3.0);
  // softmax([1, 2, 3]) = [e^-2, e^-1, 1] / (e^-2 + e^-1 + 1).
  const double s = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  auto ramp = [] { return F32({6}, {-3, -0.5, 0, 0.5, 3, 7}); };
  return {
      {"Softmax", kSoftmax, SoftmaxOpts(1.0f), {F32({1, 3}, {1, 2, 3})},
       F32({1, 3}, {std::exp(-2.0) / s, std::exp(-1.0) / s, 1.0 / s})},
      // beta 2 on [0, ln3 / 2] gives weights 1 : 3.
      {"SoftmaxBeta", kSoftmax, SoftmaxOpts(2.0f), {F32({2, 2}, {0, ln3 / 2, 1, 1})},
       F32({2, 2}, {0.25, 0.75, 0.5, 0.5})},
      {"SoftmaxRank3LastDim", kSoftmax, SoftmaxOpts(1.0f),
       {F32({2, 1, 2}, {0, ln3, ln3, 0})}, F32({2, 1, 2}, {0.25, 0.75, 0.75, 0.25})},
      {"SoftmaxBetaZeroIsUniform", kSoftmax, SoftmaxOpts(0.0f), {F32({4}, {1, 5, -2, 9})},
       F32({4}, {0.25, 0.25, 0.25, 0.25})},
      {"SoftmaxInt32Unsupported", kSoftmax, SoftmaxOpts(1.0f), {I32({2}, {1, 2})},
       I32({2}, {}), Outcome::kPrepareFails, "INT32"},
      {"SoftmaxScalarRejected", kSoftmax, SoftmaxOpts(1.0f), {F32({}, {1})}, F32({}, {}),
       Outcome::kPrepareFails, "SOFTMAX"},
      {"Logistic", kLogistic, {}, {F32({2, 2}, {0, ln3, -ln3, 30})},
       F32({2, 2}, {0.5, 0.75, 0.25, 1})},
      {"LogisticInt32Unsupported", kLogistic, {}, {I32({2}, {1, 2})}, I32({2}, {}),
       Outcome::kPrepareFails, "LOGISTIC"},
      {"Relu", tflite::BuiltinOperator_RELU, {}, {ramp()}, F32({6}, {0, 0, 0, 0.5, 3, 7})},
      {"Relu6", tflite::BuiltinOperator_RELU6, {}, {ramp()}, F32({6}, {0, 0, 0, 0.5, 3, 6})},
      {"ReluN1To1", tflite::BuiltinOperator_RELU_N1_TO_1, {}, {ramp()},
       F32({6}, {-1, -0.5, 0, 0.5, 1, 1})},
      {"Relu0To1", tflite::BuiltinOperator_RELU_0_TO_1, {}, {ramp()},
       F32({6}, {0, 0, 0, 0.5, 1, 1})},
      {"ReluKeepsShape", tflite::BuiltinOperator_RELU, {}, {F32({1, 2, 1, 2}, {-1, 2, -3, 4})},
       F32({1, 2, 1, 2}, {0, 2, 0, 4})},
      {"ReluInt8Unsupported", tflite::BuiltinOperator_RELU, {},
       {Typed(tflite::TensorType_INT8, {2})}, Typed(tflite::TensorType_INT8, {2}),
       Outcome::kPrepareFails, "RELU"},
  };
}

// clang-format on

INSTANTIATE_TEST_SUITE_P(Binary, KernelCaseTest, ::testing::ValuesIn(BinaryCases()), CaseName);
INSTANTIATE_TEST_SUITE_P(FullyConnected, KernelCaseTest, ::testing::ValuesIn(FullyConnectedCases()),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(Conv, KernelCaseTest, ::testing::ValuesIn(ConvCases()), CaseName);
INSTANTIATE_TEST_SUITE_P(Depthwise, KernelCaseTest, ::testing::ValuesIn(DepthwiseCases()),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(Reshape, KernelCaseTest, ::testing::ValuesIn(ReshapeCases()), CaseName);
INSTANTIATE_TEST_SUITE_P(Activation, KernelCaseTest, ::testing::ValuesIn(ActivationCases()),
                         CaseName);

// ---- beyond the table ---------------------------------------------------------

// A dynamic reshape must follow a new shape value on every Invoke.
TEST(ReshapeTest, DynamicShapeChangesBetweenInvokes) {
  OpCase c{"", tflite::BuiltinOperator_RESHAPE, {}, {F32({2, 3}, {}), I32({2}, {})}, F32({6}, {})};
  const std::vector<uint8_t> bytes = BuildModel(c);
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, nullptr);
  ASSERT_NE(interpreter, nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  const float data[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), data,
                                       sizeof data),
            kTfLiteOk);
  for (const std::vector<int32_t>& shape :
       {std::vector<int32_t>{3, 2}, {1, 6, 1}, {-1}, {2, -1, 1}}) {
    TfLiteTensor* shape_tensor = TfLiteInterpreterGetInputTensor(interpreter, 1);
    // The shape input is [2]; resize it when the new shape has another rank.
    if (TfLiteTensorDim(shape_tensor, 0) != static_cast<int>(shape.size())) {
      const int dims[1] = {static_cast<int>(shape.size())};
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 1, dims, 1), kTfLiteOk);
      ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
      ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), data,
                                           sizeof data),
                kTfLiteOk);
      shape_tensor = TfLiteInterpreterGetInputTensor(interpreter, 1);
    }
    ASSERT_EQ(
        TfLiteTensorCopyFromBuffer(shape_tensor, shape.data(), shape.size() * sizeof(int32_t)),
        kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
    const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    ASSERT_EQ(TfLiteTensorNumDims(out), static_cast<int>(shape.size()));
    int64_t elements = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] != -1) {
        EXPECT_EQ(TfLiteTensorDim(out, d), shape[d]);
      }
      elements *= TfLiteTensorDim(out, d);
    }
    EXPECT_EQ(elements, 6);
    float got[6] = {};
    ASSERT_EQ(TfLiteTensorCopyToBuffer(out, got, sizeof got), kTfLiteOk);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], data[i]);
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
}

// Multi-threaded kernels must agree with single-threaded ones. (Not bit for
// bit: GEMM blocking depends on the size of the block a thread gets.)
TEST(ThreadingTest, ConvDepthwiseAndFcMatchSingleThread) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  auto random = [&](std::vector<int> shape) {
    size_t n = 1;
    for (int d : shape) n *= d;
    std::vector<double> v(n);
    for (double& x : v) x = dist(rng);
    return F32(std::move(shape), std::move(v));
  };
  const std::vector<OpCase> cases = {
      {"",
       tflite::BuiltinOperator_CONV_2D,
       ConvOpts(kSame, 2, 2, 1, 1, kRelu),
       {random({1, 40, 40, 16}), Const(random({32, 3, 3, 16})), Const(random({32}))},
       F32({1, 20, 20, 32}, {})},
      {"",
       tflite::BuiltinOperator_CONV_2D,
       ConvOpts(kValid),
       {random({2, 16, 16, 64}), Const(random({64, 1, 1, 64})), Const(random({64}))},
       F32({2, 16, 16, 64}, {})},
      {"",
       tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
       DepthwiseOpts(kSame, 2, 1, 1, 2, 2),
       {random({1, 48, 48, 32}), Const(random({1, 3, 3, 64})), Const(random({64}))},
       F32({1, 48, 48, 64}, {})},
      {"",
       tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(),
       {random({4, 512}), Const(random({256, 512})), Const(random({256}))},
       F32({4, 256}, {})},
  };
  for (const OpCase& c : cases) {
    const RunResult one = RunCase(c, 1);
    const RunResult four = RunCase(c, 4);
    ASSERT_EQ(one.invoke_status, kTfLiteOk) << one.log;
    ASSERT_EQ(four.invoke_status, kTfLiteOk) << four.log;
    EXPECT_EQ(one.output_shape, c.output.shape);
    EXPECT_EQ(four.output_shape, c.output.shape);
    ExpectNear(four.output_values, one.output_values);
  }
}

// The resolver offers each kernel for the versions TensorFlow Lite 2.19 does.
TEST(RegisterTest, VersionRanges) {
  MutableOpResolver resolver;
  RegisterBuiltinKernels(&resolver);
  const struct {
    int32_t code;
    int max_version;
  } expected[] = {
      {kTfLiteBuiltinAdd, 5},      {kTfLiteBuiltinSub, 5},
      {kTfLiteBuiltinMul, 7},      {kTfLiteBuiltinFullyConnected, 13},
      {kTfLiteBuiltinConv2d, 8},   {kTfLiteBuiltinDepthwiseConv2d, 7},
      {kTfLiteBuiltinReshape, 1},  {kTfLiteBuiltinSoftmax, 3},
      {kTfLiteBuiltinLogistic, 3}, {kTfLiteBuiltinRelu, 3},
      {kTfLiteBuiltinRelu6, 3},    {kTfLiteBuiltinReluN1To1, 1},
      {kTfLiteBuiltinRelu0To1, 1},
  };
  for (const auto& e : expected) {
    for (int v = 1; v <= e.max_version; ++v) {
      const TfLiteRegistration* reg = resolver.FindOp(e.code, v);
      ASSERT_NE(reg, nullptr) << "op " << e.code << " v" << v;
      EXPECT_NE(reg->prepare, nullptr);
      EXPECT_NE(reg->invoke, nullptr);
    }
    EXPECT_EQ(resolver.FindOp(e.code, e.max_version + 1), nullptr) << "op " << e.code;
    EXPECT_EQ(resolver.FindOp(e.code, 0), nullptr) << "op " << e.code;
  }
}

}  // namespace
}  // namespace tflite_c

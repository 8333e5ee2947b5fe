// The one validation layer for quantization parameters (quant_validate.h):
// a table of quantized ops, each given a NaN, negative, zero or infinite
// scale, or a zero point outside its element type, on one of its tensors.
// AllocateTensors must fail with the shared message naming the op, and the
// same model with sane parameters must allocate (so the refusal is the
// parameter's doing). Named for the ASan pass (label malformed).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/one_op_model.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using testing::Q;
using testing::Quantization;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Builds a one-op model whose tensor under test gets quantization `q`.
using Build = std::function<void(OneOpModel&, const Quantization& q)>;

struct OpCase {
  const char* op;  // the name the messages start with
  TensorType type;  // element type of the tensor under test
  Quantization sane;
  Build build;
};

Pool2DOptionsT Pool() {
  Pool2DOptionsT o;
  o.padding = Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.filter_height = o.filter_width = 1;
  return o;
}

// Unary op on a {1, 2, 2, 1} tensor of `type`: the input gets q, the output
// `out_q`.
Build Unary(BuiltinOperator op, BuiltinOptionsUnion options, TensorType type, Quantization out_q) {
  return [=](OneOpModel& m, const Quantization& q) {
    m.Input(type, {1, 2, 2, 1}, q);
    m.Output(type, {1, 2, 2, 1}, out_q);
    m.Op(op, options);
  };
}

// Binary op: input 0 gets q.
Build Binary(BuiltinOperator op, BuiltinOptionsUnion options, TensorType type) {
  return [=](OneOpModel& m, const Quantization& q) {
    m.Input(type, {1, 2, 2, 1}, q);
    m.Input(type, {1, 2, 2, 1}, Q(0.5f, 0));
    m.Output(type, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Op(op, options);
  };
}

// CONV_2D with a 1x1 filter; q goes to the input or to the filter.
Build Conv(bool filter) {
  return [filter](OneOpModel& m, const Quantization& q) {
    m.Input(TensorType_INT8, {1, 2, 2, 1}, filter ? Q(0.5f, 0) : q);
    m.Const<int8_t>({1, 1, 1, 1}, {2}, TensorType_INT8, filter ? q : Q(1.0f, 0));
    m.Output(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
    Conv2DOptionsT o;
    o.padding = Padding_VALID;
    o.stride_h = o.stride_w = 1;
    m.Op(BuiltinOperator_CONV_2D, Opts(o));
  };
}

std::vector<OpCase> Cases() {
  std::vector<OpCase> cases;
  const Quantization sane = Q(0.5f, 0);
  cases.push_back({"CONV_2D", TensorType_INT8, sane, Conv(/*filter=*/false)});
  cases.push_back({"CONV_2D", TensorType_INT8, Q(1.0f, 0), Conv(/*filter=*/true)});
  cases.push_back({"DEPTHWISE_CONV_2D", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2, 2, 1}, q);
                     m.Const<int8_t>({1, 1, 1, 1}, {2}, TensorType_INT8, Q(1.0f, 0));
                     m.Output(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
                     DepthwiseConv2DOptionsT o;
                     o.padding = Padding_VALID;
                     o.stride_h = o.stride_w = 1;
                     o.depth_multiplier = 1;
                     m.Op(BuiltinOperator_DEPTHWISE_CONV_2D, Opts(o));
                   }});
  cases.push_back({"FULLY_CONNECTED", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2}, q);
                     m.Const<int8_t>({1, 2}, {1, 1}, TensorType_INT8, Q(0.25f, 0));
                     m.Output(TensorType_INT8, {1, 1}, Q(0.5f, 0));
                     m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
                   }});
  cases.push_back({"TRANSPOSE_CONV", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Const<int32_t>({4}, {1, 2, 2, 1});
                     m.Const<int8_t>({1, 1, 1, 1}, {2}, TensorType_INT8, Q(1.0f, 0));
                     m.Input(TensorType_INT8, {1, 2, 2, 1}, q);
                     m.Output(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
                     TransposeConvOptionsT o;
                     o.padding = Padding_VALID;
                     o.stride_h = o.stride_w = 1;
                     m.Op(BuiltinOperator_TRANSPOSE_CONV, Opts(o));
                   }});
  cases.push_back({"ADD", TensorType_INT8, sane,
                   Binary(BuiltinOperator_ADD, Opts(AddOptionsT()), TensorType_INT8)});
  cases.push_back({"ADD", TensorType_UINT8, Q(0.5f, 128),
                   Binary(BuiltinOperator_ADD, Opts(AddOptionsT()), TensorType_UINT8)});
  cases.push_back({"ADD", TensorType_INT16, Q(1.0f, 0),  // power-of-two scales
                   Binary(BuiltinOperator_ADD, Opts(AddOptionsT()), TensorType_INT16)});
  cases.push_back({"SUB", TensorType_INT8, sane,
                   Binary(BuiltinOperator_SUB, Opts(SubOptionsT()), TensorType_INT8)});
  cases.push_back({"MUL", TensorType_INT8, sane,
                   Binary(BuiltinOperator_MUL, Opts(MulOptionsT()), TensorType_INT8)});
  cases.push_back({"MAXIMUM", TensorType_INT8, Q(1.0f, 0),
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2, 2, 1}, q);
                     m.Input(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
                     m.Output(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
                     m.Op(BuiltinOperator_MAXIMUM);
                   }});
  cases.push_back({"AVERAGE_POOL_2D", TensorType_INT8, sane,
                   Unary(BuiltinOperator_AVERAGE_POOL_2D, Opts(Pool()), TensorType_INT8, sane)});
  cases.push_back({"MAX_POOL_2D", TensorType_UINT8, Q(0.5f, 128),
                   Unary(BuiltinOperator_MAX_POOL_2D, Opts(Pool()), TensorType_UINT8,
                         Q(0.5f, 128))});
  cases.push_back({"SOFTMAX", TensorType_INT8, sane,
                   Unary(BuiltinOperator_SOFTMAX, Opts(SoftmaxOptionsT()), TensorType_INT8,
                         Q(1.0f / 256, -128))});
  cases.push_back({"LOGISTIC", TensorType_INT8, sane,
                   Unary(BuiltinOperator_LOGISTIC, {}, TensorType_INT8, Q(1.0f / 256, -128))});
  cases.push_back({"TANH", TensorType_INT16, Q(1.0f / 4096, 0),
                   Unary(BuiltinOperator_TANH, {}, TensorType_INT16, Q(1.0f / 32768, 0))});
  cases.push_back({"RELU", TensorType_INT8, sane,
                   Unary(BuiltinOperator_RELU, {}, TensorType_INT8, sane)});
  cases.push_back({"LEAKY_RELU", TensorType_INT8, sane,
                   Unary(BuiltinOperator_LEAKY_RELU, Opts(LeakyReluOptionsT()), TensorType_INT8,
                         sane)});
  cases.push_back({"HARD_SWISH", TensorType_INT8, sane,
                   Unary(BuiltinOperator_HARD_SWISH, {}, TensorType_INT8, sane)});
  cases.push_back({"DEQUANTIZE", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {2}, q);
                     m.Output(TensorType_FLOAT32, {2});
                     m.Op(BuiltinOperator_DEQUANTIZE);
                   }});
  cases.push_back({"QUANTIZE", TensorType_INT8, sane,  // the output
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_FLOAT32, {2});
                     m.Output(TensorType_INT8, {2}, q);
                     m.Op(BuiltinOperator_QUANTIZE);
                   }});
  cases.push_back({"QUANTIZE", TensorType_INT8, sane,  // requantizing int8 -> int8
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {2}, q);
                     m.Output(TensorType_INT8, {2}, Q(1.0f, 0));
                     m.Op(BuiltinOperator_QUANTIZE);
                   }});
  cases.push_back({"CONCATENATION", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2}, Q(0.5f, 0));
                     m.Input(TensorType_INT8, {1, 2}, q);
                     m.Output(TensorType_INT8, {1, 4}, Q(0.5f, 0));
                     ConcatenationOptionsT o;
                     o.axis = 1;
                     m.Op(BuiltinOperator_CONCATENATION, Opts(o));
                   }});
  cases.push_back({"MEAN", TensorType_INT8, sane, [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2, 2, 1}, q);
                     m.Const<int32_t>({2}, {1, 2});
                     m.Output(TensorType_INT8, {1, 1}, Q(0.5f, 0));
                     m.Op(BuiltinOperator_MEAN, Opts(ReducerOptionsT()));
                   }});
  cases.push_back({"PAD", TensorType_INT8, sane, [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2}, q);
                     m.Const<int32_t>({2, 2}, {0, 0, 1, 1});
                     m.Output(TensorType_INT8, {1, 4}, q);
                     m.Op(BuiltinOperator_PAD, Opts(PadOptionsT()));
                   }});
  cases.push_back({"RESHAPE", TensorType_INT8, sane, [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 4}, q);
                     m.Const<int32_t>({2}, {2, 2});
                     m.Output(TensorType_INT8, {2, 2}, q);
                     m.Op(BuiltinOperator_RESHAPE, Opts(ReshapeOptionsT()));
                   }});
  cases.push_back({"BATCH_MATMUL", TensorType_INT8, sane,
                   [](OneOpModel& m, const Quantization& q) {
                     m.Input(TensorType_INT8, {1, 2, 2}, q);
                     m.Input(TensorType_INT8, {1, 2, 2}, Q(0.5f, 0));
                     m.Output(TensorType_INT8, {1, 2, 2}, Q(1.0f, 0));
                     m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
                   }});
  return cases;
}

struct BadParams {
  Quantization q;
  std::string message;  // after "<OP>: "
};

// The hostile parameters for a tensor of `type`.
std::vector<BadParams> BadFor(TensorType type) {
  std::vector<BadParams> bad = {
      {Q(kNaN, 0), "scale nan must be positive and finite"},
      {Q(-0.5f, 0), "scale -0.5 must be positive and finite"},
      {Q(0.0f, 0), "scale 0 must be positive and finite"},
      {Q(kInf, 0), "scale inf must be positive and finite"},
      {Q(-kInf, 0), "scale -inf must be positive and finite"},
  };
  switch (type) {
    case TensorType_INT8:
      bad.push_back({Q(0.5f, 128), "zero point 128 is outside the INT8 range [-128, 127]"});
      bad.push_back({Q(0.5f, -129), "zero point -129 is outside the INT8 range [-128, 127]"});
      break;
    case TensorType_UINT8:
      bad.push_back({Q(0.5f, 256), "zero point 256 is outside the UINT8 range [0, 255]"});
      bad.push_back({Q(0.5f, -1), "zero point -1 is outside the UINT8 range [0, 255]"});
      break;
    case TensorType_INT16:
      bad.push_back({Q(0.5f, 40000), "zero point 40000 is outside the INT16 range"});
      break;
    default:
      break;
  }
  return bad;
}

TEST(QuantParamsMalformed, EveryOpRefusesHostileParameters) {
  int checked = 0;
  for (const OpCase& c : Cases()) {
    {
      SCOPED_TRACE(std::string(c.op) + " with sane parameters");
      OneOpModel m;
      c.build(m, c.sane);
      EXPECT_TRUE(m.Allocate()) << m.log();
    }
    for (const BadParams& b : BadFor(c.type)) {
      SCOPED_TRACE(std::string(c.op) + ": " + b.message);
      OneOpModel m;
      c.build(m, b.q);
      EXPECT_FALSE(m.Allocate());
      EXPECT_NE(m.log().find(std::string(c.op) + ": "), std::string::npos) << m.log();
      EXPECT_NE(m.log().find(b.message), std::string::npos) << m.log();
      ++checked;
    }
  }
  EXPECT_GT(checked, 150);
}

// A bias (INT32) may carry a zero scale (upstream's converters leave some at
// 0); NaN and negative ones are refused there too.
TEST(QuantParamsMalformed, BiasScales) {
  for (float scale : {kNaN, -1.0f, kInf}) {
    OneOpModel m;
    m.Input(TensorType_INT8, {1, 2}, Q(0.5f, 0));
    m.Const<int8_t>({1, 2}, {1, 1}, TensorType_INT8, Q(0.25f, 0));
    m.Const<int32_t>({1}, {0}, TensorType_INT32, Q(scale, 0));
    m.Output(TensorType_INT8, {1, 1}, Q(0.5f, 0));
    m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
    testing::ExpectPrepareError(m, "FULLY_CONNECTED: input 2 scale");
    EXPECT_NE(m.log().find("must be finite and not negative"), std::string::npos) << m.log();
  }
}

// model_fuzzer (UBSan: a shift by 36 in the requantization loop): scales
// whose ratio input * filter / output reaches 2^31 left-shifted every
// accumulator out of 32 bits. The convolution family refuses them.
TEST(QuantParamsMalformed, RescaleOf2To31OrMoreIsRefused) {
  const Quantization unit = Q(1.0f, 0), tiny = Q(1e-12f, 0);
  DepthwiseConv2DOptionsT dw;
  dw.padding = Padding_VALID;
  dw.stride_w = dw.stride_h = 1;
  dw.depth_multiplier = 1;
  Conv2DOptionsT conv;
  conv.padding = Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  struct Case {
    const char* op;
    BuiltinOperator code;
    BuiltinOptionsUnion options;
    std::vector<int> filter_shape, output_shape;
  };
  const Case cases[] = {
      {"DEPTHWISE_CONV_2D", BuiltinOperator_DEPTHWISE_CONV_2D, Opts(dw), {1, 1, 1, 2},
       {1, 2, 2, 2}},
      {"CONV_2D", BuiltinOperator_CONV_2D, Opts(conv), {2, 1, 1, 2}, {1, 2, 2, 2}},
      {"FULLY_CONNECTED", BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()),
       {2, 8}, {1, 2}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    for (const bool hostile : {true, false}) {
      OneOpModel m;
      m.Input(TensorType_INT8, {1, 2, 2, 2}, unit);
      size_t count = 1;
      for (int d : c.filter_shape) count *= static_cast<size_t>(d);
      m.Const<int8_t>(c.filter_shape, std::vector<int8_t>(count, 1), TensorType_INT8, unit);
      m.Omitted();  // no bias
      m.Output(TensorType_INT8, c.output_shape, hostile ? tiny : unit);
      m.Op(c.code, c.options);
      if (hostile) {
        testing::ExpectPrepareError(
            m, std::string(c.op) + ": input scale * filter scale / output scale is 2^39 or more");
      } else {
        EXPECT_TRUE(m.Allocate()) << m.log();
      }
    }
  }
}

// Per-channel arrays must match the quantized dimension at run time too: an
// input whose channel count changes under ResizeInputTensor no longer fits
// its scales.
TEST(QuantParamsMalformed, PerChannelScalesFollowResizedShape) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 2}, Quantization{{0.5f, 0.25f}, {0, 0}, 1});
  m.Output(TensorType_INT8, {1, 2}, Quantization{{0.5f, 0.25f}, {0, 0}, 1});
  m.Op(BuiltinOperator_RESHAPE, Opts(ReshapeOptionsT()));
  const std::vector<uint8_t> bytes = m.builder().Finish();
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  std::string log;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, testing::CaptureError, &log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  ASSERT_NE(interpreter, nullptr);
  const int dims[] = {1, 3};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, dims, 2), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  EXPECT_NE(log.find("RESHAPE: input 0 has 2 scales for 3 channels along dimension 1"),
            std::string::npos)
      << log;
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

}  // namespace
}  // namespace tflite_c

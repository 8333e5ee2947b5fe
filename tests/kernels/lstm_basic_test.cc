// LSTM with the BASIC kernel type (5 inputs, 4 outputs): the float cell
// against a double-precision formula written here (state carried across
// Invokes through inputs 1 and 4, the concatenation and gate outputs), the
// quantized uint8/int16 cell against upstream's published golden outputs
// (quant_basic_lstm_test), and the Prepare errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/recurrent_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using testing::Quantization;
using testing::Sigmoid;
using testing::Values;
using Runner = testing::ModelRunner;

struct BasicCase {
  int batch = 2;
  int n_input = 3;
  int depth = 2;
  bool quantized = false;
  std::vector<float> weights, bias;              // float
  std::vector<uint8_t> weights_q;                // quantized
  std::vector<int32_t> bias_q;
  float weights_scale = 0.0f;
  int weights_zp = 0;
  float state_scale = 1.0f / 2048;
  bool const_state = false;
};

// Inputs: input (model input 0); outputs: activation, state, concat, gates.
// The previous activation and state are variable tensors.
ModelBuilder BuildBasic(const BasicCase& c) {
  ModelBuilder b;
  const int total = c.n_input + c.depth;
  const auto act_type = c.quantized ? tflite::TensorType_UINT8 : tflite::TensorType_FLOAT32;
  const auto state_type = c.quantized ? tflite::TensorType_INT16 : tflite::TensorType_FLOAT32;
  const Quantization act_q{{1.0f / 128}, {128}, 0};
  const Quantization state_q{{c.state_scale}, {0}, 0};
  const int input = b.AddInput(act_type, {c.batch, c.n_input}, "input");
  const int prev_act = b.AddTensor(act_type, {c.batch, c.depth}, "prev_activation");
  int weights, bias;
  if (c.quantized) {
    weights = b.AddConstant<uint8_t>({4 * c.depth, total}, c.weights_q);
    b.SetQuantization(weights, {{c.weights_scale}, {c.weights_zp}, 0});
    bias = b.AddConstant<int32_t>({4 * c.depth}, c.bias_q);
    b.SetQuantization(bias, {{c.weights_scale / 128}, {0}, 0});
    b.SetQuantization(input, act_q);
    b.SetQuantization(prev_act, act_q);
  } else {
    weights = b.AddConstant<float>({4 * c.depth, total}, c.weights);
    bias = b.AddConstant<float>({4 * c.depth}, c.bias);
  }
  int prev_state;
  if (c.const_state) {
    prev_state = c.quantized
                     ? b.AddConstant<int16_t>({c.batch, c.depth},
                                              std::vector<int16_t>(c.batch * c.depth, 0))
                     : b.AddConstant<float>({c.batch, c.depth},
                                            std::vector<float>(c.batch * c.depth, 0.0f));
  } else {
    prev_state = b.AddTensor(state_type, {c.batch, c.depth}, "prev_state");
    b.SetVariable(prev_state);
  }
  b.SetVariable(prev_act);
  if (c.quantized) b.SetQuantization(prev_state, state_q);
  const int act = b.AddOutput(act_type, {c.batch, c.depth}, "activation");
  const int state = b.AddOutput(state_type, {c.batch, c.depth}, "state");
  const int concat = b.AddOutput(act_type, {c.batch, c.depth}, "concat");
  const int gates = b.AddOutput(state_type, {c.batch, c.depth}, "gates");
  if (c.quantized) {
    b.SetQuantization(act, act_q);
    b.SetQuantization(state, state_q);
    b.SetQuantization(concat, act_q);
    b.SetQuantization(gates, {{1.0f / 4096}, {0}, 0});
  }
  tflite::LSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.kernel_type = tflite::LSTMKernelType_BASIC;
  b.AddOperator(tflite::BuiltinOperator_LSTM, {input, prev_act, weights, bias, prev_state},
                {act, state, concat, gates}, o);
  return b;
}

TEST(LstmBasicTest, FloatMatchesFormulaAndCarriesState) {
  BasicCase c;
  const int total = c.n_input + c.depth;
  c.weights = Values(4 * c.depth * total, 3, 0.8f);
  c.bias = Values(4 * c.depth, 4, 0.3f);
  Runner r(BuildBasic(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  EXPECT_EQ(r.Shape(2), (std::vector<int>{c.batch, total}));
  EXPECT_EQ(r.Shape(3), (std::vector<int>{c.batch, 4 * c.depth}));
  std::vector<double> h(c.batch * c.depth, 0.0), s(c.batch * c.depth, 0.0);
  for (int step = 0; step < 3; ++step) {
    const std::vector<float> x = Values(c.batch * c.n_input, 10 + step, 1.0f);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    const std::vector<float> act = r.Get<float>(0), state = r.Get<float>(1);
    const std::vector<float> concat = r.Get<float>(2), gates = r.Get<float>(3);
    for (int b = 0; b < c.batch; ++b) {
      std::vector<double> cat;
      for (int k = 0; k < c.n_input; ++k) cat.push_back(x[b * c.n_input + k]);
      for (int k = 0; k < c.depth; ++k) cat.push_back(h[b * c.depth + k]);
      for (int k = 0; k < total; ++k) EXPECT_NEAR(concat[b * total + k], cat[k], 1e-6);
      std::vector<double> pre(4 * c.depth);
      for (int row = 0; row < 4 * c.depth; ++row) {
        double v = c.bias[row];
        for (int k = 0; k < total; ++k) v += c.weights[row * total + k] * cat[k];
        pre[row] = v;
        EXPECT_NEAR(gates[b * 4 * c.depth + row], v, 1e-5);
      }
      for (int k = 0; k < c.depth; ++k) {
        const double i = Sigmoid(pre[k]), g = std::tanh(pre[c.depth + k]);
        const double f = Sigmoid(pre[2 * c.depth + k]), o = Sigmoid(pre[3 * c.depth + k]);
        const int at = b * c.depth + k;
        s[at] = i * g + f * s[at];
        h[at] = o * std::tanh(s[at]);
        EXPECT_NEAR(state[at], s[at], 1e-5) << "step " << step;
        EXPECT_NEAR(act[at], h[at], 1e-5) << "step " << step;
      }
    }
  }
  // Resetting the variables restarts from zero state.
  ASSERT_TRUE(r.ResetVariables());
  const std::vector<float> x = Values(c.batch * c.n_input, 10, 1.0f);
  r.Set(0, x);
  ASSERT_TRUE(r.Invoke());
  const std::vector<float> concat = r.Get<float>(2);
  EXPECT_EQ(concat[c.n_input], 0.0f);
}

// A hand-checkable float step: zero weights, so the gates are the biases.
TEST(LstmBasicTest, FloatZeroWeightsGatesAreBiases) {
  BasicCase c;
  c.batch = 1;
  c.n_input = 1;
  c.depth = 1;
  c.weights.assign(4 * 2, 0.0f);
  c.bias = {0.0f, 1.0f, 2.0f, -1.0f};  // input, new input, forget, output
  Runner r(BuildBasic(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {5.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  const double s1 = 0.5 * std::tanh(1.0);
  EXPECT_NEAR(r.Get<float>(1)[0], s1, 1e-6);
  EXPECT_NEAR(r.Get<float>(0)[0], Sigmoid(-1.0) * std::tanh(s1), 1e-6);
  ASSERT_TRUE(r.Invoke());
  const double s2 = 0.5 * std::tanh(1.0) + Sigmoid(2.0) * s1;
  EXPECT_NEAR(r.Get<float>(1)[0], s2, 1e-6);
  const std::vector<float> concat = r.Get<float>(2);
  ASSERT_EQ(concat.size(), 2u);
  EXPECT_EQ(concat[0], 5.0f);
  EXPECT_NEAR(concat[1], Sigmoid(-1.0) * std::tanh(s1), 1e-6);
}

// BuildBasic(c) with the previous activation and state as plain model inputs
// 1 and 2 (activation tensors, not variables).
ModelBuilder BuildBasicWithStateInputs(const BasicCase& c) {
  ModelBuilder b = BuildBasic(c);
  const int prev_act = b.op(0).inputs[1], prev_state = b.op(0).inputs[4];
  b.tensor(prev_act).is_variable = false;
  b.tensor(prev_state).is_variable = false;
  b.SetInputs({0, prev_act, prev_state});
  return b;
}

// The previous activation and state may be plain model inputs (activation
// tensors): they are written back after the step, as upstream does.
TEST(LstmBasicTest, StateInputsThatAreModelInputsReceiveTheNewValues) {
  BasicCase c;
  c.batch = 1;
  c.n_input = 1;
  c.depth = 1;
  c.weights.assign(4 * 2, 0.0f);
  c.bias = {0.0f, 1.0f, 2.0f, -1.0f};
  Runner r(BuildBasicWithStateInputs(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {1.0f});
  r.Set<float>(1, {0.25f});
  r.Set<float>(2, {0.5f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  const double s1 = 0.5 * std::tanh(1.0) + Sigmoid(2.0) * 0.5;
  const double h1 = Sigmoid(-1.0) * std::tanh(s1);
  EXPECT_NEAR(r.Get<float>(1)[0], s1, 1e-6);
  EXPECT_NEAR(r.Get<float>(0)[0], h1, 1e-6);
  EXPECT_EQ(r.Get<float>(2)[1], 0.25f);  // the concatenation saw the given activation
  float got_act = 0.0f, got_state = 0.0f;
  ASSERT_EQ(TfLiteTensorCopyToBuffer(r.input(1), &got_act, sizeof(float)), kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyToBuffer(r.input(2), &got_state, sizeof(float)), kTfLiteOk);
  EXPECT_NEAR(got_act, h1, 1e-6);
  EXPECT_NEAR(got_state, s1, 1e-6);
}

// State inputs that are model inputs become persistent; resizing the batch
// afterwards must give them room for the new size (they are written back).
TEST(LstmBasicTest, StateInputsResizedAfterAllocation) {
  BasicCase c;
  c.batch = 1;
  c.n_input = 1;
  c.depth = 2;
  c.weights = Values(4 * c.depth * 3, 3, 0.8f);
  c.bias = Values(4 * c.depth, 4, 0.3f);
  Runner r(BuildBasicWithStateInputs(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  ASSERT_TRUE(r.Invoke()) << r.log();
  const int batch = 64;
  const int in_dims[2] = {batch, 1}, state_dims[2] = {batch, c.depth};
  TfLiteInterpreter* it = r.interpreter();
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, in_dims, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 1, state_dims, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 2, state_dims, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << r.log();
  // Every row gets the same input and state, so every row's result is the
  // batch-1 result; a short state buffer would mix rows or overrun.
  std::vector<float> x(batch, 0.5f), h(batch * c.depth), s(batch * c.depth);
  for (int i = 0; i < batch * c.depth; ++i) h[i] = 0.1f * (i % c.depth), s[i] = -0.2f * (i % c.depth);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x.data(), x.size() * 4), kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 1), h.data(), h.size() * 4), kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 2), s.data(), s.size() * 4), kTfLiteOk);
  for (int step = 0; step < 2; ++step) {
    ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << r.log();
    std::vector<float> got_h(batch * c.depth), got_s(batch * c.depth);
    ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetInputTensor(it, 1), got_h.data(), got_h.size() * 4), kTfLiteOk);
    ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetInputTensor(it, 2), got_s.data(), got_s.size() * 4), kTfLiteOk);
    for (int i = c.depth; i < batch * c.depth; ++i) {
      EXPECT_EQ(got_h[i], got_h[i % c.depth]) << "step " << step << " element " << i;
      EXPECT_EQ(got_s[i], got_s[i % c.depth]) << "step " << step << " element " << i;
    }
    EXPECT_EQ(r.Get<float>(0), got_h);
  }
}

// No input features: the gates come from the previous activation alone,
// and the empty input is never read.
TEST(LstmBasicTest, FloatWithoutInputFeatures) {
  BasicCase c;
  c.batch = 1;
  c.n_input = 0;
  c.depth = 1;
  c.weights = {0.0f, 0.0f, 0.0f, 0.0f};
  c.bias = {0.0f, 1.0f, 2.0f, -1.0f};
  Runner r(BuildBasic(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  ASSERT_TRUE(r.Invoke()) << r.log();
  const double s1 = 0.5 * std::tanh(1.0);
  EXPECT_NEAR(r.Get<float>(1)[0], s1, 1e-6);
  EXPECT_NEAR(r.Get<float>(0)[0], Sigmoid(-1.0) * std::tanh(s1), 1e-6);
}

// Upstream's quantized BASIC LSTM test vectors (weights from NNAPI's
// QuantizedLSTMTest), outputs bit for bit.
BasicCase UpstreamQuantizedCase() {
  BasicCase c;
  c.quantized = true;
  c.batch = 2;
  c.n_input = 2;
  c.depth = 4;
  c.weights_scale = 0.00408021f;
  c.weights_zp = 100;
  c.weights_q = {254, 206, 77,  168, 146, 250, 71,  20,  215, 6,   235, 171, 223, 7,   118, 225,
                 10,  218, 59,  130, 174, 26,  171, 108, 172, 60,  205, 65,  133, 34,  14,  0,
                 140, 168, 29,  49,  240, 223, 133, 56,  206, 109, 142, 64,  246, 216, 54,  183,
                 137, 240, 103, 52,  24,  50,  68,  51,  237, 112, 132, 179, 0,   220, 89,  23,
                 158, 110, 69,  4,   207, 253, 3,   169, 106, 214, 67,  23,  195, 187, 59,  158,
                 45,  3,   11,  99,  119, 132, 49,  205, 109, 10,  129, 218, 11,  98,  218, 48};
  c.bias_q = {-7876,  13488,  -726,   32839,  39481,  48624,  48976,  -21419,
              9206,   -46884, -11693, -38724, -58999, -17050, -41852, -40538};
  return c;
}

TEST(LstmBasicTest, QuantizedMatchesUpstreamGoldens) {
  Runner r(BuildBasic(UpstreamQuantizedCase()));
  ASSERT_TRUE(r.Allocate()) << r.log();
  // Per batch: 3 steps of 2 inputs; expected per batch: 3 steps of 4 outputs.
  const std::vector<std::vector<uint8_t>> input = {{154, 166, 166, 179, 141, 141},
                                                   {100, 200, 50, 150, 111, 222}};
  const std::vector<std::vector<uint8_t>> golden = {
      {131, 152, 136, 109, 138, 150, 145, 111, 139, 152, 146, 113},
      {131, 153, 135, 107, 134, 154, 140, 111, 140, 154, 145, 108}};
  for (int step = 0; step < 3; ++step) {
    std::vector<uint8_t> x, want;
    for (int b = 0; b < 2; ++b) {
      x.insert(x.end(), input[b].begin() + 2 * step, input[b].begin() + 2 * step + 2);
      want.insert(want.end(), golden[b].begin() + 4 * step, golden[b].begin() + 4 * step + 4);
    }
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Get<uint8_t>(0), want) << "step " << step;
  }
}

// Zero weights and bias: every gate pre-activation is 0, so i = f = o = 1/2
// and g = 0; the state stays 0 and the activation is 0 (uint8 128), which
// the next step reads back as its previous activation.
TEST(LstmBasicTest, QuantizedZeroWeights) {
  BasicCase c = UpstreamQuantizedCase();
  c.weights_q.assign(c.weights_q.size(), static_cast<uint8_t>(c.weights_zp));
  c.bias_q.assign(c.bias_q.size(), 0);
  Runner r(BuildBasic(c));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<uint8_t>(0, {0, 255, 17, 200});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<uint8_t>(0), std::vector<uint8_t>(8, 128));
  EXPECT_EQ(r.Get<int16_t>(1), std::vector<int16_t>(8, 0));
  EXPECT_EQ(r.Get<int16_t>(3), std::vector<int16_t>(2 * 16, 0));
  // The previous activation starts as uint8 0 (a reset variable), then 128.
  EXPECT_EQ(r.Get<uint8_t>(2), (std::vector<uint8_t>{0, 255, 0, 0, 0, 0, 17, 200, 0, 0, 0, 0}));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<uint8_t>(2), (std::vector<uint8_t>{0, 255, 128, 128, 128, 128, 17, 200, 128,
                                                     128, 128, 128}));
}

void ExpectError(const ModelBuilder& b, const std::string& message) {
  Runner r(b);
  EXPECT_FALSE(r.Allocate());
  EXPECT_NE(r.log().find(message), std::string::npos) << r.log();
}

TEST(LstmBasicTest, RejectsBadShapesTypesAndScales) {
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 4, 3);  // one column short
    c.bias = Values(4 * c.depth, 4);
    ModelBuilder b = BuildBasic(c);
    b.tensor(b.op(0).inputs[2]).shape = {4 * c.depth, 4};
    ExpectError(b, "weights has shape [8,4], expected [8, 5]");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth - 1, 4);
    ModelBuilder b = BuildBasic(c);
    b.tensor(b.op(0).inputs[3]).shape = {4 * c.depth - 1};
    ExpectError(b, "bias must have shape [8]");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth, 4);
    ModelBuilder b = BuildBasic(c);
    b.tensor(b.op(0).inputs[4]).shape = {c.batch + 1, c.depth};
    ExpectError(b, "previous state has shape");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth, 4);
    ModelBuilder b = BuildBasic(c);
    b.tensor(b.op(0).outputs[1]).type = tflite::TensorType_INT16;  // mixed types
    ExpectError(b, "state output type INT16 is not supported");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth, 4);
    ModelBuilder b = BuildBasic(c);
    b.tensor(0).type = tflite::TensorType_INT8;
    ExpectError(b, "input type INT8 is not supported");
  }
  {
    BasicCase c = UpstreamQuantizedCase();
    c.state_scale = 1.0f / 4096;  // 3 integer bits
    ExpectError(BuildBasic(c), "only a state with 4 integer bits");
  }
  {
    BasicCase c = UpstreamQuantizedCase();
    c.state_scale = 0.001f;
    ExpectError(BuildBasic(c), "is not a power of two");
  }
  {
    // A zero point outside the uint8 range would overflow the int32 differences.
    BasicCase c = UpstreamQuantizedCase();
    c.weights_zp = std::numeric_limits<int32_t>::min();
    ExpectError(BuildBasic(c), "input 2 zero point -2147483648 is outside the UINT8 range");
  }
  {
    BasicCase c = UpstreamQuantizedCase();
    ModelBuilder b = BuildBasic(c);
    b.tensor(b.op(0).inputs[2]).quantization.reset();
    ExpectError(b, "weights of type UINT8 must have affine quantization");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth, 4);
    c.const_state = true;
    ExpectError(BuildBasic(c), "previous state receives the new value");
  }
  {
    BasicCase c;
    c.weights = Values(4 * c.depth * 5, 3);
    c.bias = Values(4 * c.depth, 4);
    ModelBuilder b = BuildBasic(c);
    b.op(0).inputs.pop_back();
    ExpectError(b, "LSTM (BASIC kernel)");
  }
}

}  // namespace
}  // namespace tflite_c

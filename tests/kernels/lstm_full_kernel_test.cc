// LSTM (full kernel) and UNIDIRECTIONAL_SEQUENCE_LSTM: hand-built models run
// through the public C API and compared with straightforward
// double-precision formulas written here, including the state carried
// across Invokes and its reset, plus the int16 fixed-point activations and
// the int8 sequence form of the integer LSTM.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "src/kernels/internal/lstm_integer.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/kernels/recurrent_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using testing::Quantization;

using Runner = testing::ModelRunner;

using testing::ExpectNear;
using testing::Sigmoid;
using testing::Values;

using testing::ExpectAllocateError;

// ---- LSTM -----------------------------------------------------------------------

struct LstmSpec : testing::LstmCellWeights {
  bool sequence = false;
  bool time_major = true;
  int batch = 1;
  int time = 1;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_TANH;
};

// The LSTM / sequence LSTM model of `s` with 20 or 24 inputs.
ModelBuilder BuildLstm(const LstmSpec& s, int num_inputs = 24) {
  ModelBuilder b;
  std::vector<int> in_shape = {s.batch, s.n_input};
  if (s.sequence) {
    in_shape = s.time_major ? std::vector<int>{s.time, s.batch, s.n_input}
                            : std::vector<int>{s.batch, s.time, s.n_input};
  }
  const int input = b.AddInput(tflite::TensorType_FLOAT32, in_shape, "input");
  std::vector<int> ins(num_inputs, -1);
  ins[0] = input;
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && s.cifg) continue;
    ins[1 + g] = b.AddConstant<float>({s.n_cell, s.n_input}, s.w_in[g]);
    ins[5 + g] = b.AddConstant<float>({s.n_cell, s.n_output}, s.w_rec[g]);
    if (s.peephole && g != 2) ins[9 + (g == 0 ? 0 : g == 1 ? 1 : 2)] = b.AddConstant<float>({s.n_cell}, s.peep[g]);
    ins[12 + g] = b.AddConstant<float>({s.n_cell}, s.bias[g]);
    if (s.layer_norm && num_inputs == 24) ins[20 + g] = b.AddConstant<float>({s.n_cell}, s.ln[g]);
  }
  if (s.projection) {
    ins[16] = b.AddConstant<float>({s.n_output, s.n_cell}, s.proj_w);
    ins[17] = b.AddConstant<float>({s.n_output}, s.proj_b);
  }
  ins[18] = b.AddTensor(tflite::TensorType_FLOAT32, {s.batch, s.n_output}, "output_state");
  b.SetVariable(ins[18]);
  ins[19] = b.AddTensor(tflite::TensorType_FLOAT32, {s.batch, s.n_cell}, "cell_state");
  b.SetVariable(ins[19]);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  if (s.sequence) {
    tflite::UnidirectionalSequenceLSTMOptionsT o;
    o.fused_activation_function = s.act;
    o.cell_clip = s.cell_clip;
    o.proj_clip = s.proj_clip;
    o.time_major = s.time_major;
    b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {output}, o);
  } else {
    tflite::LSTMOptionsT o;
    o.fused_activation_function = s.act;
    o.cell_clip = s.cell_clip;
    o.proj_clip = s.proj_clip;
    b.AddOperator(tflite::BuiltinOperator_LSTM, ins, {output}, o);
  }
  return b;
}

// The LSTM equations for one batch row, in double precision.
struct RefLstm {
  const LstmSpec& s;
  std::vector<double> h, c;
  explicit RefLstm(const LstmSpec& spec)
      : s(spec), h(spec.n_output, 0.0), c(spec.n_cell, 0.0) {}

  std::vector<double> Step(const float* x) {
    return testing::LstmRefStep(s, testing::RowQuant{}, std::vector<double>(x, x + s.n_input),
                                {}, nullptr, &h, &c);
  }
};

// LSTM: two Invokes (the state carries over), then a reset starts afresh.
void CheckLstm(const LstmSpec& s) {
  ModelBuilder b = BuildLstm(s);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  std::vector<RefLstm> ref(s.batch, RefLstm(s));
  std::vector<float> first_out;
  for (int step = 0; step < 2; ++step) {
    const std::vector<float> x = Values(s.batch * s.n_input, 100 + step, 1.0f);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want;
    for (int bt = 0; bt < s.batch; ++bt) {
      const std::vector<double> h = ref[bt].Step(&x[bt * s.n_input]);
      want.insert(want.end(), h.begin(), h.end());
    }
    EXPECT_EQ(r.Shape(), (std::vector<int>{s.batch, s.n_output}));
    ExpectNear(r.Get<float>(), want, 1e-5);
    if (step == 0) first_out = r.Get<float>();
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(s.batch * s.n_input, 100, 1.0f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), first_out);
}

TEST(LstmTest, FloatBasic) {
  LstmSpec s;
  s.batch = 2;
  s.Fill(1);
  CheckLstm(s);
}

TEST(LstmTest, FloatCifgPeephole) {
  LstmSpec s;
  s.cifg = true;
  s.peephole = true;
  s.Fill(2);
  CheckLstm(s);
}

TEST(LstmTest, FloatPeepholeLayerNormProjectionClip) {
  LstmSpec s;
  s.peephole = true;
  s.layer_norm = true;
  s.projection = true;
  s.n_output = 2;
  s.cell_clip = 0.3f;
  s.proj_clip = 0.2f;
  s.Fill(3);
  CheckLstm(s);
}

TEST(LstmTest, FloatCifgLayerNorm) {
  LstmSpec s;
  s.cifg = true;
  s.layer_norm = true;
  s.Fill(4);
  CheckLstm(s);
}

// Zero weights: every gate is its activated bias, so the output is known in
// closed form: c1 = i*g, h1 = o*tanh(c1), c2 = f*c1 + i*g, h2 = o*tanh(c2).
TEST(LstmTest, ClosedFormWithZeroWeights) {
  LstmSpec s;
  s.n_input = 1;
  s.n_cell = s.n_output = 1;
  s.Fill(5);
  for (int g = 0; g < 4; ++g) {
    s.w_in[g] = {0.0f};
    s.w_rec[g] = {0.0f};
  }
  s.bias[0] = {0.5f};
  s.bias[1] = {-1.0f};
  s.bias[2] = {2.0f};
  s.bias[3] = {1.5f};
  ModelBuilder b = BuildLstm(s, 20);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const double i = Sigmoid(0.5), f = Sigmoid(-1.0), g = std::tanh(2.0), o = Sigmoid(1.5);
  const double c1 = i * g, c2 = f * c1 + i * g;
  r.Set(0, std::vector<float>{3.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  ExpectNear(r.Get<float>(), {o * std::tanh(c1)}, 1e-6);
  ASSERT_TRUE(r.Invoke()) << r.log();
  ExpectNear(r.Get<float>(), {o * std::tanh(c2)}, 1e-6);
}

void CheckSequence(const LstmSpec& s) {
  ModelBuilder b = BuildLstm(s);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<float> x = Values(s.time * s.batch * s.n_input, 7, 1.0f);
  r.Set(0, x);
  ASSERT_TRUE(r.Invoke()) << r.log();
  std::vector<double> want(static_cast<size_t>(s.time) * s.batch * s.n_output);
  for (int bt = 0; bt < s.batch; ++bt) {
    RefLstm ref(s);
    for (int t = 0; t < s.time; ++t) {
      const int row = s.time_major ? t * s.batch + bt : bt * s.time + t;
      const std::vector<double> h = ref.Step(&x[row * s.n_input]);
      std::copy(h.begin(), h.end(), want.begin() + row * s.n_output);
    }
  }
  const std::vector<int> shape = s.time_major ? std::vector<int>{s.time, s.batch, s.n_output}
                                              : std::vector<int>{s.batch, s.time, s.n_output};
  EXPECT_EQ(r.Shape(), shape);
  ExpectNear(r.Get<float>(), want, 1e-5);
}

TEST(SequenceLstmTest, FloatTimeMajor) {
  LstmSpec s;
  s.sequence = true;
  s.time_major = true;
  s.batch = 2;
  s.time = 3;
  s.peephole = true;
  s.Fill(8);
  CheckSequence(s);
}

TEST(SequenceLstmTest, FloatBatchMajorProjectionLayerNorm) {
  LstmSpec s;
  s.sequence = true;
  s.time_major = false;
  s.batch = 2;
  s.time = 3;
  s.layer_norm = true;
  s.projection = true;
  s.n_output = 3;
  s.Fill(9);
  CheckSequence(s);
}

TEST(LstmTest, RejectsMissingRequiredInput) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  b.op(0).inputs[2] = -1;  // input_to_forget_weights
  ExpectAllocateError(b, "LSTM: required input 2 (input_to_forget_weights) is missing");
}

TEST(LstmTest, RejectsWrongWeightShape) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  // recurrent_to_cell_weights now disagrees with n_output (from recurrent_to_output).
  const int t = b.AddConstant<float>({s.n_cell, s.n_output + 1}, Values(s.n_cell * (s.n_output + 1), 3));
  b.op(0).inputs[7] = t;
  ExpectAllocateError(b, "recurrent_to_cell_weights has shape");
}

TEST(LstmTest, RejectsHalfCifg) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  b.op(0).inputs[5] = -1;  // recurrent_to_input only
  ExpectAllocateError(b, "CIFG");
}

TEST(LstmTest, RejectsNonVariableState) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  b.SetVariable(b.op(0).inputs[19], false);
  ExpectAllocateError(b, "variable");
}

// One int8 matrix among float ones (hybrid needs all weights int8).
TEST(LstmTest, RejectsMixedWeightTypes) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, {s.n_cell, s.n_input},
                                      std::vector<int8_t>(s.n_cell * s.n_input, 1));
  b.SetQuantization(t, {{0.1f}, {0}, 0});
  b.op(0).inputs[3] = t;
  ExpectAllocateError(b, "input_to_cell_weights is INT8, expected FLOAT32");
}

TEST(LstmTest, RejectsBadInputTypeAndArity) {
  LstmSpec s;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  b.tensor(0).type = tflite::TensorType_INT32;
  ExpectAllocateError(b, "not supported");
  ModelBuilder c = BuildLstm(s);
  c.op(0).inputs.resize(19);
  ExpectAllocateError(c, "20 or 24 inputs");
}

TEST(SequenceLstmTest, RejectsWrongInputRank) {
  LstmSpec s;
  s.sequence = true;
  s.Fill(1);
  ModelBuilder b = BuildLstm(s);
  b.tensor(0).shape = {1, 3};
  ExpectAllocateError(b, "rank 3");
}

// ---- integer LSTM pieces ---------------------------------------------------------

TEST(LstmIntegerTest, Int16SigmoidAndTanhFollowTheFunctions) {
  std::vector<int16_t> in;
  for (int v = -32768; v <= 32767; v += 97) in.push_back(static_cast<int16_t>(v));
  in.push_back(0);
  std::vector<int16_t> out(in.size());
  kernels::internal::Int16Sigmoid(in.data(), static_cast<int>(in.size()), out.data());
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = Sigmoid(in[i] / 4096.0) * 32768.0;
    EXPECT_NEAR(out[i], want, 8.0) << in[i];
  }
  EXPECT_EQ(out.back(), 16384);
  for (int bits : {0, 3, 4, 6}) {
    ASSERT_TRUE(kernels::internal::Int16Tanh(bits, in.data(), static_cast<int>(in.size()), out.data()));
    for (size_t i = 0; i < in.size(); ++i) {
      const double want = std::tanh(in[i] / std::ldexp(1.0, 15 - bits)) * 32768.0;
      EXPECT_NEAR(out[i], std::fmin(want, 32767.0), 12.0) << in[i] << " bits " << bits;
    }
  }
  EXPECT_FALSE(kernels::internal::Int16Tanh(7, in.data(), 1, out.data()));
}

// A fully integer sequence LSTM against the float equations applied to the
// dequantized weights: the quantization error stays within a few steps of
// the output scale. `s` chooses the variant (CIFG, peephole, layer norm,
// projection); the weights are re-quantized so both sides see the same values.
void CheckInt8Sequence(LstmSpec s) {
  const int time = 3;
  const float in_scale = 1.0f / 128, w_scale = 0.5f / 127, state_scale = 1.0f / 128;
  const float peep_scale = 0.5f / 32767, ln_scale = 1.0f / 16384, hidden_scale = 1.0f / 128;
  const float gate_scale = 1.0f / 4096;  // the layer-norm intermediates (Q3.12)
  s.sequence = true;
  s.time = time;
  s.batch = 1;
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_INT8, {1, time, s.n_input}, "input");
  b.SetQuantization(input, {{in_scale}, {0}, 0});
  std::vector<int> ins(24, -1);
  ins[0] = input;
  auto quantize8 = [](std::vector<float>* v, float scale) {
    std::vector<int8_t> q(v->size());
    for (size_t i = 0; i < v->size(); ++i) {
      q[i] = static_cast<int8_t>(std::lround(std::fmax(-127.0, std::fmin(127.0, (*v)[i] / scale))));
      (*v)[i] = q[i] * scale;
    }
    return q;
  };
  auto quantize16 = [](std::vector<float>* v, float scale) {
    std::vector<int16_t> q(v->size());
    for (size_t i = 0; i < v->size(); ++i) {
      q[i] = static_cast<int16_t>(std::lround((*v)[i] / scale));
      (*v)[i] = q[i] * scale;
    }
    return q;
  };
  auto quantize32 = [](std::vector<float>* v, float scale) {
    std::vector<int32_t> q(v->size());
    for (size_t i = 0; i < v->size(); ++i) {
      q[i] = static_cast<int32_t>(std::lround((*v)[i] / scale));
      (*v)[i] = q[i] * scale;
    }
    return q;
  };
  auto add8 = [&](std::vector<int> shape, std::vector<float>* v, float scale) {
    const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, shape, quantize8(v, scale));
    b.SetQuantization(t, {{scale}, {0}, 0});
    return t;
  };
  auto add16 = [&](std::vector<int> shape, std::vector<float>* v, float scale) {
    const int t = b.AddConstant<int16_t>(tflite::TensorType_INT16, shape, quantize16(v, scale));
    b.SetQuantization(t, {{scale}, {0}, 0});
    return t;
  };
  const int nc = s.n_cell;
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && s.cifg) continue;
    ins[1 + g] = add8({nc, s.n_input}, &s.w_in[g], w_scale);
    ins[5 + g] = add8({nc, s.n_output}, &s.w_rec[g], w_scale);
    if (s.peephole && g != 2) ins[9 + (g == 3 ? 2 : g)] = add16({nc}, &s.peep[g], peep_scale);
    if (s.layer_norm) {
      ins[20 + g] = add16({nc}, &s.ln[g], ln_scale);
      ins[12 + g] = b.AddConstant<int32_t>({nc}, quantize32(&s.bias[g], ln_scale / 1024));
    } else {
      ins[12 + g] = b.AddConstant<int32_t>({nc}, quantize32(&s.bias[g], in_scale * w_scale));
    }
  }
  if (s.projection) {
    ins[16] = add8({s.n_output, nc}, &s.proj_w, w_scale);
    ins[17] = b.AddConstant<int32_t>({s.n_output}, quantize32(&s.proj_b, w_scale * hidden_scale));
  }
  ins[18] = b.AddTensor(tflite::TensorType_INT8, {1, s.n_output}, "output_state");
  b.SetVariable(ins[18]);
  b.SetQuantization(ins[18], {{state_scale}, {0}, 0});
  ins[19] = b.AddTensor(tflite::TensorType_INT16, {1, nc}, "cell_state");
  b.SetVariable(ins[19]);
  b.SetQuantization(ins[19], {{1.0f / 4096}, {0}, 0});
  const int output = b.AddOutput(tflite::TensorType_INT8, {}, "output");
  b.SetQuantization(output, {{state_scale}, {0}, 0});
  std::vector<int> inter;
  for (int i = 0; i < 4; ++i) {
    inter.push_back(b.AddTensor(tflite::TensorType_INT16, {0}));
    b.SetQuantization(inter.back(), {{gate_scale}, {0}, 0});
  }
  inter.push_back(b.AddTensor(tflite::TensorType_INT8, {0}));
  b.SetQuantization(inter[4], {{hidden_scale}, {0}, 0});
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = s.cell_clip;
  o.proj_clip = s.proj_clip;
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {output}, o);
  b.op(0).intermediates = inter;

  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  std::vector<int8_t> xq(time * s.n_input);
  std::vector<float> x(xq.size());
  const std::vector<float> xf = Values(time * s.n_input, 12, 0.9f);
  for (size_t i = 0; i < xq.size(); ++i) {
    xq[i] = static_cast<int8_t>(std::lround(xf[i] / in_scale));
    x[i] = xq[i] * in_scale;
  }
  r.Set(0, xq);
  ASSERT_TRUE(r.Invoke()) << r.log();
  RefLstm ref(s);
  const std::vector<int8_t> got = r.Get<int8_t>();
  ASSERT_EQ(got.size(), static_cast<size_t>(time * s.n_output));
  for (int t = 0; t < time; ++t) {
    const std::vector<double> h = ref.Step(&x[t * s.n_input]);
    for (int i = 0; i < s.n_output; ++i) {
      EXPECT_NEAR(got[t * s.n_output + i] * state_scale, h[i], 3 * state_scale) << t << "," << i;
      // Continue from the quantized hidden state the kernel carries.
      ref.h[i] = got[t * s.n_output + i] * state_scale;
    }
  }
}

TEST(SequenceLstmTest, Int8Plain) {
  LstmSpec s;
  s.cell_clip = 10.0f;
  s.Fill(11);
  CheckInt8Sequence(s);
}

TEST(SequenceLstmTest, Int8CifgPeephole) {
  LstmSpec s;
  s.cifg = true;
  s.peephole = true;
  s.Fill(12);
  CheckInt8Sequence(s);
}

TEST(SequenceLstmTest, Int8LayerNormProjection) {
  LstmSpec s;
  s.layer_norm = true;
  s.projection = true;
  s.peephole = true;
  s.n_output = 3;
  s.Fill(13);
  CheckInt8Sequence(s);
}

TEST(SequenceLstmTest, Int8RejectsMissingIntermediates) {
  LstmSpec s;
  s.Fill(11);
  s.sequence = true;
  ModelBuilder b = BuildLstm(s);  // no intermediates
  b.tensor(0).type = tflite::TensorType_INT8;
  b.SetQuantization(0, {{0.1f}, {0}, 0});
  ExpectAllocateError(b, "needs 5 intermediate tensors");
  // 12 intermediates select upstream's 8x8->8 kernel, which is refused by name.
  for (int i = 0; i < 12; ++i) {
    const int t = b.AddTensor(tflite::TensorType_INT16, {}, "intermediate");
    b.SetQuantization(t, {{0.01f}, {0}, 0});
    b.op(0).intermediates.push_back(t);
  }
  ExpectAllocateError(b, "8x8->8 integer kernel (12 intermediates) is not supported");
}

}  // namespace
}  // namespace tflite_c

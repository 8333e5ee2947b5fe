// LSTM's integer 8x8->8 kernel (12 intermediates): upstream's test vector
// (Cifg_NoPeephole_Projection_LayerNorm_8x8_8), hand-checkable steps whose
// expected int8 outputs follow from the kernel's documented arithmetic
// (layer norm over two cells normalizes to +-1, so the gates are known
// closed-form values), and the Prepare errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using testing::Quantization;
using Runner = testing::ModelRunner;

// One CIFG + layer norm + projection LSTM with int8 activations. Gates are
// indexed input, forget, cell, output; the input gate's tensors stay absent.
struct Spec {
  int batch = 1, n_input = 1, n_cell = 2, n_output = 2;
  float input_scale = 1.0f / 128;
  int input_zp = 0;
  float w_scale = 1.0f / 64, rec_scale = 1.0f / 64, ln_scale = 1.0f / 1024;
  float proj_scale = 1.0f / 64;
  float state_scale = 1.0f / 128;  // output state
  int state_zp = 0;
  float cell_scale = 1.0f / 32768;
  float output_scale = 1.0f / 128;
  int output_zp = 0;
  float cell_clip = 0.0f, proj_clip = 0.0f;
  std::vector<int8_t> w_in[4], w_rec[4];
  std::vector<int16_t> ln[4];
  std::vector<int32_t> bias[4];
  std::vector<int8_t> proj_w;
  std::vector<int32_t> proj_b;
  std::vector<std::pair<float, int>> inter;  // 12 (scale, zero point)
  bool cifg = true;
};

ModelBuilder Build(const Spec& s) {
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_INT8, {s.batch, s.n_input}, "input");
  b.SetQuantization(input, {{s.input_scale}, {s.input_zp}, 0});
  std::vector<int> ins(24, -1);
  ins[0] = input;
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && s.cifg) continue;
    ins[1 + g] = b.AddConstant<int8_t>(tflite::TensorType_INT8, {s.n_cell, s.n_input}, s.w_in[g]);
    b.SetQuantization(ins[1 + g], {{s.w_scale}, {0}, 0});
    ins[5 + g] =
        b.AddConstant<int8_t>(tflite::TensorType_INT8, {s.n_cell, s.n_output}, s.w_rec[g]);
    b.SetQuantization(ins[5 + g], {{s.rec_scale}, {0}, 0});
    ins[12 + g] = b.AddConstant<int32_t>({s.n_cell}, s.bias[g]);
    ins[20 + g] = b.AddConstant<int16_t>(tflite::TensorType_INT16, {s.n_cell}, s.ln[g]);
    b.SetQuantization(ins[20 + g], {{s.ln_scale}, {0}, 0});
  }
  ins[16] = b.AddConstant<int8_t>(tflite::TensorType_INT8, {s.n_output, s.n_cell}, s.proj_w);
  b.SetQuantization(ins[16], {{s.proj_scale}, {0}, 0});
  ins[17] = b.AddConstant<int32_t>({s.n_output}, s.proj_b);
  ins[18] = b.AddTensor(tflite::TensorType_INT8, {s.batch, s.n_output}, "output_state");
  b.SetVariable(ins[18]);
  b.SetQuantization(ins[18], {{s.state_scale}, {s.state_zp}, 0});
  ins[19] = b.AddTensor(tflite::TensorType_INT16, {s.batch, s.n_cell}, "cell_state");
  b.SetVariable(ins[19]);
  b.SetQuantization(ins[19], {{s.cell_scale}, {0}, 0});
  const int output = b.AddOutput(tflite::TensorType_INT8, {}, "output");
  b.SetQuantization(output, {{s.output_scale}, {s.output_zp}, 0});
  std::vector<int> inter;
  for (const auto& q : s.inter) {
    inter.push_back(b.AddTensor(tflite::TensorType_INT16, {0}));
    b.SetQuantization(inter.back(), {{q.first}, {q.second}, 0});
  }
  tflite::LSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = s.cell_clip;
  o.proj_clip = s.proj_clip;
  b.AddOperator(tflite::BuiltinOperator_LSTM, ins, {output}, o);
  b.op(0).intermediates = inter;
  return b;
}

// ---- upstream's vector ------------------------------------------------------------

// Scale and zero point of a [min, max] range on T's full range, the way
// upstream's op tests derive them (zero point from the end with the smaller
// rounding error, rounded and clamped).
template <typename T>
std::pair<float, int> RangeParams(float lo, float hi) {
  const float qmin = static_cast<float>(std::numeric_limits<T>::min());
  const float qmax = static_cast<float>(std::numeric_limits<T>::max());
  const float scale = (hi - lo) / (qmax - qmin);
  const float from_min = qmin - lo / scale, from_max = qmax - hi / scale;
  const float zp = std::fabs(qmin) + std::fabs(lo / scale) < std::fabs(qmax) + std::fabs(hi / scale)
                       ? from_min
                       : from_max;
  const float clamped = std::min(qmax, std::max(qmin, std::round(zp)));
  return {scale, static_cast<int>(clamped)};
}

template <typename T>
std::vector<T> Quantize(const std::vector<float>& v, std::pair<float, int> p) {
  std::vector<T> q;
  for (float f : v) {
    const float x = std::round(p.second + f / p.first);
    q.push_back(static_cast<T>(std::max<float>(std::numeric_limits<T>::min(),
                                               std::min<float>(std::numeric_limits<T>::max(), x))));
  }
  return q;
}

TEST(LstmInteger8x8_8Test, UpstreamCifgLayerNormProjectionVector) {
  Spec s;
  s.batch = 2;
  s.n_input = 5;
  s.n_cell = 4;
  s.n_output = 3;
  const auto w8 = RangeParams<int8_t>(-1.0f, 1.0f);
  const auto b32 = RangeParams<int32_t>(-100.0f, 100.0f);
  const auto ln16 = RangeParams<int16_t>(-1.00001f, 1.0f);
  const auto p8 = RangeParams<int8_t>(-0.5f, 0.5f);
  const auto pb32 = RangeParams<int32_t>(-1.0f, 1.0f);
  const auto in8 = RangeParams<int8_t>(-1.0f, 127.0f / 128);
  const auto st16 = RangeParams<int16_t>(-1.0f, 32767.0f / 32768);
  const auto out8 = RangeParams<int8_t>(-1.0f, 32767.0f / 32768);
  // Upstream ignores the weights' zero points (its tests give them -1); the
  // int8 values below are the ones its kernel reads, declared with zero point 0.
  s.w_scale = s.rec_scale = w8.first;
  s.ln_scale = ln16.first;
  s.proj_scale = p8.first;
  s.input_scale = in8.first;
  s.input_zp = in8.second;
  // Upstream's output state is an int16 [-1, 1) tensor read as int8 with its
  // scale 2^-15 and zero point 0.
  s.state_scale = st16.first;
  s.state_zp = st16.second;
  s.cell_scale = st16.first;
  s.output_scale = out8.first;
  s.output_zp = out8.second;
  s.w_in[1] = Quantize<int8_t>({-0.6, -0.1, 0.3, 0.2, 0.9, -0.5, -0.2, -0.4, 0.3, -0.8,
                                -0.4, 0.3, -0.5, -0.4, -0.6, 0.3, -0.4, -0.6, -0.5, -0.5},
                               w8);
  s.w_in[2] = Quantize<int8_t>({-0.4, -0.3, -0.2, -0.1, -0.5, 0.5, -0.2, -0.3, -0.2, -0.6,
                                0.6, -0.1, -0.4, -0.3, -0.7, 0.7, -0.9, -0.5, 0.8, 0.6},
                               w8);
  s.w_in[3] = Quantize<int8_t>({-0.8, -0.4, -0.2, -0.9, -0.1, -0.7, 0.3, -0.3, -0.8, -0.2,
                                0.6, -0.2, 0.4, -0.7, -0.3, -0.5, 0.1, 0.5, -0.6, -0.4},
                               w8);
  s.w_rec[1] = Quantize<int8_t>({-0.5, -0.3, -0.5, -0.2, 0.6, 0.4, 0.9, 0.3, -0.1, 0.2, 0.5, 0.2},
                                w8);
  s.w_rec[2] = Quantize<int8_t>({-0.3, 0.2, 0.1, -0.3, 0.8, -0.08, -0.2, 0.3, 0.8, -0.6, -0.1, 0.2},
                                w8);
  s.w_rec[3] = Quantize<int8_t>({0.3, -0.1, 0.1, -0.2, -0.5, -0.7, -0.2, -0.6, -0.1, -0.4, -0.7, -0.2},
                                w8);
  s.bias[1] = Quantize<int32_t>({0.1, -0.3, -0.2, 0.1}, b32);
  s.bias[2] = Quantize<int32_t>({-0.05, 0.72, 0.25, 0.08}, b32);
  s.bias[3] = Quantize<int32_t>({0.05, -0.01, 0.2, 0.1}, b32);
  s.ln[1] = Quantize<int16_t>({0.2, 0.2, 0.4, 0.3}, ln16);
  s.ln[2] = Quantize<int16_t>({0.7, 0.2, 0.3, 0.8}, ln16);
  s.ln[3] = Quantize<int16_t>({0.6, 0.2, 0.2, 0.5}, ln16);
  s.proj_w = Quantize<int8_t>({-0.1, 0.2, 0.01, -0.2, 0.1, 0.5, 0.3, 0.08, 0.07, 0.2, -0.4, 0.2},
                              p8);
  s.proj_b = Quantize<int32_t>({0.1, 0.3, 0.5}, pb32);
  s.inter = {{0.007059, 0}, {0.007812, 0}, {0.007059, 0}, {0.007812, 0}, {0.007, 0}, {0.007059, 0},
             {0.007, 0},    {0.007, 0},    {0.007059, 0}, {0.007, 0},    {0.007, 0}, {0.3, 0}};
  Runner r(Build(s));
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<std::vector<float>> x = {{0.7, 0.8, 0.1, 0.2, 0.3, 0.8, 0.1, 0.2, 0.4, 0.5},
                                             {0.2, 0.7, 0.7, 0.1, 0.7, 0.3, 0.2, 0.9, 0.8, 0.1},
                                             {0.7, 0.8, 0.1, 0.2, 0.3, 0.3, 0.2, 0.9, 0.8, 0.1}};
  for (const auto& step : x) {
    r.Set(0, Quantize<int8_t>(step, in8));
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Get<int8_t>(), std::vector<int8_t>(6, 127));
  }
}

// ---- hand-checkable steps -------------------------------------------------------

// A two-cell model with one input: layer norm over two cells gives +-1 (or 0
// when both cells agree), so gate g of cell k is, in Q3.12,
//   sign_k * 4 * ln[g][k] + bias[g][k] / 256   (ln scale 2^-10: bias at 2^-20)
// where sign_k is the sign of cell k's product minus the mean. Input weights
// {+1, -1} (forget), {-1, +1} (cell) and {0, 0} (output) make the signs follow
// x - input_zp; the recurrent weights are zero.
Spec HandSpec() {
  Spec s;
  s.input_zp = 10;
  s.state_zp = 3;
  s.w_in[1] = {1, -1};
  s.w_in[2] = {-1, 1};
  s.w_in[3] = {0, 0};
  for (int g = 1; g < 4; ++g) s.w_rec[g] = {0, 0, 0, 0};
  s.ln[1] = {512, 256};
  s.ln[2] = {1024, 768};
  s.ln[3] = {300, 300};
  s.bias[1] = {0, 256 * 4096};      // forget: +0, +1.0
  s.bias[2] = {256 * 2048, 0};      // cell: +0.5, 0
  s.bias[3] = {0, -256 * 2048};     // output: 0, -0.5
  s.proj_w = {64, 0, 0, 64};        // identity * 64 at scale 1/64
  s.proj_b = {16384, -32768};       // +1 and -2 output steps
  // Wx at 2^-13 (input x weights product scale 2^-13: rescale 1), Wh at 2^-12,
  // gate sums at 2^-12; assorted zero points.
  for (int g = 0; g < 4; ++g) {
    s.inter.push_back({1.0f / 4096, 0});
    s.inter.push_back({1.0f / 8192, 2 + g});
    s.inter.push_back({1.0f / 4096, -1 - g});
  }
  return s;
}

int Sign(int v) { return (v > 0) - (v < 0); }

int16_t SigmoidQ(int q) {  // Q3.12 -> Q0.15, float, truncated
  const float x = static_cast<float>(q) * (1.0f / 4096);
  return static_cast<int16_t>(std::min(32767, static_cast<int>(1.0f / (1.0f + std::exp(-x)) * 32768.0f)));
}
int16_t TanhQ(int q, float scale) {
  const float x = static_cast<float>(q * static_cast<double>(scale));
  return static_cast<int16_t>(std::min(32767, static_cast<int>(std::tanh(x) * 32768.0f)));
}
int32_t DivPot(int32_t v, int e) {  // round half away from zero
  const int32_t d = 1 << e;
  return v >= 0 ? (v + d / 2) / d : -((-v + d / 2) / d);
}

void CheckHand(Spec s, const std::vector<int8_t>& xs) {
  Runner r(Build(s));
  ASSERT_TRUE(r.Allocate()) << r.log();
  const int16_t cell_clip = s.cell_clip > 0 ? static_cast<int16_t>(s.cell_clip * 32768) : 0;
  const int8_t proj_clip = s.proj_clip > 0 ? static_cast<int8_t>(s.proj_clip / s.output_scale) : 0;
  int32_t c[2] = {0, 0};
  for (int8_t x : xs) {
    r.Set<int8_t>(0, {x});
    ASSERT_TRUE(r.Invoke()) << r.log();
    const int sign = Sign(x - s.input_zp);
    int16_t gate[4][2];
    for (int g = 1; g < 4; ++g) {
      for (int k = 0; k < 2; ++k) {
        const int sk = Sign((s.w_in[g][k] - s.w_in[g][1 - k]) * sign);
        const int q = sk * 4 * s.ln[g][k] + s.bias[g][k] / 256;
        gate[g][k] = g == 2 ? TanhQ(q, 1.0f / 4096) : SigmoidQ(q);
      }
    }
    std::vector<int8_t> want;
    for (int k = 0; k < 2; ++k) {
      const int32_t f = gate[1][k];
      int32_t v = DivPot(f * c[k], 15) + DivPot((32767 - f) * gate[2][k], 15);
      v = std::min(32767, std::max(-32768, v));
      if (cell_clip > 0) v = std::min<int32_t>(cell_clip, std::max<int32_t>(-cell_clip, v));
      c[k] = v;
    }
    for (int o = 0; o < 2; ++o) {
      // Identity projection: output o reads cell o.
      const int32_t hidden = DivPot(gate[3][o] * TanhQ(c[o], 1.0f / 32768), 15);
      const int64_t acc = s.proj_b[o] + int64_t{64} * hidden;  // * 2^-14, rounded half up
      int64_t out = ((acc * 16384 + (int64_t{1} << 27)) >> 28) + s.state_zp;
      out = std::min<int64_t>(127, std::max<int64_t>(-128, out));
      if (proj_clip > 0) out = std::min<int64_t>(proj_clip, std::max<int64_t>(-proj_clip, out));
      want.push_back(static_cast<int8_t>(out));
    }
    EXPECT_EQ(r.Get<int8_t>(), want) << "x " << int{x};
  }
}

TEST(LstmInteger8x8_8Test, HandCheckedSteps) {
  // x above, at and below the input zero point flips the layer-norm signs.
  CheckHand(HandSpec(), {20, 10, 0, 127, -128, 20});
}

TEST(LstmInteger8x8_8Test, HandCheckedStepsWithClipping) {
  Spec s = HandSpec();
  s.cell_clip = 0.1f;   // 3276 in Q0.15
  s.proj_clip = 0.05f;  // 6 output steps
  s.output_scale = 1.0f / 128;
  CheckHand(s, {20, 20, 0, 0, 20});
}

// The first step worked out by hand (x = 20, zero point 10: forget signs
// (+, -), cell (-, +), output (0, 0); activations in float, truncated):
//   forget Q3.12 {2048, -1024 + 4096} -> sigmoid(0.5, 0.75) * 2^15 = {20396, 22255}
//   cell   {-4096 + 2048, 3072}       -> tanh(-0.5, 0.75) * 2^15   = {-15142, 20812}
//   output {0, -2048}                 -> sigmoid(0, -0.5) * 2^15   = {16384, 12371}
// c = round((32767 - f) * g / 2^15) = {-5717, 6677}
// h = round(o * tanh(c / 2^15) * 2^15 / 2^15) = round({16384 * -5659, 12371 * 6586} / 2^15)
//   = {-2830 (a tie, away from zero), 2486}
// out = round_half_up((proj_b + 64 h) / 2^14) + 3 = {-10 + 3, 8 + 3}
TEST(LstmInteger8x8_8Test, FirstStepByHand) {
  Runner r(Build(HandSpec()));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int8_t>(0, {20});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int8_t>(), (std::vector<int8_t>{-7, 11}));
}

// ---- errors ---------------------------------------------------------------------

void ExpectError(const ModelBuilder& b, const std::string& message) {
  Runner r(b);
  EXPECT_FALSE(r.Allocate());
  EXPECT_NE(r.log().find(message), std::string::npos) << r.log();
}

TEST(LstmInteger8x8_8Test, RejectsUnsupportedForms) {
  {
    Spec s = HandSpec();
    s.cifg = false;
    s.w_in[0] = {1, 1};
    s.w_rec[0] = {0, 0, 0, 0};
    s.bias[0] = {0, 0};
    s.ln[0] = {1, 1};
    ExpectError(Build(s), "computes CIFG only; input gate weights are not supported");
  }
  {
    ModelBuilder b = Build(HandSpec());
    const int t = b.AddConstant<int16_t>(tflite::TensorType_INT16, {2}, {1, 1});
    b.SetQuantization(t, {{1.0f / 1024}, {0}, 0});
    b.op(0).inputs[10] = t;  // cell_to_forget
    b.op(0).inputs[11] = t;  // cell_to_output
    ExpectError(b, "peephole weights are not supported by the 8x8->8 integer kernel");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.op(0).inputs.resize(20);  // no layer norm
    ExpectError(b, "needs layer norm coefficients, projection weights and projection bias");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.op(0).inputs[17] = -1;  // no projection bias
    ExpectError(b, "needs layer norm coefficients, projection weights and projection bias");
  }
}

TEST(LstmInteger8x8_8Test, RejectsBadQuantizationTypesAndShapes) {
  {
    Spec s = HandSpec();
    s.cell_scale = 1.0f / 4096;
    ExpectError(Build(s), "needs a cell_state scale of 2^-15");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.tensor(b.op(0).intermediates[7]).quantization.reset();
    ExpectError(b, "intermediate of type INT16 must have affine quantization");
  }
  {
    Spec s = HandSpec();
    s.inter[4].first = 0.0f;
    ExpectError(Build(s), "intermediate scale 0 must be positive and finite");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.op(0).intermediates.pop_back();  // 11
    ExpectError(b, "or 12 (8x8->8 kernel), got 11");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.tensor(b.op(0).inputs[13]).type = tflite::TensorType_INT16;  // forget bias
    ExpectError(b, "forget_gate_bias type INT16 is not supported");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.tensor(b.op(0).inputs[21]).type = tflite::TensorType_INT8;  // layer norm
    ExpectError(b, "forget_layer_norm_coefficients type INT8 is not supported");
  }
  {
    ModelBuilder b = Build(HandSpec());
    b.SetQuantization(b.op(0).inputs[2], {{1.0f / 64}, {5}, 0});
    ExpectError(b, "input_to_forget_weights must have zero point 0");
  }
  {
    ModelBuilder b = Build(HandSpec());
    const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, {2, 2}, {1, 1, 1, 1});
    b.SetQuantization(t, {{1.0f / 64}, {0}, 0});
    b.op(0).inputs[3] = t;  // input_to_cell
    ExpectError(b, "input_to_cell_weights has shape [2,2], expected [2,1]");
  }
  {
    // Zero points outside the int8 range would overflow the int32 differences.
    Spec s = HandSpec();
    s.input_zp = std::numeric_limits<int32_t>::min();
    ExpectError(Build(s), "input 0 zero point -2147483648 is outside the INT8 range");
  }
  {
    Spec s = HandSpec();
    s.state_zp = 300;
    ExpectError(Build(s), "input 18 zero point 300 is outside the INT8 range");
  }
  {
    Spec s = HandSpec();
    s.proj_scale = 1e9f;  // effective projection scale far beyond the requantizer
    ExpectError(Build(s), "effective projection scale");
  }
}

}  // namespace
}  // namespace tflite_c

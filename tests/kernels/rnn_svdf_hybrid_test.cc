// Hybrid (dynamic-range) RNN, UNIDIRECTIONAL_SEQUENCE_RNN and SVDF: float
// input and state with int8 weights. Every product is checked against a
// reference written here that quantizes each batch row of the float operand
// to int8 (symmetric, or asymmetric with asymmetric_quantize_inputs), takes
// the integer dot product and scales it back; the state is carried across
// Invokes and reset. A closed-form case tells the two quantization modes and
// plain float apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/kernels/recurrent_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using Runner = testing::ModelRunner;

using testing::ExpectNear;
using testing::QuantDequantRow;
using testing::Values;

// Per-tensor symmetric int8 weights: scale = max|w| / 127.
struct QWeights {
  std::vector<int8_t> q;
  float scale = 1.0f;
};
QWeights QuantizeWeights(const std::vector<float>& w) {
  QWeights out;
  float m = 0.0f;
  for (float v : w) m = std::max(m, std::fabs(v));
  out.scale = m > 0 ? m / 127.0f : 1.0f;
  for (float v : w) out.q.push_back(static_cast<int8_t>(std::lround(v / out.scale)));
  return out;
}

// acc[r] += sum_k Q(x)[k] * (q[r, k] * ws).
void HybridDot(const std::vector<double>& x, const QWeights& w, int rows, bool asym,
               std::vector<double>* acc) {
  const int n = static_cast<int>(x.size());
  const std::vector<double> xq = QuantDequantRow(x.data(), n, asym);
  for (int r = 0; r < rows; ++r) {
    double v = 0;
    for (int k = 0; k < n; ++k) v += xq[k] * w.q[r * n + k] * static_cast<double>(w.scale);
    (*acc)[r] += v;
  }
}

// ---- RNN ----------------------------------------------------------------------

struct RnnCase {
  bool sequence = false;
  bool time_major = true;
  bool asymmetric = false;
  int batch = 2, time = 1, n_input = 3, units = 4;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_TANH;
  QWeights w, r;
  std::vector<float> bias;
};

ModelBuilder BuildHybridRnn(const RnnCase& c) {
  ModelBuilder b;
  std::vector<int> shape = {c.batch, c.n_input};
  if (c.sequence) {
    shape = c.time_major ? std::vector<int>{c.time, c.batch, c.n_input}
                         : std::vector<int>{c.batch, c.time, c.n_input};
  }
  const int input = b.AddInput(tflite::TensorType_FLOAT32, shape, "input");
  const int wt = b.AddConstant<int8_t>(tflite::TensorType_INT8, {c.units, c.n_input}, c.w.q);
  b.SetQuantization(wt, {{c.w.scale}, {0}, 0});
  const int rt = b.AddConstant<int8_t>(tflite::TensorType_INT8, {c.units, c.units}, c.r.q);
  b.SetQuantization(rt, {{c.r.scale}, {0}, 0});
  const int bt = b.AddConstant<float>({c.units}, c.bias);
  const int h = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.units}, "hidden");
  b.SetVariable(h);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  if (c.sequence) {
    tflite::SequenceRNNOptionsT o;
    o.time_major = c.time_major;
    o.fused_activation_function = c.act;
    o.asymmetric_quantize_inputs = c.asymmetric;
    b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN, {input, wt, rt, bt, h},
                  {output}, o, 3);
  } else {
    tflite::RNNOptionsT o;
    o.fused_activation_function = c.act;
    o.asymmetric_quantize_inputs = c.asymmetric;
    b.AddOperator(tflite::BuiltinOperator_RNN, {input, wt, rt, bt, h}, {output}, o, 3);
  }
  return b;
}

double Act(tflite::ActivationFunctionType act, double v) {
  switch (act) {
    case tflite::ActivationFunctionType_TANH:
      return std::tanh(v);
    case tflite::ActivationFunctionType_RELU:
      return std::max(0.0, v);
    default:
      return v;
  }
}

// h = act(hybrid(W, x) + hybrid(R, h) + b) for one batch row.
std::vector<double> RefRnnStep(const RnnCase& c, const float* x, std::vector<double>* h) {
  std::vector<double> acc(c.bias.begin(), c.bias.end());
  HybridDot(std::vector<double>(x, x + c.n_input), c.w, c.units, c.asymmetric, &acc);
  if (std::any_of(h->begin(), h->end(), [](double v) { return v != 0; })) {
    HybridDot(*h, c.r, c.units, c.asymmetric, &acc);
  }
  for (double& v : acc) v = Act(c.act, v);
  *h = acc;
  return acc;
}

RnnCase MakeRnnCase(uint32_t seed) {
  RnnCase c;
  c.w = QuantizeWeights(Values(c.units * c.n_input, seed + 1));
  c.r = QuantizeWeights(Values(c.units * c.units, seed + 2));
  c.bias = Values(c.units, seed + 3);
  return c;
}

void CheckRnn(const RnnCase& c) {
  ModelBuilder b = BuildHybridRnn(c);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  std::vector<std::vector<double>> h(c.batch, std::vector<double>(c.units, 0.0));
  std::vector<float> first;
  for (int step = 0; step < 2; ++step) {
    const std::vector<float> x = Values(c.batch * c.n_input, 50 + step, 1.5f);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want;
    for (int bt = 0; bt < c.batch; ++bt) {
      const std::vector<double> o = RefRnnStep(c, &x[bt * c.n_input], &h[bt]);
      want.insert(want.end(), o.begin(), o.end());
    }
    ExpectNear(r.Get<float>(), want, 2e-5);
    if (step == 0) first = r.Get<float>();
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(c.batch * c.n_input, 50, 1.5f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), first);
}

TEST(HybridRnnTest, SymmetricTwoInvokes) { CheckRnn(MakeRnnCase(1)); }

TEST(HybridRnnTest, AsymmetricTwoInvokes) {
  RnnCase c = MakeRnnCase(2);
  c.asymmetric = true;
  c.act = tflite::ActivationFunctionType_RELU;
  CheckRnn(c);
}

// One unit, weights {0, 127} at scale 0.01 (w = {0, 1.27}), x = {1, 0.003}:
// symmetric: scale 1/127, q = {127, 0}, so the second input vanishes -> 0.
// asymmetric: [0, 1] onto [-128, 127], scale 1/255, zero point -128,
// q = {127, -127}, dot = 127 * (-127 + 128) = 127 -> 127 / 255 * 0.01.
// Float with dequantized weights would give 1.27 * 0.003.
TEST(HybridRnnTest, ClosedFormTellsQuantizationModesApart) {
  for (bool asym : {false, true}) {
    RnnCase c;
    c.batch = 1;
    c.n_input = 2;
    c.units = 1;
    c.act = tflite::ActivationFunctionType_NONE;
    c.asymmetric = asym;
    c.w.q = {0, 127};
    c.w.scale = 0.01f;
    c.r.q = {0};
    c.r.scale = 1.0f;
    c.bias = {0.0f};
    ModelBuilder b = BuildHybridRnn(c);
    Runner r(b);
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.Set(0, std::vector<float>{1.0f, 0.003f});
    ASSERT_TRUE(r.Invoke()) << r.log();
    const double want = asym ? 127.0 / 255.0 * 0.01 : 0.0;
    ExpectNear(r.Get<float>(), {want}, 1e-7);
  }
}

void CheckSequence(bool time_major, bool asym) {
  RnnCase c = MakeRnnCase(time_major ? 7 : 8);
  c.sequence = true;
  c.time_major = time_major;
  c.asymmetric = asym;
  c.time = 3;
  ModelBuilder b = BuildHybridRnn(c);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<float> x = Values(c.time * c.batch * c.n_input, 9, 1.5f);
  r.Set(0, x);
  ASSERT_TRUE(r.Invoke()) << r.log();
  std::vector<double> want(static_cast<size_t>(c.time) * c.batch * c.units);
  for (int bt = 0; bt < c.batch; ++bt) {
    std::vector<double> h(c.units, 0.0);
    for (int t = 0; t < c.time; ++t) {
      const int row = time_major ? t * c.batch + bt : bt * c.time + t;
      const std::vector<double> o = RefRnnStep(c, &x[row * c.n_input], &h);
      std::copy(o.begin(), o.end(), want.begin() + row * c.units);
    }
  }
  ExpectNear(r.Get<float>(), want, 2e-5);
}

TEST(HybridSequenceRnnTest, TimeMajorSymmetric) { CheckSequence(true, false); }
TEST(HybridSequenceRnnTest, BatchMajorAsymmetric) { CheckSequence(false, true); }

TEST(HybridRnnTest, RejectsMixedTypesAndMissingScale) {
  {
    RnnCase c = MakeRnnCase(3);
    ModelBuilder b = BuildHybridRnn(c);
    b.op(0).inputs[2] = b.AddConstant<float>({c.units, c.units}, Values(16, 4));
    testing::ExpectAllocateError(b, "must have one type");
  }
  {
    RnnCase c = MakeRnnCase(3);
    ModelBuilder b = BuildHybridRnn(c);
    b.tensor(b.op(0).inputs[1]).quantization.reset();
    testing::ExpectAllocateError(b, "weights of type INT8 must have affine quantization");
  }
  {
    RnnCase c = MakeRnnCase(3);
    ModelBuilder b = BuildHybridRnn(c);
    b.tensor(b.op(0).inputs[1]).type = tflite::TensorType_UINT8;
    b.tensor(b.op(0).inputs[2]).type = tflite::TensorType_UINT8;
    testing::ExpectAllocateError(b, "UINT8 with float input are not supported");
  }
}

// ---- SVDF ---------------------------------------------------------------------

struct SvdfCase {
  int batch = 2, n_input = 3, n_filter = 4, memory = 3, rank = 2;
  bool asymmetric = false;
  QWeights wf, wt;
  std::vector<float> bias;
};

ModelBuilder BuildHybridSvdf(const SvdfCase& c) {
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_FLOAT32, {c.batch, c.n_input}, "input");
  const int f = b.AddConstant<int8_t>(tflite::TensorType_INT8, {c.n_filter, c.n_input}, c.wf.q);
  b.SetQuantization(f, {{c.wf.scale}, {0}, 0});
  const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, {c.n_filter, c.memory}, c.wt.q);
  b.SetQuantization(t, {{c.wt.scale}, {0}, 0});
  const int bi = b.AddConstant<float>({c.n_filter / c.rank}, c.bias);
  const int state =
      b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, c.n_filter * c.memory}, "state");
  b.SetVariable(state);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  tflite::SVDFOptionsT o;
  o.rank = c.rank;
  o.fused_activation_function = tflite::ActivationFunctionType_NONE;
  o.asymmetric_quantize_inputs = c.asymmetric;
  b.AddOperator(tflite::BuiltinOperator_SVDF, {input, f, t, bi, state}, {output}, o, 4);
  return b;
}

void CheckSvdf(bool asym) {
  SvdfCase c;
  c.asymmetric = asym;
  c.wf = QuantizeWeights(Values(c.n_filter * c.n_input, asym ? 11 : 12));
  c.wt = QuantizeWeights(Values(c.n_filter * c.memory, 13));
  c.bias = Values(c.n_filter / c.rank, 14);
  ModelBuilder b = BuildHybridSvdf(c);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const int n_unit = c.n_filter / c.rank;
  // history[b][k]: the hybrid feature projections of batch row b at step k.
  std::vector<std::vector<std::vector<double>>> history(c.batch);
  std::vector<float> first;
  for (int step = 0; step < 4; ++step) {
    const std::vector<float> x = Values(c.batch * c.n_input, 30 + step, 2.0f);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want;
    for (int bt = 0; bt < c.batch; ++bt) {
      std::vector<double> p(c.n_filter, 0.0);
      HybridDot(std::vector<double>(&x[bt * c.n_input], &x[bt * c.n_input] + c.n_input), c.wf,
                c.n_filter, asym, &p);
      history[bt].push_back(p);
      const auto& hist = history[bt];
      std::vector<double> out(c.bias.begin(), c.bias.end());
      for (int f = 0; f < c.n_filter; ++f) {
        for (int m = 0; m < c.memory; ++m) {
          const int age = c.memory - 1 - m;
          if (age >= static_cast<int>(hist.size())) continue;
          out[f / c.rank] += c.wt.q[f * c.memory + m] * static_cast<double>(c.wt.scale) *
                             hist[hist.size() - 1 - age][f];
        }
      }
      want.insert(want.end(), out.begin(), out.end());
    }
    EXPECT_EQ(r.Shape(), (std::vector<int>{c.batch, n_unit}));
    ExpectNear(r.Get<float>(), want, 2e-5);
    if (step == 0) first = r.Get<float>();
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(c.batch * c.n_input, 30, 2.0f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), first);
}

TEST(HybridSvdfTest, SymmetricFourSteps) { CheckSvdf(false); }
TEST(HybridSvdfTest, AsymmetricFourSteps) { CheckSvdf(true); }

TEST(HybridSvdfTest, RejectsWrongWeightsTimeType) {
  SvdfCase c;
  c.wf = QuantizeWeights(Values(c.n_filter * c.n_input, 1));
  c.wt = QuantizeWeights(Values(c.n_filter * c.memory, 2));
  c.bias = Values(2, 3);
  {
    ModelBuilder b = BuildHybridSvdf(c);
    b.op(0).inputs[2] = b.AddConstant<float>({c.n_filter, c.memory}, Values(12, 4));
    testing::ExpectAllocateError(b, "weights_time");
  }
  {
    ModelBuilder b = BuildHybridSvdf(c);
    b.tensor(b.op(0).inputs[1]).quantization.reset();
    testing::ExpectAllocateError(b, "weights_feature of type INT8 must have affine quantization");
  }
}

}  // namespace
}  // namespace tflite_c

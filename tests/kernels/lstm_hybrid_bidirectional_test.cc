// Hybrid LSTM / UNIDIRECTIONAL_SEQUENCE_LSTM (int8 weights, float
// activations) and BIDIRECTIONAL_SEQUENCE_LSTM (float and hybrid): hand-built
// models against a double-precision LSTM written here. In hybrid mode the
// reference quantizes each batch row of x, aux, h and the projected hidden
// state to int8 the way the kernels do (symmetric, or asymmetric with
// asymmetric_quantize_inputs) and multiplies with the dequantized int8
// weights. The state is carried across Invokes and reset; errors are checked.
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
using testing::Values;

// One LSTM cell: sizes, options and weights (float values; rounded onto an
// int8 grid per tensor when hybrid, so the kernel's dequantized weights equal
// them).
struct CellSpec : testing::LstmCellWeights {
  int n_aux = 0;
  std::vector<float> w_aux[4];

  void Fill(uint32_t seed) {
    LstmCellWeights::Fill(seed);
    for (int g = 0; g < 4; ++g) w_aux[g] = Values(n_cell * std::max(n_aux, 1), seed + 10 * g + 6);
  }
};

// hybrid: int8 weights, and x, aux, h and the hidden state pass through the
// per-row int8 round trip in the reference.
using Ctx = testing::RowQuant;

// Adds a weight tensor: float, or int8 with the values rounded onto its grid.
int AddWeights(ModelBuilder& b, const Ctx& ctx, std::vector<float>* w, std::vector<int> shape) {
  if (!ctx.hybrid) return b.AddConstant<float>(shape, *w);
  std::vector<int8_t> q;
  const float scale = testing::QuantizeOntoGrid(w, &q);
  const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, shape, q);
  b.SetQuantization(t, {{scale}, {0}, 0});
  return t;
}

// Fills the 17 cell inputs (weights, peephole, biases, projection) starting at
// ins[first]; with `ln_first` >= 0 also the layer-norm coefficients.
void AddCell(ModelBuilder& b, const Ctx& ctx, CellSpec* s, std::vector<int>* ins, int first,
             int ln_first) {
  for (int g = 0; g < 4; ++g) {
    if (g == 0 && s->cifg) continue;
    (*ins)[first + g] = AddWeights(b, ctx, &s->w_in[g], {s->n_cell, s->n_input});
    (*ins)[first + 4 + g] = AddWeights(b, ctx, &s->w_rec[g], {s->n_cell, s->n_output});
    if (s->peephole && g != 2) {
      (*ins)[first + 8 + (g == 0 ? 0 : g == 1 ? 1 : 2)] =
          AddWeights(b, ctx, &s->peep[g], {s->n_cell});
    }
    (*ins)[first + 11 + g] = b.AddConstant<float>({s->n_cell}, s->bias[g]);
    if (s->layer_norm && ln_first >= 0) {
      (*ins)[ln_first + g] = b.AddConstant<float>({s->n_cell}, s->ln[g]);
    }
  }
  if (s->projection) {
    (*ins)[first + 15] = AddWeights(b, ctx, &s->proj_w, {s->n_output, s->n_cell});
    (*ins)[first + 16] = b.AddConstant<float>({s->n_output}, s->proj_b);
  }
}

// The cell for one batch row in double precision.
struct RefCell {
  const CellSpec& s;
  Ctx ctx;
  std::vector<double> h, c;
  RefCell(const CellSpec& spec, Ctx context)
      : s(spec), ctx(context), h(spec.n_output, 0.0), c(spec.n_cell, 0.0) {}

  std::vector<double> Step(const float* x, const float* aux) {
    return testing::LstmRefStep(
        s, ctx, std::vector<double>(x, x + s.n_input),
        aux != nullptr ? std::vector<double>(aux, aux + s.n_aux) : std::vector<double>(), s.w_aux,
        &h, &c);
  }
};

// ---- hybrid LSTM / UNIDIRECTIONAL_SEQUENCE_LSTM ----------------------------------

struct UniCase {
  bool sequence = false;
  bool time_major = true;
  int batch = 2, time = 1;
  Ctx ctx{true, false};
  CellSpec cell;
};

ModelBuilder BuildUni(UniCase& u) {
  ModelBuilder b;
  const CellSpec& s = u.cell;
  std::vector<int> shape = {u.batch, s.n_input};
  if (u.sequence) {
    shape = u.time_major ? std::vector<int>{u.time, u.batch, s.n_input}
                         : std::vector<int>{u.batch, u.time, s.n_input};
  }
  std::vector<int> ins(24, -1);
  ins[0] = b.AddInput(tflite::TensorType_FLOAT32, shape, "input");
  AddCell(b, u.ctx, &u.cell, &ins, 1, 20);
  ins[18] = b.AddTensor(tflite::TensorType_FLOAT32, {u.batch, s.n_output}, "output_state");
  b.SetVariable(ins[18]);
  ins[19] = b.AddTensor(tflite::TensorType_FLOAT32, {u.batch, s.n_cell}, "cell_state");
  b.SetVariable(ins[19]);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  if (u.sequence) {
    tflite::UnidirectionalSequenceLSTMOptionsT o;
    o.fused_activation_function = tflite::ActivationFunctionType_TANH;
    o.cell_clip = s.cell_clip;
    o.proj_clip = s.proj_clip;
    o.time_major = u.time_major;
    o.asymmetric_quantize_inputs = u.ctx.asymmetric;
    b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {output}, o, 3);
  } else {
    tflite::LSTMOptionsT o;
    o.fused_activation_function = tflite::ActivationFunctionType_TANH;
    o.cell_clip = s.cell_clip;
    o.proj_clip = s.proj_clip;
    o.asymmetric_quantize_inputs = u.ctx.asymmetric;
    b.AddOperator(tflite::BuiltinOperator_LSTM, ins, {output}, o, 4);
  }
  return b;
}

void CheckUni(UniCase u) {
  ModelBuilder b = BuildUni(u);
  const CellSpec& s = u.cell;
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  std::vector<RefCell> ref(u.batch, RefCell(s, u.ctx));
  const int rows = u.batch * u.time;
  std::vector<float> first;
  for (int invoke = 0; invoke < 2; ++invoke) {
    const std::vector<float> x = Values(rows * s.n_input, 100 + invoke, 1.0f);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want(static_cast<size_t>(rows) * s.n_output);
    for (int bt = 0; bt < u.batch; ++bt) {
      for (int t = 0; t < u.time; ++t) {
        const int row = u.time_major ? t * u.batch + bt : bt * u.time + t;
        const std::vector<double> h = ref[bt].Step(&x[row * s.n_input], nullptr);
        std::copy(h.begin(), h.end(), want.begin() + row * s.n_output);
      }
    }
    ExpectNear(r.Get<float>(), want, 5e-5);
    if (invoke == 0) first = r.Get<float>();
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(rows * s.n_input, 100, 1.0f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), first);
}

TEST(HybridLstmTest, Plain) {
  UniCase u;
  u.cell.Fill(1);
  CheckUni(u);
}

TEST(HybridLstmTest, CifgPeepholeAsymmetric) {
  UniCase u;
  u.ctx.asymmetric = true;
  u.cell.cifg = true;
  u.cell.peephole = true;
  u.cell.Fill(2);
  CheckUni(u);
}

TEST(HybridLstmTest, PeepholeLayerNormProjectionClip) {
  UniCase u;
  u.cell.peephole = true;
  u.cell.layer_norm = true;
  u.cell.projection = true;
  u.cell.n_output = 2;
  u.cell.cell_clip = 0.4f;
  u.cell.proj_clip = 0.3f;
  u.cell.Fill(3);
  CheckUni(u);
}

TEST(HybridSequenceLstmTest, TimeMajorAsymmetricProjection) {
  UniCase u;
  u.sequence = true;
  u.time = 3;
  u.ctx.asymmetric = true;
  u.cell.projection = true;
  u.cell.n_output = 3;
  u.cell.Fill(4);
  CheckUni(u);
}

TEST(HybridSequenceLstmTest, BatchMajorLayerNorm) {
  UniCase u;
  u.sequence = true;
  u.time_major = false;
  u.time = 3;
  u.cell.layer_norm = true;
  u.cell.Fill(5);
  CheckUni(u);
}

TEST(HybridLstmTest, RejectsFloatWeightAmongInt8AndMissingScale) {
  {
    UniCase u;
    u.cell.Fill(1);
    ModelBuilder b = BuildUni(u);
    b.op(0).inputs[7] = b.AddConstant<float>({4, 4}, Values(16, 1));
    testing::ExpectAllocateError(b, "recurrent_to_cell_weights is FLOAT32, expected INT8");
  }
  {
    UniCase u;
    u.cell.Fill(1);
    ModelBuilder b = BuildUni(u);
    b.tensor(b.op(0).inputs[2]).quantization.reset();
    testing::ExpectAllocateError(b, "weights of type INT8 must have affine quantization");
  }
  {
    UniCase u;
    u.cell.Fill(1);
    ModelBuilder b = BuildUni(u);
    b.op(0).inputs[13] = b.AddConstant<int8_t>(tflite::TensorType_INT8, {4},
                                               std::vector<int8_t>(4, 1));
    testing::ExpectAllocateError(b, "forget_gate_bias is INT8, expected FLOAT32");
  }
}

// ---- BIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------------------

struct BiCase {
  bool time_major = true;
  bool merge = false;
  // 0: no aux input; 1: aux input with aux weights; 2: aux input only (bw reads it).
  int aux_mode = 0;
  int batch = 2, time = 3, n_aux = 2;
  Ctx ctx{false, false};
  CellSpec cell[2];
};

BiCase MakeBi(uint32_t seed, bool time_major, bool merge, int aux_mode, bool hybrid = false) {
  BiCase c;
  c.time_major = time_major;
  c.merge = merge;
  c.aux_mode = aux_mode;
  c.ctx.hybrid = hybrid;
  c.cell[1].n_cell = 3;
  c.cell[1].n_output = 3;
  for (int k = 0; k < 2; ++k) {
    c.cell[k].n_aux = aux_mode == 1 ? c.n_aux : 0;
    c.cell[k].Fill(seed + 100 * k);
  }
  return c;
}

ModelBuilder BuildBi(BiCase& c) {
  ModelBuilder b;
  const int n_input = c.cell[0].n_input;
  auto seq = [&](int n) {
    return c.time_major ? std::vector<int>{c.time, c.batch, n} : std::vector<int>{c.batch, c.time, n};
  };
  std::vector<int> ins(48, -1);
  ins[0] = b.AddInput(tflite::TensorType_FLOAT32, seq(n_input), "input");
  for (int k = 0; k < 2; ++k) {
    CellSpec& s = c.cell[k];
    AddCell(b, c.ctx, &s, &ins, 1 + 17 * k, -1);
    ins[35 + 2 * k] = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, s.n_output}, "h");
    b.SetVariable(ins[35 + 2 * k]);
    ins[36 + 2 * k] = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, s.n_cell}, "c");
    b.SetVariable(ins[36 + 2 * k]);
  }
  if (c.aux_mode != 0) {
    ins[39] = b.AddInput(tflite::TensorType_FLOAT32, seq(c.aux_mode == 1 ? c.n_aux : n_input),
                         "aux_input");
  }
  if (c.aux_mode == 1) {
    for (int k = 0; k < 2; ++k) {
      for (int g = 0; g < 4; ++g) {
        if (g == 0 && c.cell[k].cifg) continue;
        ins[40 + 4 * k + g] = AddWeights(b, c.ctx, &c.cell[k].w_aux[g], {c.cell[k].n_cell, c.n_aux});
      }
    }
  }
  std::vector<int> outs = {b.AddOutput(tflite::TensorType_FLOAT32, {}, "fw_output")};
  if (!c.merge) outs.push_back(b.AddOutput(tflite::TensorType_FLOAT32, {}, "bw_output"));
  tflite::BidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.cell_clip = c.cell[0].cell_clip;
  o.proj_clip = c.cell[0].proj_clip;
  o.merge_outputs = c.merge;
  o.time_major = c.time_major;
  o.asymmetric_quantize_inputs = c.ctx.asymmetric;
  b.AddOperator(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM, ins, outs, o, 3);
  return b;
}

void CheckBi(BiCase c) {
  ModelBuilder b = BuildBi(c);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const int n_input = c.cell[0].n_input;
  const int rows = c.batch * c.time;
  const int fw_o = c.cell[0].n_output, bw_o = c.cell[1].n_output;
  std::vector<RefCell> ref[2];
  for (int k = 0; k < 2; ++k) {
    for (int bt = 0; bt < c.batch; ++bt) ref[k].emplace_back(c.cell[k], c.ctx);
  }
  const int aux_w = c.aux_mode == 1 ? c.n_aux : n_input;
  std::vector<float> first;
  for (int invoke = 0; invoke < 2; ++invoke) {
    const std::vector<float> x = Values(rows * n_input, 10 + invoke, 1.0f);
    const std::vector<float> aux = Values(rows * aux_w, 20 + invoke, 1.0f);
    r.Set(0, x);
    if (c.aux_mode != 0) r.Set(1, aux);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want[2] = {std::vector<double>(rows * fw_o),
                                   std::vector<double>(rows * bw_o)};
    for (int k = 0; k < 2; ++k) {
      const int n_out = c.cell[k].n_output;
      for (int bt = 0; bt < c.batch; ++bt) {
        for (int i = 0; i < c.time; ++i) {
          const int t = k == 0 ? i : c.time - 1 - i;
          const int row = c.time_major ? t * c.batch + bt : bt * c.time + t;
          const float* in = (k == 1 && c.aux_mode == 2) ? &aux[row * n_input] : &x[row * n_input];
          const float* a = c.aux_mode == 1 ? &aux[row * c.n_aux] : nullptr;
          const std::vector<double> h = ref[k][bt].Step(in, a);
          std::copy(h.begin(), h.end(), want[k].begin() + row * n_out);
        }
      }
    }
    const double tol = c.ctx.hybrid ? 5e-5 : 1e-5;
    if (c.merge) {
      const std::vector<double> merged = testing::MergeRows(want[0], fw_o, want[1], bw_o, rows);
      EXPECT_EQ(r.Shape(0).back(), fw_o + bw_o);
      ExpectNear(r.Get<float>(0), merged, tol);
    } else {
      EXPECT_EQ(r.Shape(1).back(), bw_o);
      ExpectNear(r.Get<float>(0), want[0], tol);
      ExpectNear(r.Get<float>(1), want[1], tol);
    }
    if (invoke == 0) first = r.Get<float>(0);
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(rows * n_input, 10, 1.0f));
  if (c.aux_mode != 0) r.Set(1, Values(rows * aux_w, 20, 1.0f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(0), first);
}

TEST(BidirectionalLstmTest, FloatTimeMajorSeparate) { CheckBi(MakeBi(1, true, false, 0)); }
TEST(BidirectionalLstmTest, FloatBatchMajorMerged) { CheckBi(MakeBi(2, false, true, 0)); }

TEST(BidirectionalLstmTest, FloatPeepholeProjectionCifgBackward) {
  BiCase c = MakeBi(3, true, true, 0);
  c.cell[0].peephole = true;
  c.cell[0].projection = true;
  c.cell[0].n_output = 2;
  c.cell[1].cifg = true;
  for (int k = 0; k < 2; ++k) c.cell[k].Fill(3 + 100 * k);
  CheckBi(c);
}

TEST(BidirectionalLstmTest, FloatAuxWeights) { CheckBi(MakeBi(4, false, false, 1)); }
TEST(BidirectionalLstmTest, FloatAuxFeedsBackwardCell) { CheckBi(MakeBi(5, true, true, 2)); }
TEST(BidirectionalLstmTest, HybridMergedAux) { CheckBi(MakeBi(6, true, true, 1, true)); }

TEST(BidirectionalLstmTest, HybridAsymmetricBatchMajor) {
  BiCase c = MakeBi(7, false, false, 0, true);
  c.ctx.asymmetric = true;
  CheckBi(c);
}

TEST(BidirectionalLstmTest, RejectsBadModels) {
  {
    BiCase c = MakeBi(1, true, false, 0);
    ModelBuilder b = BuildBi(c);
    b.op(0).inputs.resize(47);
    testing::ExpectAllocateError(b, "BIDIRECTIONAL_SEQUENCE_LSTM");
  }
  {
    BiCase c = MakeBi(1, true, false, 1);
    ModelBuilder b = BuildBi(c);
    b.op(0).inputs[45] = -1;  // one backward aux weight missing
    testing::ExpectAllocateError(b, "all present or all omitted");
  }
  {
    BiCase c = MakeBi(1, true, false, 1);
    ModelBuilder b = BuildBi(c);
    b.op(0).inputs[39] = -1;
    testing::ExpectAllocateError(b, "aux weights need an aux_input");
  }
  {
    BiCase c = MakeBi(1, true, false, 1);
    ModelBuilder b = BuildBi(c);
    b.op(0).inputs[44] = -1;  // backward input-gate aux weights without CIFG
    testing::ExpectAllocateError(b, "bw aux_input_to_input weights must be FLOAT32 [3, 2]");
  }
  {
    BiCase c = MakeBi(1, true, false, 0);
    ModelBuilder b = BuildBi(c);
    b.op(0).inputs[20] = -1;  // bw input_to_cell_weights
    testing::ExpectAllocateError(b, "required input 20 (input_to_cell_weights) is missing");
  }
  {
    BiCase c = MakeBi(1, true, false, 0);
    ModelBuilder b = BuildBi(c);
    b.tensor(b.op(0).inputs[38]).shape = {2, 4};  // bw cell state of fw's size
    testing::ExpectAllocateError(b, "cell state 2 x 3 elements");
  }
  {
    BiCase c = MakeBi(1, true, false, 2);
    ModelBuilder b = BuildBi(c);
    b.tensor(b.op(0).inputs[39]).shape = {3, 2, 5};  // bw reads aux: must match n_input
    testing::ExpectAllocateError(b, "its input size");
  }
}

}  // namespace
}  // namespace tflite_c

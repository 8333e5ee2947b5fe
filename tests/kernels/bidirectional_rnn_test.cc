// BIDIRECTIONAL_SEQUENCE_RNN: hand-built models against a double-precision
// reference of the two cells written here (the backward one walking the
// sequence from its end), with separate and merged outputs, both layouts, the
// auxiliary input with weights (cross links) and without (the backward cell
// reads it), hybrid int8 weights, state carried across Invokes, and errors.
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

struct Cell {
  int units = 0;
  std::vector<float> w, r, aux_w, bias;  // float values (dequantized when hybrid)
};

struct Case {
  bool time_major = true;
  bool merge = false;
  bool hybrid = false;
  // 0: no aux input; 1: aux input with aux weights; 2: aux input only (bw reads it).
  int aux_mode = 0;
  int batch = 2, time = 3, n_input = 3, n_aux = 2;
  Cell cell[2];
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType_TANH;
};

Case MakeCase(uint32_t seed, bool time_major, bool merge, int aux_mode, bool hybrid = false) {
  Case c;
  c.time_major = time_major;
  c.merge = merge;
  c.aux_mode = aux_mode;
  c.hybrid = hybrid;
  c.cell[0].units = 4;
  c.cell[1].units = 3;
  for (int k = 0; k < 2; ++k) {
    Cell& cl = c.cell[k];
    cl.w = Values(cl.units * c.n_input, seed + 10 * k + 1);
    cl.r = Values(cl.units * cl.units, seed + 10 * k + 2);
    cl.aux_w = Values(cl.units * c.n_aux, seed + 10 * k + 3);
    cl.bias = Values(cl.units, seed + 10 * k + 4);
  }
  return c;
}

ModelBuilder Build(Case& c) {
  ModelBuilder b;
  auto seq = [&](int n) {
    return c.time_major ? std::vector<int>{c.time, c.batch, n} : std::vector<int>{c.batch, c.time, n};
  };
  std::vector<int> ins(12, -1);
  ins[0] = b.AddInput(tflite::TensorType_FLOAT32, seq(c.n_input), "input");
  auto weights = [&](std::vector<float>* w, int rows, int cols) {
    if (!c.hybrid) return b.AddConstant<float>({rows, cols}, *w);
    std::vector<int8_t> q;
    const float scale = testing::QuantizeOntoGrid(w, &q);
    const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, {rows, cols}, q);
    b.SetQuantization(t, {{scale}, {0}, 0});
    return t;
  };
  for (int k = 0; k < 2; ++k) {
    Cell& cl = c.cell[k];
    const int base = 1 + 4 * k;
    ins[base] = weights(&cl.w, cl.units, c.n_input);
    ins[base + 1] = weights(&cl.r, cl.units, cl.units);
    ins[base + 2] = b.AddConstant<float>({cl.units}, cl.bias);
    ins[base + 3] = b.AddTensor(tflite::TensorType_FLOAT32, {c.batch, cl.units},
                                k == 0 ? "fw_hidden" : "bw_hidden");
    b.SetVariable(ins[base + 3]);
  }
  if (c.aux_mode != 0) {
    ins[9] = b.AddInput(tflite::TensorType_FLOAT32, seq(c.aux_mode == 1 ? c.n_aux : c.n_input),
                        "aux_input");
  }
  if (c.aux_mode == 1) {
    for (int k = 0; k < 2; ++k) ins[10 + k] = weights(&c.cell[k].aux_w, c.cell[k].units, c.n_aux);
  }
  std::vector<int> outs = {b.AddOutput(tflite::TensorType_FLOAT32, {}, "fw_output")};
  if (!c.merge) outs.push_back(b.AddOutput(tflite::TensorType_FLOAT32, {}, "bw_output"));
  tflite::BidirectionalSequenceRNNOptionsT o;
  o.time_major = c.time_major;
  o.fused_activation_function = c.act;
  o.merge_outputs = c.merge;
  b.AddOperator(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN, ins, outs, o, c.hybrid ? 2 : 1);
  return b;
}

// acc += W v with v quantized per row when hybrid.
void Accumulate(const Case& c, const std::vector<float>& w, const std::vector<double>& v,
                std::vector<double>* acc) {
  const std::vector<double> x = c.hybrid ? testing::QuantDequantRow(v, false) : v;
  const int n = static_cast<int>(x.size());
  for (size_t r = 0; r < acc->size(); ++r) {
    for (int k = 0; k < n; ++k) (*acc)[r] += w[r * n + k] * x[k];
  }
}

struct Outputs {
  std::vector<double> fw, bw;  // [rows, units] in the input's layout
};

// Runs both cells over the sequence; h[k][b] is the state, updated.
Outputs Reference(const Case& c, const std::vector<float>& x, const std::vector<float>& aux,
                  std::vector<std::vector<double>> h[2]) {
  Outputs o;
  const int rows = c.batch * c.time;
  o.fw.assign(rows * c.cell[0].units, 0.0);
  o.bw.assign(rows * c.cell[1].units, 0.0);
  for (int k = 0; k < 2; ++k) {
    const Cell& cl = c.cell[k];
    const std::vector<float>& in = (k == 1 && c.aux_mode == 2) ? aux : x;
    for (int b = 0; b < c.batch; ++b) {
      for (int i = 0; i < c.time; ++i) {
        const int t = k == 0 ? i : c.time - 1 - i;
        const int row = c.time_major ? t * c.batch + b : b * c.time + t;
        std::vector<double> acc(cl.bias.begin(), cl.bias.end());
        Accumulate(c, cl.w, std::vector<double>(&in[row * c.n_input], &in[row * c.n_input] + c.n_input),
                   &acc);
        if (c.aux_mode == 1) {
          Accumulate(c, cl.aux_w, std::vector<double>(&aux[row * c.n_aux], &aux[row * c.n_aux] + c.n_aux),
                     &acc);
        }
        Accumulate(c, cl.r, h[k][b], &acc);
        for (double& v : acc) v = std::tanh(v);
        h[k][b] = acc;
        std::copy(acc.begin(), acc.end(), (k == 0 ? o.fw : o.bw).begin() + row * cl.units);
      }
    }
  }
  return o;
}

void Check(Case c) {
  ModelBuilder b = Build(c);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  std::vector<std::vector<double>> h[2];
  for (int k = 0; k < 2; ++k) h[k].assign(c.batch, std::vector<double>(c.cell[k].units, 0.0));
  const int fw_u = c.cell[0].units, bw_u = c.cell[1].units;
  const int rows = c.batch * c.time;
  std::vector<float> first;
  for (int invoke = 0; invoke < 2; ++invoke) {
    const std::vector<float> x = Values(rows * c.n_input, 40 + invoke, 1.5f);
    const std::vector<float> aux =
        Values(rows * (c.aux_mode == 1 ? c.n_aux : c.n_input), 60 + invoke, 1.5f);
    r.Set(0, x);
    if (c.aux_mode != 0) r.Set(1, aux);
    ASSERT_TRUE(r.Invoke()) << r.log();
    const Outputs want = Reference(c, x, aux, h);
    const double tol = c.hybrid ? 5e-5 : 1e-5;
    const std::vector<int> lead =
        c.time_major ? std::vector<int>{c.time, c.batch} : std::vector<int>{c.batch, c.time};
    if (c.merge) {
      const std::vector<double> merged = testing::MergeRows(want.fw, fw_u, want.bw, bw_u, rows);
      EXPECT_EQ(r.Shape(0), (std::vector<int>{lead[0], lead[1], fw_u + bw_u}));
      ExpectNear(r.Get<float>(0), merged, tol);
    } else {
      EXPECT_EQ(r.Shape(0), (std::vector<int>{lead[0], lead[1], fw_u}));
      EXPECT_EQ(r.Shape(1), (std::vector<int>{lead[0], lead[1], bw_u}));
      ExpectNear(r.Get<float>(0), want.fw, tol);
      ExpectNear(r.Get<float>(1), want.bw, tol);
    }
    if (invoke == 0) first = r.Get<float>(0);
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, Values(rows * c.n_input, 40, 1.5f));
  if (c.aux_mode != 0) r.Set(1, Values(rows * (c.aux_mode == 1 ? c.n_aux : c.n_input), 60, 1.5f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(0), first);
}

TEST(BidirectionalRnnTest, TimeMajorSeparateOutputs) { Check(MakeCase(1, true, false, 0)); }
TEST(BidirectionalRnnTest, BatchMajorMerged) { Check(MakeCase(2, false, true, 0)); }
TEST(BidirectionalRnnTest, AuxWeightsCrossLinks) { Check(MakeCase(3, true, true, 1)); }
TEST(BidirectionalRnnTest, AuxInputFeedsBackwardCell) { Check(MakeCase(4, false, false, 2)); }
TEST(BidirectionalRnnTest, AuxInputFeedsBackwardCellTimeMajor) { Check(MakeCase(5, true, true, 2)); }
TEST(BidirectionalRnnTest, HybridMergedWithAux) { Check(MakeCase(6, true, true, 1, true)); }
TEST(BidirectionalRnnTest, HybridBatchMajor) { Check(MakeCase(7, false, false, 0, true)); }

TEST(BidirectionalRnnTest, RejectsBadModels) {
  {
    Case c = MakeCase(1, true, true, 0);
    ModelBuilder b = Build(c);
    b.op(0).outputs.push_back(b.AddTensor(tflite::TensorType_FLOAT32, {}, "extra"));
    testing::ExpectAllocateError(b, "BIDIRECTIONAL_SEQUENCE_RNN");
  }
  {
    Case c = MakeCase(1, true, false, 1);
    ModelBuilder b = Build(c);
    b.op(0).inputs[11] = -1;  // only the forward aux weights
    testing::ExpectAllocateError(b, "both present or both omitted");
  }
  {
    Case c = MakeCase(1, true, false, 1);
    ModelBuilder b = Build(c);
    b.op(0).inputs[9] = -1;  // aux weights without aux input
    testing::ExpectAllocateError(b, "aux weights need an aux_input");
  }
  {
    Case c = MakeCase(1, true, false, 0);
    ModelBuilder b = Build(c);
    b.tensor(b.op(0).inputs[8]).shape = {2, 4};  // bw hidden of fw's width
    testing::ExpectAllocateError(b, "bw hidden state must be [2, 3]");
  }
  {
    Case c = MakeCase(1, true, false, 0);
    ModelBuilder b = Build(c);
    b.op(0).inputs[5] = b.AddConstant<float>({3, 2}, Values(6, 9));  // wrong input width
    testing::ExpectAllocateError(b, "bw weights has shape [3,2], expected [3, 3]");
  }
  {
    Case c = MakeCase(1, true, false, 0);
    ModelBuilder b = Build(c);
    b.SetVariable(b.op(0).inputs[4], false);
    testing::ExpectAllocateError(b, "variable");
  }
  {
    Case c = MakeCase(1, true, false, 0, true);
    ModelBuilder b = Build(c);
    b.op(0).inputs[6] = b.AddConstant<float>({3, 3}, Values(9, 9));  // float among int8
    testing::ExpectAllocateError(b, "expected INT8 like the forward weights");
  }
}

}  // namespace
}  // namespace tflite_c

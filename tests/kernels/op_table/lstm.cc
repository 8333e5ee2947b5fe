// Op table cases: the float LSTM family (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM,
// BIDIRECTIONAL_SEQUENCE_LSTM) without peepholes, projection, layer norm or
// clipping, with random weights, from a zero state. The reference is the
// textbook cell in double precision:
//   i = sigmoid(Wi x + Ri h + bi)    f = sigmoid(Wf x + Rf h + bf)
//   g = tanh(Wc x + Rc h + bc)       o = sigmoid(Wo x + Ro h + bo)
//   c = f * c + i * g                h = o * tanh(c)
#include <cmath>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {
namespace {

constexpr int kBatch = 2, kInput = 3, kCell = 2, kTime = 3;

// One cell's weights: the reference data from `first` on holds the four
// input weights [cell, input], the four recurrent weights [cell, cell] and
// the four biases [cell], each in gate order i, f, c, o.
struct Cell {
  const std::vector<FTensor>* data;
  size_t first;
  const std::vector<double>& W(int gate) const { return (*data)[first + gate].v; }
  const std::vector<double>& R(int gate) const { return (*data)[first + 4 + gate].v; }
  const std::vector<double>& B(int gate) const { return (*data)[first + 8 + gate].v; }
};

double Sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// One step of one batch row: updates h and c from input row `x`.
void Step(const Cell& cell, const double* x, std::vector<double>* h, std::vector<double>* c) {
  std::vector<double> z[4];
  for (int g = 0; g < 4; ++g) {
    for (int n = 0; n < kCell; ++n) {
      double acc = cell.B(g)[n];
      for (int k = 0; k < kInput; ++k) acc += cell.W(g)[n * kInput + k] * x[k];
      for (int k = 0; k < kCell; ++k) acc += cell.R(g)[n * kCell + k] * (*h)[k];
      z[g].push_back(acc);
    }
  }
  for (int n = 0; n < kCell; ++n) {
    (*c)[n] = Sigmoid(z[1][n]) * (*c)[n] + Sigmoid(z[0][n]) * std::tanh(z[2][n]);
    (*h)[n] = Sigmoid(z[3][n]) * std::tanh((*c)[n]);
  }
}

// The outputs of a sequence [time, batch, input] (time-major) or [batch,
// time, input], in the same layout with kCell values per row; `reverse`
// runs the time steps backwards (the backward cell).
std::vector<double> Run(const Cell& cell, const std::vector<double>& x, int time, bool time_major,
                        bool reverse) {
  std::vector<double> out(x.size() / kInput * kCell);
  for (int b = 0; b < kBatch; ++b) {
    std::vector<double> h(kCell, 0.0), c(kCell, 0.0);
    for (int i = 0; i < time; ++i) {
      const int t = reverse ? time - 1 - i : i;
      const int row = time_major ? t * kBatch + b : b * time + t;
      Step(cell, &x[row * kInput], &h, &c);
      for (int n = 0; n < kCell; ++n) out[row * kCell + n] = h[n];
    }
  }
  return out;
}

// The twelve weight inputs of one cell, with `omitted` after the recurrent
// weights (peepholes) and after the biases (projection).
void AddCell(std::vector<InputSpec>* inputs, int omitted_peepholes, int omitted_after) {
  for (int g = 0; g < 4; ++g) inputs->push_back(Weights({kCell, kInput}));
  for (int g = 0; g < 4; ++g) inputs->push_back(Weights({kCell, kCell}));
  for (int i = 0; i < omitted_peepholes; ++i) inputs->push_back(Omitted());
  for (int g = 0; g < 4; ++g) inputs->push_back(Weights({kCell}));
  for (int i = 0; i < omitted_after; ++i) inputs->push_back(Omitted());
}

OpCase Lstm(const std::string& name, BuiltinOperator op, std::vector<InputSpec> inputs,
            tflite::BuiltinOptionsUnion options, RefFn ref) {
  OpCase c;
  c.name = std::string(tflite::EnumNameBuiltinOperator(op)) + "_" + name;
  c.op = op;
  c.inputs = std::move(inputs);
  c.options = [options] { return options; };
  c.ref = std::move(ref);
  c.types = kF;
  c.lo = -1.f;
  c.hi = 1.f;
  c.atol = c.rtol = 1e-5f;
  c.also_default_delegates = true;
  return c;
}

// Input, one cell, the two states and four omitted layer norm weights: the
// 24 inputs of LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM.
std::vector<InputSpec> OneCellInputs(std::vector<int> input_shape) {
  std::vector<InputSpec> in = {Data(std::move(input_shape))};
  AddCell(&in, 3, 2);
  in.push_back(Variable({kBatch, kCell}));
  in.push_back(Variable({kBatch, kCell}));
  for (int i = 0; i < 4; ++i) in.push_back(Omitted());
  return in;
}

OpCase Unidirectional(bool time_major) {
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.time_major = time_major;
  const std::vector<int> shape =
      time_major ? std::vector<int>{kTime, kBatch, kInput} : std::vector<int>{kBatch, kTime, kInput};
  std::vector<int> out_shape = shape;
  out_shape.back() = kCell;
  return Lstm(time_major ? "TimeMajor" : "BatchMajor",
              tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, OneCellInputs(shape), Opts(o),
              [time_major, out_shape](const std::vector<FTensor>& d,
                                      const std::vector<std::vector<int32_t>>&) {
                return std::vector<FTensor>{
                    {out_shape, Run(Cell{&d, 1}, d[0].v, kTime, time_major, false)}};
              });
}

// BIDIRECTIONAL_SEQUENCE_LSTM's 48 inputs: the forward cell, the backward
// cell, the four states, no auxiliary input.
OpCase Bidirectional(bool merge) {
  tflite::BidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.time_major = true;
  o.merge_outputs = merge;
  std::vector<InputSpec> in = {Data({kTime, kBatch, kInput})};
  AddCell(&in, 3, 2);
  AddCell(&in, 3, 2);
  for (int i = 0; i < 4; ++i) in.push_back(Variable({kBatch, kCell}));
  for (int i = 0; i < 9; ++i) in.push_back(Omitted());
  return Lstm(merge ? "Merged" : "Separate", tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
              std::move(in), Opts(o),
              [merge](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
                const std::vector<double> fw = Run(Cell{&d, 1}, d[0].v, kTime, true, false);
                const std::vector<double> bw = Run(Cell{&d, 13}, d[0].v, kTime, true, true);
                if (!merge) {
                  return std::vector<FTensor>{{{kTime, kBatch, kCell}, fw},
                                              {{kTime, kBatch, kCell}, bw}};
                }
                std::vector<double> both;
                for (size_t row = 0; row < fw.size() / kCell; ++row) {
                  both.insert(both.end(), fw.begin() + row * kCell, fw.begin() + (row + 1) * kCell);
                  both.insert(both.end(), bw.begin() + row * kCell, bw.begin() + (row + 1) * kCell);
                }
                return std::vector<FTensor>{{{kTime, kBatch, 2 * kCell}, both}};
              });
}

// LSTM: one step of a batch [kBatch, kInput]; `change` edits the inputs
// (error cases).
OpCase OneStep(const std::string& name,
               const std::function<void(std::vector<InputSpec>*)>& change = {}) {
  tflite::LSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  o.kernel_type = tflite::LSTMKernelType_FULL;
  std::vector<InputSpec> in = OneCellInputs({kBatch, kInput});
  if (change) change(&in);
  return Lstm(name, tflite::BuiltinOperator_LSTM, std::move(in), Opts(o),
              [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
                return std::vector<FTensor>{
                    {{kBatch, kCell}, Run(Cell{&d, 1}, d[0].v, 1, true, false)}};
              });
}

OpCase Failing(OpCase c, std::string error) {
  c.outcome = Outcome::kPrepareFails;
  c.error = std::move(error);
  return c;
}

}  // namespace

std::vector<OpCase> LstmCases() {
  return {
      OneStep("OneStep"),
      Unidirectional(true),
      Unidirectional(false),
      Bidirectional(false),
      Bidirectional(true),
      // Input 9 (cell to input) without 10 and 11.
      Failing(OneStep("LonePeephole", [](std::vector<InputSpec>* in) { (*in)[9] = Weights({kCell}); }),
              "peephole weights must be all present or all omitted"),
      // Inputs 18 and 19 fed instead of variable.
      Failing(OneStep("StatesNotVariable",
                      [](std::vector<InputSpec>* in) {
                        (*in)[18] = Data({kBatch, kCell});
                        (*in)[19] = Data({kBatch, kCell});
                      }),
              "output state and cell state must be variable tensors"),
  };
}

}  // namespace op_table
}  // namespace tflite_c

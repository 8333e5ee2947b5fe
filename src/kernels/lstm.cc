// LSTM (one time step) and UNIDIRECTIONAL_SEQUENCE_LSTM (a whole sequence),
// the "full" kernel with 20 or 24 inputs:
//    0 input                      [batch, n_input] / [time, batch, n_input]
//  1-4 input_to_{input,forget,cell,output}_weights       [n_cell, n_input]
//  5-8 recurrent_to_{input,forget,cell,output}_weights   [n_cell, n_output]
// 9-11 cell_to_{input,forget,output}_weights (peephole)  [n_cell], optional
// 12-15 {input,forget,cell,output}_gate_bias             [n_cell]
//   16 projection_weights [n_output, n_cell], optional; 17 projection_bias
//   18 output state [batch, n_output], 19 cell state [batch, n_cell]: both
//      variable tensors, carried from one Invoke to the next
// 20-23 {input,forget,cell,output} layer-norm coefficients [n_cell], optional
// An omitted input_to_input_weights selects CIFG (input gate = 1 - forget).
//
// Per step:  i = sigmoid(LN(Wi x + Ri h + Pi .* c) + bi)   (or 1 - f with CIFG)
//            f = sigmoid(LN(Wf x + Rf h + Pf .* c) + bf)
//            g = act(LN(Wc x + Rc h) + bc)
//            c = clip(f .* c + i .* g, cell_clip)
//            o = sigmoid(LN(Wo x + Ro h + Po .* c) + bo)   (new c)
//            h = o .* act(c), then h = clip(P h + pb, proj_clip) with projection
// Without layer norm the bias is added before the activation instead.
//
// Types: FLOAT32 throughout, or fully integer (int8 input/weights/output
// state/output, int32 biases, int16 cell state, peephole and layer-norm
// coefficients) with 5 quantized intermediates as produced by the converter
// (upstream's 8x8->16 kernel). Hybrid (int8 weights, float activations) and
// the BASIC kernel are not supported.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/lstm_integer.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/register_recurrent.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

enum Input {
  kInput = 0,
  kInputToInput = 1,
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecurrentToInput = 5,
  kRecurrentToForget = 6,
  kRecurrentToCell = 7,
  kRecurrentToOutput = 8,
  kCellToInput = 9,
  kCellToForget = 10,
  kCellToOutput = 11,
  kInputGateBias = 12,
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
};

// The inputs' names in messages, by Input index.
constexpr const char* kInputName[] = {
    "input",
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_gate_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
    "output_state",
    "cell_state",
    "input_layer_norm_coefficients",
    "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients",
    "output_layer_norm_coefficients",
};
static_assert(sizeof(kInputName) / sizeof(kInputName[0]) == kOutputLayerNorm + 1,
              "one name per input");

// Gate order used by every per-gate array below.
enum Gate { kGateInput = 0, kGateForget = 1, kGateCell = 2, kGateOutput = 3 };

// The inputs of each gate, by Gate (-1: the cell gate has no peephole).
constexpr int kInputWeightsOf[4] = {kInputToInput, kInputToForget, kInputToCell, kInputToOutput};
constexpr int kRecurrentWeightsOf[4] = {kRecurrentToInput, kRecurrentToForget, kRecurrentToCell,
                                        kRecurrentToOutput};
constexpr int kPeepholeOf[4] = {kCellToInput, kCellToForget, -1, kCellToOutput};
constexpr int kLayerNormOf[4] = {kInputLayerNorm, kForgetLayerNorm, kCellLayerNorm,
                                 kOutputLayerNorm};
constexpr int kBiasOf[4] = {kInputGateBias, kForgetGateBias, kCellGateBias, kOutputGateBias};

struct Multiplier {
  int32_t a = 0;
  int b = 0;
};

Multiplier ToMultiplier(double real) {
  const internal::QuantizedMultiplier q = internal::QuantizeMultiplier(real);
  return {q.multiplier, q.shift};
}

// Quantization-derived constants of the integer kernel.
struct IntegerParams {
  Multiplier input_scale[4];      // input -> gate accumulator
  Multiplier recurrent_scale[4];  // output state -> gate accumulator
  Multiplier cell_scale_m[4];     // peephole (forget, input, output)
  Multiplier layer_norm_scale[4];
  int32_t variance_guard[4] = {0, 0, 0, 0};
  Multiplier hidden_scale;
  Multiplier proj_scale;
  int32_t hidden_zp = 0;
  int cell_scale = 0;  // log2 of the cell state scale
  int16_t cell_clip = 0;
  int8_t proj_clip = 0;
  int32_t output_state_zp = 0;
  // bias (without layer norm) + the zero point folded into each row.
  std::vector<int32_t> input_bias[4];
  std::vector<int32_t> recurrent_bias[4];
  std::vector<int32_t> projection_bias;
};

struct OpData {
  bool sequence = false;  // UNIDIRECTIONAL_SEQUENCE_LSTM
  bool time_major = true;
  bool integer = false;
  bool use_cifg = false;
  bool use_peephole = false;
  bool use_layer_norm = false;
  bool use_projection = false;
  int max_time = 1;
  int n_batch = 0;
  int n_input = 0;
  int n_cell = 0;
  int n_output = 0;
  TfLiteFusedActivation activation = kTfLiteActTanh;
  float cell_clip = 0.0f;
  float proj_clip = 0.0f;
  std::vector<float> scratch;  // float: 4 gates + accumulator, n_batch * n_cell each
  std::vector<int16_t> scratch16;  // integer: 4 gates
  std::vector<int8_t> scratch8;
  IntegerParams q;
};

const char* OpName(const OpData* d) {
  return d->sequence ? "UNIDIRECTIONAL_SEQUENCE_LSTM" : "LSTM";
}

void* InitLstm(TfLiteContext*, const char*, size_t) { return new OpData(); }
void* InitSequence(TfLiteContext*, const char*, size_t) {
  auto* d = new OpData();
  d->sequence = true;
  return d;
}
void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

// ---- Prepare ------------------------------------------------------------------

TfLiteStatus CheckShape(TfLiteContext* context, const char* op, const char* what,
                        const TfLiteTensor* t, std::initializer_list<int> dims) {
  if (t == nullptr) return kTfLiteOk;
  bool ok = internal::NumDims(t) == static_cast<int>(dims.size());
  int i = 0;
  for (int d : dims) {
    if (!ok) break;
    ok = internal::Dim(t, i++) == d;
  }
  if (!ok) {
    char got[64];
    char want[64];
    internal::IntArrayPtr w = internal::MakeIntArray(dims);
    TF_LITE_KERNEL_LOG(context, "%s: %s has shape %s, expected %s", op, what,
                       internal::ShapeToString(t->dims, got, sizeof(got)),
                       internal::ShapeToString(w.get(), want, sizeof(want)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Every present input of `indices` must be of `type`.
TfLiteStatus ExpectAllType(TfLiteContext* context, TfLiteNode* node, const char* op,
                           std::initializer_list<int> indices, TfLiteType type) {
  for (int i : indices) {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, kInputName[i],
                                                    internal::GetOptionalInput(context, node, i),
                                                    type));
  }
  return kTfLiteOk;
}

TfLiteStatus GetScale(TfLiteContext* context, const char* op, const char* what,
                      const TfLiteTensor* t, float* scale, int32_t* zp = nullptr) {
  internal::QuantParams qp;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, what, t, &qp));
  *scale = qp.scale;
  if (zp != nullptr) {
    *zp = qp.zero_point;
  } else if (qp.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must have zero point 0, got %d", op, what,
                       static_cast<int>(qp.zero_point));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// bias[r] (or 0) + zero_point * sum_c w[r, c].
std::vector<int32_t> FoldedBias(const TfLiteTensor* w, const TfLiteTensor* bias, int32_t zp) {
  std::vector<int32_t> out;
  if (w == nullptr) return out;
  const int rows = internal::Dim(w, 0);
  const int cols = internal::Dim(w, 1);
  out.assign(rows, 0);
  if (bias != nullptr) std::memcpy(out.data(), bias->data.raw, rows * sizeof(int32_t));
  if (zp != 0) internal::AddRowSumsTimes(static_cast<const int8_t*>(w->data.data), zp, rows, cols, out.data());
  return out;
}

TfLiteStatus PrepareInteger(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  const char* op = OpName(d);
  if (node->intermediates == nullptr || node->intermediates->size != 5) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: integer LSTM needs 5 intermediate tensors with the gate and hidden "
                       "quantization, got %d (only the 8x8->16 kernel is supported)",
                       op, node->intermediates ? node->intermediates->size : 0);
    return kTfLiteError;
  }
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  const TfLiteTensor* input = in(kInput);
  const TfLiteTensor* output_state = in(kOutputState);
  const TfLiteTensor* cell_state = in(kCellState);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);

  // Types.
  TF_LITE_ENSURE_OK(context, ExpectAllType(context, node, op,
                                           {kInputToInput, kInputToForget, kInputToCell,
                                            kInputToOutput, kRecurrentToInput, kRecurrentToForget,
                                            kRecurrentToCell, kRecurrentToOutput,
                                            kProjectionWeights, kOutputState},
                                           kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "output", output, kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, ExpectAllType(context, node, op,
                                           {kInputGateBias, kForgetGateBias, kCellGateBias,
                                            kOutputGateBias, kProjectionBias},
                                           kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, ExpectAllType(context, node, op,
                                           {kCellToInput, kCellToForget, kCellToOutput,
                                            kInputLayerNorm, kForgetLayerNorm, kCellLayerNorm,
                                            kOutputLayerNorm, kCellState},
                                           kTfLiteInt16));

  IntegerParams& q = d->q;
  float input_scale, output_state_scale, cell_state_scale;
  int32_t input_zp;
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "input", input, &input_scale, &input_zp));
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "output_state", output_state,
                                      &output_state_scale, &q.output_state_zp));
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "cell_state", cell_state, &cell_state_scale));
  float output_scale;
  int32_t output_zp;
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "output", output, &output_scale, &output_zp));

  // The cell state scale must be a power of two.
  const float log2_scale = std::log(cell_state_scale) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2_scale);
  if (!(std::abs(log2_scale - rounded) < 1e-3f)) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_state scale %g is not a power of two", op,
                       cell_state_scale);
    return kTfLiteError;
  }
  q.cell_scale = static_cast<int>(rounded);
  // tanh(cell) reads the cell state with 15 + cell_scale integer bits.
  if (15 + q.cell_scale < 0 || 15 + q.cell_scale > 6) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_state scale 2^%d is not supported (2^-15..2^-9)", op,
                       q.cell_scale);
    return kTfLiteError;
  }

  if (d->cell_clip > 0.0f) {
    q.cell_clip = static_cast<int16_t>(
        std::min(std::max(d->cell_clip / cell_state_scale, -32768.0f), 32767.0f));
  } else {
    q.cell_clip = 0;
  }
  if (d->proj_clip > 0.0f) {
    q.proj_clip = static_cast<int8_t>(
        std::min(std::max(d->proj_clip / output_scale, -128.0f), 127.0f));
  } else {
    q.proj_clip = 0;
  }

  // Gate accumulator scales: quantized intermediates with layer norm, else Q3.12.
  float gate_scale[4];
  for (int g = 0; g < 4; ++g) {
    if (d->use_layer_norm) {
      const TfLiteTensor* t = &context->tensors[node->intermediates->data[g]];
      int32_t zp;
      TF_LITE_ENSURE_OK(context, GetScale(context, op, "gate intermediate", t, &gate_scale[g], &zp));
    } else {
      gate_scale[g] = std::pow(2.0f, -12.0f);
    }
  }
  float hidden_scale;
  {
    const TfLiteTensor* t = &context->tensors[node->intermediates->data[4]];
    TF_LITE_ENSURE_OK(
        context, GetScale(context, op, "hidden intermediate", t, &hidden_scale, &q.hidden_zp));
  }

  auto weight_scale = [&](int i, float* s) -> TfLiteStatus {
    const TfLiteTensor* t = in(i);
    *s = 1.0f;
    if (t == nullptr) return kTfLiteOk;
    return GetScale(context, op, "weights", t, s);
  };
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && d->use_cifg) continue;
    float ws, rs;
    TF_LITE_ENSURE_OK(context, weight_scale(kInputWeightsOf[g], &ws));
    TF_LITE_ENSURE_OK(context, weight_scale(kRecurrentWeightsOf[g], &rs));
    const float eff_in = ws * input_scale / gate_scale[g];
    const float eff_rec = rs * output_state_scale / gate_scale[g];
    q.input_scale[g] = ToMultiplier(eff_in);
    q.recurrent_scale[g] = ToMultiplier(eff_rec);
    if (d->use_peephole && kPeepholeOf[g] >= 0) {
      float ps;
      TF_LITE_ENSURE_OK(context, weight_scale(kPeepholeOf[g], &ps));
      const float eff = std::pow(2.0, q.cell_scale) * ps / gate_scale[g];
      q.cell_scale_m[g] = ToMultiplier(eff);
    }
    float ln_scale = 1.0f;
    if (d->use_layer_norm) TF_LITE_ENSURE_OK(context, weight_scale(kLayerNormOf[g], &ln_scale));
    q.layer_norm_scale[g] = ToMultiplier(ln_scale);
    q.variance_guard[g] = std::max(1, static_cast<int32_t>(10000 * ln_scale));

    const TfLiteTensor* bias = d->use_layer_norm ? nullptr : in(kBiasOf[g]);
    q.input_bias[g] = FoldedBias(in(kInputWeightsOf[g]), bias, -input_zp);
    q.recurrent_bias[g] = FoldedBias(in(kRecurrentWeightsOf[g]), nullptr, -q.output_state_zp);
  }
  const float eff_hidden = std::pow(2.0, -15) / hidden_scale * std::pow(2.0, -15);
  q.hidden_scale = ToMultiplier(eff_hidden);
  if (d->use_projection) {
    float ps;
    TF_LITE_ENSURE_OK(context, weight_scale(kProjectionWeights, &ps));
    const float eff_proj = ps * hidden_scale / output_state_scale;
    q.proj_scale = ToMultiplier(eff_proj);
    q.projection_bias = FoldedBias(in(kProjectionWeights), in(kProjectionBias), q.hidden_zp);
  }
  const size_t cells = static_cast<size_t>(d->n_batch) * d->n_cell;
  d->scratch16.assign(4 * cells, 0);
  d->scratch8.assign(cells, 0);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const char* op = OpName(d);
  const int num_inputs = internal::NumInputs(node);
  if (num_inputs != 20 && num_inputs != 24) {
    TF_LITE_KERNEL_LOG(context, "%s: expected 20 or 24 inputs (full kernel), got %d", op,
                       num_inputs);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, num_inputs, num_inputs, 1));
  if (node->builtin_data == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: missing options", op);
    return kTfLiteError;
  }
  if (d->sequence) {
    const auto* p = static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
    if (p->diagonal_recurrent_tensors) {
      TF_LITE_KERNEL_LOG(context, "%s: diagonal recurrent tensors are not supported", op);
      return kTfLiteError;
    }
    d->activation = p->activation;
    d->cell_clip = p->cell_clip;
    d->proj_clip = p->proj_clip;
    d->time_major = p->time_major;
  } else {
    const auto* p = static_cast<const TfLiteLSTMParams*>(node->builtin_data);
    if (p->kernel_type != kTfLiteLSTMFullKernel) {
      TF_LITE_KERNEL_LOG(context, "%s: the BASIC kernel type is not supported", op);
      return kTfLiteError;
    }
    d->activation = p->activation;
    d->cell_clip = p->cell_clip;
    d->proj_clip = p->proj_clip;
    d->time_major = true;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckRecurrentActivation(context, op, d->activation));
  if (d->cell_clip < 0.0f || d->proj_clip < 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_clip and proj_clip must not be negative", op);
    return kTfLiteError;
  }

  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, op, &input));
  const int required[] = {kInputToForget,     kInputToCell,    kInputToOutput,
                          kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput,
                          kForgetGateBias,    kCellGateBias,    kOutputGateBias,
                          kOutputState,       kCellState};
  for (int i : required) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, op, &t));
  }
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));

  // Shapes.
  internal::SequenceDims dims;
  TF_LITE_ENSURE_OK(context,
                    internal::GetSequenceDims(context, op, input, d->sequence, d->time_major, &dims));
  d->max_time = dims.max_time;
  d->n_batch = dims.n_batch;
  d->n_input = dims.n_input;
  const TfLiteTensor* forget_w = in(kInputToForget);
  const TfLiteTensor* rec_out_w = in(kRecurrentToOutput);
  if (internal::NumDims(forget_w) != 2 || internal::NumDims(rec_out_w) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: weights must be 2-D", op);
    return kTfLiteError;
  }
  d->n_cell = internal::Dim(forget_w, 0);
  d->n_output = internal::Dim(rec_out_w, 1);
  const int n_cell = d->n_cell, n_input = d->n_input, n_output = d->n_output;
  if (d->n_batch < 0 || d->max_time < 0 || n_cell <= 0 || n_output <= 0 || n_input <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: empty dimensions are not supported", op);
    return kTfLiteError;
  }

  d->use_cifg = in(kInputToInput) == nullptr;
  if ((in(kRecurrentToInput) == nullptr) != d->use_cifg) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: input_to_input_weights and recurrent_to_input_weights must be both "
                       "present or both omitted (CIFG)",
                       op);
    return kTfLiteError;
  }
  if (!d->use_cifg && in(kInputGateBias) == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: input_gate_bias is required without CIFG", op);
    return kTfLiteError;
  }
  d->use_peephole = in(kCellToOutput) != nullptr;
  if ((in(kCellToForget) != nullptr) != d->use_peephole ||
      (!d->use_cifg && (in(kCellToInput) != nullptr) != d->use_peephole)) {
    TF_LITE_KERNEL_LOG(context, "%s: peephole weights must be all present or all omitted", op);
    return kTfLiteError;
  }
  d->use_projection = in(kProjectionWeights) != nullptr;
  if (!d->use_projection && in(kProjectionBias) != nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: projection_bias needs projection_weights", op);
    return kTfLiteError;
  }
  if (!d->use_projection && n_output != n_cell) {
    TF_LITE_KERNEL_LOG(context, "%s: without projection the output size (%d) must equal n_cell (%d)",
                       op, n_output, n_cell);
    return kTfLiteError;
  }
  d->use_layer_norm = num_inputs == 24 && in(kForgetLayerNorm) != nullptr;
  if (num_inputs == 24) {
    const bool cell_ln = in(kCellLayerNorm) != nullptr;
    const bool out_ln = in(kOutputLayerNorm) != nullptr;
    const bool in_ln = in(kInputLayerNorm) != nullptr;
    if (cell_ln != d->use_layer_norm || out_ln != d->use_layer_norm ||
        (d->use_cifg ? in_ln : in_ln != d->use_layer_norm)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: layer norm coefficients must be all present or all omitted "
                         "(input ones omitted with CIFG)",
                         op);
      return kTfLiteError;
    }
  }
  const int n_batch = d->n_batch;
  // The input-gate tensors are ignored with CIFG.
  auto check_shapes = [&](std::initializer_list<int> indices,
                          std::initializer_list<int> dims) -> TfLiteStatus {
    for (int i : indices) {
      const bool ignored =
          d->use_cifg && (i == kCellToInput || i == kInputGateBias || i == kInputLayerNorm);
      TF_LITE_ENSURE_OK(context,
                        CheckShape(context, op, kInputName[i], ignored ? nullptr : in(i), dims));
    }
    return kTfLiteOk;
  };
  TF_LITE_ENSURE_OK(context, check_shapes({kInputToInput, kInputToForget, kInputToCell,
                                           kInputToOutput},
                                          {n_cell, n_input}));
  TF_LITE_ENSURE_OK(context, check_shapes({kRecurrentToInput, kRecurrentToForget,
                                           kRecurrentToCell, kRecurrentToOutput},
                                          {n_cell, n_output}));
  if (d->use_peephole) {
    TF_LITE_ENSURE_OK(context,
                      check_shapes({kCellToInput, kCellToForget, kCellToOutput}, {n_cell}));
  }
  TF_LITE_ENSURE_OK(context, check_shapes({kInputGateBias, kForgetGateBias, kCellGateBias,
                                           kOutputGateBias},
                                          {n_cell}));
  TF_LITE_ENSURE_OK(context, check_shapes({kProjectionWeights}, {n_output, n_cell}));
  TF_LITE_ENSURE_OK(context, check_shapes({kProjectionBias}, {n_output}));
  if (d->use_layer_norm) {
    TF_LITE_ENSURE_OK(context, check_shapes({kInputLayerNorm, kForgetLayerNorm, kCellLayerNorm,
                                             kOutputLayerNorm},
                                            {n_cell}));
  }
  const TfLiteTensor* output_state = in(kOutputState);
  const TfLiteTensor* cell_state = in(kCellState);
  if (!output_state->is_variable || !cell_state->is_variable) {
    TF_LITE_KERNEL_LOG(context, "%s: output state and cell state must be variable tensors", op);
    return kTfLiteError;
  }
  if (internal::NumElements(output_state) != int64_t{n_batch} * n_output ||
      internal::NumElements(cell_state) != int64_t{n_batch} * n_cell) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: output state must hold %d x %d and cell state %d x %d elements", op,
                       n_batch, n_output, n_batch, n_cell);
    return kTfLiteError;
  }

  if (input->type == kTfLiteFloat32) {
    for (int i = 1; i < num_inputs; ++i) {
      const TfLiteTensor* t = in(i);
      if (t != nullptr && t->type != kTfLiteFloat32) {
        if (t->type == kTfLiteInt8 || t->type == kTfLiteUInt8) {
          TF_LITE_KERNEL_LOG(context,
                             "%s: hybrid quantization (%s weights with float input) is not "
                             "supported",
                             op, TfLiteTypeGetName(t->type));
        } else {
          TF_LITE_KERNEL_LOG(context, "%s: input %d type %s is not supported with float input",
                             op, i, TfLiteTypeGetName(t->type));
        }
        return kTfLiteError;
      }
    }
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "output", output, kTfLiteFloat32));
    d->integer = false;
    d->scratch.assign(static_cast<size_t>(5) * n_batch * n_cell +
                          static_cast<size_t>(n_batch) * n_output,
                      0.0f);
  } else if (input->type == kTfLiteInt8) {
    d->integer = true;
    TF_LITE_ENSURE_OK(context, PrepareInteger(context, node, d));
  } else {
    return internal::UnsupportedType(context, op, "input", input->type);
  }

  return internal::ResizeSequenceOutput(context, input, output, d->sequence, n_batch, n_output);
}

// ---- float --------------------------------------------------------------------

// acc[b, r] += sum_c x[b, c] * w[r, c]; `tmp` holds n_batch * rows floats.
void MatMulAccumulate(const float* w, int rows, int cols, const float* x, int n_batch, float* acc,
                      float* tmp) {
  internal::MatMulTransposedRhs({x, n_batch, cols, cols}, {w, rows, cols, cols},
                                {tmp, n_batch, rows, rows}, 1);
  for (int i = 0; i < n_batch * rows; ++i) acc[i] += tmp[i];
}

struct FloatWeights {
  const float* input_w[4];
  const float* recurrent_w[4];
  const float* peephole[4];
  const float* layer_norm[4];
  const float* bias[4];
  const float* projection_w;
  const float* projection_b;
};

const float* FloatData(const TfLiteTensor* t) {
  return t == nullptr ? nullptr : static_cast<const float*>(t->data.data);
}

// One time step for `n_batch` rows: x [n_batch, n_input] -> h (output state),
// c (cell state) updated in place; the new h is copied to `out`.
void StepFloat(const OpData& d, const FloatWeights& w, int n_batch, const float* x, float* h,
               float* c, float* out, float* scratch) {
  const int n_cell = d.n_cell;
  const int nc = n_batch * n_cell;
  float* gates[4] = {scratch, scratch + nc, scratch + 2 * nc, scratch + 3 * nc};
  float* tmp = scratch + 4 * nc;  // max(nc, n_batch * n_output) floats
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && d.use_cifg) continue;
    if (g == kGateOutput) {
      // The cell state is updated before the output gate reads it.
      float* f = gates[kGateForget];
      const float* gi = gates[kGateInput];
      const float* gc = gates[kGateCell];
      for (int i = 0; i < nc; ++i) {
        const float input_gate = d.use_cifg ? 1.0f - f[i] : gi[i];
        float v = f[i] * c[i] + input_gate * gc[i];
        if (d.cell_clip > 0.0f) v = std::min(d.cell_clip, std::max(-d.cell_clip, v));
        c[i] = v;
      }
    }
    float* gate = gates[g];
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < n_cell; ++i) gate[b * n_cell + i] = d.use_layer_norm ? 0.0f : w.bias[g][i];
    }
    MatMulAccumulate(w.input_w[g], n_cell, d.n_input, x, n_batch, gate, tmp);
    MatMulAccumulate(w.recurrent_w[g], n_cell, d.n_output, h, n_batch, gate, tmp);
    if (d.use_peephole && g != kGateCell) {
      for (int b = 0; b < n_batch; ++b) {
        for (int i = 0; i < n_cell; ++i) {
          gate[b * n_cell + i] += w.peephole[g][i] * c[b * n_cell + i];
        }
      }
    }
    if (d.use_layer_norm) {
      for (int b = 0; b < n_batch; ++b) {
        float* row = gate + b * n_cell;
        float sum = 0.0f;
        for (int i = 0; i < n_cell; ++i) sum += row[i];
        const float mean = sum / n_cell;
        float sq = 0.0f;
        for (int i = 0; i < n_cell; ++i) sq += (row[i] - mean) * (row[i] - mean);
        const float inv_stddev = 1.0f / std::sqrt(sq / n_cell + 1e-8f);
        for (int i = 0; i < n_cell; ++i) {
          row[i] = (row[i] - mean) * inv_stddev * w.layer_norm[g][i] + w.bias[g][i];
        }
      }
    }
    internal::ApplyRecurrentActivation(g == kGateCell ? d.activation : kTfLiteActSigmoid, gate,
                                       nc, gate);
  }
  // h = o .* act(c), optionally projected.
  float* hidden = gates[kGateCell];  // the cell gate is no longer needed
  internal::ApplyRecurrentActivation(d.activation, c, nc, hidden);
  for (int i = 0; i < nc; ++i) hidden[i] *= gates[kGateOutput][i];
  const int no = n_batch * d.n_output;
  if (d.use_projection) {
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < d.n_output; ++i) {
        h[b * d.n_output + i] = w.projection_b ? w.projection_b[i] : 0.0f;
      }
    }
    MatMulAccumulate(w.projection_w, d.n_output, n_cell, hidden, n_batch, h, tmp);
    if (d.proj_clip > 0.0f) {
      for (int i = 0; i < no; ++i) h[i] = std::min(d.proj_clip, std::max(-d.proj_clip, h[i]));
    }
  } else {
    std::memcpy(h, hidden, sizeof(float) * no);
  }
  std::memcpy(out, h, sizeof(float) * no);
}

// ---- integer ------------------------------------------------------------------

struct IntegerWeights {
  const int8_t* input_w[4];
  const int8_t* recurrent_w[4];
  const int16_t* peephole[4];
  const int16_t* layer_norm[4];
  const int32_t* bias[4];
  const int8_t* projection_w;
};

void StepInteger(const OpData& d, const IntegerWeights& w, int n_batch, const int8_t* x,
                 int8_t* h, int16_t* c, int8_t* out, int16_t* scratch16, int8_t* scratch8) {
  const IntegerParams& q = d.q;
  const int n_cell = d.n_cell;
  const int nc = n_batch * n_cell;
  int16_t* gates[4] = {scratch16, scratch16 + nc, scratch16 + 2 * nc, scratch16 + 3 * nc};
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && d.use_cifg) continue;
    if (g == kGateOutput) {
      int16_t* f = gates[kGateForget];
      internal::CwiseMulShift(f, c, nc, 15, c);
      int16_t* tmp = f;  // the forget gate is not needed any more
      if (d.use_cifg) {
        for (int i = 0; i < nc; ++i) tmp[i] = static_cast<int16_t>(32767 - f[i]);
        internal::CwiseMulShift(tmp, gates[kGateCell], nc, 30 + q.cell_scale, tmp);
      } else {
        internal::CwiseMulShift(gates[kGateInput], gates[kGateCell], nc, 30 + q.cell_scale, tmp);
      }
      internal::CwiseAddSat(c, tmp, nc, c);
      if (q.cell_clip > 0) {
        for (int i = 0; i < nc; ++i) {
          c[i] = static_cast<int16_t>(std::min<int32_t>(q.cell_clip, std::max<int32_t>(-q.cell_clip, c[i])));
        }
      }
    }
    int16_t* gate = gates[g];
    std::fill_n(gate, nc, 0);
    internal::MatVecAccumulate(x, q.input_bias[g].data(), w.input_w[g], q.input_scale[g].a,
                               q.input_scale[g].b, n_batch, d.n_input, n_cell, 0, gate);
    internal::MatVecAccumulate(h, q.recurrent_bias[g].data(), w.recurrent_w[g],
                               q.recurrent_scale[g].a, q.recurrent_scale[g].b, n_batch,
                               d.n_output, n_cell, 0, gate);
    if (d.use_peephole && g != kGateCell) {
      internal::VectorBatchProductAccumulate(w.peephole[g], n_cell, c, n_batch,
                                             q.cell_scale_m[g].a, q.cell_scale_m[g].b, gate);
    }
    if (d.use_layer_norm) {
      internal::Int16LayerNorm(gate, w.layer_norm[g], w.bias[g], q.layer_norm_scale[g].a,
                               q.layer_norm_scale[g].b, q.variance_guard[g], n_batch, n_cell,
                               gate);
    }
    if (g == kGateCell) {
      internal::Int16Tanh(3, gate, nc, gate);
    } else {
      internal::Int16Sigmoid(gate, nc, gate);
    }
  }
  int16_t* tanh_c = gates[kGateInput];  // free after the cell update
  internal::Int16Tanh(15 + q.cell_scale, c, nc, tanh_c);
  const int no = n_batch * d.n_output;
  if (d.use_projection) {
    internal::CwiseMulRequant(gates[kGateOutput], tanh_c, nc, q.hidden_scale.a, q.hidden_scale.b,
                              -q.hidden_zp, scratch8);
    std::fill_n(h, no, 0);
    internal::MatVecAccumulate(scratch8, q.projection_bias.data(), w.projection_w, q.proj_scale.a,
                               q.proj_scale.b, n_batch, n_cell, d.n_output, q.output_state_zp, h);
    if (q.proj_clip > 0) {
      for (int i = 0; i < no; ++i) {
        h[i] = static_cast<int8_t>(std::min<int32_t>(q.proj_clip, std::max<int32_t>(-q.proj_clip, h[i])));
      }
    }
  } else {
    internal::CwiseMulRequant(gates[kGateOutput], tanh_c, nc, q.hidden_scale.a, q.hidden_scale.b,
                              q.hidden_zp, h);
  }
  std::memcpy(out, h, no);
}

// Runs `step(x, h, c, out, n_batch)` over the sequence: all batches at once
// per step when time-major, else one batch row at a time through its sequence.
template <typename T, typename S, typename Step>
void RunSequence(const OpData& d, const T* input, T* output, T* h, S* c, Step step) {
  const int64_t n_in = d.n_input, n_out = d.n_output, n_cell = d.n_cell;
  internal::ForEachSequenceStep(d.time_major, d.max_time, d.n_batch,
                                [&](int64_t row, int b, int n_rows) {
                                  step(input + row * n_in, h + b * n_out, c + b * n_cell,
                                       output + row * n_out, n_rows);
                                });
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  const TfLiteTensor* input = in(kInput);
  TfLiteTensor* output_state = &context->tensors[node->inputs->data[kOutputState]];
  TfLiteTensor* cell_state = &context->tensors[node->inputs->data[kCellState]];
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  const bool has_ln_inputs = internal::NumInputs(node) == 24;
  if (!d->integer) {
    FloatWeights w{};
    for (int g = 0; g < 4; ++g) {
      w.input_w[g] = FloatData(in(kInputWeightsOf[g]));
      w.recurrent_w[g] = FloatData(in(kRecurrentWeightsOf[g]));
      w.peephole[g] = kPeepholeOf[g] >= 0 ? FloatData(in(kPeepholeOf[g])) : nullptr;
      w.layer_norm[g] = has_ln_inputs ? FloatData(in(kLayerNormOf[g])) : nullptr;
      w.bias[g] = FloatData(in(kBiasOf[g]));
    }
    w.projection_w = FloatData(in(kProjectionWeights));
    w.projection_b = FloatData(in(kProjectionBias));
    float* scratch = d->scratch.data();
    RunSequence<float, float>(*d, FloatData(input), static_cast<float*>(output->data.data),
                              static_cast<float*>(output_state->data.data),
                              static_cast<float*>(cell_state->data.data),
                              [&](const float* x, float* h, float* c, float* out, int n_batch) {
                                StepFloat(*d, w, n_batch, x, h, c, out, scratch);
                              });
    return kTfLiteOk;
  }
  IntegerWeights w{};
  auto i8 = [&](int i) {
    const TfLiteTensor* t = i >= 0 ? in(i) : nullptr;
    return t ? static_cast<const int8_t*>(t->data.data) : nullptr;
  };
  auto i16 = [&](int i) {
    const TfLiteTensor* t = i >= 0 ? in(i) : nullptr;
    return t ? static_cast<const int16_t*>(t->data.data) : nullptr;
  };
  for (int g = 0; g < 4; ++g) {
    w.input_w[g] = i8(kInputWeightsOf[g]);
    w.recurrent_w[g] = i8(kRecurrentWeightsOf[g]);
    w.peephole[g] = i16(kPeepholeOf[g]);
    w.layer_norm[g] = has_ln_inputs ? i16(kLayerNormOf[g]) : nullptr;
    const TfLiteTensor* b = in(kBiasOf[g]);
    w.bias[g] = b ? static_cast<const int32_t*>(b->data.data) : nullptr;
  }
  w.projection_w = i8(kProjectionWeights);
  RunSequence<int8_t, int16_t>(
      *d, static_cast<const int8_t*>(input->data.data), static_cast<int8_t*>(output->data.data),
      static_cast<int8_t*>(output_state->data.data), static_cast<int16_t*>(cell_state->data.data),
      [&](const int8_t* x, int8_t* h, int16_t* c, int8_t* out, int n_batch) {
        StepInteger(*d, w, n_batch, x, h, c, out, d->scratch16.data(), d->scratch8.data());
      });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_LSTM() {
  static const TfLiteRegistration r = internal::MakeRegistration(InitLstm, Free, Prepare, Eval);
  return &r;
}

const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(InitSequence, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

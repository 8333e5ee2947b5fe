// The fully integer LSTM cell (upstream's 8x8->16 kernel) of LSTM and
// UNIDIRECTIONAL_SEQUENCE_LSTM: int8 input, weights, output state and output,
// int32 biases, int16 cell state, peephole and layer-norm coefficients, and
// 5 quantized intermediates (4 gates, hidden) as produced by the converter.
// Prepare (lstm.cc) validates options and shapes first. An LSTM with 12
// intermediates goes to the 8x8->8 kernel (lstm_integer8_eval.cc).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/lstm_integer.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/lstm_cell.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

Multiplier ToMultiplier(double real) {
  const internal::QuantizedMultiplier q = internal::QuantizeMultiplier(real);
  return {q.multiplier, q.shift};
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
internal::ScratchVector<int32_t> FoldedBias(const TfLiteTensor* w, const TfLiteTensor* bias,
                                            int32_t zp) {
  internal::ScratchVector<int32_t> out;
  if (w == nullptr) return out;
  const int rows = internal::Dim(w, 0);
  const int cols = internal::Dim(w, 1);
  out.assign(rows, 0);
  if (bias != nullptr) std::memcpy(out.data(), bias->data.raw, rows * sizeof(int32_t));
  if (zp != 0) internal::AddRowSumsTimes(static_cast<const int8_t*>(w->data.data), zp, rows, cols, out.data());
  return out;
}

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


// The quantization scales PrepareInteger reads from the activations and
// intermediates before it derives the cell's multipliers.
struct IntegerScales {
  float input = 0.0f;
  int32_t input_zp = 0;
  float output_state = 0.0f;
  float cell_state = 0.0f;
  float output = 0.0f;
  int32_t output_zp = 0;
  float gate[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float hidden = 0.0f;
};

// 5 intermediates select the 8x8->16 kernel, 12 the 8x8->8 one (LSTM only).
// Sets *handled when the 8x8->8 kernel took over the node.
TfLiteStatus SelectIntegerKernel(TfLiteContext* context, TfLiteNode* node, OpData* d,
                                 bool* handled) {
  const char* op = OpName(d);
  *handled = false;
  d->integer8x8_8 = false;
  if (node->intermediates != nullptr && node->intermediates->size == 12) {
    // As upstream, only LSTM has the 8x8->8 kernel.
    if (d->sequence) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: the 8x8->8 integer kernel (12 intermediates) is not supported "
                         "here (LSTM only); this op needs 5 intermediates (8x8->16)",
                         op);
      return kTfLiteError;
    }
    d->integer8x8_8 = true;
    *handled = true;
    return PrepareInteger8x8_8(context, node, d);
  }
  if (node->intermediates == nullptr || node->intermediates->size != 5) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: integer LSTM needs 5 intermediate tensors with the gate and hidden "
                       "quantization (8x8->16 kernel)%s, got %d",
                       op, d->sequence ? "" : " or 12 (8x8->8 kernel)",
                       node->intermediates ? node->intermediates->size : 0);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckIntegerTypes(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
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
  return ExpectAllType(context, node, op,
                       {kCellToInput, kCellToForget, kCellToOutput, kInputLayerNorm,
                        kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm, kCellState},
                       kTfLiteInt16);
}

TfLiteStatus ReadActivationScales(TfLiteContext* context, TfLiteNode* node, const char* op,
                                  IntegerParams* q, IntegerScales* s) {
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "input", in(kInput), &s->input, &s->input_zp));
  TF_LITE_ENSURE_OK(context, GetScale(context, op, "output_state", in(kOutputState),
                                      &s->output_state, &q->output_state_zp));
  TF_LITE_ENSURE_OK(context,
                    GetScale(context, op, "cell_state", in(kCellState), &s->cell_state));
  return GetScale(context, op, "output", internal::OutputAt(context, node, 0), &s->output,
                  &s->output_zp);
}

// The cell state scale must be a power of two within what tanh(cell) reads.
TfLiteStatus SetCellScale(TfLiteContext* context, const char* op, float cell_state_scale,
                          IntegerParams* q) {
  const float log2_scale = std::log(cell_state_scale) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2_scale);
  if (!(std::abs(log2_scale - rounded) < 1e-3f)) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_state scale %g is not a power of two", op,
                       cell_state_scale);
    return kTfLiteError;
  }
  q->cell_scale = static_cast<int>(rounded);
  // tanh(cell) reads the cell state with 15 + cell_scale integer bits.
  if (15 + q->cell_scale < 0 || 15 + q->cell_scale > 6) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_state scale 2^%d is not supported (2^-15..2^-9)", op,
                       q->cell_scale);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

void QuantizeClips(const OpData& d, const IntegerScales& s, IntegerParams* q) {
  q->cell_clip = QuantizeClip<int16_t>(d.cell_clip, s.cell_state);
  q->proj_clip = QuantizeClip<int8_t>(d.proj_clip, s.output);
}

// Gate accumulator scales (quantized intermediates with layer norm, else
// Q3.12) and the hidden intermediate's scale and zero point.
TfLiteStatus ReadIntermediateScales(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    const OpData& d, IntegerParams* q, IntegerScales* s) {
  for (int g = 0; g < 4; ++g) {
    if (d.use_layer_norm) {
      const TfLiteTensor* t = &context->tensors[node->intermediates->data[g]];
      int32_t zp;
      TF_LITE_ENSURE_OK(context, GetScale(context, op, "gate intermediate", t, &s->gate[g], &zp));
    } else {
      s->gate[g] = std::pow(2.0f, -12.0f);
    }
  }
  const TfLiteTensor* t = &context->tensors[node->intermediates->data[4]];
  return GetScale(context, op, "hidden intermediate", t, &s->hidden, &q->hidden_zp);
}

// These zero points multiply weight row sums and offset int8 values in
// int32 arithmetic: outside the int8 range they would overflow.
TfLiteStatus CheckInt8ZeroPoints(TfLiteContext* context, const char* op, const IntegerParams& q,
                                 const IntegerScales& s) {
  const struct {
    const char* what;
    int32_t zp;
  } int8_zps[] = {{"input", s.input_zp},
                  {"output_state", q.output_state_zp},
                  {"hidden intermediate", q.hidden_zp}};
  for (const auto& z : int8_zps) {
    if (z.zp < -128 || z.zp > 127) {
      TF_LITE_KERNEL_LOG(context, "%s: %s zero point %d is outside the INT8 range (not supported)",
                         op, z.what, static_cast<int>(z.zp));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// Weights and biases are folded into per-row constants here: they must
// hold data now (constant tensors), not be filled in at Invoke.
TfLiteStatus CheckFoldedInputsConstant(TfLiteContext* context, TfLiteNode* node, const char* op,
                                       const OpData& d) {
  std::vector<int> folded;
  for (int g = 0; g < 4; ++g) {
    folded.push_back(kInputWeightsOf[g]);
    folded.push_back(kRecurrentWeightsOf[g]);
    if (!d.use_layer_norm) folded.push_back(kBiasOf[g]);
  }
  if (d.use_projection) {
    folded.push_back(kProjectionWeights);
    folded.push_back(kProjectionBias);
  }
  for (int i : folded) {
    const TfLiteTensor* t = internal::GetOptionalInput(context, node, i);
    if (t != nullptr && t->bytes > 0 && (t->data.raw == nullptr || !internal::IsConstantOrPersistent(t))) {
      TF_LITE_KERNEL_LOG(context, "%s: weight / bias input %d must be a constant tensor", op, i);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// The scale of weight input `i` (1 when absent).
TfLiteStatus WeightScale(TfLiteContext* context, TfLiteNode* node, const char* op, int i,
                         float* s) {
  const TfLiteTensor* t = internal::GetOptionalInput(context, node, i);
  *s = 1.0f;
  if (t == nullptr) return kTfLiteOk;
  return GetScale(context, op, "weights", t, s);
}

// Per gate: the effective input, recurrent, peephole and layer-norm
// multipliers and the zero-point-folded biases; then hidden and projection.
TfLiteStatus ComputeIntegerMultipliers(TfLiteContext* context, TfLiteNode* node, const char* op,
                                       const OpData& d, const IntegerScales& s,
                                       IntegerParams* q) {
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && d.use_cifg) continue;
    float ws, rs;
    TF_LITE_ENSURE_OK(context, WeightScale(context, node, op, kInputWeightsOf[g], &ws));
    TF_LITE_ENSURE_OK(context, WeightScale(context, node, op, kRecurrentWeightsOf[g], &rs));
    const float eff_in = ws * s.input / s.gate[g];
    const float eff_rec = rs * s.output_state / s.gate[g];
    q->input_scale[g] = ToMultiplier(eff_in);
    q->recurrent_scale[g] = ToMultiplier(eff_rec);
    if (d.use_peephole && kPeepholeOf[g] >= 0) {
      float ps;
      TF_LITE_ENSURE_OK(context, WeightScale(context, node, op, kPeepholeOf[g], &ps));
      const float eff = std::pow(2.0, q->cell_scale) * ps / s.gate[g];
      q->cell_scale_m[g] = ToMultiplier(eff);
    }
    float ln_scale = 1.0f;
    if (d.use_layer_norm) {
      TF_LITE_ENSURE_OK(context, WeightScale(context, node, op, kLayerNormOf[g], &ln_scale));
    }
    q->layer_norm_scale[g] = ToMultiplier(ln_scale);
    q->variance_guard[g] = std::max(1, static_cast<int32_t>(10000 * ln_scale));

    const TfLiteTensor* bias = d.use_layer_norm ? nullptr : in(kBiasOf[g]);
    q->input_bias[g] = FoldedBias(in(kInputWeightsOf[g]), bias, -s.input_zp);
    q->recurrent_bias[g] = FoldedBias(in(kRecurrentWeightsOf[g]), nullptr, -q->output_state_zp);
  }
  const float eff_hidden = std::pow(2.0, -15) / s.hidden * std::pow(2.0, -15);
  q->hidden_scale = ToMultiplier(eff_hidden);
  if (d.use_projection) {
    float ps;
    TF_LITE_ENSURE_OK(context, WeightScale(context, node, op, kProjectionWeights, &ps));
    const float eff_proj = ps * s.hidden / s.output_state;
    q->proj_scale = ToMultiplier(eff_proj);
    q->projection_bias = FoldedBias(in(kProjectionWeights), in(kProjectionBias), q->hidden_zp);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus PrepareInteger(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  bool handled = false;
  const TfLiteStatus selected = SelectIntegerKernel(context, node, d, &handled);
  if (handled || selected != kTfLiteOk) return selected;
  const char* op = OpName(d);
  IntegerParams& q = d->q;
  IntegerScales s;
  TF_LITE_ENSURE_OK(context, CheckIntegerTypes(context, node, op));
  TF_LITE_ENSURE_OK(context, ReadActivationScales(context, node, op, &q, &s));
  TF_LITE_ENSURE_OK(context, SetCellScale(context, op, s.cell_state, &q));
  QuantizeClips(*d, s, &q);
  TF_LITE_ENSURE_OK(context, ReadIntermediateScales(context, node, op, *d, &q, &s));
  TF_LITE_ENSURE_OK(context, CheckInt8ZeroPoints(context, op, q, s));
  TF_LITE_ENSURE_OK(context, CheckFoldedInputsConstant(context, node, op, *d));
  TF_LITE_ENSURE_OK(context, ComputeIntegerMultipliers(context, node, op, *d, s, &q));
  const size_t cells = static_cast<size_t>(d->n_batch) * d->n_cell;
  d->scratch16.assign(4 * cells, 0);
  d->scratch8.assign(cells, 0);
  return kTfLiteOk;
}

TfLiteStatus EvalInteger(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  if (d->integer8x8_8) return EvalInteger8x8_8(context, node, d);
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  const bool has_ln_inputs = internal::NumInputs(node) == 24;
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
  RunIntegerSteps(context, node, d, w, StepInteger);
  return kTfLiteOk;
}

}  // namespace lstm
}  // namespace kernels
}  // namespace tflite_c

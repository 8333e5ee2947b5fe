// LSTM's integer 8x8->8 cell: the kernel upstream selects for an int8 LSTM
// (not UNIDIRECTIONAL_SEQUENCE_LSTM) with 12 intermediates. Three
// intermediates per gate (input, forget, cell, output) carry the
// quantization of the gate sum (Wx + Wh), of Wx and of Wh; each matrix
// product is requantized to int8 in its intermediate's scale, the two are
// added into a Q3.12 int16 gate, then layer norm and the activation run in
// float on the int16 values. The cell state is Q0.15 (scale 2^-15 exactly).
//
// Upstream's implementation is narrower than its inputs suggest, and results
// here are bit-exact with it, so the same limits hold:
//  - CIFG only: the input gate is always 1 - forget; models with input-gate
//    weights are refused here (upstream would silently ignore them);
//  - no peephole (upstream ignores the weights; refused here);
//  - layer norm, projection weights and projection bias are required
//    (upstream dereferences them unconditionally);
//  - the output gate's recurrent rescale reads, in upstream's parameter
//    block, the slot after the 8 intermediate multipliers: its multiplier is
//    the *shift* of the forget gate's Wh->gate rescale and its shift that of
//    the output gate's Wh->gate rescale, with the cell gate's Wx zero point.
//    That is reproduced as is (wh_to_gate / wh_zp of the output gate).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/lstm_integer.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/lstm_cell.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

// The intermediates of gate g: sum (3g), Wx (3g + 1), Wh (3g + 2).
constexpr int kSum = 0, kWx = 1, kWh = 2;

TfLiteStatus GetScaleZp(TfLiteContext* context, const char* op, const char* what,
                        const TfLiteTensor* t, bool zero_zp, float* scale, int32_t* zp) {
  internal::QuantParams qp;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, what, t, &qp));
  if (zero_zp && qp.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must have zero point 0, got %d", op, what,
                       static_cast<int>(qp.zero_point));
    return kTfLiteError;
  }
  *scale = qp.scale;
  if (zp != nullptr) *zp = qp.zero_point;
  return kTfLiteOk;
}

// QuantizeMultiplier of a float scale computed as upstream does (float
// arithmetic), refusing scales the requantization cannot apply: shifts past
// `max_shift` would shift every bit out (or be undefined).
TfLiteStatus ToMultiplier(TfLiteContext* context, const char* op, const char* what, float real,
                          int max_shift, Multiplier* m) {
  if (!(real >= 0.0f) || !std::isfinite(real)) {
    TF_LITE_KERNEL_LOG(context, "%s: effective %s scale %g is not supported", op, what, real);
    return kTfLiteError;
  }
  const internal::QuantizedMultiplier q = internal::QuantizeMultiplier(real);
  if (q.shift > max_shift) {
    TF_LITE_KERNEL_LOG(context, "%s: effective %s scale %g is too large (not supported)", op,
                       what, real);
    return kTfLiteError;
  }
  m->a = q.multiplier;
  m->b = q.shift;
  return kTfLiteOk;
}

int32_t Requantize(int32_t x, const Multiplier& m) {
  return internal::MultiplyByQuantizedMultiplier(x, m.a, m.b);
}

// float -> int32 as x86's truncating conversion does it (upstream's cast):
// NaN and out-of-range values give INT32_MIN.
int32_t TruncateToInt32(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

// int32 addition wrapping as upstream's does on its targets.
int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

int16_t SaturateInt16(int32_t v) {
  return static_cast<int16_t>(std::min<int32_t>(32767, std::max<int32_t>(-32768, v)));
}

// out[b, r] = saturate_int8(requantize(sum_c (in[b, c] - in_zp) * w[r, c]) + out_zp).
// The int32 sums wrap like upstream's.
void MatVecToInt8(const int8_t* in, int32_t in_zp, const int8_t* w, const Multiplier& m,
                  int n_batch, int n_in, int n_out, int8_t out_zp, int8_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    const int8_t* x = in + static_cast<int64_t>(b) * n_in;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* row = w + static_cast<int64_t>(r) * n_in;
      int64_t acc = 0;
      for (int c = 0; c < n_in; ++c) acc += (int32_t{x[c]} - in_zp) * int32_t{row[c]};
      int32_t v = WrappingAdd(Requantize(static_cast<int32_t>(static_cast<uint32_t>(acc)), m),
                              out_zp);
      v = std::min<int32_t>(127, std::max<int32_t>(-128, v));
      out[static_cast<int64_t>(b) * n_out + r] = static_cast<int8_t>(v);
    }
  }
}

// gate = saturate_int16(requantize(wx - wx_zp) + requantize(wh - wh_zp)).
void AddProducts(const int8_t* wx, int8_t wx_zp, const Multiplier& mx, const int8_t* wh,
                 int8_t wh_zp, const Multiplier& mh, int n, int16_t* gate) {
  for (int i = 0; i < n; ++i) {
    const int32_t x = Requantize(int32_t{wx[i]} - wx_zp, mx);
    const int32_t h = Requantize(int32_t{wh[i]} - wh_zp, mh);
    gate[i] = SaturateInt16(WrappingAdd(x, h));
  }
}

// Layer norm of each row of `n` int16 values in float, weighted by the int16
// coefficients and their scale, plus the bias at 2^-10 of that scale;
// results in Q3.12 (upstream's ApplyLayerNormFloat, same float operations).
void LayerNormFloat(int16_t* gate, const int16_t* weights, const Multiplier& m,
                    const int32_t* bias, int n_batch, int n) {
  const float scale = static_cast<float>(m.a * std::pow(2.0, static_cast<double>(m.b - 31)));
  const float bias_scale = static_cast<float>(std::pow(2.0, -10)) * scale;
  for (int b = 0; b < n_batch; ++b) {
    int16_t* row = gate + static_cast<int64_t>(b) * n;
    float sum = 0.0f;
    float sum_sq = 0.0f;
    for (int i = 0; i < n; ++i) {
      const float v = static_cast<float>(row[i]);
      sum += v;
      sum_sq += v * v;
    }
    const float mean = sum / static_cast<float>(n);
    const float variance = sum_sq / static_cast<float>(n) - mean * mean;
    const float inv_stddev =
        variance == 0.0f ? 1.0f / std::sqrt(1e-8f) : 1.0f / std::sqrt(variance);
    for (int i = 0; i < n; ++i) {
      const float normalized = (static_cast<float>(row[i]) - mean) * inv_stddev;
      const float weighted = normalized * static_cast<float>(weights[i]) * scale +
                             static_cast<float>(bias[i]) * bias_scale;
      row[i] = SaturateInt16(TruncateToInt32(std::round(weighted * 4096.0f)));
    }
  }
}

// Q3.12 -> sigmoid in Q0.15, computed in float and truncated.
void SigmoidFloat(const int16_t* in, int n, int16_t* out) {
  for (int i = 0; i < n; ++i) {
    const float x = static_cast<float>(in[i]) * (1.0f / 4096.0f);
    const float y = 1.0f / (1.0f + std::exp(-x));
    out[i] = SaturateInt16(static_cast<int32_t>(y * 32768.0f));
  }
}

// in * 2^exponent -> tanh in Q0.15, computed in float and truncated.
void TanhFloat(const int16_t* in, int n, int exponent, int16_t* out) {
  const double factor = std::pow(2.0, static_cast<double>(exponent));
  for (int i = 0; i < n; ++i) {
    const float x = static_cast<float>(in[i] * factor);
    out[i] = SaturateInt16(static_cast<int32_t>(std::tanh(x) * 32768.0f));
  }
}

// out[b, r] = saturate_int8(requantize64(bias[r] + sum_c hidden[b, c] * w[r, c]) + zp).
void Project(const int16_t* hidden, const int8_t* w, const Multiplier& m, const int32_t* bias,
             int n_batch, int n_hidden, int n_out, int32_t zp, int8_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    const int16_t* x = hidden + static_cast<int64_t>(b) * n_hidden;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* row = w + static_cast<int64_t>(r) * n_hidden;
      int64_t acc = bias[r];
      for (int c = 0; c < n_hidden; ++c) acc += int32_t{x[c]} * int32_t{row[c]};
      int64_t v = internal::MultiplyByQuantizedMultiplier(acc, m.a, m.b);
      v += zp;
      v = std::min<int64_t>(127, std::max<int64_t>(-128, v));
      out[static_cast<int64_t>(b) * n_out + r] = static_cast<int8_t>(v);
    }
  }
}

struct Weights8 {
  const int8_t* input_w[4];
  const int8_t* recurrent_w[4];
  const int16_t* layer_norm[4];
  const int32_t* bias[4];
  const int8_t* projection_w;
  const int32_t* projection_b;
};

void Step8x8_8(const OpData& d, const Weights8& w, int n_batch, const int8_t* x, int8_t* h,
               int16_t* c, int8_t* out, int16_t* scratch16, int8_t* scratch8) {
  const Integer8Params& q = d.q8;
  const int n_cell = d.n_cell;
  const int nc = n_batch * n_cell;
  int16_t* gates[4] = {nullptr, scratch16, scratch16 + nc, scratch16 + 2 * nc};
  int8_t* wx = scratch8;
  int8_t* wh = scratch8 + nc;
  for (int g : {kGateForget, kGateCell, kGateOutput}) {
    MatVecToInt8(x, q.input_zp, w.input_w[g], q.input_to_gate[g], n_batch, d.n_input, n_cell,
                 q.wx_zp[g], wx);
    MatVecToInt8(h, q.output_state_zp, w.recurrent_w[g], q.recurrent_to_gate[g], n_batch,
                 d.n_output, n_cell, q.wh_zp[g], wh);
    AddProducts(wx, q.wx_zp[g], q.wx_to_gate[g], wh, q.wh_zp[g], q.wh_to_gate[g], nc, gates[g]);
    LayerNormFloat(gates[g], w.layer_norm[g], q.layer_norm_scale[g], w.bias[g], n_batch, n_cell);
    if (g == kGateCell) {
      TanhFloat(gates[g], nc, -12, gates[g]);
    } else {
      SigmoidFloat(gates[g], nc, gates[g]);
    }
  }
  // c = f * c + (1 - f) * g, in Q0.15.
  int16_t* f = gates[kGateForget];
  internal::CwiseMulShift(f, c, nc, 15, c);
  for (int i = 0; i < nc; ++i) f[i] = static_cast<int16_t>(32767 - f[i]);
  internal::CwiseMulShift(f, gates[kGateCell], nc, 15, f);
  internal::CwiseAddSat(c, f, nc, c);
  if (q.cell_clip > 0) {
    for (int i = 0; i < nc; ++i) {
      c[i] = static_cast<int16_t>(
          std::min<int32_t>(q.cell_clip, std::max<int32_t>(-q.cell_clip, c[i])));
    }
  }
  // h = projection(o * tanh(c)).
  int16_t* hidden = gates[kGateCell];
  TanhFloat(c, nc, -15, hidden);
  internal::CwiseMulShift(gates[kGateOutput], hidden, nc, 15, hidden);
  Project(hidden, w.projection_w, q.proj_scale, w.projection_b, n_batch, n_cell, d.n_output,
          q.output_state_zp, h);
  const int no = n_batch * d.n_output;
  if (q.proj_clip > 0) {
    for (int i = 0; i < no; ++i) {
      h[i] = static_cast<int8_t>(
          std::min<int32_t>(q.proj_clip, std::max<int32_t>(-q.proj_clip, h[i])));
    }
  }
  std::memcpy(out, h, no);
}

// The activation and intermediate quantization the 8x8->8 multipliers derive from.
struct Integer8Scales {
  float input = 0.0f;
  float output_state = 0.0f;
  float cell = 0.0f;
  float output = 0.0f;
  float inter[12] = {};
  int32_t inter_zp[12] = {};
};

// The narrow form this kernel computes (see the top of the file).
TfLiteStatus CheckInteger8Form(TfLiteContext* context, TfLiteNode* node, const char* op,
                               const OpData& d) {
  if (!d.use_cifg) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the 8x8->8 integer kernel (12 intermediates) computes CIFG only; "
                       "input gate weights are not supported",
                       op);
    return kTfLiteError;
  }
  if (d.use_peephole) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: peephole weights are not supported by the 8x8->8 integer kernel", op);
    return kTfLiteError;
  }
  if (!d.use_layer_norm || !d.use_projection ||
      internal::GetOptionalInput(context, node, kProjectionBias) == nullptr) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the 8x8->8 integer kernel needs layer norm coefficients, projection "
                       "weights and projection bias (other forms are not supported)",
                       op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckInteger8Types(TfLiteContext* context, TfLiteNode* node, const char* op) {
  auto expect = [&](std::initializer_list<int> indices, TfLiteType type) -> TfLiteStatus {
    for (int i : indices) {
      TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, kInputName[i],
                                                      internal::GetOptionalInput(context, node, i),
                                                      type));
    }
    return kTfLiteOk;
  };
  TF_LITE_ENSURE_OK(context, expect({kInputToForget, kInputToCell, kInputToOutput,
                                     kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput,
                                     kProjectionWeights, kOutputState},
                                    kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, expect({kForgetGateBias, kCellGateBias, kOutputGateBias,
                                     kProjectionBias},
                                    kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, expect({kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm,
                                     kCellState},
                                    kTfLiteInt16));
  return internal::ExpectType(context, op, "output", internal::OutputAt(context, node, 0),
                              kTfLiteInt8);
}

// Input, output state, cell state and output scales; int8-range zero points
// and the Q0.15 cell state this kernel assumes.
TfLiteStatus ReadActivation8Scales(TfLiteContext* context, TfLiteNode* node, const char* op,
                                   Integer8Params* q, Integer8Scales* s) {
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  TF_LITE_ENSURE_OK(context,
                    GetScaleZp(context, op, "input", in(kInput), false, &s->input, &q->input_zp));
  TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, "output_state", in(kOutputState), false,
                                        &s->output_state, &q->output_state_zp));
  TF_LITE_ENSURE_OK(context,
                    GetScaleZp(context, op, "cell_state", in(kCellState), true, &s->cell, nullptr));
  TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, "output", internal::OutputAt(context, node, 0),
                                        false, &s->output, nullptr));
  // Both zero points enter int32 differences with int8 values.
  for (const auto& zp : {std::make_pair("input", q->input_zp),
                         std::make_pair("output_state", q->output_state_zp)}) {
    if (zp.second < -128 || zp.second > 127) {
      TF_LITE_KERNEL_LOG(context, "%s: %s zero point %d is outside the INT8 range (not supported)",
                         op, zp.first, static_cast<int>(zp.second));
      return kTfLiteError;
    }
  }
  if (s->cell != 1.0f / 32768) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the 8x8->8 integer kernel needs a cell_state scale of 2^-15, got %g",
                       op, s->cell);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ReadIntermediate8Scales(TfLiteContext* context, TfLiteNode* node, const char* op,
                                     Integer8Scales* s) {
  for (int i = 0; i < 12; ++i) {
    const int index = node->intermediates->data[i];
    if (index < 0 || index >= static_cast<int>(context->tensors_size)) {
      TF_LITE_KERNEL_LOG(context, "%s: intermediate %d is not a tensor", op, i);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, "intermediate", &context->tensors[index],
                                          false, &s->inter[i], &s->inter_zp[i]));
  }
  return kTfLiteOk;
}

// Per gate (forget, cell, output): the matrix-product, intermediate and
// layer-norm rescales and the int8 intermediate zero points.
TfLiteStatus ComputeGate8Multipliers(TfLiteContext* context, TfLiteNode* node, const char* op,
                                     const Integer8Scales& sc, Integer8Params* q) {
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  for (int g : {kGateForget, kGateCell, kGateOutput}) {
    float ws, rs, ln;
    int32_t unused;
    TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, kInputName[kInputWeightsOf[g]],
                                          in(kInputWeightsOf[g]), true, &ws, &unused));
    TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, kInputName[kRecurrentWeightsOf[g]],
                                          in(kRecurrentWeightsOf[g]), true, &rs, &unused));
    TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, kInputName[kLayerNormOf[g]],
                                          in(kLayerNormOf[g]), true, &ln, &unused));
    const float* s = &sc.inter[3 * g];
    TF_LITE_ENSURE_OK(context, ToMultiplier(context, op, "input-to-gate", ws * sc.input / s[kWx],
                                            31, &q->input_to_gate[g]));
    TF_LITE_ENSURE_OK(context,
                      ToMultiplier(context, op, "recurrent-to-gate",
                                   rs * sc.output_state / s[kWh], 31, &q->recurrent_to_gate[g]));
    TF_LITE_ENSURE_OK(context, ToMultiplier(context, op, "intermediate", s[kWx] / s[kSum], 31,
                                            &q->wx_to_gate[g]));
    TF_LITE_ENSURE_OK(context, ToMultiplier(context, op, "intermediate", s[kWh] / s[kSum], 31,
                                            &q->wh_to_gate[g]));
    TF_LITE_ENSURE_OK(context,
                      ToMultiplier(context, op, "layer norm", ln, 31, &q->layer_norm_scale[g]));
    // Upstream passes the zero points on as int8.
    q->wx_zp[g] = static_cast<int8_t>(sc.inter_zp[3 * g + kWx]);
    q->wh_zp[g] = static_cast<int8_t>(sc.inter_zp[3 * g + kWh]);
  }
  // The output gate's recurrent rescale as upstream reads it (see the top).
  const Multiplier output_wh = q->wh_to_gate[kGateOutput];
  q->wh_to_gate[kGateOutput].a = q->wh_to_gate[kGateForget].b;
  q->wh_to_gate[kGateOutput].b = output_wh.b;
  q->wh_zp[kGateOutput] = q->wx_zp[kGateCell];
  return kTfLiteOk;
}

TfLiteStatus ComputeProjection8Multiplier(TfLiteContext* context, TfLiteNode* node,
                                          const char* op, const Integer8Scales& s,
                                          Integer8Params* q) {
  float proj_ws;
  int32_t unused;
  TF_LITE_ENSURE_OK(context, GetScaleZp(context, op, "projection_weights",
                                        internal::GetOptionalInput(context, node,
                                                                   kProjectionWeights),
                                        true, &proj_ws, &unused));
  const float eff_proj =
      static_cast<float>(proj_ws * std::pow(2.0, -15) / s.output_state);
  // The wide requantization needs a shift below 15.
  return ToMultiplier(context, op, "projection", eff_proj, 14, &q->proj_scale);
}

}  // namespace

TfLiteStatus PrepareInteger8x8_8(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  const char* op = OpName(d);
  Integer8Params& q = d->q8;
  Integer8Scales s;
  TF_LITE_ENSURE_OK(context, CheckInteger8Form(context, node, op, *d));
  TF_LITE_ENSURE_OK(context, CheckInteger8Types(context, node, op));
  TF_LITE_ENSURE_OK(context, ReadActivation8Scales(context, node, op, &q, &s));
  TF_LITE_ENSURE_OK(context, ReadIntermediate8Scales(context, node, op, &s));
  TF_LITE_ENSURE_OK(context, ComputeGate8Multipliers(context, node, op, s, &q));
  TF_LITE_ENSURE_OK(context, ComputeProjection8Multiplier(context, node, op, s, &q));

  // This kernel clips the cell only for a clip below 1 (upstream's rule).
  q.cell_clip = d->cell_clip < 1.0f ? QuantizeClip<int16_t>(d->cell_clip, s.cell) : 0;
  q.proj_clip = QuantizeClip<int8_t>(d->proj_clip, s.output);
  const size_t cells = static_cast<size_t>(d->n_batch) * d->n_cell;
  d->scratch16.assign(3 * cells, 0);
  d->scratch8.assign(2 * cells, 0);
  return kTfLiteOk;
}

TfLiteStatus EvalInteger8x8_8(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  auto in = [&](int i) { return internal::GetOptionalInput(context, node, i); };
  auto data = [&](int i) { return in(i)->data.data; };
  Weights8 w{};
  for (int g : {kGateForget, kGateCell, kGateOutput}) {
    w.input_w[g] = static_cast<const int8_t*>(data(kInputWeightsOf[g]));
    w.recurrent_w[g] = static_cast<const int8_t*>(data(kRecurrentWeightsOf[g]));
    w.layer_norm[g] = static_cast<const int16_t*>(data(kLayerNormOf[g]));
    w.bias[g] = static_cast<const int32_t*>(data(kBiasOf[g]));
  }
  w.projection_w = static_cast<const int8_t*>(data(kProjectionWeights));
  w.projection_b = static_cast<const int32_t*>(data(kProjectionBias));
  RunIntegerSteps(context, node, d, w, Step8x8_8);
  return kTfLiteOk;
}

}  // namespace lstm
}  // namespace kernels
}  // namespace tflite_c

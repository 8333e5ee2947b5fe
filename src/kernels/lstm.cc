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
// Types: FLOAT32 throughout, or fully integer (lstm_integer_eval.cc). Hybrid
// (int8 weights, float activations) and the BASIC kernel are not supported.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/lstm_cell.h"
#include "src/kernels/register_recurrent.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

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
  return EvalInteger(context, node, d);
}

}  // namespace
}  // namespace lstm

const TfLiteRegistration* Register_LSTM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(lstm::InitLstm, lstm::Free, lstm::Prepare, lstm::Eval);
  return &r;
}

const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(lstm::InitSequence, lstm::Free, lstm::Prepare, lstm::Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

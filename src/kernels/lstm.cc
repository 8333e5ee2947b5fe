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
// Types: FLOAT32 throughout, hybrid (int8 weights, float activations;
// lstm_float_eval.cc), or fully integer (lstm_integer_eval.cc: 8x8->16 with 5
// intermediates; for LSTM also 8x8->8 with 12, lstm_integer8_eval.cc).
// LSTM's BASIC kernel type (5 inputs, 4 outputs) is lstm_basic.cc.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/lstm_cell.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

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

// The input map of LSTM / UNIDIRECTIONAL_SEQUENCE_LSTM: Input i is node
// input i (the layer-norm ones only with 24 inputs).
void IdentityMap(int num_inputs, int* map) {
  for (int i = 0; i <= kOutputLayerNorm; ++i) map[i] = i < num_inputs ? i : -1;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const char* op = OpName(d);
  // LSTM's kernel type decides the whole signature (upstream dispatches on
  // it first): the BASIC kernel has 5 inputs and 4 outputs.
  d->basic = false;
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  if (!d->sequence && static_cast<const TfLiteLSTMParams*>(node->builtin_data)->kernel_type ==
                          kTfLiteLSTMBasicKernel) {
    d->basic = true;
    return PrepareBasic(context, node, d);
  }
  const int num_inputs = internal::NumInputs(node);
  if (num_inputs != 20 && num_inputs != 24) {
    TF_LITE_KERNEL_LOG(context, "%s: expected 20 or 24 inputs (full kernel), got %d", op,
                       num_inputs);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, num_inputs, num_inputs, 1));
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
    d->asymmetric = p->asymmetric_quantize_inputs;
  } else {
    const auto* p = static_cast<const TfLiteLSTMParams*>(node->builtin_data);
    if (p->kernel_type != kTfLiteLSTMFullKernel) {
      TF_LITE_KERNEL_LOG(context, "%s: kernel type %d is not supported", op,
                         static_cast<int>(p->kernel_type));
      return kTfLiteError;
    }
    d->activation = p->activation;
    d->cell_clip = p->cell_clip;
    d->proj_clip = p->proj_clip;
    d->time_major = true;
    d->asymmetric = p->asymmetric_quantize_inputs;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckRecurrentActivation(context, op, d->activation));
  if (d->cell_clip < 0.0f || d->proj_clip < 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_clip and proj_clip must not be negative", op);
    return kTfLiteError;
  }

  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, op, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  TF_LITE_ENSURE_OK(context, internal::SetSequenceDims(context, op, input, d));
  d->n_aux = 0;
  int map[kOutputLayerNorm + 1];
  IdentityMap(num_inputs, map);
  TF_LITE_ENSURE_OK(context, PrepareCell(context, node, op, map, d));
  if (!d->integer) {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "output", output, kTfLiteFloat32));
  }
  return internal::ResizeSequenceOutput(context, input, output, d->sequence, d->n_batch,
                                        d->n_output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  if (d->basic) return EvalBasic(context, node, d);
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  if (d->integer) return EvalInteger(context, node, d);
  int map[kOutputLayerNorm + 1];
  IdentityMap(internal::NumInputs(node), map);
  CellIo io;
  io.output = static_cast<float*>(internal::OutputAt(context, node, 0)->data.data);
  io.output_stride = d->n_output;
  return EvalCell(context, node, map, d, io);
}

}  // namespace

TfLiteStatus GetWeightScale(TfLiteContext* context, const char* op, const TfLiteTensor* t,
                            const OpData* d, float* scale) {
  *scale = 1.0f;
  if (!d->hybrid || t == nullptr) return kTfLiteOk;
  internal::QuantParams q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, "weights", t, &q));
  *scale = q.scale;
  return kTfLiteOk;
}

namespace {

// Cell input `i` (an Input enum value) through the op's input map, or null.
const TfLiteTensor* MappedInput(TfLiteContext* context, TfLiteNode* node, const int* map, int i) {
  return map[i] < 0 ? nullptr : internal::GetOptionalInput(context, node, map[i]);
}

TfLiteStatus CheckRequiredInputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                 const int* map) {
  const int required[] = {kInputToForget,     kInputToCell,     kInputToOutput,
                          kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput,
                          kForgetGateBias,    kCellGateBias,    kOutputGateBias,
                          kOutputState,       kCellState};
  for (int i : required) {
    if (MappedInput(context, node, map, i) == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: required input %d (%s) is missing", op, map[i],
                         kInputName[i]);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

// n_cell and n_output from the weights (n_batch, n_input, max_time are set).
TfLiteStatus ReadCellSizes(TfLiteContext* context, TfLiteNode* node, const char* op,
                           const int* map, OpData* d) {
  const TfLiteTensor* forget_w = MappedInput(context, node, map, kInputToForget);
  const TfLiteTensor* rec_out_w = MappedInput(context, node, map, kRecurrentToOutput);
  if (internal::NumDims(forget_w) != 2 || internal::NumDims(rec_out_w) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: weights must be 2-D", op);
    return kTfLiteError;
  }
  d->n_cell = internal::Dim(forget_w, 0);
  d->n_output = internal::Dim(rec_out_w, 1);
  if (d->n_batch < 0 || d->max_time < 0 || d->n_cell <= 0 || d->n_output <= 0 ||
      d->n_input <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: empty dimensions are not supported", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// CIFG, peephole and projection from which optional inputs are present.
TfLiteStatus DetectCellVariant(TfLiteContext* context, TfLiteNode* node, const char* op,
                               const int* map, OpData* d) {
  auto in = [&](int i) { return MappedInput(context, node, map, i); };
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
  if (!d->use_projection && d->n_output != d->n_cell) {
    TF_LITE_KERNEL_LOG(context, "%s: without projection the output size (%d) must equal n_cell (%d)",
                       op, d->n_output, d->n_cell);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Layer norm (24-input form only): all coefficients or none, the input
// gate's omitted with CIFG.
TfLiteStatus DetectLayerNorm(TfLiteContext* context, TfLiteNode* node, const char* op,
                             const int* map, OpData* d) {
  auto in = [&](int i) { return MappedInput(context, node, map, i); };
  const bool has_ln_inputs = map[kInputLayerNorm] >= 0;
  d->use_layer_norm = has_ln_inputs && in(kForgetLayerNorm) != nullptr;
  if (has_ln_inputs) {
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
  return kTfLiteOk;
}

TfLiteStatus CheckCellShapes(TfLiteContext* context, TfLiteNode* node, const char* op,
                             const int* map, const OpData* d) {
  const int n_cell = d->n_cell, n_input = d->n_input, n_output = d->n_output;
  // The input-gate tensors are ignored with CIFG.
  auto check_shapes = [&](std::initializer_list<int> indices,
                          std::initializer_list<int> dims) -> TfLiteStatus {
    for (int i : indices) {
      const bool ignored =
          d->use_cifg && (i == kCellToInput || i == kInputGateBias || i == kInputLayerNorm);
      TF_LITE_ENSURE_OK(context, CheckShape(context, op, kInputName[i],
                                            ignored ? nullptr : MappedInput(context, node, map, i),
                                            dims));
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
  return kTfLiteOk;
}

// Output and cell state: variable tensors of n_batch x n_output / n_cell.
TfLiteStatus CheckCellStates(TfLiteContext* context, TfLiteNode* node, const char* op,
                             const int* map, const OpData* d) {
  const int n_batch = d->n_batch, n_cell = d->n_cell, n_output = d->n_output;
  const TfLiteTensor* output_state = MappedInput(context, node, map, kOutputState);
  const TfLiteTensor* cell_state = MappedInput(context, node, map, kCellState);
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
  return kTfLiteOk;
}

// Float or hybrid cell: checks every weight's type, reads the hybrid weight
// scales and sizes the scratch buffers.
TfLiteStatus PrepareFloatCell(TfLiteContext* context, TfLiteNode* node, const char* op,
                              const int* map, OpData* d) {
  const int n_batch = d->n_batch, n_cell = d->n_cell, n_output = d->n_output;
  d->integer = false;
  // Hybrid when the weights are int8 (upstream looks at input_to_output).
  d->hybrid = MappedInput(context, node, map, kInputToOutput)->type == kTfLiteInt8;
  for (int i = 1; i <= kOutputLayerNorm; ++i) {
    const TfLiteTensor* t = MappedInput(context, node, map, i);
    if (t == nullptr) continue;
    const bool weights = (i >= kInputToInput && i <= kCellToOutput) || i == kProjectionWeights;
    const TfLiteType want = d->hybrid && weights ? kTfLiteInt8 : kTfLiteFloat32;
    if (t->type != want) {
      TF_LITE_KERNEL_LOG(context, "%s: %s is %s, expected %s (%s weights)", op, kInputName[i],
                         TfLiteTypeGetName(t->type), TfLiteTypeGetName(want),
                         d->hybrid ? "hybrid: int8" : "float");
      return kTfLiteError;
    }
    d->weight_scale[i] = 1.0f;
    if (d->hybrid && weights) {
      TF_LITE_ENSURE_OK(context, GetWeightScale(context, op, t, d, &d->weight_scale[i]));
    }
  }
  d->scratch.assign(static_cast<size_t>(5) * n_batch * n_cell +
                        static_cast<size_t>(n_batch) * n_output,
                    0.0f);
  d->row_sums_ready = false;
  d->quantized.assign(d->hybrid ? std::max({d->n_input, n_output, n_cell, d->n_aux}) : 0, 0);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus PrepareCell(TfLiteContext* context, TfLiteNode* node, const char* op, const int* map,
                         OpData* d) {
  TF_LITE_ENSURE_OK(context, CheckRequiredInputs(context, node, op, map));
  TF_LITE_ENSURE_OK(context, ReadCellSizes(context, node, op, map, d));
  TF_LITE_ENSURE_OK(context, DetectCellVariant(context, node, op, map, d));
  TF_LITE_ENSURE_OK(context, DetectLayerNorm(context, node, op, map, d));
  TF_LITE_ENSURE_OK(context, CheckCellShapes(context, node, op, map, d));
  TF_LITE_ENSURE_OK(context, CheckCellStates(context, node, op, map, d));
  const TfLiteTensor* input = MappedInput(context, node, map, kInput);
  if (input->type == kTfLiteInt8) {
    d->integer = true;
    d->hybrid = false;
    return PrepareInteger(context, node, d);
  }
  if (input->type != kTfLiteFloat32) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  return PrepareFloatCell(context, node, op, map, d);
}

}  // namespace lstm

const TfLiteRegistration* Register_LSTM() {
  return internal::RecurrentRegistration<lstm::OpData, false, lstm::Prepare, lstm::Eval>();
}

const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() {
  return internal::RecurrentRegistration<lstm::OpData, true, lstm::Prepare, lstm::Eval>();
}

}  // namespace kernels
}  // namespace tflite_c

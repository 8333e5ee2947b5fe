// BIDIRECTIONAL_SEQUENCE_LSTM: two LSTM cells (see lstm.cc for the cell
// equations; no layer norm here) over one sequence, the forward cell from the
// first step to the last and the backward cell from the last to the first.
// 48 inputs:
//     0 input [time, batch, n_input] ([batch, time, n_input] without time_major)
//  1-17 forward cell: input weights (4), recurrent weights (4), peephole (3),
//       gate biases (4), projection weights and bias (as LSTM inputs 1-17)
// 18-34 backward cell, the same
// 35-36 forward output state and cell state, 37-38 backward ones (variables)
//    39 aux_input (optional); 40-43 forward and 44-47 backward
//       aux_input_to_{input,forget,cell,output} weights [n_cell, n_aux]
// With aux weights the auxiliary input is a second input of both cells
// (stacking with cross links); without them the backward cell reads it
// instead of `input` (stacking without cross links), as upstream does.
// Outputs: fw [.., fw_output] and bw [.., bw_output], or with merge_outputs
// one output [.., fw_output + bw_output] with both side by side.
// FLOAT32, or hybrid (int8 weights with per-tensor scales; float input, biases
// and states).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/lstm_cell.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BIDIRECTIONAL_SEQUENCE_LSTM";
constexpr int kNumInputs = 48;
constexpr int kAuxInput = 39;
constexpr int kFwAuxWeights = 40;  // 4 gates, then the backward ones at 44
constexpr int kFwStates = 35;      // output state, cell state; backward at 37

struct OpData {
  lstm::OpData cell[2];
  int map[2][lstm::kOutputLayerNorm + 1];
  bool merge_outputs = false;
  bool use_aux_weights = false;
  bool bw_reads_aux = false;
  int n_aux = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return new OpData(); }
void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

// The node input of each lstm::Input for direction k (0 forward, 1 backward).
void FillMap(int k, bool bw_reads_aux, int* map) {
  map[lstm::kInput] = (k == 1 && bw_reads_aux) ? kAuxInput : 0;
  for (int i = lstm::kInputToInput; i <= lstm::kProjectionBias; ++i) map[i] = i + 17 * k;
  map[lstm::kOutputState] = kFwStates + 2 * k;
  map[lstm::kCellState] = kFwStates + 2 * k + 1;
  for (int i = lstm::kInputLayerNorm; i <= lstm::kOutputLayerNorm; ++i) map[i] = -1;
}

// Auxiliary input: weights all present (in both directions, CIFG may omit
// the input gate's) or all omitted.
TfLiteStatus PrepareAuxInput(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                             int n_input, OpData* d) {
  const TfLiteTensor* aux_input = internal::GetOptionalInput(context, node, kAuxInput);
  int present = 0;
  for (int k = 0; k < 2; ++k) {
    for (int g = 1; g < 4; ++g) {
      present += internal::GetOptionalInput(context, node, kFwAuxWeights + 4 * k + g) != nullptr;
    }
  }
  if (present != 0 && present != 6) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: the forget, cell and output aux weights of both cells must be all "
                       "present or all omitted",
                       kOp);
    return kTfLiteError;
  }
  d->use_aux_weights = present == 6;
  return internal::CheckBidirectionalAuxInput(context, kOp, input, aux_input, d->use_aux_weights,
                                              n_input, &d->bw_reads_aux, &d->n_aux);
}

// Aux weights of direction k: [n_cell, n_aux] of the weights' type (the
// input gate's only without CIFG).
TfLiteStatus CheckAuxWeights(TfLiteContext* context, TfLiteNode* node, int k, int n_aux,
                             lstm::OpData* c) {
  for (int g = 0; g < 4; ++g) {
    const int index = kFwAuxWeights + 4 * k + g;
    const TfLiteTensor* t = internal::GetOptionalInput(context, node, index);
    if (g == lstm::kGateInput && c->use_cifg) continue;
    const TfLiteType want = c->hybrid ? kTfLiteInt8 : kTfLiteFloat32;
    if (t == nullptr || t->type != want || internal::NumDims(t) != 2 ||
        internal::Dim(t, 0) != c->n_cell || internal::Dim(t, 1) != n_aux) {
      TF_LITE_KERNEL_LOG(context, "%s: %s aux_input_to_%s weights must be %s [%d, %d]", kOp,
                         k == 0 ? "fw" : "bw", lstm::kGateName[g], TfLiteTypeGetName(want),
                         c->n_cell, n_aux);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, lstm::GetWeightScale(context, kOp, t, c, &c->aux_scale[g]));
  }
  return kTfLiteOk;
}

// Direction k's cell: the shared options, the LSTM cell checks through its
// input map, then its aux weights.
TfLiteStatus PrepareDirection(TfLiteContext* context, TfLiteNode* node,
                              const TfLiteBidirectionalSequenceLSTMParams* p,
                              const internal::SequenceDims& dims, int k, OpData* d) {
  lstm::OpData& c = d->cell[k];
  c.sequence = true;
  c.time_major = p->time_major;
  c.activation = p->activation;
  c.cell_clip = p->cell_clip;
  c.proj_clip = p->proj_clip;
  c.asymmetric = p->asymmetric_quantize_inputs;
  c.max_time = dims.max_time;
  c.n_batch = dims.n_batch;
  c.n_input = dims.n_input;
  c.n_aux = d->n_aux;
  FillMap(k, d->bw_reads_aux, d->map[k]);
  TF_LITE_ENSURE_OK(context, internal::CheckRecurrentActivation(context, kOp, c.activation));
  if (c.cell_clip < 0.0f || c.proj_clip < 0.0f) {
    TF_LITE_KERNEL_LOG(context, "%s: cell_clip and proj_clip must not be negative", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, lstm::PrepareCell(context, node, kOp, d->map[k], &c));
  if (c.integer) {
    TF_LITE_KERNEL_LOG(context, "%s: integer weights are not supported", kOp);
    return kTfLiteError;
  }
  return d->use_aux_weights ? CheckAuxWeights(context, node, k, d->n_aux, &c) : kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* p = static_cast<const TfLiteBidirectionalSequenceLSTMParams*>(node->builtin_data);
  d->merge_outputs = p->merge_outputs;
  const int n_outputs = d->merge_outputs ? 1 : 2;
  TF_LITE_ENSURE_OK(context,
                    internal::CheckArity(context, node, kOp, kNumInputs, kNumInputs, n_outputs));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  if (input->type != kTfLiteFloat32) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  internal::SequenceDims dims;
  TF_LITE_ENSURE_OK(context,
                    internal::GetSequenceDims(context, kOp, input, true, p->time_major, &dims));
  TF_LITE_ENSURE_OK(context, PrepareAuxInput(context, node, input, dims.n_input, d));
  for (int k = 0; k < 2; ++k) {
    TF_LITE_ENSURE_OK(context, PrepareDirection(context, node, p, dims, k, d));
  }
  return internal::PrepareBidirectionalOutputs(context, node, kOp, input, n_outputs,
                                               d->merge_outputs, d->cell[0].n_output,
                                               d->cell[1].n_output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  for (int k = 0; k < 2; ++k) {
    lstm::OpData& c = d->cell[k];
    if (c.n_batch == 0 || c.max_time == 0) return kTfLiteOk;
    lstm::CellIo io;
    io.aux = d->use_aux_weights ? internal::GetOptionalInput(context, node, kAuxInput) : nullptr;
    for (int g = 0; g < 4; ++g) {
      io.aux_weights[g] = d->use_aux_weights
                              ? internal::GetOptionalInput(context, node, kFwAuxWeights + 4 * k + g)
                              : nullptr;
    }
    internal::BidirectionalOutputRows(context, node, d->merge_outputs, k, d->cell[0].n_output,
                                      d->cell[1].n_output, &io.output, &io.output_stride);
    io.reverse = k == 1;
    TF_LITE_ENSURE_OK(context, lstm::EvalCell(context, node, d->map[k], &c, io));
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM() {
  static const TfLiteRegistration r = internal::MakeRegistration(Init, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

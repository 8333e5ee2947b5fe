// BIDIRECTIONAL_SEQUENCE_RNN: two basic RNN cells over one sequence, the
// forward cell from the first step to the last and the backward cell from the
// last to the first:
//   fw_h[t] = act(Wf x[t] + Af aux[t] + Rf fw_h[t-1] + bf)
//   bw_h[t] = act(Wb xb[t] + Ab aux[t] + Rb bw_h[t+1] + bb)
// Inputs: 0 input [time, batch, n_input] (or [batch, time, n_input] without
// time_major); 1-4 forward weights [fw_units, n_input], recurrent weights
// [fw_units, fw_units], bias [fw_units], hidden state [batch, fw_units]
// (variable); 5-8 the same for the backward cell; 9 aux_input, 10-11
// fw/bw aux weights [units, n_aux] (all optional).
// The auxiliary input is used as upstream does: with aux weights it is a
// second input of both cells (stacking with cross links); without them the
// backward cell reads it instead of `input` (xb = aux; stacking without
// cross links), else xb = x.
// Outputs: fw [.., fw_units] and bw [.., bw_units], or with merge_outputs one
// output [.., fw_units + bw_units] holding both side by side.
// FLOAT32, or hybrid (int8 weights with per-tensor scales, float input, bias
// and state; asymmetric_quantize_inputs as upstream).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BIDIRECTIONAL_SEQUENCE_RNN";

enum {
  kInput = 0,
  kFwWeights = 1,
  kFwRecurrent = 2,
  kFwBias = 3,
  kFwHidden = 4,
  kBwWeights = 5,
  kBwRecurrent = 6,
  kBwBias = 7,
  kBwHidden = 8,
  kAuxInput = 9,
  kFwAuxWeights = 10,
  kBwAuxWeights = 11,
};

// One direction's tensors and cached hybrid row sums.
struct Direction {
  int weights = 0, recurrent = 0, bias = 0, hidden = 0, aux_weights = 0;
  const char* name = "";
  int units = 0;
  float weights_scale = 1.0f, recurrent_scale = 1.0f, aux_scale = 1.0f;
  std::vector<int32_t> weights_sums, aux_sums, recurrent_sums;
};

struct OpData {
  Direction dir[2];
  bool time_major = true;
  bool merge_outputs = false;
  bool hybrid = false;
  bool asymmetric = false;
  bool use_aux_weights = false;  // aux_input feeds both cells through weights
  bool bw_reads_aux = false;     // aux_input replaces the input of the backward cell
  bool row_sums_ready = false;
  TfLiteFusedActivation activation = kTfLiteActNone;
  int max_time = 0, n_batch = 0, n_input = 0, n_aux = 0;
  internal::ScratchVector<float> tmp;
  internal::ScratchVector<int8_t> quantized;
};

void* Init(TfLiteContext*, const char*, size_t) {
  auto* d = new OpData();
  const int first[2] = {kFwWeights, kBwWeights};
  const int aux[2] = {kFwAuxWeights, kBwAuxWeights};
  for (int k = 0; k < 2; ++k) {
    Direction& dir = d->dir[k];
    dir.weights = first[k];
    dir.recurrent = first[k] + 1;
    dir.bias = first[k] + 2;
    dir.hidden = first[k] + 3;
    dir.aux_weights = aux[k];
    dir.name = k == 0 ? "fw" : "bw";
  }
  return d;
}

void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

// Checks one weight matrix: 2-D [rows, cols], of the op's weight type, with a
// scale when hybrid.
TfLiteStatus CheckWeights(TfLiteContext* context, const OpData* d, const TfLiteTensor* t,
                          const char* dir, const char* what, int rows, int cols, float* scale) {
  if (internal::NumDims(t) != 2 || internal::Dim(t, 0) != rows || internal::Dim(t, 1) != cols) {
    char got[64];
    TF_LITE_KERNEL_LOG(context, "%s: %s %s has shape %s, expected [%d, %d]", kOp, dir, what,
                       internal::ShapeToString(t->dims, got, sizeof(got)), rows, cols);
    return kTfLiteError;
  }
  const TfLiteType want = d->hybrid ? kTfLiteInt8 : kTfLiteFloat32;
  if (t->type != want) {
    TF_LITE_KERNEL_LOG(context, "%s: %s %s is %s, expected %s like the forward weights", kOp, dir,
                       what, TfLiteTypeGetName(t->type), TfLiteTypeGetName(want));
    return kTfLiteError;
  }
  if (d->hybrid) {
    internal::QuantParams q;
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, what, t, &q));
    *scale = q.scale;
  }
  return kTfLiteOk;
}

// The required inputs, the sequence sizes and whether the weights are hybrid.
TfLiteStatus ReadSequenceInput(TfLiteContext* context, TfLiteNode* node, OpData* d,
                               const TfLiteTensor** input_out) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, kOp, &input));
  for (int i = kFwWeights; i <= kBwHidden; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &t));
  }
  if (input->type != kTfLiteFloat32) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  internal::SequenceDims dims;
  TF_LITE_ENSURE_OK(context,
                    internal::GetSequenceDims(context, kOp, input, true, d->time_major, &dims));
  d->max_time = dims.max_time;
  d->n_batch = dims.n_batch;
  d->n_input = dims.n_input;

  const TfLiteTensor* fw_weights = internal::InputAt(context, node, kFwWeights);
  d->hybrid = fw_weights->type == kTfLiteInt8;
  if (!d->hybrid && fw_weights->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: weights of type %s with float input are not supported", kOp,
                       TfLiteTypeGetName(fw_weights->type));
    return kTfLiteError;
  }
  *input_out = input;
  return kTfLiteOk;
}

// How aux_input is used: through aux weights by both cells, or as the
// backward cell's input.
TfLiteStatus PrepareAuxInput(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                             OpData* d) {
  const TfLiteTensor* aux_input = internal::GetOptionalInput(context, node, kAuxInput);
  const TfLiteTensor* fw_aux_w = internal::GetOptionalInput(context, node, kFwAuxWeights);
  const TfLiteTensor* bw_aux_w = internal::GetOptionalInput(context, node, kBwAuxWeights);
  if ((fw_aux_w == nullptr) != (bw_aux_w == nullptr)) {
    TF_LITE_KERNEL_LOG(context, "%s: fw and bw aux weights must be both present or both omitted",
                       kOp);
    return kTfLiteError;
  }
  d->use_aux_weights = fw_aux_w != nullptr;
  return internal::CheckBidirectionalAuxInput(context, kOp, input, aux_input, d->use_aux_weights,
                                              d->n_input, &d->bw_reads_aux, &d->n_aux);
}

// One cell: its units, weights (with hybrid scales), bias and hidden state.
TfLiteStatus PrepareDirection(TfLiteContext* context, TfLiteNode* node, const OpData* d,
                              Direction* dir) {
  const TfLiteTensor* w = internal::InputAt(context, node, dir->weights);
  if (internal::NumDims(w) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: %s weights must be 2-D", kOp, dir->name);
    return kTfLiteError;
  }
  dir->units = internal::Dim(w, 0);
  const int units = dir->units;
  if (units <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: %s cell has no units", kOp, dir->name);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckWeights(context, d, w, dir->name, "weights", units, d->n_input,
                                          &dir->weights_scale));
  TF_LITE_ENSURE_OK(context,
                    CheckWeights(context, d, internal::InputAt(context, node, dir->recurrent),
                                 dir->name, "recurrent_weights", units, units,
                                 &dir->recurrent_scale));
  if (d->use_aux_weights) {
    TF_LITE_ENSURE_OK(context,
                      CheckWeights(context, d, internal::InputAt(context, node, dir->aux_weights),
                                   dir->name, "aux_weights", units, d->n_aux, &dir->aux_scale));
  }
  const TfLiteTensor* bias = internal::InputAt(context, node, dir->bias);
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", bias, kTfLiteFloat32));
  if (internal::NumDims(bias) != 1 || internal::Dim(bias, 0) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: %s bias must be [%d]", kOp, dir->name, units);
    return kTfLiteError;
  }
  const TfLiteTensor* hidden = internal::InputAt(context, node, dir->hidden);
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "hidden state", hidden, kTfLiteFloat32));
  if (!hidden->is_variable) {
    TF_LITE_KERNEL_LOG(context, "%s: the %s hidden state must be a variable tensor", kOp,
                       dir->name);
    return kTfLiteError;
  }
  if (internal::NumDims(hidden) != 2 || internal::Dim(hidden, 0) != d->n_batch ||
      internal::Dim(hidden, 1) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: %s hidden state must be [%d, %d]", kOp, dir->name,
                       d->n_batch, units);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteBidirectionalSequenceRNNParams*>(node->builtin_data);
  d->merge_outputs = params->merge_outputs;
  d->time_major = params->time_major;
  d->activation = params->activation;
  d->asymmetric = params->asymmetric_quantize_inputs;
  const int n_outputs = d->merge_outputs ? 1 : 2;
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 12, 12, n_outputs));
  TF_LITE_ENSURE_OK(context, internal::CheckRecurrentActivation(context, kOp, d->activation));
  const TfLiteTensor* input = nullptr;
  TF_LITE_ENSURE_OK(context, ReadSequenceInput(context, node, d, &input));
  TF_LITE_ENSURE_OK(context, PrepareAuxInput(context, node, input, d));
  int max_units = 0;
  for (Direction& dir : d->dir) {
    TF_LITE_ENSURE_OK(context, PrepareDirection(context, node, d, &dir));
    max_units = std::max(max_units, dir.units);
  }

  d->tmp.assign(static_cast<size_t>(std::max(d->n_batch, 1)) * max_units, 0.0f);
  d->quantized.assign(std::max({d->n_input, d->n_aux, max_units}), 0);
  d->row_sums_ready = false;

  return internal::PrepareBidirectionalOutputs(context, node, kOp, input, n_outputs,
                                               d->merge_outputs, d->dir[0].units,
                                               d->dir[1].units);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  auto data = [&](int i) {
    const TfLiteTensor* t = internal::GetOptionalInput(context, node, i);
    return t == nullptr ? nullptr : t->data.data;
  };
  const float* input = static_cast<const float*>(data(kInput));
  const float* aux = static_cast<const float*>(data(kAuxInput));

  if (d->hybrid && d->asymmetric && !d->row_sums_ready) {
    for (Direction& dir : d->dir) {
      dir.weights_sums.resize(dir.units);
      dir.recurrent_sums.resize(dir.units);
      internal::WeightRowSums(static_cast<const int8_t*>(data(dir.weights)), dir.units,
                              d->n_input, dir.weights_sums.data());
      internal::WeightRowSums(static_cast<const int8_t*>(data(dir.recurrent)), dir.units,
                              dir.units, dir.recurrent_sums.data());
      if (d->use_aux_weights) {
        dir.aux_sums.resize(dir.units);
        internal::WeightRowSums(static_cast<const int8_t*>(data(dir.aux_weights)), dir.units,
                                d->n_aux, dir.aux_sums.data());
      }
    }
    d->row_sums_ready = true;
  }

  const internal::RnnScratch scratch{d->tmp.data(), d->quantized.data()};
  for (int k = 0; k < 2; ++k) {
    Direction& dir = d->dir[k];
    internal::RnnCell cell;
    cell.n_input = d->n_input;
    cell.n_aux = d->n_aux;
    cell.units = dir.units;
    cell.activation = d->activation;
    cell.hybrid = d->hybrid;
    cell.weights = data(dir.weights);
    cell.recurrent = data(dir.recurrent);
    cell.aux_weights = d->use_aux_weights ? data(dir.aux_weights) : nullptr;
    cell.bias = static_cast<const float*>(data(dir.bias));
    cell.weights_scale = dir.weights_scale;
    cell.recurrent_scale = dir.recurrent_scale;
    cell.aux_scale = dir.aux_scale;
    if (d->hybrid && d->asymmetric) {
      cell.weights_sums = dir.weights_sums.data();
      cell.recurrent_sums = dir.recurrent_sums.data();
      cell.aux_sums = d->use_aux_weights ? dir.aux_sums.data() : nullptr;
    }
    const float* x = (k == 1 && d->bw_reads_aux) ? aux : input;
    const float* cell_aux = d->use_aux_weights ? aux : nullptr;
    float* h = static_cast<float*>(context->tensors[node->inputs->data[dir.hidden]].data.data);
    float* out;
    int stride;
    internal::BidirectionalOutputRows(context, node, d->merge_outputs, k, d->dir[0].units,
                                      d->dir[1].units, &out, &stride);
    const int64_t n_in = d->n_input, n_aux = d->n_aux, units = dir.units;
    internal::ForEachSequenceStep(
        d->time_major, d->max_time, d->n_batch,
        [&](int64_t row, int b, int n_rows) {
          internal::RnnCellStep(cell, x + row * n_in,
                                cell_aux != nullptr ? cell_aux + row * n_aux : nullptr, n_rows,
                                h + b * units, out + row * stride, stride, scratch);
        },
        /*reverse=*/k == 1);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_RNN() {
  static const TfLiteRegistration r = internal::MakeRegistration(Init, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

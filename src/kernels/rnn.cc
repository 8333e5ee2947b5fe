// RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN (a whole sequence): the
// basic recurrent cell
//   h = act(W x + R h + b)
// Inputs: input [batch, n_input] (RNN) or [time, batch, n_input] /
// [batch, time, n_input] (sequence, per time_major), weights [units, n_input],
// recurrent_weights [units, units], bias [units], hidden state [batch, units]
// (a variable tensor carried from one Invoke to the next). The output is h
// for every step. FLOAT32, or hybrid: int8 weights and recurrent weights
// (per-tensor scale) with float input, bias and state; the input and the
// state are quantized to int8 per batch row on the fly (symmetric, or
// asymmetric with the asymmetric_quantize_inputs option) as upstream does.
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

enum { kInput = 0, kWeights = 1, kRecurrentWeights = 2, kBias = 3, kHiddenState = 4 };

struct OpData {
  bool sequence = false;
  bool time_major = true;
  int max_time = 1;
  int n_batch = 0;
  int n_input = 0;
  int units = 0;
  TfLiteFusedActivation activation = kTfLiteActNone;
  internal::ScratchVector<float> scratch;
  // Hybrid.
  bool hybrid = false;
  bool asymmetric = false;
  float weights_scale = 1.0f;
  float recurrent_scale = 1.0f;
  bool row_sums_ready = false;
  std::vector<int32_t> weights_row_sums, recurrent_row_sums;
  internal::ScratchVector<int8_t> quantized;
};

const char* OpName(const OpData* d) { return d->sequence ? "UNIDIRECTIONAL_SEQUENCE_RNN" : "RNN"; }


struct RnnTensors {
  const TfLiteTensor* input = nullptr;
  const TfLiteTensor* weights = nullptr;
  const TfLiteTensor* recurrent = nullptr;
  const TfLiteTensor* bias = nullptr;
  const TfLiteTensor* hidden = nullptr;
  TfLiteTensor* output = nullptr;
};

// Options of RNN / UNIDIRECTIONAL_SEQUENCE_RNN into OpData.
TfLiteStatus ReadRnnParams(TfLiteContext* context, TfLiteNode* node, const char* op, OpData* d) {
  if (d->sequence) {
    const auto* p = static_cast<const TfLiteSequenceRNNParams*>(node->builtin_data);
    d->time_major = p->time_major;
    d->activation = p->activation;
    d->asymmetric = p->asymmetric_quantize_inputs;
  } else {
    const auto* p = static_cast<const TfLiteRNNParams*>(node->builtin_data);
    d->activation = p->activation;
    d->asymmetric = p->asymmetric_quantize_inputs;
  }
  return internal::CheckRecurrentActivation(context, op, d->activation);
}

TfLiteStatus GetRnnTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                           RnnTensors* t) {
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, op, &t->input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kWeights, op, &t->weights));
  TF_LITE_ENSURE_OK(context,
                    internal::GetInput(context, node, kRecurrentWeights, op, &t->recurrent));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kBias, op, &t->bias));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kHiddenState, op, &t->hidden));
  return internal::GetOutput(context, node, 0, op, &t->output);
}

// Float activations with float or (hybrid) int8 weights of per-tensor scales.
TfLiteStatus CheckRnnTypes(TfLiteContext* context, const char* op, const RnnTensors& t,
                           OpData* d) {
  if (t.input->type != kTfLiteFloat32) {
    return internal::UnsupportedType(context, op, "input", t.input->type);
  }
  if (t.weights->type != t.recurrent->type) {
    TF_LITE_KERNEL_LOG(context, "%s: weights (%s) and recurrent_weights (%s) must have one type",
                       op, TfLiteTypeGetName(t.weights->type),
                       TfLiteTypeGetName(t.recurrent->type));
    return kTfLiteError;
  }
  d->hybrid = t.weights->type == kTfLiteInt8;
  if (!d->hybrid && t.weights->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: weights of type %s with float input are not supported", op,
                       TfLiteTypeGetName(t.weights->type));
    return kTfLiteError;
  }
  if (d->hybrid) {
    internal::QuantParams wq, rq;
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, op, "weights", t.weights, &wq));
    TF_LITE_ENSURE_OK(context,
                      internal::GetQuantParams(context, op, "recurrent_weights", t.recurrent, &rq));
    d->weights_scale = wq.scale;
    d->recurrent_scale = rq.scale;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "bias", t.bias, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, op, "hidden state", t.hidden, kTfLiteFloat32));
  return internal::ExpectType(context, op, "output", t.output, kTfLiteFloat32);
}

// Sequence sizes and units; weights, bias and the variable hidden state agree.
TfLiteStatus CheckRnnShapes(TfLiteContext* context, const char* op, const RnnTensors& t,
                            OpData* d) {
  TF_LITE_ENSURE_OK(context, internal::SetSequenceDims(context, op, t.input, d));
  if (internal::NumDims(t.weights) != 2 || internal::Dim(t.weights, 1) != d->n_input) {
    TF_LITE_KERNEL_LOG(context, "%s: weights must be [units, %d]", op, d->n_input);
    return kTfLiteError;
  }
  d->units = internal::Dim(t.weights, 0);
  const int units = d->units;
  if (internal::NumDims(t.recurrent) != 2 || internal::Dim(t.recurrent, 0) != units ||
      internal::Dim(t.recurrent, 1) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: recurrent_weights must be [%d, %d]", op, units, units);
    return kTfLiteError;
  }
  if (internal::NumDims(t.bias) != 1 || internal::Dim(t.bias, 0) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: bias must be [%d]", op, units);
    return kTfLiteError;
  }
  if (!t.hidden->is_variable) {
    TF_LITE_KERNEL_LOG(context, "%s: the hidden state must be a variable tensor", op);
    return kTfLiteError;
  }
  if (internal::NumDims(t.hidden) != 2 || internal::Dim(t.hidden, 0) != d->n_batch ||
      internal::Dim(t.hidden, 1) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: hidden state must be [%d, %d]", op, d->n_batch, units);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const char* op = OpName(d);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 5, 5, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  TF_LITE_ENSURE_OK(context, ReadRnnParams(context, node, op, d));
  RnnTensors t;
  TF_LITE_ENSURE_OK(context, GetRnnTensors(context, node, op, &t));
  TF_LITE_ENSURE_OK(context, CheckRnnTypes(context, op, t, d));
  TF_LITE_ENSURE_OK(context, CheckRnnShapes(context, op, t, d));
  const int units = d->units;
  d->scratch.assign(static_cast<size_t>(d->n_batch) * units, 0.0f);
  d->row_sums_ready = false;
  if (d->hybrid) d->quantized.assign(std::max(d->n_input, units), 0);
  return internal::ResizeSequenceOutput(context, t.input, t.output, d->sequence, d->n_batch,
                                        units);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const float* x = static_cast<const float*>(internal::InputAt(context, node, kInput)->data.data);
  float* h = static_cast<float*>(context->tensors[node->inputs->data[kHiddenState]].data.data);
  float* out = static_cast<float*>(internal::OutputAt(context, node, 0)->data.data);
  const int64_t n_in = d->n_input, units = d->units;
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  internal::RnnCell cell;
  cell.n_input = d->n_input;
  cell.units = d->units;
  cell.activation = d->activation;
  cell.hybrid = d->hybrid;
  cell.weights = internal::InputAt(context, node, kWeights)->data.data;
  cell.recurrent = internal::InputAt(context, node, kRecurrentWeights)->data.data;
  cell.bias = static_cast<const float*>(internal::InputAt(context, node, kBias)->data.data);
  cell.weights_scale = d->weights_scale;
  cell.recurrent_scale = d->recurrent_scale;
  if (d->hybrid && d->asymmetric) {
    if (!d->row_sums_ready) {
      d->weights_row_sums.resize(units);
      d->recurrent_row_sums.resize(units);
      internal::WeightRowSums(static_cast<const int8_t*>(cell.weights), d->units, d->n_input,
                              d->weights_row_sums.data());
      internal::WeightRowSums(static_cast<const int8_t*>(cell.recurrent), d->units, d->units,
                              d->recurrent_row_sums.data());
      d->row_sums_ready = true;
    }
    cell.weights_sums = d->weights_row_sums.data();
    cell.recurrent_sums = d->recurrent_row_sums.data();
  }
  const internal::RnnScratch scratch{d->scratch.data(), d->quantized.data()};
  internal::ForEachSequenceStep(d->time_major, d->max_time, d->n_batch,
                                [&](int64_t row, int b, int n_rows) {
                                  internal::RnnCellStep(cell, x + row * n_in, nullptr, n_rows,
                                                        h + b * units, out + row * units, units,
                                                        scratch);
                                });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RNN() {
  return internal::RecurrentRegistration<OpData, false, Prepare, Eval>();
}

const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN() {
  return internal::RecurrentRegistration<OpData, true, Prepare, Eval>();
}

}  // namespace kernels
}  // namespace tflite_c

// RNN (one step) and UNIDIRECTIONAL_SEQUENCE_RNN (a whole sequence): the
// basic recurrent cell
//   h = act(W x + R h + b)
// Inputs: input [batch, n_input] (RNN) or [time, batch, n_input] /
// [batch, time, n_input] (sequence, per time_major), weights [units, n_input],
// recurrent_weights [units, units], bias [units], hidden state [batch, units]
// (a variable tensor carried from one Invoke to the next). The output is h
// for every step. FLOAT32 only; hybrid (int8 weights) is not supported.
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/register_recurrent.h"
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
  std::vector<float> scratch;
};

const char* OpName(const OpData* d) { return d->sequence ? "UNIDIRECTIONAL_SEQUENCE_RNN" : "RNN"; }

void* InitRnn(TfLiteContext*, const char*, size_t) { return new OpData(); }
void* InitSequence(TfLiteContext*, const char*, size_t) {
  auto* d = new OpData();
  d->sequence = true;
  return d;
}
void Free(TfLiteContext*, void* data) { delete static_cast<OpData*>(data); }

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const char* op = OpName(d);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 5, 5, 1));
  if (node->builtin_data == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: missing options", op);
    return kTfLiteError;
  }
  if (d->sequence) {
    const auto* p = static_cast<const TfLiteSequenceRNNParams*>(node->builtin_data);
    d->time_major = p->time_major;
    d->activation = p->activation;
  } else {
    d->activation = static_cast<const TfLiteRNNParams*>(node->builtin_data)->activation;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckRecurrentActivation(context, op, d->activation));
  const TfLiteTensor* input;
  const TfLiteTensor* weights;
  const TfLiteTensor* recurrent;
  const TfLiteTensor* bias;
  const TfLiteTensor* hidden;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kWeights, op, &weights));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kRecurrentWeights, op, &recurrent));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kBias, op, &bias));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kHiddenState, op, &hidden));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));

  if (input->type != kTfLiteFloat32) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (weights->type != kTfLiteFloat32 || recurrent->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: weights of type %s with float input (hybrid) are not supported",
                       op, TfLiteTypeGetName(weights->type != kTfLiteFloat32 ? weights->type
                                                                              : recurrent->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "bias", bias, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, op, "hidden state", hidden, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "output", output, kTfLiteFloat32));

  internal::SequenceDims dims;
  TF_LITE_ENSURE_OK(context,
                    internal::GetSequenceDims(context, op, input, d->sequence, d->time_major, &dims));
  d->max_time = dims.max_time;
  d->n_batch = dims.n_batch;
  d->n_input = dims.n_input;
  if (internal::NumDims(weights) != 2 || internal::Dim(weights, 1) != d->n_input) {
    TF_LITE_KERNEL_LOG(context, "%s: weights must be [units, %d]", op, d->n_input);
    return kTfLiteError;
  }
  d->units = internal::Dim(weights, 0);
  const int units = d->units;
  if (internal::NumDims(recurrent) != 2 || internal::Dim(recurrent, 0) != units ||
      internal::Dim(recurrent, 1) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: recurrent_weights must be [%d, %d]", op, units, units);
    return kTfLiteError;
  }
  if (internal::NumDims(bias) != 1 || internal::Dim(bias, 0) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: bias must be [%d]", op, units);
    return kTfLiteError;
  }
  if (!hidden->is_variable) {
    TF_LITE_KERNEL_LOG(context, "%s: the hidden state must be a variable tensor", op);
    return kTfLiteError;
  }
  if (internal::NumDims(hidden) != 2 || internal::Dim(hidden, 0) != d->n_batch ||
      internal::Dim(hidden, 1) != units) {
    TF_LITE_KERNEL_LOG(context, "%s: hidden state must be [%d, %d]", op, d->n_batch, units);
    return kTfLiteError;
  }
  d->scratch.assign(static_cast<size_t>(d->n_batch) * units, 0.0f);
  return internal::ResizeSequenceOutput(context, input, output, d->sequence, d->n_batch, units);
}

// h = act(W x + R h + b) for `n_batch` rows; the new h is also written to out.
void Step(OpData* d, const float* w, const float* r, const float* bias, const float* x, float* h,
          float* out, int n_batch) {
  const int units = d->units;
  float* acc = out;
  float* tmp = d->scratch.data();
  internal::MatMulTransposedRhs({x, n_batch, d->n_input, d->n_input},
                                {w, units, d->n_input, d->n_input}, {acc, n_batch, units, units},
                                1);
  internal::MatMulTransposedRhs({h, n_batch, units, units}, {r, units, units, units},
                                {tmp, n_batch, units, units}, 1);
  for (int b = 0; b < n_batch; ++b) {
    for (int u = 0; u < units; ++u) acc[b * units + u] += tmp[b * units + u] + bias[u];
  }
  internal::ApplyRecurrentActivation(d->activation, acc, n_batch * units, acc);
  std::memcpy(h, acc, sizeof(float) * n_batch * units);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const float* x = static_cast<const float*>(internal::InputAt(context, node, kInput)->data.data);
  const float* w = static_cast<const float*>(internal::InputAt(context, node, kWeights)->data.data);
  const float* r =
      static_cast<const float*>(internal::InputAt(context, node, kRecurrentWeights)->data.data);
  const float* bias = static_cast<const float*>(internal::InputAt(context, node, kBias)->data.data);
  float* h = static_cast<float*>(context->tensors[node->inputs->data[kHiddenState]].data.data);
  float* out = static_cast<float*>(internal::OutputAt(context, node, 0)->data.data);
  const int64_t n_in = d->n_input, units = d->units;
  if (d->n_batch == 0 || d->max_time == 0) return kTfLiteOk;
  internal::ForEachSequenceStep(d->time_major, d->max_time, d->n_batch,
                                [&](int64_t row, int b, int n_rows) {
                                  Step(d, w, r, bias, x + row * n_in, h + b * units,
                                       out + row * units, n_rows);
                                });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RNN() {
  static const TfLiteRegistration r = internal::MakeRegistration(InitRnn, Free, Prepare, Eval);
  return &r;
}

const TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(InitSequence, Free, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

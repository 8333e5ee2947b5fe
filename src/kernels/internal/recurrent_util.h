// Pieces shared by the float recurrent kernels (LSTM, RNN and their
// UNIDIRECTIONAL_SEQUENCE_ forms, SVDF): the fused activations they accept and
// apply element-wise, the sequence input layout and the per-step loop.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_

#include <cstdint>

#include "src/kernels/internal/kernel_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Fails (with a message naming `op`) unless `activation` is one the recurrent
// kernels implement: none, RELU, RELU_N1_TO_1, RELU6, TANH or SIGMOID.
TfLiteStatus CheckRecurrentActivation(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation activation);

// out[i] = act(in[i]) for n floats; `in` may equal `out`. Unlike the clamping
// fused activations of other ops, TANH and SIGMOID are applied as functions.
void ApplyRecurrentActivation(TfLiteFusedActivation activation, const float* in, int n,
                              float* out);

// Time steps, batch rows and features of a recurrent op's input: [batch,
// n_input] for a single step, [time, batch, n_input] (time-major) or [batch,
// time, n_input] for a sequence.
struct SequenceDims {
  int max_time = 1;
  int n_batch = 0;
  int n_input = 0;
};
// Fails unless `input` has the rank its form needs (3 for a sequence, else 2).
TfLiteStatus GetSequenceDims(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                             bool sequence, bool time_major, SequenceDims* dims);
// GetSequenceDims for a kernel's OpData `d` (its sequence and time_major
// flags), storing max_time, n_batch and n_input into it.
template <typename OpData>
TfLiteStatus SetSequenceDims(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                             OpData* d) {
  SequenceDims dims;
  TF_LITE_ENSURE_OK(context,
                    GetSequenceDims(context, op, input, d->sequence, d->time_major, &dims));
  d->max_time = dims.max_time;
  d->n_batch = dims.n_batch;
  d->n_input = dims.n_input;
  return kTfLiteOk;
}

// Resizes `output` to the input's shape with the last dimension `n_output`
// (sequence), or to [n_batch, n_output].
TfLiteStatus ResizeSequenceOutput(TfLiteContext* context, const TfLiteTensor* input,
                                  TfLiteTensor* output, bool sequence, int n_batch, int n_output);

// The bidirectional ops' outputs (BIDIRECTIONAL_SEQUENCE_LSTM / _RNN): checks
// that each of the `n_outputs` outputs is float32 and resizes it to the
// sequence input's shape with the last dimension fw_width + bw_width
// (merged: one output) or fw_width / bw_width (output 0 / 1).
TfLiteStatus PrepareBidirectionalOutputs(TfLiteContext* context, TfLiteNode* node,
                                         const char* op, const TfLiteTensor* input,
                                         int n_outputs, bool merge, int fw_width, int bw_width);

// The auxiliary input of a bidirectional op (may be null): aux weights need
// it; without aux weights the backward cell reads it as its input. Sets
// *bw_reads_aux and *n_aux (its feature size when aux weights use it, else
// 0) and fails unless it is FLOAT32 with the input's time and batch
// dimensions (and, read by the backward cell, `n_input` features).
TfLiteStatus CheckBidirectionalAuxInput(TfLiteContext* context, const char* op,
                                        const TfLiteTensor* input, const TfLiteTensor* aux_input,
                                        bool use_aux_weights, int n_input, bool* bw_reads_aux,
                                        int* n_aux);

// Where direction `k` (0 forward, 1 backward) of a bidirectional op writes its
// rows: with merged outputs both share output 0, rows fw_width + bw_width
// wide, the backward values after the forward ones; otherwise output k, rows
// of its own width.
void BidirectionalOutputRows(TfLiteContext* context, const TfLiteNode* node, bool merge, int k,
                             int fw_width, int bw_width, float** rows, int* stride);

// Runs the steps of a sequence as `step(row, batch, n_rows)`: `row` is the
// first input/output row ([time * batch] or [batch * time] flattened) of the
// step and `batch` the first state row it updates. Time-major: all batch rows
// at once per time step; otherwise one batch row at a time through its
// sequence.
// With `reverse` the time steps run from last to first (the backward
// direction of the bidirectional ops).
template <typename Step>
void ForEachSequenceStep(bool time_major, int max_time, int n_batch, Step step,
                         bool reverse = false) {
  auto time_at = [&](int i) { return reverse ? max_time - 1 - i : i; };
  if (time_major) {
    for (int i = 0; i < max_time; ++i) step(int64_t{time_at(i)} * n_batch, 0, n_batch);
  } else {
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < max_time; ++i) step(int64_t{b} * max_time + time_at(i), b, 1);
    }
  }
}

// One cell of the basic RNN family: h = act(W x + A aux + R h + b), float or
// hybrid (int8 W, A, R with per-tensor scales; the float operands quantized
// per batch row, asymmetrically when the row sums are given).
struct RnnCell {
  int n_input = 0;
  int n_aux = 0;  // 0: no auxiliary input
  int units = 0;
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool hybrid = false;
  const void* weights = nullptr;  // [units, n_input]
  const void* aux_weights = nullptr;  // [units, n_aux]
  const void* recurrent = nullptr;  // [units, units]
  const float* bias = nullptr;  // [units]
  float weights_scale = 1.0f, aux_scale = 1.0f, recurrent_scale = 1.0f;
  // Hybrid with asymmetric inputs: row sums of the three matrices, else null.
  const int32_t* weights_sums = nullptr;
  const int32_t* aux_sums = nullptr;
  const int32_t* recurrent_sums = nullptr;
};

// Scratch for RnnCellStep: n_batch * units floats and max(n_input, n_aux,
// units) int8 values.
struct RnnScratch {
  float* tmp;
  int8_t* quantized;
};

// One step for `n_batch` rows: x [n_batch, n_input], aux [n_batch, n_aux] (or
// null), h [n_batch, units] updated in place; row b of the result is also
// written to out + b * out_stride.
void RnnCellStep(const RnnCell& cell, const float* x, const float* aux, int n_batch, float* h,
                 float* out, int out_stride, const RnnScratch& scratch);

// The registration of a kernel serving a one-step op and its sequence op,
// whose per-node state OpData has a `sequence` flag set for the latter.
template <typename OpData, bool sequence>
void* InitRecurrentOpData(TfLiteContext* /*context*/, const char* /*buffer*/, size_t /*length*/) {
  auto* d = new OpData();
  d->sequence = sequence;
  return d;
}
template <typename OpData, bool sequence, TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
          TfLiteStatus (*eval)(TfLiteContext*, TfLiteNode*)>
const TfLiteRegistration* RecurrentRegistration() {
  static const TfLiteRegistration r = MakeRegistration(InitRecurrentOpData<OpData, sequence>,
                                                       FreeOpData<OpData>, prepare, eval);
  return &r;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_

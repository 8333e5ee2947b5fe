// Pieces shared by the float recurrent kernels (LSTM, RNN and their
// UNIDIRECTIONAL_SEQUENCE_ forms, SVDF): the fused activations they accept and
// apply element-wise, the sequence input layout and the per-step loop.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_

#include <cstdint>

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

// Resizes `output` to the input's shape with the last dimension `n_output`
// (sequence), or to [n_batch, n_output].
TfLiteStatus ResizeSequenceOutput(TfLiteContext* context, const TfLiteTensor* input,
                                  TfLiteTensor* output, bool sequence, int n_batch, int n_output);

// Runs the steps of a sequence as `step(row, batch, n_rows)`: `row` is the
// first input/output row ([time * batch] or [batch * time] flattened) of the
// step and `batch` the first state row it updates. Time-major: all batch rows
// at once per time step; otherwise one batch row at a time through its
// sequence.
template <typename Step>
void ForEachSequenceStep(bool time_major, int max_time, int n_batch, Step step) {
  if (time_major) {
    for (int t = 0; t < max_time; ++t) step(int64_t{t} * n_batch, 0, n_batch);
  } else {
    for (int b = 0; b < n_batch; ++b) {
      for (int t = 0; t < max_time; ++t) step(int64_t{b} * max_time + t, b, 1);
    }
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_RECURRENT_UTIL_H_

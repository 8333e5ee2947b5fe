// Pieces shared by the LSTM kernels: lstm.cc (LSTM and
// UNIDIRECTIONAL_SEQUENCE_LSTM options, the cell's validation PrepareCell),
// lstm_float_eval.cc (the float and hybrid cell), lstm_integer_eval.cc (the
// integer 8x8->16 cell), lstm_integer8_eval.cc (LSTM's integer 8x8->8 cell),
// lstm_basic.cc (LSTM's 5-input BASIC kernel) and
// bidirectional_sequence_lstm.cc: input indices, per-gate tables and the
// per-cell state. The cell functions find their
// inputs through a map from Input to node input index, so one cell serves
// the 20/24-input ops and either half of the 48-input bidirectional one.
#ifndef TFLITE_C_SRC_KERNELS_LSTM_CELL_H_
#define TFLITE_C_SRC_KERNELS_LSTM_CELL_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace lstm {

enum Input {
  kInput = 0,
  kInputToInput = 1,
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecurrentToInput = 5,
  kRecurrentToForget = 6,
  kRecurrentToCell = 7,
  kRecurrentToOutput = 8,
  kCellToInput = 9,
  kCellToForget = 10,
  kCellToOutput = 11,
  kInputGateBias = 12,
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
};

// The inputs' names in messages, by Input index.
inline constexpr const char* kInputName[] = {
    "input",
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_gate_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
    "output_state",
    "cell_state",
    "input_layer_norm_coefficients",
    "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients",
    "output_layer_norm_coefficients",
};
static_assert(sizeof(kInputName) / sizeof(kInputName[0]) == kOutputLayerNorm + 1,
              "one name per input");

// Gate order used by every per-gate array below.
enum Gate { kGateInput = 0, kGateForget = 1, kGateCell = 2, kGateOutput = 3 };

// The inputs of each gate, by Gate (-1: the cell gate has no peephole).
inline constexpr int kInputWeightsOf[4] = {kInputToInput, kInputToForget, kInputToCell,
                                           kInputToOutput};
inline constexpr int kRecurrentWeightsOf[4] = {kRecurrentToInput, kRecurrentToForget,
                                               kRecurrentToCell, kRecurrentToOutput};
inline constexpr int kPeepholeOf[4] = {kCellToInput, kCellToForget, -1, kCellToOutput};
inline constexpr int kLayerNormOf[4] = {kInputLayerNorm, kForgetLayerNorm, kCellLayerNorm,
                                        kOutputLayerNorm};
inline constexpr int kBiasOf[4] = {kInputGateBias, kForgetGateBias, kCellGateBias,
                                   kOutputGateBias};

inline constexpr const char* kGateName[4] = {"input", "forget", "cell", "output"};

struct Multiplier {
  int32_t a = 0;
  int b = 0;
};

// Quantization-derived constants of the integer kernel.
struct IntegerParams {
  Multiplier input_scale[4];      // input -> gate accumulator
  Multiplier recurrent_scale[4];  // output state -> gate accumulator
  Multiplier cell_scale_m[4];     // peephole (forget, input, output)
  Multiplier layer_norm_scale[4];
  int32_t variance_guard[4] = {0, 0, 0, 0};
  Multiplier hidden_scale;
  Multiplier proj_scale;
  int32_t hidden_zp = 0;
  int cell_scale = 0;  // log2 of the cell state scale
  int16_t cell_clip = 0;
  int8_t proj_clip = 0;
  int32_t output_state_zp = 0;
  // bias (without layer norm) + the zero point folded into each row.
  internal::ScratchVector<int32_t> input_bias[4];
  internal::ScratchVector<int32_t> recurrent_bias[4];
  internal::ScratchVector<int32_t> projection_bias;
};

// Constants of the integer 8x8->8 cell (12 intermediates; LSTM only), by
// Gate (the input gate is unused: that kernel is CIFG only).
struct Integer8Params {
  Multiplier input_to_gate[4];      // input x weights -> the gate's Wx intermediate
  Multiplier recurrent_to_gate[4];  // output state x weights -> its Wh intermediate
  Multiplier wx_to_gate[4];         // Wx intermediate -> gate (Wx + Wh) scale
  Multiplier wh_to_gate[4];         // Wh intermediate -> gate scale
  int8_t wx_zp[4] = {0, 0, 0, 0};
  int8_t wh_zp[4] = {0, 0, 0, 0};
  Multiplier layer_norm_scale[4];
  Multiplier proj_scale;
  int32_t input_zp = 0;
  int32_t output_state_zp = 0;
  int16_t cell_clip = 0;
  int8_t proj_clip = 0;
};

// The BASIC kernel (LSTM with 5 inputs and 4 outputs, lstm_basic.cc).
struct BasicParams {
  bool quantized = false;  // uint8 activations, int16 state
  int n_batch = 0;
  int n_input = 0;
  int n_depth = 0;  // output / state depth; the fused gates have 4 * n_depth
  int32_t weights_zp = 0;
  Multiplier accum_scale;
};

struct OpData {
  bool sequence = false;  // UNIDIRECTIONAL_SEQUENCE_LSTM
  bool time_major = true;
  bool integer = false;
  bool integer8x8_8 = false;  // with `integer`: the 12-intermediate kernel
  bool basic = false;         // LSTM's BASIC kernel type
  bool use_cifg = false;
  bool use_peephole = false;
  bool use_layer_norm = false;
  bool use_projection = false;
  int max_time = 1;
  int n_batch = 0;
  int n_input = 0;
  int n_cell = 0;
  int n_output = 0;
  TfLiteFusedActivation activation = kTfLiteActTanh;
  float cell_clip = 0.0f;
  float proj_clip = 0.0f;
  internal::ScratchVector<float> scratch;  // float: 4 gates + accumulator, n_batch * n_cell each
  internal::ScratchVector<int16_t> scratch16;  // integer: 4 gates
  internal::ScratchVector<int8_t> scratch8;
  IntegerParams q;
  Integer8Params q8;
  BasicParams basic_params;
  // Auxiliary input (BIDIRECTIONAL_SEQUENCE_LSTM): its width, 0 without.
  int n_aux = 0;
  // Hybrid: int8 weights with float activations.
  bool hybrid = false;
  bool asymmetric = false;  // asymmetric_quantize_inputs
  float weight_scale[kOutputLayerNorm + 1] = {};  // per Input, hybrid weights only
  float aux_scale[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  bool row_sums_ready = false;
  internal::ScratchVector<int32_t> input_sums[4], recurrent_sums[4], aux_sums[4], projection_sums;
  internal::ScratchVector<float> peephole[4];  // dequantized peephole weights
  internal::ScratchVector<int8_t> quantized;   // one quantized row
};

inline const char* OpName(const OpData* d) {
  return d->sequence ? "UNIDIRECTIONAL_SEQUENCE_LSTM" : "LSTM";
}

// Runs `step(x, h, c, out, n_batch)` over the sequence: all batches at once
// per step when time-major, else one batch row at a time through its sequence.
template <typename T, typename S, typename Step>
void RunSequence(const OpData& d, const T* input, T* output, T* h, S* c, Step step) {
  const int64_t n_in = d.n_input, n_out = d.n_output, n_cell = d.n_cell;
  internal::ForEachSequenceStep(d.time_major, d.max_time, d.n_batch,
                                [&](int64_t row, int b, int n_rows) {
                                  step(input + row * n_in, h + b * n_out, c + b * n_cell,
                                       output + row * n_out, n_rows);
                                });
}

// RunSequence for the integer kernels: the node's int8 input and output, its
// int8 output state (h) and int16 cell state (c).
template <typename Step>
void RunIntegerSequence(TfLiteContext* context, TfLiteNode* node, const OpData& d, Step step) {
  auto state = [&](int i) { return context->tensors[node->inputs->data[i]].data.data; };
  RunSequence<int8_t, int16_t>(
      d, static_cast<const int8_t*>(internal::GetOptionalInput(context, node, kInput)->data.data),
      static_cast<int8_t*>(internal::OutputAt(context, node, 0)->data.data),
      static_cast<int8_t*>(state(kOutputState)), static_cast<int16_t*>(state(kCellState)), step);
}

// The integer kernels' clip value: `clip` (> 0) in units of `scale`,
// saturated to T's range; 0 (no clipping) unless clip > 0.
template <typename T>
T QuantizeClip(float clip, float scale) {
  if (!(clip > 0.0f)) return 0;
  const float lo = static_cast<float>(std::numeric_limits<T>::min());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  return static_cast<T>(std::min(std::max(clip / scale, lo), hi));
}

// RunIntegerSequence over a step of the integer kernels, called with the
// options, their weights, the rows of the step and d's int16 and int8 scratch.
template <typename Weights>
void RunIntegerSteps(TfLiteContext* context, TfLiteNode* node, OpData* d, const Weights& w,
                     void (*step)(const OpData&, const Weights&, int, const int8_t*, int8_t*,
                                  int16_t*, int8_t*, int16_t*, int8_t*)) {
  RunIntegerSequence(context, node, *d,
                     [&](const int8_t* x, int8_t* h, int16_t* c, int8_t* out, int n_batch) {
                       step(*d, w, n_batch, x, h, c, out, d->scratch16.data(),
                            d->scratch8.data());
                     });
}

// Validates the cell whose inputs are at node inputs map[Input] (-1: absent
// in this op) for a float or int8 input: required inputs, CIFG / peephole /
// projection / layer-norm consistency, shapes, variable states and types
// (float, hybrid or, for an int8 input, the integer kernel through
// PrepareInteger), then sizes the scratch. The options and d->max_time,
// n_batch, n_input, n_aux must be set.
TfLiteStatus PrepareCell(TfLiteContext* context, TfLiteNode* node, const char* op, const int* map,
                         OpData* d);

// The scale of a hybrid weight tensor into *scale (1 when not hybrid).
TfLiteStatus GetWeightScale(TfLiteContext* context, const char* op, const TfLiteTensor* t,
                            const OpData* d, float* scale);

// Where the float / hybrid cell reads the optional auxiliary input and writes
// its output: row r of the sequence goes to output + r * output_stride.
struct CellIo {
  const TfLiteTensor* aux = nullptr;
  const TfLiteTensor* aux_weights[4] = {nullptr, nullptr, nullptr, nullptr};
  float* output = nullptr;
  int output_stride = 0;
  bool reverse = false;  // last time step first
};

// Runs the float or hybrid cell over the whole input (lstm_float_eval.cc).
TfLiteStatus EvalCell(TfLiteContext* context, TfLiteNode* node, const int* map, OpData* d,
                      const CellIo& io);

// Integer kernel (lstm_integer_eval.cc): checks the types and quantization
// of an int8 LSTM whose shapes and options Prepare has already validated and
// derives its constants; then runs it over the whole input.
// 5 intermediates select the 8x8->16 kernel; 12 (LSTM only) the 8x8->8 one,
// which lstm_integer8_eval.cc prepares and runs.
TfLiteStatus PrepareInteger(TfLiteContext* context, TfLiteNode* node, OpData* d);
TfLiteStatus EvalInteger(TfLiteContext* context, TfLiteNode* node, OpData* d);
TfLiteStatus PrepareInteger8x8_8(TfLiteContext* context, TfLiteNode* node, OpData* d);
TfLiteStatus EvalInteger8x8_8(TfLiteContext* context, TfLiteNode* node, OpData* d);

// The BASIC kernel type of LSTM (lstm_basic.cc): validates the 5 inputs and
// 4 outputs and sizes the outputs; then runs one step and copies the new
// activation and state back into inputs 1 and 4.
TfLiteStatus PrepareBasic(TfLiteContext* context, TfLiteNode* node, OpData* d);
TfLiteStatus EvalBasic(TfLiteContext* context, TfLiteNode* node, OpData* d);

}  // namespace lstm
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_LSTM_CELL_H_

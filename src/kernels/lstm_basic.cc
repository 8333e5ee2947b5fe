// LSTM's BASIC kernel type: one step of a cell whose four gates come from one
// fully connected layer over [input, previous activation].
//   inputs:  0 input [batch, n_input], 1 previous activation [batch, depth],
//            2 weights [4 * depth, n_input + depth], 3 bias [4 * depth],
//            4 previous state [batch, depth]
//   outputs: 0 activation [batch, depth], 1 state [batch, depth],
//            2 the concatenation [batch, n_input + depth],
//            3 the gate pre-activations [batch, 4 * depth]
// The fused gates are, in order: input (sigmoid), new input (tanh), forget
// (sigmoid), output (sigmoid); state = i * g + f * prev_state and activation
// = o * tanh(state). After each step the new activation and state are copied
// into inputs 1 and 4, which therefore must be writable tensors.
//
// Types: float32 throughout, or the quantized cell: uint8 activations on
// [-1, 127/128] (zero point 128), uint8 weights, int32 bias, int16 state with
// 4 integer bits (scale 2^-11) and int16 gate pre-activations in Q3.12,
// bit-exact with upstream's fixed-point reference.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/lstm_integer.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/lstm_cell.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace lstm {
namespace {

constexpr const char* kOp = "LSTM (BASIC kernel)";

enum BasicInput { kData = 0, kPrevActivation = 1, kWeights = 2, kBias = 3, kPrevState = 4 };
enum BasicOutput { kActivation = 0, kState = 1, kConcat = 2, kGates = 3 };

// gemmlowp's int16 fixed-point product: round(a * b / 2^15), saturating.
int16_t FixedMul(int16_t a, int16_t b) {
  if (a == b && a == -32768) return 32767;
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

int16_t SatAdd16(int16_t a, int16_t b) {
  return static_cast<int16_t>(std::min(32767, std::max(-32768, int32_t{a} + int32_t{b})));
}

// x * 2^exponent with rounding (exponent < 0) or saturation (exponent > 0).
int16_t RescaleBy(int16_t x, int exponent) {
  if (exponent < 0) return static_cast<int16_t>(internal::RoundingDivideByPOT(x, -exponent));
  const int32_t threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return 32767;
  if (x < -threshold) return -32768;
  return static_cast<int16_t>(x * (1 << exponent));
}

void EvalFloat(const BasicParams& p, const float* input, float* prev_activation,
               const float* weights, const float* bias, float* prev_state, float* activation,
               float* state, float* concat, float* gates) {
  const int depth = p.n_depth;
  const int total = p.n_input + depth;
  for (int b = 0; b < p.n_batch; ++b) {
    float* cat = concat + static_cast<int64_t>(b) * total;
    std::memcpy(cat, input + static_cast<int64_t>(b) * p.n_input, p.n_input * sizeof(float));
    std::memcpy(cat + p.n_input, prev_activation + static_cast<int64_t>(b) * depth,
                depth * sizeof(float));
    float* pre = gates + static_cast<int64_t>(b) * 4 * depth;
    for (int r = 0; r < 4 * depth; ++r) {
      const float* row = weights + static_cast<int64_t>(r) * total;
      float acc = 0.0f;
      for (int c = 0; c < total; ++c) acc += row[c] * cat[c];
      pre[r] = acc + bias[r];
    }
    for (int c = 0; c < depth; ++c) {
      const float i = 1.0f / (1.0f + std::exp(-pre[c]));
      const float g = std::tanh(pre[depth + c]);
      const float f = 1.0f / (1.0f + std::exp(-pre[2 * depth + c]));
      const float o = 1.0f / (1.0f + std::exp(-pre[3 * depth + c]));
      const int64_t k = static_cast<int64_t>(b) * depth + c;
      const float s = i * g + f * prev_state[k];
      state[k] = s;
      activation[k] = o * std::tanh(s);
    }
  }
}

void EvalQuantized(const BasicParams& p, const uint8_t* input, uint8_t* prev_activation,
                   const uint8_t* weights, const int32_t* bias, int16_t* prev_state,
                   uint8_t* activation, int16_t* state, uint8_t* concat, int16_t* gates) {
  constexpr int kStateIntegerBits = 4;
  const int depth = p.n_depth;
  const int total = p.n_input + depth;
  for (int b = 0; b < p.n_batch; ++b) {
    uint8_t* cat = concat + static_cast<int64_t>(b) * total;
    std::memcpy(cat, input + static_cast<int64_t>(b) * p.n_input, p.n_input);
    std::memcpy(cat + p.n_input, prev_activation + static_cast<int64_t>(b) * depth, depth);
    int16_t* pre = gates + static_cast<int64_t>(b) * 4 * depth;
    for (int r = 0; r < 4 * depth; ++r) {
      const uint8_t* row = weights + static_cast<int64_t>(r) * total;
      int64_t acc = bias[r];
      for (int c = 0; c < total; ++c) {
        acc += (int32_t{cat[c]} - 128) * static_cast<int16_t>(int32_t{row[c]} - p.weights_zp);
      }
      // The int32 accumulator wraps as upstream's.
      const int32_t v = internal::MultiplyByQuantizedMultiplier(
          static_cast<int32_t>(static_cast<uint32_t>(acc)), p.accum_scale.a, p.accum_scale.b);
      pre[r] = static_cast<int16_t>(std::max(-32768, std::min(32767, v)));
    }
    int16_t i[1], g[1], f[1], o[1];
    for (int c = 0; c < depth; ++c) {
      internal::Int16Sigmoid(&pre[c], 1, i);
      internal::Int16Tanh(3, &pre[depth + c], 1, g);
      internal::Int16Sigmoid(&pre[2 * depth + c], 1, f);
      internal::Int16Sigmoid(&pre[3 * depth + c], 1, o);
      const int64_t k = static_cast<int64_t>(b) * depth + c;
      // i * g in Q0.15, rescaled to the state's format; f * state keeps it.
      const int16_t ig = RescaleBy(FixedMul(i[0], g[0]), -kStateIntegerBits);
      const int16_t new_state = SatAdd16(ig, FixedMul(f[0], prev_state[k]));
      int16_t tanh_in = RescaleBy(new_state, kStateIntegerBits - 3);
      int16_t tanh_out;
      internal::Int16Tanh(3, &tanh_in, 1, &tanh_out);
      const int16_t out = FixedMul(o[0], tanh_out);
      state[k] = new_state;
      const int32_t scaled = internal::RoundingDivideByPOT(out, 8);
      activation[k] = static_cast<uint8_t>(128 + std::max(-128, std::min(127, scaled)));
    }
  }
}

TfLiteStatus CheckShape2(TfLiteContext* context, const char* what, const TfLiteTensor* t, int d0,
                         int d1) {
  if (internal::NumDims(t) != 2 || (d0 >= 0 && internal::Dim(t, 0) != d0) ||
      (d1 >= 0 && internal::Dim(t, 1) != d1)) {
    char got[64];
    internal::ShapeToString(t->dims, got, sizeof(got));
    TF_LITE_KERNEL_LOG(context, "%s: %s has shape %s, expected [%d, %d]", kOp, what, got, d0, d1);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Inputs 1 and 4 receive the new activation and state after each step.
TfLiteStatus MakeWritableState(TfLiteContext* context, const char* what, TfLiteTensor* t) {
  if (t->allocation_type == kTfLiteArenaRw) {
    t->allocation_type = kTfLiteArenaRwPersistent;  // kept across Invokes, as upstream
  } else if (t->allocation_type != kTfLiteArenaRwPersistent &&
             t->allocation_type != kTfLiteDynamic && t->allocation_type != kTfLiteCustom) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s receives the new value after each step and must be writable "
                       "(a variable or activation tensor), not a constant",
                       kOp, what);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

struct BasicTensors {
  const TfLiteTensor* in[5] = {};
  TfLiteTensor* out[4] = {};
};

TfLiteStatus GetBasicTensors(TfLiteContext* context, TfLiteNode* node, BasicTensors* t) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 5, 5, 4));
  for (int i = 0; i < 5; ++i) {
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &t->in[i]));
  }
  for (int i = 0; i < 4; ++i) {
    TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, i, kOp, &t->out[i]));
  }
  return kTfLiteOk;
}

// Batch, input and state depth from input and previous activation; the
// weights, bias and previous state must agree.
TfLiteStatus CheckBasicShapes(TfLiteContext* context, const BasicTensors& t, BasicParams* p) {
  const TfLiteTensor* const* in = t.in;
  if (internal::NumDims(in[kData]) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank 2, got %d", kOp,
                       internal::NumDims(in[kData]));
    return kTfLiteError;
  }
  p->n_batch = internal::Dim(in[kData], 0);
  p->n_input = internal::Dim(in[kData], 1);
  TF_LITE_ENSURE_OK(context,
                    CheckShape2(context, "previous activation", in[kPrevActivation], p->n_batch, -1));
  p->n_depth = internal::Dim(in[kPrevActivation], 1);
  if (p->n_batch < 0 || p->n_input < 0 || p->n_depth < 0 || p->n_depth > (1 << 28) ||
      p->n_input > (1 << 28)) {
    TF_LITE_KERNEL_LOG(context, "%s: input depth %d / state depth %d are not supported", kOp,
                       p->n_input, p->n_depth);
    return kTfLiteError;
  }
  const int total = p->n_input + p->n_depth;
  TF_LITE_ENSURE_OK(context, CheckShape2(context, "weights", in[kWeights], 4 * p->n_depth, total));
  if (internal::NumDims(in[kBias]) != 1 || internal::Dim(in[kBias], 0) != 4 * p->n_depth) {
    TF_LITE_KERNEL_LOG(context, "%s: bias must have shape [%d]", kOp, 4 * p->n_depth);
    return kTfLiteError;
  }
  return CheckShape2(context, "previous state", in[kPrevState], p->n_batch, p->n_depth);
}

// Element types by input / output slot: float32 throughout, or quantized.
TfLiteStatus CheckBasicTypes(TfLiteContext* context, const BasicTensors& t, BasicParams* p) {
  const TfLiteType type = t.in[kData]->type;
  const TfLiteType quantized_in[5] = {kTfLiteUInt8, kTfLiteUInt8, kTfLiteUInt8, kTfLiteInt32,
                                      kTfLiteInt16};
  const TfLiteType quantized_out[4] = {kTfLiteUInt8, kTfLiteInt16, kTfLiteUInt8, kTfLiteInt16};
  const char* in_names[5] = {"input", "previous activation", "weights", "bias", "previous state"};
  const char* out_names[4] = {"activation output", "state output", "concatenation output",
                              "gate output"};
  if (type != kTfLiteFloat32 && type != kTfLiteUInt8) {
    return internal::UnsupportedType(context, kOp, "input", type);
  }
  p->quantized = type == kTfLiteUInt8;
  for (int i = 0; i < 5; ++i) {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, in_names[i], t.in[i],
                                                    p->quantized ? quantized_in[i] : kTfLiteFloat32));
  }
  for (int i = 0; i < 4; ++i) {
    TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, out_names[i], t.out[i],
                                                    p->quantized ? quantized_out[i] : kTfLiteFloat32));
  }
  return kTfLiteOk;
}

// The quantized kernel: a Q4.11 state and the bias scale as the accumulator
// rescale to Q3.12 gate pre-activations.
TfLiteStatus PrepareBasicQuantization(TfLiteContext* context, const BasicTensors& t,
                                      BasicParams* p) {
  internal::QuantParams state_q, weights_q, bias_q;
  TF_LITE_ENSURE_OK(context,
                    internal::GetQuantParams(context, kOp, "state output", t.out[kState], &state_q));
  TF_LITE_ENSURE_OK(context,
                    internal::GetQuantParams(context, kOp, "weights", t.in[kWeights], &weights_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "bias", t.in[kBias], &bias_q));
  // The weights zero point, inside UINT8 (GetQuantParams), enters int32
  // differences with the uint8 weights.
  // The state must have 4 integer bits: scale 2^-11.
  const float log2_scale = std::log(state_q.scale) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2_scale);
  if (!(std::abs(log2_scale - rounded) < 1e-3f)) {
    TF_LITE_KERNEL_LOG(context, "%s: the state scale %g is not a power of two", kOp,
                       state_q.scale);
    return kTfLiteError;
  }
  if (15 + static_cast<int>(rounded) != 4) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: only a state with 4 integer bits (scale 2^-11) is supported, got "
                       "scale 2^%d",
                       kOp, static_cast<int>(rounded));
    return kTfLiteError;
  }
  // Bias scale -> Q3.12 gate pre-activations.
  const double real = 4096 * static_cast<double>(bias_q.scale);
  const internal::QuantizedMultiplier m = internal::QuantizeMultiplier(real);
  if (!(real >= 0.0) || !std::isfinite(real) || m.shift > 31) {
    TF_LITE_KERNEL_LOG(context, "%s: bias scale %g is not supported", kOp, bias_q.scale);
    return kTfLiteError;
  }
  p->accum_scale.a = m.multiplier;
  p->accum_scale.b = m.shift;
  p->weights_zp = weights_q.zero_point;
  return kTfLiteOk;
}

// Makes the two state inputs writable and sizes the four outputs.
TfLiteStatus ResizeBasicOutputs(TfLiteContext* context, TfLiteNode* node, const BasicTensors& t,
                                const BasicParams& p) {
  TF_LITE_ENSURE_OK(context,
                    MakeWritableState(context, "previous activation",
                                      &context->tensors[node->inputs->data[kPrevActivation]]));
  TF_LITE_ENSURE_OK(context, MakeWritableState(context, "previous state",
                                               &context->tensors[node->inputs->data[kPrevState]]));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, t.out[kActivation],
                                                        t.in[kPrevActivation]->dims));
  TF_LITE_ENSURE_OK(context,
                    internal::ResizeOutputLike(context, t.out[kState], t.in[kPrevState]->dims));
  TF_LITE_ENSURE_OK(context, internal::ResizeOutput(context, t.out[kConcat],
                                                    {p.n_batch, p.n_input + p.n_depth}));
  return internal::ResizeOutput(context, t.out[kGates], {p.n_batch, 4 * p.n_depth});
}

}  // namespace

TfLiteStatus PrepareBasic(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  BasicParams& p = d->basic_params;
  BasicTensors t;
  TF_LITE_ENSURE_OK(context, GetBasicTensors(context, node, &t));
  TF_LITE_ENSURE_OK(context, CheckBasicShapes(context, t, &p));
  TF_LITE_ENSURE_OK(context, CheckBasicTypes(context, t, &p));
  if (p.quantized) TF_LITE_ENSURE_OK(context, PrepareBasicQuantization(context, t, &p));
  return ResizeBasicOutputs(context, node, t, p);
}

TfLiteStatus EvalBasic(TfLiteContext* context, TfLiteNode* node, OpData* d) {
  const BasicParams& p = d->basic_params;
  auto input = [&](int i) { return &context->tensors[node->inputs->data[i]]; };
  auto output = [&](int i) { return internal::OutputAt(context, node, i); };
  TfLiteTensor* prev_activation = input(kPrevActivation);
  TfLiteTensor* prev_state = input(kPrevState);
  if (p.quantized) {
    EvalQuantized(p, static_cast<const uint8_t*>(input(kData)->data.data),
                  static_cast<uint8_t*>(prev_activation->data.data),
                  static_cast<const uint8_t*>(input(kWeights)->data.data),
                  static_cast<const int32_t*>(input(kBias)->data.data),
                  static_cast<int16_t*>(prev_state->data.data),
                  static_cast<uint8_t*>(output(kActivation)->data.data),
                  static_cast<int16_t*>(output(kState)->data.data),
                  static_cast<uint8_t*>(output(kConcat)->data.data),
                  static_cast<int16_t*>(output(kGates)->data.data));
  } else {
    EvalFloat(p, static_cast<const float*>(input(kData)->data.data),
              static_cast<float*>(prev_activation->data.data),
              static_cast<const float*>(input(kWeights)->data.data),
              static_cast<const float*>(input(kBias)->data.data),
              static_cast<float*>(prev_state->data.data),
              static_cast<float*>(output(kActivation)->data.data),
              static_cast<float*>(output(kState)->data.data),
              static_cast<float*>(output(kConcat)->data.data),
              static_cast<float*>(output(kGates)->data.data));
  }
  // The new activation and state become the next step's inputs.
  const size_t activation_bytes = output(kActivation)->bytes;
  const size_t state_bytes = output(kState)->bytes;
  if (activation_bytes > 0 && activation_bytes <= prev_activation->bytes) {
    std::memmove(prev_activation->data.raw, output(kActivation)->data.raw, activation_bytes);
  }
  if (state_bytes > 0 && state_bytes <= prev_state->bytes) {
    std::memmove(prev_state->data.raw, output(kState)->data.raw, state_bytes);
  }
  return kTfLiteOk;
}

}  // namespace lstm
}  // namespace kernels
}  // namespace tflite_c

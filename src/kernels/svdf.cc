// SVDF: a rank-`rank` singular value decomposition filter over time.
// Inputs: input [batch, n_input], weights_feature [n_filter, n_input],
// weights_time [n_filter, memory], bias [n_unit] (optional), state
// [batch, n_filter * memory] (a variable tensor kept across Invokes).
// n_unit = n_filter / rank. Each Invoke:
//   state[b, f, :] shifts one slot to the left (the oldest value drops out),
//   state[b, f, memory - 1] = sum_i weights_feature[f, i] * input[b, i],
//   out[b, u] = act(bias[u] + sum_{r < rank} sum_m weights_time[f, m] * state[b, f, m])
//               with f = u * rank + r.
// FLOAT32, or int8 input/output with int8 weights_feature, int16 weights_time
// and state, int32 bias (upstream's integer kernel, which needs RELU).
// Hybrid: float input, bias, state and output with int8 weights_feature and
// weights_time (per-tensor scales); the input is quantized to int8 per batch
// row (symmetric, or asymmetric with asymmetric_quantize_inputs) for the
// feature product and weights_time is used dequantized, as upstream does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "src/kernels/internal/gemm.h"
#include "src/kernels/internal/hybrid_fc.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/recurrent_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SVDF";

enum { kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kState = 4 };

struct OpData {
  int n_batch = 0;
  int n_input = 0;
  int n_filter = 0;
  int n_unit = 0;
  int memory = 0;
  int rank = 1;
  bool integer = false;
  bool hybrid = false;
  bool asymmetric = false;
  float feature_scale = 1.0f;
  float time_scale = 1.0f;
  bool hybrid_ready = false;  // dequantized weights_time and row sums computed
  internal::ScratchVector<float> float_weights_time;
  internal::ScratchVector<int32_t> row_sums;
  internal::ScratchVector<int8_t> quantized;
  internal::QuantizedMultiplier scale_1;  // feature product -> state
  internal::QuantizedMultiplier scale_2;  // time product -> output
  int32_t input_zp = 0;
  int32_t output_zp = 0;
  internal::ScratchVector<float> scratch;
  internal::ScratchVector<int32_t> scratch32;
};

struct SvdfTensors {
  const TfLiteTensor* input = nullptr;
  const TfLiteTensor* weights_feature = nullptr;
  const TfLiteTensor* weights_time = nullptr;
  const TfLiteTensor* bias = nullptr;  // optional
  const TfLiteTensor* state = nullptr;
  TfLiteTensor* output = nullptr;
};

TfLiteStatus GetSvdfTensors(TfLiteContext* context, TfLiteNode* node, SvdfTensors* t) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 5, 5, 1));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kInput, kOp, &t->input));
  TF_LITE_ENSURE_OK(context,
                    internal::GetInput(context, node, kWeightsFeature, kOp, &t->weights_feature));
  TF_LITE_ENSURE_OK(context,
                    internal::GetInput(context, node, kWeightsTime, kOp, &t->weights_time));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, kState, kOp, &t->state));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &t->output));
  t->bias = internal::GetOptionalInput(context, node, kBias);
  return kTfLiteOk;
}

// Ranks, the sizes in OpData and their agreement, and the variable state.
TfLiteStatus CheckSvdfShapes(TfLiteContext* context, const SvdfTensors& t, int rank, OpData* d) {
  if (internal::NumDims(t.input) != 2 || internal::NumDims(t.weights_feature) != 2 ||
      internal::NumDims(t.weights_time) != 2 || internal::NumDims(t.state) != 2 ||
      (t.bias != nullptr && internal::NumDims(t.bias) != 1)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: input, weights_feature, weights_time and state must be 2-D and bias "
                       "1-D",
                       kOp);
    return kTfLiteError;
  }
  d->n_batch = internal::Dim(t.input, 0);
  d->n_input = internal::Dim(t.input, 1);
  d->n_filter = internal::Dim(t.weights_feature, 0);
  d->memory = internal::Dim(t.weights_time, 1);
  if (rank <= 0 || d->n_filter % rank != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: rank %d must be positive and divide the %d filters", kOp,
                       rank, d->n_filter);
    return kTfLiteError;
  }
  d->rank = rank;
  d->n_unit = d->n_filter / rank;
  if (internal::Dim(t.weights_feature, 1) != d->n_input) {
    TF_LITE_KERNEL_LOG(context, "%s: weights_feature has %d columns, the input %d", kOp,
                       internal::Dim(t.weights_feature, 1), d->n_input);
    return kTfLiteError;
  }
  if (internal::Dim(t.weights_time, 0) != d->n_filter || d->memory <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: weights_time must be [%d, memory > 0]", kOp, d->n_filter);
    return kTfLiteError;
  }
  if (t.bias != nullptr && internal::Dim(t.bias, 0) != d->n_unit) {
    TF_LITE_KERNEL_LOG(context, "%s: bias has %d elements, expected %d", kOp,
                       internal::Dim(t.bias, 0), d->n_unit);
    return kTfLiteError;
  }
  if (!t.state->is_variable) {
    TF_LITE_KERNEL_LOG(context, "%s: state must be a variable tensor", kOp);
    return kTfLiteError;
  }
  if (internal::Dim(t.state, 0) != d->n_batch ||
      int64_t{internal::Dim(t.state, 1)} != int64_t{d->memory} * d->n_filter) {
    TF_LITE_KERNEL_LOG(context, "%s: state must be [%d, %lld]", kOp, d->n_batch,
                       static_cast<long long>(int64_t{d->memory} * d->n_filter));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Float input: float weights, or hybrid with int8 weights (per-tensor scales).
TfLiteStatus PrepareFloatSvdf(TfLiteContext* context, const TfLiteSVDFParams* params,
                              const SvdfTensors& t, OpData* d) {
  d->hybrid = t.weights_feature->type == kTfLiteInt8;
  if (!d->hybrid && t.weights_feature->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: weights_feature of type %s with float input is not supported", kOp,
                       TfLiteTypeGetName(t.weights_feature->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "weights_time", t.weights_time,
                                         d->hybrid ? kTfLiteInt8 : kTfLiteFloat32));
  if (d->hybrid) {
    internal::QuantParams wf_q, wt_q;
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "weights_feature",
                                                        t.weights_feature, &wf_q));
    TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "weights_time",
                                                        t.weights_time, &wt_q));
    d->feature_scale = wf_q.scale;
    d->time_scale = wt_q.scale;
    d->asymmetric = params->asymmetric_quantize_inputs;
    d->hybrid_ready = false;
    d->quantized.assign(std::max(d->n_input, 1), 0);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", t.bias, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "state", t.state, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "output", t.output, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::CheckRecurrentActivation(context, kOp, params->activation));
  d->integer = false;
  d->scratch.assign(static_cast<size_t>(d->n_batch) * d->n_filter, 0.0f);
  return kTfLiteOk;
}

// int8 input: upstream's integer kernel (RELU only) and its two rescales.
TfLiteStatus PrepareIntegerSvdf(TfLiteContext* context, const TfLiteSVDFParams* params,
                                const SvdfTensors& t, OpData* d) {
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "weights_feature",
                                                  t.weights_feature, kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "weights_time", t.weights_time,
                                                  kTfLiteInt16));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "bias", t.bias, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "state", t.state, kTfLiteInt16));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", t.output, kTfLiteInt8));
  if (params->activation != kTfLiteActRelu) {
    TF_LITE_KERNEL_LOG(context, "%s: integer SVDF supports only the RELU activation, got %d",
                       kOp, static_cast<int>(params->activation));
    return kTfLiteError;
  }
  internal::QuantParams in_q, wf_q, wt_q, state_q, out_q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input", t.input, &in_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "weights_feature",
                                                      t.weights_feature, &wf_q));
  TF_LITE_ENSURE_OK(context,
                    internal::GetQuantParams(context, kOp, "weights_time", t.weights_time, &wt_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "state", t.state, &state_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output", t.output, &out_q));
  const float scale_1 = in_q.scale * wf_q.scale / state_q.scale;
  const float scale_2 = state_q.scale * wt_q.scale / out_q.scale;
  d->scale_1 = internal::QuantizeMultiplier(scale_1);
  d->scale_2 = internal::QuantizeMultiplier(scale_2);
  d->input_zp = in_q.zero_point;
  d->output_zp = out_q.zero_point;
  d->integer = true;
  d->scratch32.assign(static_cast<size_t>(d->n_batch) * d->n_filter, 0);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteSVDFParams*>(node->builtin_data);
  SvdfTensors t;
  TF_LITE_ENSURE_OK(context, GetSvdfTensors(context, node, &t));
  TF_LITE_ENSURE_OK(context, CheckSvdfShapes(context, t, params->rank, d));
  d->hybrid = false;
  if (t.input->type == kTfLiteFloat32) {
    TF_LITE_ENSURE_OK(context, PrepareFloatSvdf(context, params, t, d));
  } else if (t.input->type == kTfLiteInt8) {
    TF_LITE_ENSURE_OK(context, PrepareIntegerSvdf(context, params, t, d));
  } else {
    return internal::UnsupportedType(context, kOp, "input", t.input->type);
  }
  return internal::ResizeOutput(context, t.output, {d->n_batch, d->n_unit});
}

// Drops the oldest slot of every filter's memory (a shift by one element of
// the whole buffer; each filter's newest slot is overwritten afterwards).
template <typename T>
void ShiftState(T* state, int64_t n) {
  if (n > 1) std::memmove(state, state + 1, sizeof(T) * (n - 1));
}

// Hybrid feature product into scratch [batch, filter]; returns the
// dequantized weights_time (computed with the row sums at the first Invoke).
const float* HybridFeatureProduct(const SvdfTensors& t, OpData* d, float* scratch) {
  const int nb = d->n_batch, nf = d->n_filter, nm = d->memory;
  const int8_t* wf = static_cast<const int8_t*>(t.weights_feature->data.data);
  if (!d->hybrid_ready) {
    const int8_t* q = static_cast<const int8_t*>(t.weights_time->data.data);
    d->float_weights_time.resize(static_cast<size_t>(nf) * nm);
    for (size_t i = 0; i < d->float_weights_time.size(); ++i) {
      d->float_weights_time[i] = q[i] * d->time_scale;
    }
    if (d->asymmetric) {
      d->row_sums.resize(nf);
      internal::WeightRowSums(wf, nf, d->n_input, d->row_sums.data());
    }
    d->hybrid_ready = true;
  }
  std::fill_n(scratch, int64_t{nb} * nf, 0.0f);
  internal::HybridMatMulAccumulate(static_cast<const float*>(t.input->data.data), nb,
                                   d->n_input, wf, nf, d->feature_scale,
                                   d->asymmetric ? d->row_sums.data() : nullptr,
                                   d->quantized.data(), scratch, nf);
  return d->float_weights_time.data();
}

void EvalFloat(const TfLiteSVDFParams* params, const SvdfTensors& t, float* s, OpData* d) {
  const int nb = d->n_batch, nf = d->n_filter, nm = d->memory, nu = d->n_unit;
  float* scratch = d->scratch.data();
  ShiftState(s, int64_t{nb} * nf * nm);
  const float* wt = static_cast<const float*>(t.weights_time->data.data);
  if (d->hybrid) {
    wt = HybridFeatureProduct(t, d, scratch);
  } else {
    internal::MatMulTransposedRhs(
        {static_cast<const float*>(t.input->data.data), nb, d->n_input, d->n_input},
        {static_cast<const float*>(t.weights_feature->data.data), nf, d->n_input, d->n_input},
        {scratch, nb, nf, nf}, 1);
  }
  for (int64_t i = 0; i < int64_t{nb} * nf; ++i) s[i * nm + nm - 1] = scratch[i];
  for (int b = 0; b < nb; ++b) {
    for (int f = 0; f < nf; ++f) {
      const float* row = s + (int64_t{b} * nf + f) * nm;
      const float* w = wt + int64_t{f} * nm;
      float acc = 0.0f;
      for (int m = 0; m < nm; ++m) acc += w[m] * row[m];
      scratch[int64_t{b} * nf + f] = acc;
    }
  }
  float* out = static_cast<float*>(t.output->data.data);
  const float* bias_data = t.bias ? static_cast<const float*>(t.bias->data.data) : nullptr;
  for (int b = 0; b < nb; ++b) {
    for (int u = 0; u < nu; ++u) {
      float sum = 0.0f;
      const float* part = scratch + int64_t{b} * nf + int64_t{u} * d->rank;
      for (int r = 0; r < d->rank; ++r) sum += part[r];
      if (bias_data != nullptr) sum += bias_data[u];
      out[int64_t{b} * nu + u] = sum;
    }
  }
  internal::ApplyRecurrentActivation(params->activation, out, nb * nu, out);
}

void EvalInteger(const SvdfTensors& t, int16_t* s, OpData* d) {
  const int nb = d->n_batch, nf = d->n_filter, nm = d->memory, nu = d->n_unit;
  ShiftState(s, int64_t{nb} * nf * nm);
  const int8_t* in = static_cast<const int8_t*>(t.input->data.data);
  const int8_t* wf = static_cast<const int8_t*>(t.weights_feature->data.data);
  for (int b = 0; b < nb; ++b) {
    const int8_t* x = in + int64_t{b} * d->n_input;
    for (int f = 0; f < nf; ++f) {
      const int8_t* w = wf + int64_t{f} * d->n_input;
      int32_t sum = 0;  // wraps around, as upstream's, past about 33,000 inputs
      for (int i = 0; i < d->n_input; ++i) {
        sum = internal::WrappingAdd(sum, static_cast<int32_t>(w[i]) * (x[i] - d->input_zp));
      }
      const int32_t acc = internal::MultiplyByQuantizedMultiplier(sum, d->scale_1);
      s[(int64_t{b} * nf + f) * nm + nm - 1] = static_cast<int16_t>(std::clamp(acc, -32768, 32767));
    }
  }
  int32_t* scratch = d->scratch32.data();
  const int16_t* wt = static_cast<const int16_t*>(t.weights_time->data.data);
  for (int b = 0; b < nb; ++b) {
    for (int f = 0; f < nf; ++f) {
      const int16_t* row = s + (int64_t{b} * nf + f) * nm;
      const int16_t* w = wt + int64_t{f} * nm;
      // Wrapping int32 sums (as upstream's, without the signed-overflow UB
      // that extreme states from a hostile model would hit).
      uint32_t acc = 0;
      for (int m = 0; m < nm; ++m) acc += static_cast<uint32_t>(static_cast<int32_t>(w[m]) * row[m]);
      scratch[int64_t{b} * nf + f] = static_cast<int32_t>(acc);
    }
  }
  const int32_t* bias_data = t.bias ? static_cast<const int32_t*>(t.bias->data.data) : nullptr;
  int8_t* out = static_cast<int8_t*>(t.output->data.data);
  for (int b = 0; b < nb; ++b) {
    for (int u = 0; u < nu; ++u) {
      uint32_t sum = 0;
      const int32_t* part = scratch + int64_t{b} * nf + int64_t{u} * d->rank;
      for (int r = 0; r < d->rank; ++r) sum += static_cast<uint32_t>(part[r]);
      if (bias_data != nullptr) sum += static_cast<uint32_t>(bias_data[u]);
      const int32_t v = internal::MultiplyByQuantizedMultiplier(static_cast<int32_t>(sum), d->scale_2) +
                        d->output_zp;
      out[int64_t{b} * nu + u] = static_cast<int8_t>(std::clamp(v, -128, 127));
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSVDFParams*>(node->builtin_data);
  SvdfTensors t;
  t.input = internal::InputAt(context, node, kInput);
  t.weights_feature = internal::InputAt(context, node, kWeightsFeature);
  t.weights_time = internal::InputAt(context, node, kWeightsTime);
  t.bias = internal::GetOptionalInput(context, node, kBias);
  TfLiteTensor* state = &context->tensors[node->inputs->data[kState]];
  t.state = state;
  t.output = internal::OutputAt(context, node, 0);
  if (d->n_batch == 0) return kTfLiteOk;
  if (!d->integer) {
    EvalFloat(params, t, static_cast<float*>(state->data.data), d);
  } else {
    EvalInteger(t, static_cast<int16_t*>(state->data.data), d);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SVDF() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

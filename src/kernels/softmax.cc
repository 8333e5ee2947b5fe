// SOFTMAX over the last dimension: out = exp(beta * (x - max)) / sum(...).
// FLOAT32, any rank >= 1. Quantized int8/uint8 input with int8, uint8 or
// int16 output, computed as upstream's default x86 kernel does: a float table
// of exp over the 256 possible input differences, normalized in float and
// rounded to the output. INT16 input and output (zero points 0, output
// scale 1/32768) in upstream's fixed-point form: exp and 1/(1+x) from
// interpolated tables (lut16.h), so results match upstream exactly.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "src/kernels/internal/lut16.h"
#include "src/kernels/internal/parallel.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SOFTMAX";

struct OpData {
  bool quantized = false;
  // exp_table[255 - d] = exp(-input_scale * beta * d) for an input d steps
  // below its row's maximum.
  float exp_table[256];
  float output_scale = 0.0f;
  int32_t output_zero_point = 0;
  // INT16: exp over [-10, 0] and 1 / (1 + x) over [0, 1], both to [-1, 1].
  bool int16 = false;
  int16_t exp_lut[internal::kLut16Size];
  int16_t reciprocal_lut[internal::kLut16Size];
  internal::QuantizedMultiplier diff_multiplier;  // input diff -> [-65535, 0] = [-10, 0]
};

double Exp(double x) { return std::exp(x); }
double OneOverOnePlus(double x) { return 1.0 / (1.0 + x); }

TfLiteStatus PrepareInt16(TfLiteContext* context, const TfLiteTensor* input, TfLiteTensor* output,
                          float beta, OpData* data) {
  if (output->type != kTfLiteInt16) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  internal::QuantParams in_q, out_q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input", input, &in_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output", output, &out_q));
  if (in_q.zero_point != 0 || out_q.zero_point != 0 ||
      std::abs(out_q.scale - 1.0f / 32768) > 0.001f / 32768) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: INT16 needs zero points 0 and output scale 1/32768, got %d, %d and %g",
                       kOp, in_q.zero_point, out_q.zero_point, out_q.scale);
    return kTfLiteError;
  }
  const double range = 65535.0;
  internal::PopulateLut16Double(10.0 / range, 32767, 2.0 / range, 0, Exp, data->exp_lut);
  internal::PopulateLut16Double(1.0 / range, -32768, 2.0 / range, 0, OneOverOnePlus,
                          data->reciprocal_lut);
  data->diff_multiplier =
      internal::QuantizeMultiplier(static_cast<double>(in_q.scale) * beta / (10.0 / 65535.0));
  data->int16 = true;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

void EvalInt16(const OpData& d, const int16_t* in, int16_t* out, int64_t rows, int64_t depth) {
  for (int64_t r = 0; r < rows; ++r, in += depth, out += depth) {
    int16_t max_val = std::numeric_limits<int16_t>::min();
    for (int64_t j = 0; j < depth; ++j) max_val = std::max(max_val, in[j]);
    int64_t sum64 = 0;  // Q16.15 (upstream's int32 sum; clamped instead of overflowing)
    for (int64_t j = 0; j < depth; ++j) {
      const int32_t diff = internal::MultiplyByQuantizedMultiplier(
          static_cast<int32_t>(in[j]) - max_val, d.diff_multiplier);
      // [-65535, 0] recentred onto the table's [-32768, 32767].
      const int16_t index = static_cast<int16_t>(std::min(32767, std::max(-32768, diff + 32767)));
      out[j] = internal::LookupLut(index, d.exp_lut);
      sum64 += out[j];
    }
    const int32_t sum = static_cast<int32_t>(std::min<int64_t>(sum64, 0x7fffffff));
    // Normalize the sum to [1, 2) (as 1 + x) and look up 1 / (1 + x) in Q0.15.
    const int headroom_plus_one = sum > 0 ? __builtin_clz(static_cast<uint32_t>(sum)) : 32;
    const int32_t shifted =
        static_cast<int32_t>(((static_cast<int64_t>(sum) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int32_t centred = shifted - ((1 << 15) + (1 << 16));
    const int16_t x = static_cast<int16_t>(std::min(32767, std::max(-32768, centred)));
    const int16_t reciprocal = internal::LookupLut(x, d.reciprocal_lut);
    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (int64_t j = 0; j < depth; ++j) {
      const int64_t v = (static_cast<int64_t>(out[j]) * reciprocal + round) >> right_shift;
      out[j] = static_cast<int16_t>(std::min<int64_t>(32767, std::max<int64_t>(0, v)));
    }
  }
}

TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTensor* input,
                              TfLiteTensor* output, float beta, OpData* data) {
  if (output->type != kTfLiteInt8 && output->type != kTfLiteUInt8 &&
      output->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, kOp, "output", output->type);
  }
  internal::QuantParams in_q, out_q;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "input", input, &in_q));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kOp, "output", output, &out_q));
  if (input->type == kTfLiteInt8 && output->type == kTfLiteInt8 &&
      (output->params.zero_point != -128 ||
       std::abs(output->params.scale - 1.0f / 256) > 0.001f / 256)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: int8 output must have scale 1/256 and zero point -128, got %g and %d",
                       kOp, output->params.scale, output->params.zero_point);
    return kTfLiteError;
  }
  const float scale = -input->params.scale * beta;
  for (int d = 0; d <= 255; ++d) data->exp_table[255 - d] = std::exp(scale * static_cast<float>(d));
  data->output_scale = output->params.scale;
  data->output_zero_point = output->params.zero_point;
  data->quantized = true;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  data->quantized = false;
  data->int16 = false;
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::GetOptionalInput(context, node, 0);
  if (input != nullptr && (input->type == kTfLiteInt16 || input->type == kTfLiteInt8 ||
                            input->type == kTfLiteUInt8)) {
    TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 1));
    if (internal::NumDims(input) < 1) {
      TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kOp);
      return kTfLiteError;
    }
    TfLiteTensor* output;
    TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
    if (input->type == kTfLiteInt16) return PrepareInt16(context, input, output, params->beta, data);
    return PrepareQuantized(context, input, output, params->beta, data);
  }
  TF_LITE_ENSURE_OK(context, internal::PrepareUnaryOp(context, node, kOp, {kTfLiteFloat32}));
  input = internal::InputAt(context, node, 0);
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kOp);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

template <typename In, typename Out>
void EvalQuantized(const OpData& d, const In* in, Out* out, int64_t rows, int64_t depth) {
  constexpr int32_t lo = std::numeric_limits<Out>::min();
  constexpr int32_t hi = std::numeric_limits<Out>::max();
  for (int64_t r = 0; r < rows; ++r, in += depth, out += depth) {
    int32_t max_val = std::numeric_limits<In>::min();
    for (int64_t j = 0; j < depth; ++j) max_val = std::max<int32_t>(max_val, in[j]);
    const float* exp_at = d.exp_table + 255;  // indexed by input - max (<= 0)
    float sum = 0.0f;
    for (int64_t j = 0; j < depth; ++j) sum += exp_at[in[j] - max_val];
    const float inv = 1.0f / (sum * d.output_scale);
    for (int64_t j = 0; j < depth; ++j) {
      const float p = exp_at[in[j] - max_val] * inv;
      // Upstream rounds uint8 outputs by adding 0.5 and truncating (ignoring
      // the zero point), the others with round() plus the zero point.
      const int32_t q = std::is_same_v<Out, uint8_t>
                            ? internal::TruncClamped(p + 0.5f, lo, hi)
                            : internal::RoundClamped(p, lo - 65536, hi + 65536) +
                                  d.output_zero_point;
      out[j] = static_cast<Out>(std::max(lo, std::min(hi, q)));
    }
  }
}

template <typename In>
void EvalQuantizedInput(const OpData& d, const TfLiteTensor* input, TfLiteTensor* output,
                        int64_t rows, int64_t depth) {
  const In* in = static_cast<const In*>(input->data.data);
  switch (output->type) {
    case kTfLiteInt8:
      EvalQuantized(d, in, output->data.int8, rows, depth);
      break;
    case kTfLiteUInt8:
      EvalQuantized(d, in, output->data.uint8, rows, depth);
      break;
    default:
      EvalQuantized(d, in, output->data.i16, rows, depth);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const float beta = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data)->beta;
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const auto& data = *static_cast<const OpData*>(node->user_data);
  if (data.int16) {
    const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
    if (depth == 0) return kTfLiteOk;
    EvalInt16(data, input->data.i16, output->data.i16, internal::NumElements(input) / depth, depth);
    return kTfLiteOk;
  }
  if (data.quantized) {
    const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
    if (depth == 0) return kTfLiteOk;
    const int64_t rows = internal::NumElements(input) / depth;
    if (input->type == kTfLiteInt8) {
      EvalQuantizedInput<int8_t>(data, input, output, rows, depth);
    } else {
      EvalQuantizedInput<uint8_t>(data, input, output, rows, depth);
    }
    return kTfLiteOk;
  }
  const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = internal::NumElements(input) / depth;
  const float* in = input->data.f;
  float* out = output->data.f;

  auto run_rows = [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      Eigen::Map<const Eigen::ArrayXf> x(in + r * depth, depth);
      Eigen::Map<Eigen::ArrayXf> y(out + r * depth, depth);
      // Subtracting the max keeps exp() from overflowing.
      y = ((x - x.maxCoeff()) * beta).exp();
      y *= 1.0f / y.sum();
    }
  };
  // exp() dominates; count it as ~16 multiply-adds per element.
  const int threads = internal::ThreadsForWork(internal::KernelThreads(context), rows * depth * 16);
  internal::ParallelFor(threads, rows, run_rows);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SOFTMAX() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

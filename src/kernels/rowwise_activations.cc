// Activations over the last dimension, row by row:
//   LOG_SOFTMAX                           FLOAT32, quantized INT8/UINT8
//   L2_NORMALIZATION x / max(|x|, 1e-6)   FLOAT32, quantized INT8/UINT8
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

// ---- row-wise ops over the last dimension ---------------------------------------

// Checks a FLOAT32 input of rank >= 1 and sizes the output like it.
TfLiteStatus PrepareRowwise(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_OK(context, internal::PrepareUnaryOp(context, node, op, {kTfLiteFloat32}));
  if (internal::NumDims(internal::InputAt(context, node, 0)) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Calls fn(in_row, out_row) for every row of the last dimension.
template <typename Fn>
TfLiteStatus ForEachRow(TfLiteContext* context, TfLiteNode* node, Fn fn) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
  if (depth == 0) return kTfLiteOk;
  const int64_t rows = internal::NumElements(input) / depth;
  for (int64_t r = 0; r < rows; ++r) {
    fn(Eigen::Map<const Eigen::ArrayXf>(input->data.f + r * depth, depth),
       Eigen::Map<Eigen::ArrayXf>(output->data.f + r * depth, depth));
  }
  return kTfLiteOk;
}

constexpr char kLogSoftmax[] = "LOG_SOFTMAX";
constexpr char kL2Norm[] = "L2_NORMALIZATION";

// Quantized LOG_SOFTMAX (INT8, UINT8) as upstream's default kernel: a float
// table of exp over the 256 possible distances below the row maximum, the
// log of the row sum in float, and the result rounded to an output of scale
// 16/256 with zero point 127 (INT8) or 255 (UINT8).
struct LogSoftmaxData {
  bool quantized = false;
  float input_scale = 0.0f, output_scale = 0.0f;
  int32_t output_zero_point = 0;
  float exp_table[256];  // exp_table[255 - d] = exp(-input_scale * d)
};

TfLiteStatus LogSoftmaxPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<LogSoftmaxData*>(node->user_data);
  const TfLiteTensor* input = internal::GetOptionalInput(context, node, 0);
  d->quantized = input != nullptr && (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8);
  if (!d->quantized) return PrepareRowwise(context, node, kLogSoftmax);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kLogSoftmax, 1, 1, 1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kLogSoftmax, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kLogSoftmax, "input", input->type, "output",
                                  output->type);
  }
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kLogSoftmax);
    return kTfLiteError;
  }
  internal::QuantParams in, out;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kLogSoftmax, "input", input, &in));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kLogSoftmax, "output", output, &out));
  const int32_t want_zero_point = input->type == kTfLiteInt8 ? 127 : 255;
  if (out.scale != 16.0f / 256 || out.zero_point != want_zero_point) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s output must have scale 16/256 and zero point %d, got %g and %d",
                       kLogSoftmax, TfLiteTypeGetName(input->type), want_zero_point, out.scale,
                       out.zero_point);
    return kTfLiteError;
  }
  const float scale = -in.scale;  // beta is 1
  for (int v = 0; v <= 255; ++v) d->exp_table[255 - v] = std::exp(scale * static_cast<float>(v));
  d->input_scale = in.scale;
  d->output_scale = out.scale;
  d->output_zero_point = out.zero_point;
  return internal::ResizeOutputLike(context, output, input->dims);
}

template <typename T>
void LogSoftmaxQuantized(const LogSoftmaxData& d, const T* in, T* out, int64_t rows,
                         int64_t depth) {
  constexpr int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  for (int64_t r = 0; r < rows; ++r, in += depth, out += depth) {
    T max_val = std::numeric_limits<T>::min();
    for (int64_t j = 0; j < depth; ++j) max_val = std::max(max_val, in[j]);
    const float* exp_at = d.exp_table + 255 - static_cast<int32_t>(max_val);
    float sum = 0.0f;
    for (int64_t j = 0; j < depth; ++j) sum += exp_at[in[j]];
    const float log_sum = std::log(sum);
    const float scale = d.input_scale / d.output_scale;
    const float offset = (d.input_scale * static_cast<float>(max_val) + log_sum) / d.output_scale;
    for (int64_t j = 0; j < depth; ++j) {
      const float log_prob = scale * static_cast<float>(in[j]) - offset;
      const int32_t q = static_cast<int32_t>(std::rint(log_prob) + static_cast<float>(d.output_zero_point));
      out[j] = static_cast<T>(std::max(lo, std::min(hi, q)));
    }
  }
}

TfLiteStatus LogSoftmaxEval(TfLiteContext* context, TfLiteNode* node) {
  const auto& d = *static_cast<const LogSoftmaxData*>(node->user_data);
  if (d.quantized) {
    const TfLiteTensor* input = internal::InputAt(context, node, 0);
    TfLiteTensor* output = internal::OutputAt(context, node, 0);
    const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
    if (depth == 0) return kTfLiteOk;
    const int64_t rows = internal::NumElements(input) / depth;
    if (input->type == kTfLiteInt8) {
      LogSoftmaxQuantized(d, input->data.int8, output->data.int8, rows, depth);
    } else {
      LogSoftmaxQuantized(d, input->data.uint8, output->data.uint8, rows, depth);
    }
    return kTfLiteOk;
  }
  return ForEachRow(context, node, [](const auto& x, auto&& y) {
    const float max = x.maxCoeff();
    // log(sum(exp(x - max))) cannot overflow; NaN inputs propagate.
    const float log_sum = std::log((x - max).exp().sum());
    y = x - max - log_sum;
  });
}

// Quantized L2_NORMALIZATION (INT8, UINT8) in upstream's fixed point: the
// row's sum of squares gives 1/sqrt as a multiplier and shift, applied to
// each centred value; the output has scale 1/128 and zero point 0 (INT8) or
// 128 (UINT8).
template <typename T>
void L2NormQuantized(const T* in, T* out, int64_t rows, int64_t depth, int32_t zero_point) {
  for (int64_t r = 0; r < rows; ++r, in += depth, out += depth) {
    // Past about 33,000 values (a hostile row) the int32 sum wraps around as
    // upstream's does, without a signed overflow.
    int32_t squares = 0;
    for (int64_t j = 0; j < depth; ++j) {
      const int32_t v = static_cast<int32_t>(in[j]) - zero_point;
      squares = internal::WrappingAdd(squares, v * v);
    }
    int32_t multiplier;
    int shift;
    internal::InvSqrtQuantizedMultiplier(squares, -1, &multiplier, &shift);
    for (int64_t j = 0; j < depth; ++j) {
      const int32_t v = static_cast<int32_t>(in[j]) - zero_point;
      if constexpr (std::is_same_v<T, int8_t>) {
        out[j] = internal::ClampTo<int8_t>(
            internal::MultiplyByQuantizedMultiplier(v, multiplier, shift + 7));
      } else {
        const int32_t scaled = internal::RoundingDivideByPOT(
            internal::SaturatingRoundingDoublingHighMul(128 * v, multiplier), -shift);
        out[j] = internal::ClampTo<uint8_t>(128 + scaled);
      }
    }
  }
}

TfLiteStatus L2NormEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  if (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8) {
    TfLiteTensor* output = internal::OutputAt(context, node, 0);
    const int64_t depth = internal::Dim(input, internal::NumDims(input) - 1);
    if (depth == 0) return kTfLiteOk;
    const int64_t rows = internal::NumElements(input) / depth;
    if (input->type == kTfLiteInt8) {
      L2NormQuantized(input->data.int8, output->data.int8, rows, depth,
                      input->params.zero_point);
    } else {
      L2NormQuantized(input->data.uint8, output->data.uint8, rows, depth,
                      input->params.zero_point);
    }
    return kTfLiteOk;
  }
  return ForEachRow(context, node, [](const auto& x, auto&& y) {
    float squares = 0.0f;
    for (Eigen::Index i = 0; i < x.size(); ++i) squares += x[i] * x[i];
    y = x / std::max(std::sqrt(squares), 1e-6f);
  });
}

TfLiteStatus L2NormPrepareQuantized(TfLiteContext* context, TfLiteNode* node,
                                    const TfLiteTensor* input) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kL2Norm, 1, 1, 1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kL2Norm, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kL2Norm, "input", input->type, "output", output->type);
  }
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kL2Norm);
    return kTfLiteError;
  }
  internal::QuantParams in, out;
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kL2Norm, "input", input, &in));
  TF_LITE_ENSURE_OK(context, internal::GetQuantParams(context, kL2Norm, "output", output, &out));
  const int32_t want_zero_point = input->type == kTfLiteInt8 ? 0 : 128;
  if (out.scale != 1.0f / 128 || out.zero_point != want_zero_point) {
    TF_LITE_KERNEL_LOG(context, "%s: %s output must have scale 1/128 and zero point %d, got %g and %d",
                       kL2Norm, TfLiteTypeGetName(input->type), want_zero_point, out.scale,
                       out.zero_point);
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus L2NormPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::GetOptionalInput(context, node, 0);
  if (input != nullptr && (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8)) {
    TF_LITE_ENSURE_OK(context, L2NormPrepareQuantized(context, node, input));
  } else {
    TF_LITE_ENSURE_OK(context, PrepareRowwise(context, node, kL2Norm));
  }
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kL2Norm));
  const auto* params = static_cast<const TfLiteL2NormParams*>(node->builtin_data);
  if (params->activation != kTfLiteActNone) {
    TF_LITE_KERNEL_LOG(context, "%s: fused activation %d is not supported", kL2Norm,
                       static_cast<int>(params->activation));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_LOG_SOFTMAX() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<LogSoftmaxData>, internal::FreeOpData<LogSoftmaxData>,
      LogSoftmaxPrepare, LogSoftmaxEval);
  return &r;
}

const TfLiteRegistration* Register_L2_NORMALIZATION() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, L2NormPrepare, L2NormEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

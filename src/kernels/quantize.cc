// QUANTIZE: FLOAT32 → UINT8 / INT8 / INT16 (per tensor, or per channel along
// the output's quantized dimension), or requantization between integer
// types: INT8/UINT8 → INT8/UINT8/INT16, INT16 → INT8/INT16/INT32,
// INT32 → INT8/INT16.
//
// Float values are divided by the scale (in double for per-tensor INT8 and
// UINT8 outputs, as upstream's x86 kernel; in float otherwise) and rounded
// half away from zero; a value beyond int32 (or NaN) becomes INT32_MIN
// before the zero point is added and the result clamped, which is what
// upstream's conversion does on x86. Requantization is the fixed-point
// multiply by s_in / s_out.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/quant_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "QUANTIZE";

struct OpData {
  internal::QuantizedMultiplier multiplier;  // requantization only
};

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

bool IsPerChannel(const TfLiteTensor* t) {
  const TfLiteAffineQuantization* q = Affine(t);
  return q != nullptr && q->scale != nullptr && q->scale->size > 1;
}

bool SupportedPair(TfLiteType in, TfLiteType out) {
  switch (in) {
    case kTfLiteFloat32:
    case kTfLiteInt8:
    case kTfLiteUInt8:
      return out == kTfLiteUInt8 || out == kTfLiteInt8 || out == kTfLiteInt16;
    case kTfLiteInt16:
      return out == kTfLiteInt8 || out == kTfLiteInt16 || out == kTfLiteInt32;
    case kTfLiteInt32:
      return out == kTfLiteInt8 || out == kTfLiteInt16;
    default:
      return false;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  if (!SupportedPair(input->type, output->type)) {
    TF_LITE_KERNEL_LOG(context, "%s: %s input to %s output is not supported", kOp,
                       TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  const TfLiteAffineQuantization* q = Affine(output);
  if (q == nullptr || q->scale == nullptr || q->scale->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: output must have affine quantization", kOp);
    return kTfLiteError;
  }
  if (IsPerChannel(output)) {
    const int dim = q->quantized_dimension;
    if (input->type != kTfLiteFloat32 || dim < 0 || dim >= internal::NumDims(input) ||
        internal::Dim(input, dim) != q->scale->size || q->zero_point == nullptr ||
        (q->zero_point->size != 1 && q->zero_point->size != q->scale->size)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: per-channel output quantization (%d scales on dimension %d) needs "
                         "a FLOAT32 input with that many channels",
                         kOp, q->scale->size, dim);
      return kTfLiteError;
    }
  }
  if (input->type != kTfLiteFloat32) {
    data->multiplier = internal::QuantizeMultiplier(static_cast<double>(input->params.scale) /
                                                    static_cast<double>(output->params.scale));
  }
  if (input->type == kTfLiteInt16 && output->type == kTfLiteInt16 &&
      (input->params.zero_point != 0 || output->params.zero_point != 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 to INT16 needs zero points 0", kOp);
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

// round(value / scale) + zero_point, clamped to Out. `Div` is the type the
// division is done in: upstream divides in double for per-tensor int8 and
// uint8 outputs (its optimized kernel on x86; ARM's NEON loop multiplies by
// a float reciprocal instead) and in float otherwise. A value near a half
// step, e.g. -0.99213946 / 0.007843 = -126.4999966 (double), -126.5 (float),
// rounds differently in the two.
template <typename Out, typename Div>
Out QuantizeValue(float value, float scale, int32_t zero_point) {
  const Div r = std::round(static_cast<Div>(value) / static_cast<Div>(scale));
  int32_t q = std::numeric_limits<int32_t>::min();
  if (r >= Div(-2147483648.0) && r < Div(2147483648.0)) q = static_cast<int32_t>(r);
  q = static_cast<int32_t>(static_cast<uint32_t>(q) + static_cast<uint32_t>(zero_point));
  return internal::ClampTo<Out>(q);
}

template <typename Out>
void QuantizeFloat(const TfLiteTensor* input, TfLiteTensor* output) {
  const float* in = input->data.f;
  Out* out = static_cast<Out*>(output->data.data);
  const int64_t n = internal::NumElements(input);
  if (!IsPerChannel(output)) {
    using Div = std::conditional_t<sizeof(Out) == 1, double, float>;
    for (int64_t i = 0; i < n; ++i) {
      out[i] = QuantizeValue<Out, Div>(in[i], output->params.scale, output->params.zero_point);
    }
    return;
  }
  const TfLiteAffineQuantization& q = *Affine(output);
  const int dim = q.quantized_dimension;
  const int channels = q.scale->size;
  const int64_t inner = internal::DimsProduct(input->dims, dim + 1, internal::NumDims(input));
  for (int64_t i = 0; i < n; ++i) {
    const int c = static_cast<int>((i / inner) % channels);
    const int32_t zp = q.zero_point->data[q.zero_point->size == 1 ? 0 : c];
    out[i] = QuantizeValue<Out, float>(in[i], q.scale->data[c], zp);
  }
}

template <typename In, typename Out>
void Requantize(const OpData& data, const TfLiteTensor* input, TfLiteTensor* output) {
  const In* in = static_cast<const In*>(input->data.data);
  Out* out = static_cast<Out*>(output->data.data);
  const int32_t in_zp = input->params.zero_point;
  const int32_t out_zp = output->params.zero_point;
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(in[i]) - in_zp;
    out[i] = internal::ClampTo<Out>(internal::MultiplyByQuantizedMultiplier(v, data.multiplier) +
                                    out_zp);
  }
}

template <typename In>
void RequantizeTo(const OpData& data, const TfLiteTensor* input, TfLiteTensor* output) {
  switch (output->type) {
    case kTfLiteInt8: Requantize<In, int8_t>(data, input, output); break;
    case kTfLiteUInt8: Requantize<In, uint8_t>(data, input, output); break;
    case kTfLiteInt16: Requantize<In, int16_t>(data, input, output); break;
    default: Requantize<In, int32_t>(data, input, output); break;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      switch (output->type) {
        case kTfLiteInt8: QuantizeFloat<int8_t>(input, output); break;
        case kTfLiteUInt8: QuantizeFloat<uint8_t>(input, output); break;
        default: QuantizeFloat<int16_t>(input, output); break;
      }
      break;
    case kTfLiteInt8: RequantizeTo<int8_t>(data, input, output); break;
    case kTfLiteUInt8: RequantizeTo<uint8_t>(data, input, output); break;
    case kTfLiteInt16: RequantizeTo<int16_t>(data, input, output); break;
    default: RequantizeTo<int32_t>(data, input, output); break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_QUANTIZE() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

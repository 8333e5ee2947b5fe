// DEQUANTIZE: quantized or half-precision values → FLOAT32.
//   UINT8 / INT8 / INT16 / INT4: out = scale * (q - zero_point), per tensor
//     (computed in double, like upstream) or per channel along the
//     quantized dimension (computed in float, like upstream). INT16 must have
//     zero point 0. INT4 constants are packed two per byte, low nibble first.
//   FLOAT16: exact widening.
// Constant inputs (typically fp16 or int8 weights) are converted once, in
// Prepare, into a persistent read-only output that later kernels can treat
// as a constant too.
#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register_layout.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DEQUANTIZE";

struct OpData {
  bool folded = false;
};

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

TfLiteStatus CheckQuantization(TfLiteContext* context, const TfLiteTensor* input) {
  if (input->type == kTfLiteFloat16) return kTfLiteOk;
  const TfLiteAffineQuantization* q = Affine(input);
  if (q != nullptr && q->scale != nullptr && q->scale->size > 1) {
    if (input->type == kTfLiteInt16) {
      TF_LITE_KERNEL_LOG(context, "%s: per-channel INT16 input is not supported", kOp);
      return kTfLiteError;
    }
    const int dim = q->quantized_dimension;
    if (dim < 0 || dim >= internal::NumDims(input) ||
        internal::Dim(input, dim) != q->scale->size || q->zero_point == nullptr ||
        (q->zero_point->size != 1 && q->zero_point->size != q->scale->size)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: per-channel quantization (%d scales on dimension %d) does not fit "
                         "the input",
                         kOp, q->scale->size, dim);
      return kTfLiteError;
    }
  }
  if (input->type == kTfLiteInt16 && input->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 input must have zero point 0, has %d", kOp,
                       input->params.zero_point);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

template <typename T>
void DequantizePerTensor(const T* in, int64_t n, double scale, int32_t zero_point, float* out) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(scale * (static_cast<int32_t>(in[i]) - zero_point));
  }
}

template <typename T>
void DequantizePerChannel(const T* in, const TfLiteTensor* input,
                          const TfLiteAffineQuantization& q, float* out) {
  const int dim = q.quantized_dimension;
  const int channels = q.scale->size;
  const int64_t inner = internal::DimsProduct(input->dims, dim + 1, internal::NumDims(input));
  const int64_t outer = internal::DimsProduct(input->dims, 0, dim);
  for (int64_t o = 0; o < outer; ++o) {
    for (int c = 0; c < channels; ++c) {
      const float scale = q.scale->data[c];
      const int32_t zp = q.zero_point->data[q.zero_point->size == 1 ? 0 : c];
      const int64_t base = (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        out[base + i] = static_cast<float>(scale * (static_cast<int32_t>(in[base + i]) - zp));
      }
    }
  }
}

template <typename T>
void DequantizeValues(const T* in, const TfLiteTensor* input, float* out) {
  const TfLiteAffineQuantization* q = Affine(input);
  if (q != nullptr && q->scale != nullptr && q->scale->size > 1) {
    DequantizePerChannel(in, input, *q, out);
  } else {
    DequantizePerTensor(in, internal::NumElements(input), input->params.scale,
                        input->params.zero_point, out);
  }
}

// Constant INT4 tensors keep two values per byte; others hold one per byte.
std::vector<int8_t> UnpackInt4(const TfLiteTensor* input) {
  const int64_t n = internal::NumElements(input);
  std::vector<int8_t> values(static_cast<size_t>(n));
  const auto* bytes = reinterpret_cast<const uint8_t*>(input->data.raw);
  if (static_cast<int64_t>(input->bytes) >= n) {
    std::memcpy(values.data(), bytes, n);
    return values;
  }
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t nibble = (i % 2 == 0) ? (bytes[i / 2] & 0x0f) : (bytes[i / 2] >> 4);
    values[i] = static_cast<int8_t>(static_cast<int8_t>(nibble << 4) >> 4);  // sign-extend
  }
  return values;
}

TfLiteStatus Compute(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  float* out = internal::OutputAt(context, node, 0)->data.f;
  switch (input->type) {
    case kTfLiteUInt8: DequantizeValues(input->data.uint8, input, out); break;
    case kTfLiteInt8: DequantizeValues(input->data.int8, input, out); break;
    case kTfLiteInt16: DequantizeValues(input->data.i16, input, out); break;
    case kTfLiteInt4: DequantizeValues(UnpackInt4(input).data(), input, out); break;
    default: {  // FLOAT16
      const auto* half = reinterpret_cast<const Eigen::half*>(input->data.f16);
      const int64_t n = internal::NumElements(input);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(half[i]);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  const TfLiteType t = input->type;
  if (t != kTfLiteUInt8 && t != kTfLiteInt8 && t != kTfLiteInt16 && t != kTfLiteInt4 &&
      t != kTfLiteFloat16) {
    return internal::UnsupportedType(context, kOp, "input", t);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, CheckQuantization(context, input));

  data->folded = internal::IsConstantOrPersistent(input);
  if (data->folded) internal::SetTensorToPersistentRo(output);
  TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, input->dims));
  return data->folded ? Compute(context, node) : kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (static_cast<const OpData*>(node->user_data)->folded) return kTfLiteOk;
  return Compute(context, node);
}

}  // namespace

const TfLiteRegistration* Register_DEQUANTIZE() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

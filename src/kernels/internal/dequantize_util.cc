#include "src/kernels/internal/dequantize_util.h"

#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
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
  const int64_t inner = DimsProduct(input->dims, dim + 1, NumDims(input));
  const int64_t outer = DimsProduct(input->dims, 0, dim);
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
    DequantizePerTensor(in, NumElements(input), input->params.scale, input->params.zero_point,
                        out);
  }
}

// Constant INT4 tensors keep two values per byte; others hold one per byte.
std::vector<int8_t> Int4Values(const TfLiteTensor* input) {
  const int64_t n = NumElements(input);
  std::vector<int8_t> values(static_cast<size_t>(n));
  const auto* bytes = reinterpret_cast<const uint8_t*>(input->data.raw);
  if (static_cast<int64_t>(input->bytes) >= n) {
    std::memcpy(values.data(), bytes, n);
    return values;
  }
  UnpackInt4(bytes, n, values.data());
  return values;
}

}  // namespace

TfLiteStatus CheckDequantizable(TfLiteContext* context, const char* op,
                                const TfLiteTensor* input) {
  if (input->type == kTfLiteFloat16) return kTfLiteOk;
  const TfLiteAffineQuantization* q = Affine(input);
  if (q == nullptr || q->scale == nullptr || q->scale->size <= 1) return kTfLiteOk;
  if (input->type == kTfLiteInt16) {
    TF_LITE_KERNEL_LOG(context, "%s: per-channel INT16 input is not supported", op);
    return kTfLiteError;
  }
  const int dim = q->quantized_dimension;
  if (dim < 0 || dim >= NumDims(input) || Dim(input, dim) != q->scale->size ||
      q->zero_point == nullptr ||
      (q->zero_point->size != 1 && q->zero_point->size != q->scale->size)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: per-channel quantization (%d scales on dimension %d) does not fit "
                       "the input",
                       op, q->scale->size, dim);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

void DequantizeToFloat(const TfLiteTensor* input, float* out) {
  switch (input->type) {
    case kTfLiteUInt8: DequantizeValues(input->data.uint8, input, out); break;
    case kTfLiteInt8: DequantizeValues(input->data.int8, input, out); break;
    case kTfLiteInt16: DequantizeValues(input->data.i16, input, out); break;
    case kTfLiteInt4: DequantizeValues(Int4Values(input).data(), input, out); break;
    default: {  // FLOAT16
      const auto* half = reinterpret_cast<const Eigen::half*>(input->data.f16);
      const int64_t n = NumElements(input);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(half[i]);
    }
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#include "src/kernels/internal/layout_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "src/core/tensor_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

size_t ElementBytes(TfLiteType type) {
  // Int4 tensors are packed two to a byte when constant: not movable.
  if (type == kTfLiteInt4) return 0;
  size_t bytes = 0;
  return TypeElementSize(type, &bytes) ? bytes : 0;
}

TfLiteStatus CheckNhwcInput(TfLiteContext* context, const char* op, const TfLiteTensor* input) {
  if (NumDims(input) == 4) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: input must be 4-D (NHWC), got rank %d", op, NumDims(input));
  return kTfLiteError;
}

TfLiteStatus GetElementBytes(TfLiteContext* context, const char* op, const char* what,
                             TfLiteType type, size_t* bytes) {
  *bytes = ElementBytes(type);
  if (*bytes == 0) return UnsupportedType(context, op, what, type);
  return kTfLiteOk;
}

TfLiteStatus NormalizeAxis(TfLiteContext* context, const char* op, int axis, int rank,
                           int* normalized) {
  if (axis < -rank || axis >= rank) {
    TF_LITE_KERNEL_LOG(context, "%s: axis %d is out of range for rank %d (must be in [%d, %d))",
                       op, axis, rank, -rank, rank);
    return kTfLiteError;
  }
  *normalized = axis < 0 ? axis + rank : axis;
  return kTfLiteOk;
}

namespace {

template <typename T>
void Widen(const TfLiteTensor* t, int64_t n, std::vector<int64_t>* values) {
  const T* data = static_cast<const T*>(t->data.data);
  for (int64_t i = 0; i < n; ++i) (*values)[i] = static_cast<int64_t>(data[i]);
}

}  // namespace

TfLiteStatus ReadIntValues(TfLiteContext* context, const char* op, const char* what,
                           const TfLiteTensor* t, std::vector<int64_t>* values) {
  const int64_t n = NumElements(t);
  values->assign(static_cast<size_t>(n), 0);
  if (n > 0 && t->data.data == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: %s tensor has no data", op, what);
    return kTfLiteError;
  }
  switch (t->type) {
    case kTfLiteInt32: Widen<int32_t>(t, n, values); break;
    case kTfLiteInt64: Widen<int64_t>(t, n, values); break;
    case kTfLiteInt16: Widen<int16_t>(t, n, values); break;
    case kTfLiteInt8: Widen<int8_t>(t, n, values); break;
    case kTfLiteUInt8: Widen<uint8_t>(t, n, values); break;
    case kTfLiteBool:  // any non-zero byte is true (see BoolAt)
      for (int64_t i = 0; i < n; ++i) (*values)[i] = BoolAt(t, i) ? 1 : 0;
      break;
    default: return UnsupportedType(context, op, what, t->type);
  }
  return kTfLiteOk;
}

TfLiteStatus ReadIntValues(TfLiteContext* context, const char* op, const char* what,
                           const TfLiteTensor* t, std::vector<int>* values) {
  std::vector<int64_t> wide;
  TF_LITE_ENSURE_OK(context, ReadIntValues(context, op, what, t, &wide));
  values->resize(wide.size());
  for (size_t i = 0; i < wide.size(); ++i) {
    if (wide[i] < std::numeric_limits<int>::min() || wide[i] > std::numeric_limits<int>::max()) {
      TF_LITE_KERNEL_LOG(context, "%s: %s value %lld does not fit in int32", op, what,
                         static_cast<long long>(wide[i]));
      return kTfLiteError;
    }
    (*values)[i] = static_cast<int>(wide[i]);
  }
  return kTfLiteOk;
}

void SetTensorToPersistentRo(TfLiteTensor* t) {
  if (t->allocation_type == kTfLitePersistentRo) return;
  // Dynamic memory is ours to release; arena memory is not.
  if (t->allocation_type == kTfLiteDynamic) TfLiteTensorDataFree(t);
  t->data.raw = nullptr;
  t->allocation_type = kTfLitePersistentRo;
}

void RowMajorStrides(const TfLiteIntArray* dims, int64_t* strides) {
  int64_t stride = 1;
  for (int d = dims->size - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= dims->data[d];
  }
}

int64_t DimsProduct(const TfLiteIntArray* dims, int first, int last) {
  int64_t n = 1;
  for (int d = first; d < last; ++d) n *= dims->data[d];
  return n;
}

namespace {

template <typename T>
void FillTyped(void* dst, int64_t count, const void* value) {
  T v;
  std::memcpy(&v, value, sizeof(T));
  std::fill_n(static_cast<T*>(dst), count, v);
}

}  // namespace

void FillElements(void* dst, int64_t count, const void* value, size_t element_bytes) {
  if (count <= 0) return;
  switch (element_bytes) {
    case 1: std::memset(dst, *static_cast<const uint8_t*>(value), count); return;
    case 2: FillTyped<uint16_t>(dst, count, value); return;
    case 4: FillTyped<uint32_t>(dst, count, value); return;
    case 8: FillTyped<uint64_t>(dst, count, value); return;
    default:
      for (int64_t i = 0; i < count; ++i) {
        std::memcpy(static_cast<char*>(dst) + i * element_bytes, value, element_bytes);
      }
  }
}

void SpreadElements(const TfLiteTensor* input, const int64_t* offset, const int64_t* step,
                    const void* value, TfLiteTensor* output) {
  const size_t es = ElementBytes(input->type);
  FillElements(output->data.raw, NumElements(output), value, es);
  const int64_t in_count = NumElements(input);
  if (in_count == 0 || NumElements(output) == 0) return;
  const int rank = NumDims(input);
  int64_t out_strides[kMaxLayoutRank];
  RowMajorStrides(output->dims, out_strides);
  const int64_t inner = Dim(input, rank - 1);
  const int64_t inner_limit = Dim(output, rank - 1);
  int64_t coord[kMaxLayoutRank] = {};  // of the current input row's first element
  const char* in = input->data.raw_const;
  for (int64_t row = 0; row < in_count / inner; ++row, in += inner * es) {
    int64_t base = 0;
    bool inside = true;
    for (int d = 0; d < rank - 1 && inside; ++d) {
      const int64_t o = offset[d] + coord[d] * step[d];
      inside = o >= 0 && o < Dim(output, d);
      base += o * out_strides[d];
    }
    for (int64_t k = 0; inside && k < inner; ++k) {
      const int64_t o = offset[rank - 1] + k * step[rank - 1];
      if (o < 0) continue;
      if (o >= inner_limit) break;
      std::memcpy(output->data.raw + (base + o) * es, in + k * es, es);
    }
    for (int d = rank - 2; d >= 0 && ++coord[d] == Dim(input, d); --d) coord[d] = 0;
  }
}

void QuantizedTypeRange(TfLiteType type, int32_t* min, int32_t* max) {
  switch (type) {
    case kTfLiteUInt8:
      *min = 0;
      *max = 255;
      return;
    case kTfLiteInt16:
      *min = std::numeric_limits<int16_t>::min();
      *max = std::numeric_limits<int16_t>::max();
      return;
    case kTfLiteInt32:
      *min = std::numeric_limits<int32_t>::min();
      *max = std::numeric_limits<int32_t>::max();
      return;
    default:  // int8
      *min = -128;
      *max = 127;
  }
}

namespace {

TfLiteStatus QuantizeBound(TfLiteContext* context, const char* op, const TfLiteTensor* output,
                           float real, int32_t* q) {
  const float rounded = std::round(real / output->params.scale);
  if (!(rounded >= static_cast<float>(std::numeric_limits<int32_t>::min()) &&
        rounded <= static_cast<float>(std::numeric_limits<int32_t>::max()))) {
    TF_LITE_KERNEL_LOG(context, "%s: activation bound %g does not fit the output scale %g", op,
                       real, output->params.scale);
    return kTfLiteError;
  }
  *q = output->params.zero_point + static_cast<int32_t>(rounded);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus QuantizedActivationRange(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation activation,
                                      const TfLiteTensor* output, int32_t* act_min,
                                      int32_t* act_max) {
  QuantizedTypeRange(output->type, act_min, act_max);
  float lo = 0.0f, hi = 0.0f;
  bool has_hi = true;
  switch (activation) {
    case kTfLiteActRelu: has_hi = false; break;
    case kTfLiteActRelu6: hi = 6.0f; break;
    case kTfLiteActReluN1To1:
      lo = -1.0f;
      hi = 1.0f;
      break;
    default: return kTfLiteOk;
  }
  int32_t q;
  TF_LITE_ENSURE_OK(context, QuantizeBound(context, op, output, lo, &q));
  *act_min = std::max(*act_min, q);
  if (has_hi) {
    TF_LITE_ENSURE_OK(context, QuantizeBound(context, op, output, hi, &q));
    *act_max = std::min(*act_max, q);
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// Segment reductions over the leading dimensions of `data` (FLOAT32 or
// INT32; integer sums and products wrap around on overflow):
//  - SEGMENT_SUM (data, segment_ids): segment_ids is 1-D INT32 with one id
//    per row of data, starting at 0 and rising by 0 or 1 from row to row;
//    output row s is the sum of the rows with id s.
//  - UNSORTED_SEGMENT_{SUM,PROD,MAX,MIN} (data, segment_ids, num_segments):
//    segment_ids (INT32) has the shape of a prefix of data's dimensions and
//    ids in any order; output is [num_segments, data dims after the prefix]
//    and output slice s reduces the data slices whose id is s. Negative ids
//    are skipped, ids >= num_segments are an error. Empty segments hold the
//    reduction's identity (0, 1, the lowest or the highest value).
// Non-constant ids or num_segments make the output dynamic.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

enum class Reduction { kSum, kProd, kMax, kMin };

// ---- SEGMENT_SUM ----------------------------------------------------------------

constexpr char kSegmentSum[] = "SEGMENT_SUM";

TfLiteStatus ResizeSegmentSum(TfLiteContext* context, const TfLiteTensor* data,
                              const TfLiteTensor* ids, TfLiteTensor* output) {
  const int rows = internal::Dim(data, 0);
  if (internal::NumDims(ids) != 1 || internal::Dim(ids, 0) != rows) {
    TF_LITE_KERNEL_LOG(context, "%s: segment_ids must be 1-D with %d elements (rows of data)",
                       kSegmentSum, rows);
    return kTfLiteError;
  }
  int last = -1;
  for (int i = 0; i < rows; ++i) {
    const int32_t id = ids->data.i32[i];
    const bool ok = i == 0 ? id == 0 : (id == last || id == last + 1);
    if (!ok) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: segment_ids must start at 0 and rise by 0 or 1; element %d is %d",
                         kSegmentSum, i, id);
      return kTfLiteError;
    }
    last = id;
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCopy(data->dims));
  shape->data[0] = last + 1;
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus CheckDataAndOutput(TfLiteContext* context, const char* op, const TfLiteTensor* data,
                                const TfLiteTensor* output) {
  if (!internal::TypeIn(data->type, {kTfLiteFloat32, kTfLiteInt32})) {
    return internal::UnsupportedType(context, op, "data", data->type);
  }
  if (output->type != data->type) {
    return internal::TypeMismatch(context, op, "data", data->type, "output", output->type);
  }
  if (internal::NumDims(data) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: data must have at least one dimension", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareSegmentSum(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kSegmentSum, 2, 2, 1));
  const TfLiteTensor *data, *ids;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kSegmentSum, &data));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kSegmentSum, &ids));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kSegmentSum, &output));
  TF_LITE_ENSURE_OK(context, CheckDataAndOutput(context, kSegmentSum, data, output));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kSegmentSum, "segment_ids", ids, kTfLiteInt32));
  if (internal::IsConstantOrPersistent(ids)) {
    return ResizeSegmentSum(context, data, ids, output);
  }
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

template <typename T>
void Reduce(Reduction r, const T* in, const int32_t* ids, int64_t num_ids, int64_t slice,
            int64_t num_segments, T* out) {
  T init = T(0);
  if (r == Reduction::kProd) init = T(1);
  if (r == Reduction::kMax) init = std::numeric_limits<T>::lowest();
  if (r == Reduction::kMin) init = std::numeric_limits<T>::max();
  std::fill(out, out + num_segments * slice, init);
  for (int64_t i = 0; i < num_ids; ++i) {
    if (ids[i] < 0) continue;
    T* o = out + ids[i] * slice;
    const T* x = in + i * slice;
    for (int64_t e = 0; e < slice; ++e) {
      switch (r) {
        case Reduction::kSum: o[e] = internal::WrappingAdd(o[e], x[e]); break;
        case Reduction::kProd: o[e] = internal::WrappingMul(o[e], x[e]); break;
        case Reduction::kMax: o[e] = std::max(o[e], x[e]); break;
        case Reduction::kMin: o[e] = std::min(o[e], x[e]); break;
      }
    }
  }
}

void ReduceTyped(Reduction r, const TfLiteTensor* data, const TfLiteTensor* ids, int64_t num_ids,
                 TfLiteTensor* output) {
  const int64_t num_segments = internal::Dim(output, 0);
  const int64_t slice = internal::DimsProduct(output->dims, 1, internal::NumDims(output));
  if (data->type == kTfLiteFloat32) {
    Reduce(r, data->data.f, ids->data.i32, num_ids, slice, num_segments, output->data.f);
  } else {
    Reduce(r, data->data.i32, ids->data.i32, num_ids, slice, num_segments, output->data.i32);
  }
}

TfLiteStatus EvalSegmentSum(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* data = internal::InputAt(context, node, 0);
  const TfLiteTensor* ids = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResizeSegmentSum(context, data, ids, output));
  }
  ReduceTyped(Reduction::kSum, data, ids, internal::Dim(data, 0), output);
  return kTfLiteOk;
}

// ---- UNSORTED_SEGMENT_* -----------------------------------------------------------

template <Reduction R>
struct Unsorted;
template <>
struct Unsorted<Reduction::kSum> {
  static constexpr char kName[] = "UNSORTED_SEGMENT_SUM";
};
template <>
struct Unsorted<Reduction::kProd> {
  static constexpr char kName[] = "UNSORTED_SEGMENT_PROD";
};
template <>
struct Unsorted<Reduction::kMax> {
  static constexpr char kName[] = "UNSORTED_SEGMENT_MAX";
};
template <>
struct Unsorted<Reduction::kMin> {
  static constexpr char kName[] = "UNSORTED_SEGMENT_MIN";
};

TfLiteStatus ResizeUnsorted(TfLiteContext* context, const char* op, const TfLiteTensor* data,
                            const TfLiteTensor* ids, const TfLiteTensor* num_segments_tensor,
                            TfLiteTensor* output) {
  const int ids_rank = internal::NumDims(ids);
  const int data_rank = internal::NumDims(data);
  bool prefix = ids_rank <= data_rank;
  for (int i = 0; prefix && i < ids_rank; ++i) {
    prefix = internal::Dim(ids, i) == internal::Dim(data, i);
  }
  if (!prefix) {
    char a[64], b[64];
    TF_LITE_KERNEL_LOG(context, "%s: segment_ids shape %s must be a prefix of data shape %s", op,
                       internal::ShapeToString(ids->dims, a, sizeof(a)),
                       internal::ShapeToString(data->dims, b, sizeof(b)));
    return kTfLiteError;
  }
  if (internal::NumElements(num_segments_tensor) != 1 || internal::NumDims(num_segments_tensor) > 1) {
    TF_LITE_KERNEL_LOG(context, "%s: num_segments must be a scalar or a one-element vector", op);
    return kTfLiteError;
  }
  const int32_t num_segments = num_segments_tensor->data.i32[0];
  if (num_segments < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: num_segments is negative (%d)", op, num_segments);
    return kTfLiteError;
  }
  for (int64_t i = 0, n = internal::NumElements(ids); i < n; ++i) {
    if (ids->data.i32[i] >= num_segments) {
      TF_LITE_KERNEL_LOG(context, "%s: segment id %d (element %lld) is not below num_segments %d",
                         op, ids->data.i32[i], static_cast<long long>(i), num_segments);
      return kTfLiteError;
    }
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(data_rank - ids_rank + 1));
  shape->data[0] = num_segments;
  for (int i = ids_rank; i < data_rank; ++i) shape->data[i - ids_rank + 1] = internal::Dim(data, i);
  return context->ResizeTensor(context, output, shape.release());
}

template <Reduction R>
TfLiteStatus PrepareUnsorted(TfLiteContext* context, TfLiteNode* node) {
  const char* op = Unsorted<R>::kName;
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 3, 3, 1));
  const TfLiteTensor *data, *ids, *num_segments;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &data));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, op, &ids));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, op, &num_segments));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  TF_LITE_ENSURE_OK(context, CheckDataAndOutput(context, op, data, output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, op, "segment_ids", ids, kTfLiteInt32));
  TF_LITE_ENSURE_OK(
      context, internal::ExpectType(context, op, "num_segments", num_segments, kTfLiteInt32));
  if (internal::IsConstantOrPersistent(ids) && internal::IsConstantOrPersistent(num_segments)) {
    return ResizeUnsorted(context, op, data, ids, num_segments, output);
  }
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

template <Reduction R>
TfLiteStatus EvalUnsorted(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* data = internal::InputAt(context, node, 0);
  const TfLiteTensor* ids = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResizeUnsorted(context, Unsorted<R>::kName, data, ids,
                                              internal::InputAt(context, node, 2), output));
  }
  ReduceTyped(R, data, ids, internal::NumElements(ids), output);
  return kTfLiteOk;
}

template <Reduction R>
const TfLiteRegistration* RegisterUnsorted() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, PrepareUnsorted<R>, EvalUnsorted<R>);
  return &r;
}

}  // namespace

const TfLiteRegistration* Register_SEGMENT_SUM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, PrepareSegmentSum, EvalSegmentSum);
  return &r;
}
const TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM() {
  return RegisterUnsorted<Reduction::kSum>();
}
const TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD() {
  return RegisterUnsorted<Reduction::kProd>();
}
const TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX() {
  return RegisterUnsorted<Reduction::kMax>();
}
const TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN() {
  return RegisterUnsorted<Reduction::kMin>();
}

}  // namespace kernels
}  // namespace tflite_c

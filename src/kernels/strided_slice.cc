// STRIDED_SLICE (input, begin, end, strides): input[begin:end:stride] per
// dimension, with TensorFlow's masks: begin_mask / end_mask bits take the
// whole range on that side, a shrink_axis_mask bit keeps only index `begin`
// and drops the dimension, a new_axis_mask bit inserts a dimension of size
// 1, and an ellipsis_mask bit stands for all dimensions not otherwise
// named. Negative indices count from the end; negative strides walk
// backwards; with `offset`, end is relative to begin. begin, end and strides
// are 1-D INT32 or INT64 of one length. Any fixed-size element type,
// quantized values unchanged. Non-constant begin/end/strides make the output
// dynamic.
#include <algorithm>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STRIDED_SLICE";

// One dimension of the slice after masks are expanded.
struct Axis {
  int input_dim = -1;  // -1: a new axis of size 1
  int64_t begin = 0, end = 0, stride = 1;
  bool begin_full = true, end_full = true, shrink = false;
};

bool Bit(int mask, int i) { return (mask >> i) & 1; }

// Expands the sparse specification (one entry per begin element) into one
// Axis per output-side dimension.
TfLiteStatus ExpandSpec(TfLiteContext* context, const TfLiteStridedSliceParams& p, int rank,
                        const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                        const std::vector<int64_t>& strides, std::vector<Axis>* axes) {
  const int n = static_cast<int>(begin.size());
  int consumed_after = 0, ellipsis = -1;
  for (int i = 0; i < n; ++i) {
    if (Bit(p.ellipsis_mask, i)) {
      if (ellipsis >= 0) {
        TF_LITE_KERNEL_LOG(context, "%s: more than one ellipsis", kOp);
        return kTfLiteError;
      }
      ellipsis = i;
      consumed_after = 0;
    } else if (!Bit(p.new_axis_mask, i)) {
      ++consumed_after;
    }
  }
  if (ellipsis < 0) consumed_after = 0;
  int dim = 0;
  for (int i = 0; i < n; ++i) {
    if (i == ellipsis) {
      const int count = rank - dim - consumed_after;
      for (int k = 0; k < count; ++k) {
        Axis a;
        a.input_dim = dim++;
        axes->push_back(a);
      }
      continue;
    }
    Axis a;
    if (!Bit(p.new_axis_mask, i)) {
      a.input_dim = dim++;
      a.begin = begin[i];
      a.end = end[i];
      a.stride = strides[i];
      a.begin_full = Bit(p.begin_mask, i);
      a.end_full = Bit(p.end_mask, i);
      a.shrink = Bit(p.shrink_axis_mask, i);
    }
    axes->push_back(a);
  }
  if (dim > rank) {
    TF_LITE_KERNEL_LOG(context, "%s: %d indexed dimensions for a rank-%d input", kOp, dim, rank);
    return kTfLiteError;
  }
  while (dim < rank) {
    Axis a;
    a.input_dim = dim++;
    axes->push_back(a);
  }
  return kTfLiteOk;
}

int64_t ClampIndex(int64_t v, int64_t size, int64_t stride) {
  if (v < 0) v += size;
  return stride > 0 ? std::min(std::max<int64_t>(v, 0), size)
                    : std::min(std::max<int64_t>(v, -1), size - 1);
}

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const auto& p = *static_cast<const TfLiteStridedSliceParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  std::vector<int64_t> begin, end, strides;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "begin",
                                                     internal::InputAt(context, node, 1), &begin));
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "end",
                                                     internal::InputAt(context, node, 2), &end));
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "strides",
                                                     internal::InputAt(context, node, 3),
                                                     &strides));
  if (end.size() != begin.size() || strides.size() != begin.size()) {
    TF_LITE_KERNEL_LOG(context, "%s: begin, end and strides have %zu, %zu and %zu entries", kOp,
                       begin.size(), end.size(), strides.size());
    return kTfLiteError;
  }
  const int rank = internal::NumDims(input);
  std::vector<Axis> axes;
  TF_LITE_ENSURE_OK(context, ExpandSpec(context, p, rank, begin, end, strides, &axes));
  int64_t in_strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, in_strides);
  std::vector<int> shape;
  data->gather = internal::AxisGather(rank);
  for (const Axis& a : axes) {
    if (a.input_dim < 0) {
      shape.push_back(1);
      continue;
    }
    const int64_t size = internal::Dim(input, a.input_dim);
    if (a.stride == 0) {
      TF_LITE_KERNEL_LOG(context, "%s: stride of dimension %d is 0", kOp, a.input_dim);
      return kTfLiteError;
    }
    int64_t b = a.begin_full ? (a.stride > 0 ? 0 : size - 1) : ClampIndex(a.begin, size, a.stride);
    int64_t count;
    if (a.shrink) {
      if (!a.begin_full) b = a.begin < 0 ? a.begin + size : a.begin;
      if (b < 0 || b >= size) {
        TF_LITE_KERNEL_LOG(context, "%s: index %lld is out of range for dimension %d of size %lld",
                           kOp, static_cast<long long>(a.begin), a.input_dim,
                           static_cast<long long>(size));
        return kTfLiteError;
      }
      count = 1;
    } else {
      const int64_t raw_end = p.offset ? a.end + b : a.end;
      const int64_t e =
          a.end_full ? (a.stride > 0 ? size : -1) : ClampIndex(raw_end, size, a.stride);
      const int64_t span = a.stride > 0 ? e - b : b - e;
      const int64_t step = a.stride > 0 ? a.stride : -a.stride;
      count = span <= 0 ? 0 : (span + step - 1) / step;
      shape.push_back(static_cast<int>(count));
    }
    data->gather.SetLinearAxis(a.input_dim, b, a.stride, static_cast<int>(count),
                               in_strides[a.input_dim]);
  }
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0),
                               internal::MakeIntArray(shape.data(), static_cast<int>(shape.size()))
                                   .release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  return internal::PrepareGatherOp(context, node, kOp, 4, "begin, end and strides", Plan);
}

}  // namespace

const TfLiteRegistration* Register_STRIDED_SLICE() {
  return internal::GatherOpRegistration<Prepare, Plan>();
}

}  // namespace kernels
}  // namespace tflite_c

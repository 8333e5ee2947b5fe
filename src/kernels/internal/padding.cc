#include "src/kernels/internal/padding.h"

#include <cstdint>

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus EffectiveFilterSize(TfLiteContext* context, const char* op,
                                 const WindowAxisNames& names, int filter, int dilation,
                                 int* span) {
  const int64_t wide = int64_t{dilation} * (int64_t{filter} - 1) + 1;
  if (wide > kMaxDim) {
    TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s %d * (filter %d - 1) + 1 overflows", op,
                             names.dilation, dilation, filter);
    return kTfLiteError;
  }
  *span = static_cast<int>(wide);
  return kTfLiteOk;
}

TfLiteStatus ComputeWindowAxis(TfLiteContext* context, const char* op, const WindowAxisNames& names,
                               const WindowParams& w, int in_size, int filter, WindowAxis* axis) {
  if (w.padding != kTfLitePaddingSame && w.padding != kTfLitePaddingValid) {
    TF_LITE_MAYBE_KERNEL_LOG(context, "%s: padding %d is not SAME or VALID", op,
                             static_cast<int>(w.padding));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckPositive(context, op, names.stride, w.stride));
  TF_LITE_ENSURE_OK(context, CheckPositive(context, op, names.dilation, w.dilation));
  TF_LITE_ENSURE_OK(context, CheckPositive(context, op, names.filter, filter));
  if (in_size < 0) {
    TF_LITE_MAYBE_KERNEL_LOG(context, "%s: input %s is negative (%d)", op, names.size, in_size);
    return kTfLiteError;
  }
  int span;
  TF_LITE_ENSURE_OK(context, EffectiveFilterSize(context, op, names, filter, w.dilation, &span));
  int64_t out;
  if (w.padding == kTfLitePaddingSame) {
    out = (int64_t{in_size} + w.stride - 1) / w.stride;  // ceil(in / stride)
  } else {
    // Truncating division, so a slightly-too-small input still yields 0.
    out = (int64_t{in_size} - span + w.stride) / w.stride;
    if (int64_t{in_size} - span + w.stride < 0) {
      TF_LITE_MAYBE_KERNEL_LOG(
          context, "%s: output %s would be negative (VALID window %d > input %d + %s %d)", op,
          names.size, span, in_size, names.stride, w.stride);
      return kTfLiteError;
    }
  }
  // The padded extent bounds every position a kernel computes.
  const int64_t extent = out > 0 ? (out - 1) * w.stride + span : 0;
  if (extent > kMaxDim) {
    TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s %d * (output %lld - 1) + window %d overflows", op,
                             names.stride, w.stride, static_cast<long long>(out), span);
    return kTfLiteError;
  }
  // Padding needed so that the last window ends inside the padded input,
  // split evenly with the odd element at the end.
  int64_t total = extent - in_size;
  if (total < 0) total = 0;
  axis->out_size = static_cast<int>(out);
  axis->pad_before = static_cast<int>(total / 2);
  axis->pad_after = static_cast<int>(total / 2 + total % 2);
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

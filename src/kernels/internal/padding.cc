#include "src/kernels/internal/padding.h"

#include <cstdint>
#include <limits>

namespace tflite_c {
namespace kernels {
namespace internal {

bool ComputeWindowAxis(TfLitePadding padding, int in_size, int filter, int stride, int dilation,
                       WindowAxis* axis) {
  if (in_size < 0 || filter <= 0 || stride <= 0 || dilation <= 0) return false;
  // Span of input covered by one window position.
  const int64_t span = static_cast<int64_t>(filter - 1) * dilation + 1;
  int64_t out;
  if (padding == kTfLitePaddingSame) {
    out = (static_cast<int64_t>(in_size) + stride - 1) / stride;  // ceil(in / stride)
  } else if (padding == kTfLitePaddingValid) {
    // Truncating division, so a slightly-too-small input still yields 0.
    out = (static_cast<int64_t>(in_size) - span + stride) / stride;
  } else {
    return false;
  }
  if (out < 0 || out > std::numeric_limits<int>::max()) return false;

  // Padding needed so that the last window ends inside the padded input,
  // split evenly with the odd element at the end.
  int64_t total = (out - 1) * stride + span - in_size;
  if (total < 0) total = 0;
  if (total / 2 + total % 2 > std::numeric_limits<int>::max()) return false;
  axis->out_size = static_cast<int>(out);
  axis->pad_before = static_cast<int>(total / 2);
  axis->pad_after = static_cast<int>(total / 2 + total % 2);
  return true;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

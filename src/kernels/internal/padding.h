// Output size and padding of a sliding window (convolution, pooling) along
// one spatial axis, for the SAME/VALID padding schemes: the one place where
// kernels turn stride, dilation, filter size and padding into an output size,
// with every step of the arithmetic checked.
//
// Failures are reported through the context in one style, naming the
// attribute as the schema does, e.g.
//   CONV_2D: stride_h must be positive, got 0
//   CONV_2D: dilation_h_factor 1073741824 * (filter 3 - 1) + 1 overflows
//   CONV_2D: output height would be negative (VALID window 200001 > input 5 + stride_h 1)
//   CONV_2D: stride_w 2147483647 * (output 2 - 1) + window 3 overflows
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_

#include <cstdint>

#include "src/kernels/internal/checked_math.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct WindowAxis {
  int out_size;
  // Padding before the first input element. When the total padding is odd,
  // the extra element goes after the last one (`pad_after` = pad_before + 1).
  int pad_before;
  int pad_after;
};

// How one axis and its attributes are called in messages.
struct WindowAxisNames {
  const char* size;      // "height"
  const char* stride;    // "stride_h"
  const char* dilation;  // "dilation_h_factor"
  const char* filter;    // "filter height"
};
inline constexpr WindowAxisNames kDepthAxis{"depth", "stride_d", "dilation_d_factor",
                                            "filter depth"};
inline constexpr WindowAxisNames kHeightAxis{"height", "stride_h", "dilation_h_factor",
                                             "filter height"};
inline constexpr WindowAxisNames kWidthAxis{"width", "stride_w", "dilation_w_factor",
                                            "filter width"};

// The window attributes of one axis.
struct WindowParams {
  TfLitePadding padding;
  int stride;
  int dilation;
};

// Span of input one window position covers, dilation * (filter - 1) + 1.
// Fails (reporting "<op>: <dilation> D * (filter F - 1) + 1 overflows") when
// it does not fit int, as upstream computes it in int. Filter and dilation
// must already be positive.
TfLiteStatus EffectiveFilterSize(TfLiteContext* context, const char* op,
                                 const WindowAxisNames& names, int filter, int dilation,
                                 int* span);

// Computes one axis of a window of `filter` taps spaced `dilation` apart,
// moved by `stride` over `in_size` elements. Refuses (with a message) an
// unknown padding, a non-positive stride, dilation or filter, a negative
// input size, a negative output size (VALID window wider than the input by
// more than a stride) and any geometry whose padded extent,
// stride * (out - 1) + span, does not fit int. Afterwards every position
// y * stride - pad_before + k * dilation (y < out, k < filter) a kernel
// computes fits int. A zero-sized output is valid.
TfLiteStatus ComputeWindowAxis(TfLiteContext* context, const char* op,
                               const WindowAxisNames& names, const WindowParams& window,
                               int in_size, int filter, WindowAxis* axis);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_

// Output size and padding of a sliding window (convolution, pooling) along
// one spatial axis, for the SAME/VALID padding schemes.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_

#include "tensorflow/lite/core/c/builtin_op_data.h"

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

// Computes one axis of a window with `filter` taps spaced `dilation` apart,
// moved by `stride`. Returns false for invalid arguments (unknown padding,
// non-positive stride/dilation/filter, negative input size) or when the
// output size would be negative or overflow int. A zero-sized output is valid.
bool ComputeWindowAxis(TfLitePadding padding, int in_size, int filter, int stride, int dilation,
                       WindowAxis* axis);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_PADDING_H_

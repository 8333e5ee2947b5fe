// What CONV_2D and DEPTHWISE_CONV_2D have in common: NHWC float tensors, a
// 4-D filter whose dimensions 1 and 2 are the window, and a window geometry.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_

#include "src/kernels/internal/kernel_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

struct ConvTensors {
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  const TfLiteTensor* bias;  // null when omitted
  TfLiteTensor* output;
};

struct ConvWindowParams {
  TfLitePadding padding;
  int stride_h, stride_w;
  int dilation_h, dilation_w;
};

struct ConvGeometry {
  int batches, in_h, in_w, in_c;
  int filter_h, filter_w;
  int out_h, out_w;
  int pad_top, pad_left;  // padding before the first row / column
};

// Checks 2 or 3 inputs (input, filter, optional bias) and 1 output, all
// FLOAT32, with a 4-D input and filter.
TfLiteStatus GetConvTensors(TfLiteContext* context, const TfLiteNode* node, const char* op,
                            ConvTensors* tensors);

// Reads the input and window sizes (all must be positive) and computes the
// output size and padding.
TfLiteStatus ComputeConvGeometry(TfLiteContext* context, const char* op, const ConvTensors& t,
                                 const ConvWindowParams& window, ConvGeometry* geometry);

// Checks that an optional bias has one element per output channel.
TfLiteStatus CheckBiasSize(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                           int channels);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CONV_UTIL_H_

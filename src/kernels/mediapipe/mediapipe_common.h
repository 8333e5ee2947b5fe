// Shared by the MediaPipe custom ops. These kernels are written against the
// opaque extension API only (tensorflow/lite/c/c_api_opaque.h), exactly as a
// custom op shipped in its own .so would be: nothing here sees TfLiteTensor
// or TfLiteNode fields.
//
// The pooling and transposed-convolution ops of MediaPipe do not store
// flexbuffers in custom_options: the bytes are a plain TfLitePoolParams /
// TfLiteTransposeConvParams struct (models written before those structs grew
// carry only their leading fields).
#ifndef TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_
#define TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api_opaque.h"

// Returns the status of `expr` from the calling kernel function unless it is
// kTfLiteOk (the helpers below have already reported why).
#define MEDIAPIPE_ENSURE_OK(expr)              \
  do {                                         \
    const TfLiteStatus status_ = (expr);       \
    if (status_ != kTfLiteOk) return status_;  \
  } while (0)

namespace tflite_c {
namespace mediapipe {

// A zero-initialized T overlaid with the first min(length, sizeof(T)) bytes
// of `buffer`. Custom options need not be aligned, hence memcpy.
template <typename T>
T ParamsFromCustomOptions(const char* buffer, size_t length) {
  T params;
  std::memset(&params, 0, sizeof(params));
  if (buffer != nullptr) std::memcpy(&params, buffer, std::min(length, sizeof(T)));
  return params;
}

// Dimensions of a 4-D NHWC tensor.
struct Nhwc {
  int batch = 0, height = 0, width = 0, channels = 0;
  size_t size() const {
    return static_cast<size_t>(batch) * height * width * channels;
  }
  size_t Offset(int b, int y, int x, int c) const {
    return ((static_cast<size_t>(b) * height + y) * width + x) * channels + c;
  }
};

// Reads `tensor`'s shape; reports and fails unless it is 4-D.
TfLiteStatus GetNhwc(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                     const char* op, const char* what, Nhwc* shape);

// Resizes `tensor` to `shape` (the runtime takes ownership of the dims).
TfLiteStatus ResizeNhwc(TfLiteOpaqueContext* context, TfLiteOpaqueTensor* tensor,
                        const Nhwc& shape);

// Checks the node's input and output counts.
TfLiteStatus CheckArity(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                        int inputs, int outputs);

// Fails unless `tensor` is float32 (or, with allow_int32, int32).
TfLiteStatus CheckFloat(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                        const char* op, const char* what, bool allow_int32 = false);

// Size of the larger side of a window operation (the side before pooling,
// after upsampling) for a smaller side of `in` elements.
int UpsampledSize(TfLitePadding padding, int in, int stride, int filter);
// The pooled size of a dimension of `in` elements.
int PooledSize(TfLitePadding padding, int in, int stride, int filter);
// Padding in front of a window operation's larger side of size `big` that
// yields `small` windows: half of what the windows overhang (SAME), or 0.
int PaddingBefore(int big, int small, int stride, int filter);

// Fails unless padding is SAME/VALID and strides (and, for pooling, filter
// sizes) are positive.
TfLiteStatus CheckWindow(TfLiteOpaqueContext* context, const char* op, TfLitePadding padding,
                         int stride_height, int stride_width, int filter_height = 1,
                         int filter_width = 1);

// Clamps to the range of a fused activation (none, ReLU, ReLU6, ReLU-1..1).
float Activate(TfLiteFusedActivation activation, float v);

// A TfLiteOperator for a custom op, created once and never destroyed (it
// must outlive every interpreter that resolved it).
const TfLiteOperator* MakeCustomOperator(
    const char* name, void* (*init)(TfLiteOpaqueContext*, const char*, size_t),
    void (*free)(TfLiteOpaqueContext*, void*),
    TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
    TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*));

}  // namespace mediapipe
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_MEDIAPIPE_MEDIAPIPE_COMMON_H_

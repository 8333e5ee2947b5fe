#include "src/kernels/mediapipe/mediapipe_common.h"

namespace tflite_c {
namespace mediapipe {

TfLiteStatus GetNhwc(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                     const char* op, const char* what, Nhwc* shape) {
  if (tensor == nullptr) {
    TfLiteOpaqueContextReportError(context, "%s: %s tensor is missing", op, what);
    return kTfLiteError;
  }
  const int32_t rank = TfLiteOpaqueTensorNumDims(tensor);
  if (rank != 4) {
    TfLiteOpaqueContextReportError(context, "%s: %s must be 4-D (NHWC), got %d dimensions", op,
                                   what, static_cast<int>(rank));
    return kTfLiteError;
  }
  shape->batch = TfLiteOpaqueTensorDim(tensor, 0);
  shape->height = TfLiteOpaqueTensorDim(tensor, 1);
  shape->width = TfLiteOpaqueTensorDim(tensor, 2);
  shape->channels = TfLiteOpaqueTensorDim(tensor, 3);
  return kTfLiteOk;
}

TfLiteStatus ResizeNhwc(TfLiteOpaqueContext* context, TfLiteOpaqueTensor* tensor,
                        const Nhwc& shape) {
  TfLiteIntArray* dims = TfLiteIntArrayCreate(4);
  if (dims == nullptr) return kTfLiteError;
  dims->data[0] = shape.batch;
  dims->data[1] = shape.height;
  dims->data[2] = shape.width;
  dims->data[3] = shape.channels;
  return TfLiteOpaqueContextResizeTensor(context, tensor, dims);
}

TfLiteStatus CheckArity(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                        int inputs, int outputs) {
  const int n_in = TfLiteOpaqueNodeNumberOfInputs(node);
  const int n_out = TfLiteOpaqueNodeNumberOfOutputs(node);
  if (n_in != inputs || n_out != outputs) {
    TfLiteOpaqueContextReportError(context, "%s: expects %d inputs and %d outputs, got %d and %d",
                                   op, inputs, outputs, n_in, n_out);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckFloat(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                        const char* op, const char* what, bool allow_int32) {
  const TfLiteType type = TfLiteOpaqueTensorType(tensor);
  if (type == kTfLiteFloat32 || (allow_int32 && type == kTfLiteInt32)) return kTfLiteOk;
  TfLiteOpaqueContextReportError(context, "%s: %s type %s is not supported (float32%s only)", op,
                                 what, TfLiteTypeGetName(type), allow_int32 ? " or int32" : "");
  return kTfLiteError;
}

int UpsampledSize(TfLitePadding padding, int in, int stride, int filter) {
  if (padding == kTfLitePaddingSame) return in * stride;
  return std::max(0, (in - 1) * stride + filter);
}

int PooledSize(TfLitePadding padding, int in, int stride, int filter) {
  if (padding == kTfLitePaddingSame) return (in + stride - 1) / stride;
  return std::max(0, (in - filter + stride) / stride);
}

int PaddingBefore(int big, int small, int stride, int filter) {
  return std::max(0, (small - 1) * stride + filter - big) / 2;
}

TfLiteStatus CheckWindow(TfLiteOpaqueContext* context, const char* op, TfLitePadding padding,
                         int stride_height, int stride_width, int filter_height,
                         int filter_width) {
  if (padding != kTfLitePaddingSame && padding != kTfLitePaddingValid) {
    TfLiteOpaqueContextReportError(
        context, "%s: padding %d is neither SAME nor VALID (are the custom options missing?)",
        op, static_cast<int>(padding));
    return kTfLiteError;
  }
  if (stride_height <= 0 || stride_width <= 0 || filter_height <= 0 || filter_width <= 0) {
    TfLiteOpaqueContextReportError(context, "%s: invalid stride %dx%d or filter %dx%d", op,
                                   stride_height, stride_width, filter_height, filter_width);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

float Activate(TfLiteFusedActivation activation, float v) {
  switch (activation) {
    case kTfLiteActRelu:
      return std::max(0.0f, v);
    case kTfLiteActReluN1To1:
      return std::min(1.0f, std::max(-1.0f, v));
    case kTfLiteActRelu6:
      return std::min(6.0f, std::max(0.0f, v));
    default:
      return v;
  }
}

const TfLiteOperator* MakeCustomOperator(
    const char* name, void* (*init)(TfLiteOpaqueContext*, const char*, size_t),
    void (*free)(TfLiteOpaqueContext*, void*),
    TfLiteStatus (*prepare)(TfLiteOpaqueContext*, TfLiteOpaqueNode*),
    TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*)) {
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, name, 1, nullptr);
  if (op == nullptr) return nullptr;
  TfLiteOperatorSetInit(op, init);
  TfLiteOperatorSetFree(op, free);
  TfLiteOperatorSetPrepare(op, prepare);
  TfLiteOperatorSetInvoke(op, invoke);
  return op;
}

}  // namespace mediapipe
}  // namespace tflite_c

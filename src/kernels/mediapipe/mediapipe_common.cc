#include "src/kernels/mediapipe/mediapipe_common.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "src/core/operator_internal.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"

namespace tflite_c {
namespace mediapipe {

void AddOperators(MutableOpResolver* resolver, const TfLiteOperator* const* ops, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (ops[i] == nullptr) continue;
    const TfLiteRegistration reg = RegistrationFromOperator(ops[i]);
    const int version = TfLiteOperatorGetVersion(ops[i]);
    resolver->AddCustom(TfLiteOperatorGetCustomName(ops[i]), &reg, version, version);
  }
}

// ---- tensors ---------------------------------------------------------------------------

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

TfLiteStatus CheckRank(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                       const char* op, const char* what, int rank) {
  if (tensor == nullptr) {
    TfLiteOpaqueContextReportError(context, "%s: %s tensor is missing", op, what);
    return kTfLiteError;
  }
  const int32_t got = TfLiteOpaqueTensorNumDims(tensor);
  if (got != rank) {
    TfLiteOpaqueContextReportError(context, "%s: %s must be %d-D, got %d dimensions", op, what,
                                   rank, static_cast<int>(got));
    return kTfLiteError;
  }
  for (int i = 0; i < rank; ++i) {
    if (TfLiteOpaqueTensorDim(tensor, i) < 0) {
      TfLiteOpaqueContextReportError(context, "%s: %s has a negative dimension", op, what);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeTo(TfLiteOpaqueContext* context, TfLiteOpaqueTensor* tensor,
                      const std::vector<int>& dims) {
  TfLiteIntArray* array = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  if (array == nullptr) return kTfLiteError;
  for (size_t i = 0; i < dims.size(); ++i) array->data[i] = dims[i];
  return TfLiteOpaqueContextResizeTensor(context, tensor, array);
}

TfLiteStatus PreparePooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                            const TfLitePoolParams& p, bool unpooling, bool int_indices_only,
                            PoolingTensors* t) {
  MEDIAPIPE_ENSURE_OK(CheckArity(context, node, op, unpooling ? 2 : 1, unpooling ? 1 : 2));
  MEDIAPIPE_ENSURE_OK(CheckWindow(context, op, p.padding, p.stride_height, p.stride_width,
                                  p.filter_height, p.filter_width));
  t->input = TfLiteOpaqueNodeGetInput(context, node, 0);
  t->output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const TfLiteOpaqueTensor* indices = nullptr;
  if (unpooling) {
    t->input_indices = TfLiteOpaqueNodeGetInput(context, node, 1);
    indices = t->input_indices;
  } else {
    t->output_indices = TfLiteOpaqueNodeGetOutput(context, node, 1);
    indices = t->output_indices;
  }
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, t->input, op, "input", &t->in));
  if (t->output == nullptr || indices == nullptr) {
    TfLiteOpaqueContextReportError(context, "%s: an %s tensor is missing", op,
                                   unpooling ? "output or indices" : "output");
    return kTfLiteError;
  }
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, t->input, op, "input"));
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, t->output, op, "output"));
  if (int_indices_only) {
    if (TfLiteOpaqueTensorType(indices) != kTfLiteInt32) {
      TfLiteOpaqueContextReportError(context, "%s: indices type %s is not supported (int32 only)",
                                     op, TfLiteTypeGetName(TfLiteOpaqueTensorType(indices)));
      return kTfLiteError;
    }
  } else {
    MEDIAPIPE_ENSURE_OK(CheckFloat(context, indices, op, "indices", /*allow_int32=*/true));
  }
  MEDIAPIPE_ENSURE_OK(CheckWindowExtent(context, op, t->in, p.stride_height, p.stride_width,
                                        p.filter_height, p.filter_width));
  if (unpooling) {
    Nhwc idx;
    MEDIAPIPE_ENSURE_OK(GetNhwc(context, indices, op, "indices", &idx));
    if (idx.batch != t->in.batch || idx.height != t->in.height || idx.width != t->in.width ||
        idx.channels != t->in.channels) {
      TfLiteOpaqueContextReportError(context, "%s: indices and input shapes differ", op);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckMatrix4x4(TfLiteOpaqueContext* context, const TfLiteOpaqueTensor* tensor,
                            const char* op) {
  if (tensor == nullptr) {
    TfLiteOpaqueContextReportError(context, "%s: transform matrix tensor is missing", op);
    return kTfLiteError;
  }
  MEDIAPIPE_ENSURE_OK(CheckFloat(context, tensor, op, "transform matrix"));
  int64_t elements = 1;
  const int rank = TfLiteOpaqueTensorNumDims(tensor);
  for (int i = 0; i < rank; ++i) elements *= std::max(0, TfLiteOpaqueTensorDim(tensor, i));
  if (rank < 2 || elements != 16 || TfLiteOpaqueTensorDim(tensor, rank - 1) != 4) {
    TfLiteOpaqueContextReportError(context, "%s: transform matrix must be 4x4 ([1, 4, 4])", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
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

TfLiteStatus CheckWindowExtent(TfLiteOpaqueContext* context, const char* op, const Nhwc& small,
                               int stride_height, int stride_width, int filter_height,
                               int filter_width) {
  if (static_cast<int64_t>(small.height) * stride_height + filter_height > (1 << 24) ||
      static_cast<int64_t>(small.width) * stride_width + filter_width > (1 << 24)) {
    TfLiteOpaqueContextReportError(context, "%s: stride or filter size is too large", op);
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
    TfLiteStatus (*invoke)(TfLiteOpaqueContext*, TfLiteOpaqueNode*), int version) {
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, name, version, nullptr);
  if (op == nullptr) return nullptr;
  TfLiteOperatorSetInit(op, init);
  TfLiteOperatorSetFree(op, free);
  TfLiteOperatorSetPrepare(op, prepare);
  TfLiteOperatorSetInvoke(op, invoke);
  return op;
}

TfLiteStatus PreparePoolingNode(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node,
                                const char* op, bool unpooling, bool int_indices_only,
                                PoolingOpData** data, PoolingTensors* tensors) {
  *data = static_cast<PoolingOpData*>(TfLiteOpaqueNodeGetUserData(node));
  TF_LITE_OPAQUE_ENSURE(context, *data != nullptr);
  return PreparePooling(context, node, op, (*data)->params, unpooling, int_indices_only, tensors);
}

TfLiteStatus PrepareUnpooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node,
                              const char* op, bool int_indices_only) {
  PoolingOpData* data;
  PoolingTensors t;
  MEDIAPIPE_ENSURE_OK(
      PreparePoolingNode(context, node, op, /*unpooling=*/true, int_indices_only, &data, &t));
  const TfLitePoolParams& p = data->params;
  const Nhwc& in = t.in;
  Nhwc out = in;
  out.height = UpsampledSize(p.padding, in.height, p.stride_height, p.filter_height);
  out.width = UpsampledSize(p.padding, in.width, p.stride_width, p.filter_width);
  data->pad_top = PaddingBefore(out.height, in.height, p.stride_height, p.filter_height);
  data->pad_left = PaddingBefore(out.width, in.width, p.stride_width, p.filter_width);
  return ResizeNhwc(context, t.output, out);
}

TfLiteStatus BeginUnpooling(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node, const char* op,
                            UnpoolingBuffers* b, bool* done) {
  *done = true;
  const TfLiteOpaqueTensor* values = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* indices = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, values, op, "input", &b->in));
  MEDIAPIPE_ENSURE_OK(GetNhwc(context, output, op, "output", &b->out));
  if (b->out.size() == 0) return kTfLiteOk;
  b->x = static_cast<const float*>(TfLiteOpaqueTensorData(values));
  b->indices = TfLiteOpaqueTensorData(indices);
  b->index_type = TfLiteOpaqueTensorType(indices);
  b->y = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, b->y != nullptr);
  std::memset(b->y, 0, b->out.size() * sizeof(float));
  if (b->in.size() == 0) return kTfLiteOk;
  TF_LITE_OPAQUE_ENSURE(context, b->x != nullptr && b->indices != nullptr);
  *done = false;
  return kTfLiteOk;
}

}  // namespace mediapipe
}  // namespace tflite_c

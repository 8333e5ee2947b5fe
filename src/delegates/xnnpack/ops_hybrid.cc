// Dynamically quantized ("hybrid") weights of the XNNPACK delegate: float32
// CONV_2D, TRANSPOSE_CONV and FULLY_CONNECTED with static int8 weights, and
// FULLY_CONNECTED with static int4 weights (the visitors in ops_compute.cc
// call these), as upstream delegates them.
#include <cmath>
#include <memory>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"

namespace tflite_c {
namespace xnnpack {

// ---- dynamically quantized ("hybrid") weights -----------------------------------------
// As upstream: CONV_2D and TRANSPOSE_CONV quantize their input per image
// (num_nonbatch_dims 3; pointwise convolutions, run as fully connected
// layers, per pixel), FULLY_CONNECTED and BATCH_MATMUL per row of K values; XNNPACK picks each
// slice's scale and zero point from its range. DEPTHWISE_CONV_2D with int8 weights stays on the
// builtin kernel, as upstream leaves it.

bool OpBuilder::IsHybridFilter(int in, int filter, int channel_dim, int channels) const {
  if (!quant_.qs8 || !quant_.dynamic) return false;
  if (Datatype(in) != xnn_datatype_fp32 || !ValidIndex(filter) || !IsStatic(filter) ||
      StaticPointer(filter) == nullptr)
    return false;
  if (TensorAt(filter).type == kTfLiteInt4) return IsInt4MatrixFilter(filter, channel_dim, channels);
  if (TensorAt(filter).type != kTfLiteInt8) return false;
  const xnn_datatype f = Datatype(filter);
  const auto* q =
      static_cast<const TfLiteAffineQuantization*>(TensorAt(filter).quantization.params);
  if (f == xnn_datatype_qint8) {
    if (ZeroPoint(filter) != 0) return false;
  } else if (f != xnn_datatype_qcint8 || q->quantized_dimension != channel_dim ||
             q->scale->size != channels) {
    return false;
  }
  bool bad = false;  // no early exit, so it vectorizes
  for (int i = 0; i < q->scale->size; ++i)
    bad |= !std::isnormal(q->scale->data[i]) || !(q->scale->data[i] > 0.0f);
  return !bad;
}

// INT4 weights, as upstream delegates them: only a FULLY_CONNECTED layer's
// [out, in] matrix (XNNPACK's qd8 x qc4w GEMM), with an even number of inputs
// so that every row starts on a whole byte, and symmetric quantization (zero
// points 0: the nibbles are two's complement, as the builtin kernel reads them).
// One scale, or one per output channel along dimension 0.
bool OpBuilder::IsInt4MatrixFilter(int filter, int channel_dim, int channels) const {
  const TfLiteTensor& f = TensorAt(filter);
  if (channel_dim != 0 || NumDims(filter) != 2 || Dim(filter, 0) != channels ||
      Dim(filter, 1) <= 0 || Dim(filter, 1) % 2 != 0)
    return false;
  if (f.quantization.type != kTfLiteAffineQuantization) return false;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(f.quantization.params);
  if (q == nullptr || q->scale == nullptr || q->zero_point == nullptr ||
      (q->scale->size != 1 && (q->scale->size != channels || q->quantized_dimension != 0)) ||
      (q->zero_point->size != 1 && q->zero_point->size != q->scale->size))
    return false;
  bool bad = false;  // no early exits, so the loops vectorize
  for (int i = 0; i < q->scale->size; ++i)
    bad |= !std::isnormal(q->scale->data[i]) || !(q->scale->data[i] > 0.0f);
  for (int i = 0; i < q->zero_point->size; ++i) bad |= q->zero_point->data[i] != 0;
  const size_t packed = static_cast<size_t>(channels) * static_cast<size_t>(Dim(filter, 1)) / 2;
  return !bad && f.bytes >= packed;
}

TfLiteStatus OpBuilder::DefineHybridFilter(int filter, int channel_dim, int channels, uint32_t* id,
                                           bool as_matrix) {
  const auto* q =
      static_cast<const TfLiteAffineQuantization*>(TensorAt(filter).quantization.params);
  auto scales = std::make_shared<std::vector<float>>(static_cast<size_t>(channels));
  for (int c = 0; c < channels; ++c) (*scales)[c] = q->scale->data[q->scale->size == 1 ? 0 : c];
  owned_scales_.push_back(scales);
  int rank = NumDims(filter);
  size_t dims[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(filter, i));
  if (as_matrix) {  // [oc, ...] -> [oc, rest]
    for (int i = 2; i < rank; ++i) dims[1] *= dims[i];
    rank = 2;
  }
  *id = XNN_INVALID_VALUE_ID;
  return Check(
      xnn_define_channelwise_quantized_tensor_value(
          subgraph_,
          TensorAt(filter).type == kTfLiteInt4 ? xnn_datatype_qcint4 : xnn_datatype_qcint8,
          scales->data(), rank, static_cast<size_t>(channel_dim),
          dims, StaticPointer(filter), XNN_INVALID_VALUE_ID, 0, id),
      "xnn_define_channelwise_quantized_tensor_value");
}

TfLiteStatus OpBuilder::DefineDynamicallyQuantized(uint32_t src, int rank, const size_t* dims,
                                                   size_t nonbatch_dims, uint32_t* id) {
  *id = XNN_INVALID_VALUE_ID;
  TF_LITE_ENSURE_STATUS(Check(
      xnn_define_dynamically_quantized_tensor_value(
          subgraph_, xnn_datatype_qdint8, rank, nonbatch_dims, dims, XNN_INVALID_VALUE_ID, 0, id),
      "xnn_define_dynamically_quantized_tensor_value"));
  return Check(xnn_define_unary(subgraph_, xnn_unary_convert, nullptr, src, *id, 0),
               "xnn_define_unary(convert)");
}

TfLiteStatus OpBuilder::DefineDynamicallyQuantized(uint32_t src, int tensor, size_t nonbatch_dims,
                                                   uint32_t* id) {
  const int rank = NumDims(tensor);
  size_t dims[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(tensor, i));
  return DefineDynamicallyQuantized(src, rank, dims, nonbatch_dims, id);
}

// The rows XNNPACK quantizes are the fully connected layer's rows of `ic`
// inputs: an input TFLite flattens (XNN_FLAG_TENSORFLOW_RESHAPE_2D) is
// reshaped to [rows, ic] first, the leading size inferred at reshape time.
TfLiteStatus OpBuilder::DefineHybridFullyConnectedInput(int in, int ic, uint32_t* flags,
                                                        uint32_t* id) {
  uint32_t src = ValueIdOf(in);
  size_t dims[XNN_MAX_TENSOR_DIMS];
  int rank = NumDims(in);
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(in, i));
  if ((*flags & XNN_FLAG_TENSORFLOW_RESHAPE_2D) != 0) {
    size_t elements = 1;
    for (int i = 0; i < rank; ++i) elements *= dims[i];
    rank = 2;
    dims[0] = elements / static_cast<size_t>(ic);
    dims[1] = static_cast<size_t>(ic);
    uint32_t rows = XNN_INVALID_VALUE_ID;
    TF_LITE_ENSURE_STATUS(Check(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, 2, dims,
                                                        nullptr, XNN_INVALID_VALUE_ID, 0, &rows),
                                "xnn_define_tensor_value"));
    const size_t new_shape[2] = {0, static_cast<size_t>(ic)};
    TF_LITE_ENSURE_STATUS(Check(xnn_define_static_reshape(subgraph_, 2, new_shape, src, rows, 0),
                                "xnn_define_static_reshape"));
    src = rows;
    *flags &= ~XNN_FLAG_TENSORFLOW_RESHAPE_2D;
  }
  return DefineDynamicallyQuantized(src, rank, dims, /*nonbatch_dims=*/1, id);
}

}  // namespace xnnpack
}  // namespace tflite_c

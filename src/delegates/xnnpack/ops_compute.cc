// Compute ops of the XNNPACK delegate: convolutions, fully connected, batch
// matmul, pooling, element-wise unary/binary ops, PRELU, SOFTMAX, MEAN, SUM. Each
// Visit* checks the node and, when defining, adds it to the xnn_subgraph.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"
#include "src/kernels/internal/padding.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace xnnpack {

namespace {
bool ValidWindow(int stride_w, int stride_h, int a, int b) {
  return stride_w > 0 && stride_h > 0 && a > 0 && b > 0;
}
bool KnownPadding(TfLitePadding p) { return p == kTfLitePaddingSame || p == kTfLitePaddingValid; }
uint32_t PaddingFlags(TfLitePadding p) {
  return p == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
}
}  // namespace

TfLiteStatus OpBuilder::CheckWindow(TfLiteFusedActivation activation, int stride_w,
                                    int stride_h, int a, int b, TfLitePadding padding,
                                    const char* invalid, float* lo, float* hi) {
  if (!ActivationRange(activation, lo, hi)) return Fail("unsupported fused activation");
  if (!ValidWindow(stride_w, stride_h, a, b)) return Fail("%s", invalid);
  if (!KnownPadding(padding)) return Fail("unknown padding");
  return kTfLiteOk;
}

TfLiteStatus OpBuilder::CheckConvGeometry(int in, int filter_h, int filter_w,
                                          const TfLiteConvParams& p) {
  return CheckConvGeometry(in, filter_h, filter_w, p.padding, p.stride_height, p.stride_width,
                           p.dilation_height_factor, p.dilation_width_factor);
}

TfLiteStatus OpBuilder::CheckConvGeometry(int in, int filter_h, int filter_w, TfLitePadding padding,
                                          int stride_h, int stride_w, int dilation_h,
                                          int dilation_w) {
  // The builtin kernels' window checks (kernels/internal/padding.h), without
  // their messages: a window they refuse stays with them, which report it.
  // XNNPACK also computes wrong outputs (zeros) for strides of about 2^30;
  // a stride beyond the input gives one output position anyway, which the
  // builtin kernel computes as well.
  if (stride_h > Dim(in, 1) || stride_w > Dim(in, 2)) return Fail("stride larger than the input");
  using kernels::internal::ComputeWindowAxis;
  kernels::internal::WindowAxis height, width;
  if (ComputeWindowAxis(nullptr, "", kernels::internal::kHeightAxis,
                        {padding, stride_h, dilation_h}, Dim(in, 1), filter_h,
                        &height) != kTfLiteOk ||
      ComputeWindowAxis(nullptr, "", kernels::internal::kWidthAxis,
                        {padding, stride_w, dilation_w}, Dim(in, 2), filter_w,
                        &width) != kTfLiteOk) {
    return Fail("window the builtin kernel refuses");
  }
  // A VALID window larger than the input has no output position; XNNPACK
  // (patch 0011) refuses it, the builtin kernel gives an empty output.
  if (height.out_size == 0 || width.out_size == 0) return Fail("window larger than the input");
  return kTfLiteOk;
}

uint32_t OpBuilder::ConvInput(int in, uint32_t pads[4], int* tensor) const {
  pads[0] = pads[1] = pads[2] = pads[3] = 0;
  if (tensor != nullptr) *tensor = in;
  if (fused_pads_ != nullptr) {
    const auto it = fused_pads_->find(in);
    if (it != fused_pads_->end()) {
      pads[0] = it->second.top;
      pads[1] = it->second.right;
      pads[2] = it->second.bottom;
      pads[3] = it->second.left;
      if (tensor != nullptr) *tensor = it->second.input;
      return ValueIdOf(it->second.input);
    }
  }
  return ValueIdOf(in);
}

template <typename ConvParams>
TfLiteStatus OpBuilder::CheckConvNode(const TfLiteNode* n, const ConvParams& p, int channel_dim,
                                      bool allow_hybrid, ConvNode* c) {
  if (!Arity(n, 2, 3, 1)) return kTfLiteError;
  c->in = InputTensor(n, 0), c->filter = InputTensor(n, 1), c->bias = InputTensor(n, 2);
  c->out = OutputTensor(n, 0);
  if (!IsActivation(c->in, 4, 4) || !GoodShape(c->filter, 4, 4) || !IsActivation(c->out, 4, 4))
    return Fail("unsupported tensor types/shapes");
  const int channels = Dim(c->filter, channel_dim);
  TF_LITE_ENSURE_STATUS(
      CheckFilterAndBias(c->in, c->filter, c->bias, c->out, channel_dim, channels, allow_hybrid));
  if (c->bias >= 0 && Dim(c->bias, 0) != channels) return Fail("bias size mismatch");
  return CheckWindow(p.activation, p.stride_width, p.stride_height, p.dilation_width_factor,
                     p.dilation_height_factor, p.padding, "invalid strides/dilations", &c->lo,
                     &c->hi);
}

TfLiteStatus OpBuilder::VisitConv2d(const TfLiteNode* n, const TfLiteConvParams* p) {
  if (!p) return kTfLiteError;
  ConvNode c;
  TF_LITE_ENSURE_STATUS(CheckConvNode(n, *p, /*channel_dim=*/0, /*allow_hybrid=*/true, &c));
  const int in = c.in, filter = c.filter, bias = c.bias, out = c.out;
  const int oc = Dim(filter, 0), kh = Dim(filter, 1), kw = Dim(filter, 2), gic = Dim(filter, 3);
  TF_LITE_ENSURE_STATUS(CheckConvGeometry(in, kh, kw, *p));
  const int ic = Dim(in, 3);
  if (ic % gic != 0) return Fail("input channels not a multiple of filter channels");
  const int groups = ic / gic;
  if (oc % groups != 0 || Dim(out, 3) != oc) return Fail("output channels mismatch");
  if (!Defining()) return kTfLiteOk;
  uint32_t pad[4];
  int src_tensor = in;
  uint32_t src = ConvInput(in, pad, &src_tensor), filter_id = ValueIdOf(filter);
  if (IsHybridFilter(in, filter, /*channel_dim=*/0, oc)) {
    // A pointwise convolution is a fully connected layer over pixels, and
    // upstream's XNNPACK runs it as one, quantizing each pixel on its own
    // (other convolutions: each image).
    const bool pointwise = kh == 1 && kw == 1 && p->stride_height == 1 && p->stride_width == 1 &&
                           groups == 1 && (pad[0] | pad[1] | pad[2] | pad[3]) == 0;
    TF_LITE_ENSURE_STATUS(DefineDynamicallyQuantized(src, src_tensor, pointwise ? 1 : 3, &src));
    TF_LITE_ENSURE_STATUS(
        DefineHybridFilter(filter, /*channel_dim=*/0, oc, &filter_id, /*as_matrix=*/pointwise));
    if (pointwise) {
      return Check(xnn_define_fully_connected(subgraph_, c.lo, c.hi, src, filter_id,
                                              bias >= 0 ? ValueIdOf(bias) : XNN_INVALID_VALUE_ID,
                                              ValueIdOf(out), 0),
                   "xnn_define_fully_connected");
    }
  }
  return Check(
      xnn_define_convolution_2d(subgraph_, pad[0], pad[1], pad[2], pad[3], kh, kw, p->stride_height,
                                p->stride_width, p->dilation_height_factor,
                                p->dilation_width_factor, groups, gic, oc / groups, c.lo, c.hi, src,
                                filter_id, bias >= 0 ? ValueIdOf(bias) : XNN_INVALID_VALUE_ID,
                                ValueIdOf(out), PaddingFlags(p->padding)),
      "xnn_define_convolution_2d");
}

TfLiteStatus OpBuilder::VisitDepthwiseConv2d(const TfLiteNode* n,
                                             const TfLiteDepthwiseConvParams* p) {
  if (!p) return kTfLiteError;
  ConvNode c;
  TF_LITE_ENSURE_STATUS(CheckConvNode(n, *p, /*channel_dim=*/3, /*allow_hybrid=*/false, &c));
  const int in = c.in, filter = c.filter, bias = c.bias, out = c.out;
  const int kh = Dim(filter, 1), kw = Dim(filter, 2), oc = Dim(filter, 3), ic = Dim(in, 3);
  TF_LITE_ENSURE_STATUS(CheckConvGeometry(in, kh, kw, p->padding, p->stride_height,
                                          p->stride_width, p->dilation_height_factor,
                                          p->dilation_width_factor));
  if (Dim(filter, 0) != 1) return Fail("filter must be [1, h, w, c]");
  if (oc % ic != 0 || Dim(out, 3) != oc) return Fail("channel mismatch");
  if (!Defining()) return kTfLiteOk;
  uint32_t pad[4];
  const uint32_t src = ConvInput(in, pad);
  return Check(
      xnn_define_depthwise_convolution_2d(
          subgraph_, pad[0], pad[1], pad[2], pad[3], kh, kw, p->stride_height, p->stride_width,
          p->dilation_height_factor, p->dilation_width_factor, oc / ic, ic, c.lo, c.hi, src,
          ValueIdOf(filter), bias >= 0 ? ValueIdOf(bias) : XNN_INVALID_VALUE_ID, ValueIdOf(out),
          PaddingFlags(p->padding)),
      "xnn_define_depthwise_convolution_2d");
}

// Inputs: output_shape (static int32), weights [oc, kh, kw, ic], input[, bias].
TfLiteStatus OpBuilder::VisitTransposeConv(const TfLiteNode* n,
                                           const TfLiteTransposeConvParams* p) {
  if (!p || !Arity(n, 3, 4, 1)) return kTfLiteError;
  const int shape = InputTensor(n, 0), filter = InputTensor(n, 1), in = InputTensor(n, 2),
            bias = InputTensor(n, 3), out = OutputTensor(n, 0);
  // float32 (static float32 filter and bias), or as upstream QS8 with an int8
  // filter per-tensor or per-channel along the output channels (int32 bias)
  // and QU8 with a uint8 per-tensor filter (int32 bias).
  if (!IsActivation(in, 4, 4) || !GoodShape(filter, 4, 4) || !IsActivation(out, 4, 4))
    return Fail("unsupported tensor types/shapes");
  const int oc = Dim(filter, 0), ic = Dim(filter, 3);
  TF_LITE_ENSURE_STATUS(CheckFilterAndBias(in, filter, bias, out, /*channel_dim=*/0, oc,
                                           /*allow_hybrid=*/true));
  std::vector<int64_t> v;
  if (!ValidIndex(shape) || TensorAt(shape).type != kTfLiteInt32 || !StaticInts(shape, &v) ||
      v.size() != 4)
    return Fail("output shape must be a static int32 vector of 4");
  for (int i = 0; i < 4; ++i)
    if (v[i] != Dim(out, i)) return Fail("output shape mismatch");
  float lo, hi;
  TF_LITE_ENSURE_STATUS(CheckWindow(p->activation, p->stride_width, p->stride_height, 1, 1,
                                    p->padding, "invalid strides", &lo, &hi));
  if (Dim(in, 3) != ic || Dim(out, 3) != oc || Dim(in, 0) != Dim(out, 0))
    return Fail("channel mismatch");
  if (bias >= 0 && Dim(bias, 0) != oc) return Fail("bias size mismatch");
  return DefineDeconvolution(in, filter, bias, out, p->padding, p->stride_height, p->stride_width,
                             lo, hi);
}

TfLiteStatus OpBuilder::DefineDeconvolution(int in, int filter, int bias, int out,
                                            TfLitePadding padding, int stride_h, int stride_w,
                                            float lo, float hi) {
  const int oc = Dim(filter, 0), kh = Dim(filter, 1), kw = Dim(filter, 2), ic = Dim(filter, 3);
  // Explicit paddings and the output adjustment, per spatial dimension.
  uint32_t pad_before[2], pad_after[2], adjustment[2];
  const int stride[2] = {stride_h, stride_w}, kernel[2] = {kh, kw};
  for (int d = 0; d < 2; ++d) {
    const int64_t ins = Dim(in, 1 + d), outs = Dim(out, 1 + d);
    const int64_t full = (ins - 1) * stride[d] + kernel[d];
    int64_t total = 0;
    if (padding == kTfLitePaddingSame) total = std::max<int64_t>(full - outs, 0);
    const int64_t adj = outs - (full - total);
    if (adj < 0 || adj >= stride[d]) return Fail("output size not reachable");
    pad_before[d] = static_cast<uint32_t>(total / 2);
    pad_after[d] = static_cast<uint32_t>(total - total / 2);
    adjustment[d] = static_cast<uint32_t>(adj);
  }
  if (!Defining()) return kTfLiteOk;
  uint32_t src = ValueIdOf(in), filter_id = ValueIdOf(filter);
  if (IsHybridFilter(in, filter, /*channel_dim=*/0, oc)) {
    TF_LITE_ENSURE_STATUS(DefineDynamicallyQuantized(src, in, /*nonbatch_dims=*/3, &src));
    TF_LITE_ENSURE_STATUS(DefineHybridFilter(filter, /*channel_dim=*/0, oc, &filter_id));
  }
  return Check(xnn_define_deconvolution_2d(
                   subgraph_, pad_before[0], pad_after[1], pad_after[0], pad_before[1],
                   adjustment[0], adjustment[1], kh, kw, stride_h, stride_w, 1, 1,
                   /*groups=*/1, ic, oc, lo, hi, src, filter_id,
                   bias >= 0 ? ValueIdOf(bias) : XNN_INVALID_VALUE_ID, ValueIdOf(out), 0),
               "xnn_define_deconvolution_2d");
}

TfLiteStatus OpBuilder::VisitFullyConnected(const TfLiteNode* n,
                                            const TfLiteFullyConnectedParams* p) {
  if (!p || !Arity(n, 2, 3, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), filter = InputTensor(n, 1), bias = InputTensor(n, 2),
            out = OutputTensor(n, 0);
  if (p->weights_format != kTfLiteFullyConnectedWeightsFormatDefault)
    return Fail("unsupported weights format");
  if (!IsActivation(in, 1) || !GoodShape(filter, 2, 2) || !IsActivation(out, 1))
    return Fail("unsupported tensor types/shapes");
  const int oc = Dim(filter, 0), ic = Dim(filter, 1);
  TF_LITE_ENSURE_STATUS(CheckFilterAndBias(in, filter, bias, out, /*channel_dim=*/0, oc,
                                           /*allow_hybrid=*/true));
  float lo, hi;
  if (!ActivationRange(p->activation, &lo, &hi)) return Fail("unsupported fused activation");
  if (bias >= 0 && Dim(bias, 0) != oc) return Fail("bias size mismatch");
  const int in_rank = NumDims(in);
  uint32_t flags = 0;
  if (p->keep_num_dims) {
    if (Dim(in, in_rank - 1) != ic || NumDims(out) != in_rank) return Fail("shape mismatch");
  } else {
    if (in_rank != 2 || Dim(in, 1) != ic) flags |= XNN_FLAG_TENSORFLOW_RESHAPE_2D;
    if (NumDims(out) != 2) return Fail("output must be 2D");
    size_t elements = 1;
    for (int i = 0; i < in_rank; ++i) elements *= static_cast<size_t>(Dim(in, i));
    if (elements % static_cast<size_t>(ic) != 0) return Fail("input size mismatch");
  }
  if (Dim(out, NumDims(out) - 1) != oc) return Fail("output channels mismatch");
  if (!Defining()) return kTfLiteOk;
  uint32_t src = ValueIdOf(in), filter_id = ValueIdOf(filter);
  if (IsHybridFilter(in, filter, /*channel_dim=*/0, oc)) {
    TF_LITE_ENSURE_STATUS(DefineHybridFullyConnectedInput(in, ic, &flags, &src));
    TF_LITE_ENSURE_STATUS(DefineHybridFilter(filter, /*channel_dim=*/0, oc, &filter_id));
  }
  return Check(xnn_define_fully_connected(subgraph_, lo, hi, src, filter_id,
                                          bias >= 0 ? ValueIdOf(bias) : XNN_INVALID_VALUE_ID,
                                          ValueIdOf(out), flags),
               "xnn_define_fully_connected");
}

// float32 A and B with equal batch dims, or (as upstream) float32 A times a
// static INT8 B ("dynamic range"): A is converted to qdint8 (XNNPACK
// quantizes every row of K values with its own scale and zero point) and
// multiplied with B as qcint8, one scale per output column of every B
// matrix; B's batch dims may broadcast against A's. B transposed (adj_y) is
// a flag of XNNPACK's operator; A transposed (adj_x) goes through a
// transpose into an internal value first, as upstream does.
TfLiteStatus OpBuilder::CheckHybridBatchMatMulB(int a, int b, int out,
                                                const TfLiteBatchMatMulParams* p) {
  const int rank = NumDims(a), rb = NumDims(b);
  if (!quant_.qs8) return Fail("INT8 B needs signed 8-bit quantization enabled");
  if (!GoodShape(b, 2, XNN_MAX_TENSOR_DIMS)) return Fail("unsupported tensor types/shapes");
  if (!IsStatic(b) || StaticPointer(b) == nullptr) return Fail("INT8 B must be static");
  const xnn_datatype bt = Datatype(b);
  const int n_dim = p->adj_y ? rb - 2 : rb - 1;
  const TfLiteAffineQuantization* q =
      TensorAt(b).quantization.type == kTfLiteAffineQuantization
          ? static_cast<const TfLiteAffineQuantization*>(TensorAt(b).quantization.params)
          : nullptr;
  if (bt == xnn_datatype_qint8) {
    if (ZeroPoint(b) != 0) return Fail("INT8 B with a nonzero zero point");
  } else if (bt != xnn_datatype_qcint8 || q->quantized_dimension != n_dim) {
    return Fail("unsupported INT8 B quantization (one scale, or one per output column)");
  }
  for (int i = 0; i < q->scale->size; ++i)
    if (!(q->scale->data[i] > 0.0f) || !std::isnormal(q->scale->data[i]))
      return Fail("INT8 B scales must be positive and normal");
  const int ro = std::max(rank, rb);
  if (NumDims(out) != ro) return Fail("output rank mismatch");
  for (int i = 3; i <= ro; ++i) {
    const int da = i <= rank ? Dim(a, rank - i) : 1, db = i <= rb ? Dim(b, rb - i) : 1;
    if (da != db && da != 1 && db != 1) return Fail("batch dims do not broadcast");
    if (Dim(out, ro - i) != std::max(da, db)) return Fail("output shape mismatch");
  }
  return kTfLiteOk;
}

TfLiteStatus OpBuilder::DefineTransposedMatrices(uint32_t in, int rank, size_t* dims,
                                                 uint32_t* transposed) {
  size_t perm[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) perm[i] = static_cast<size_t>(i);
  std::swap(perm[rank - 1], perm[rank - 2]);
  std::swap(dims[rank - 1], dims[rank - 2]);
  *transposed = XNN_INVALID_VALUE_ID;
  TF_LITE_ENSURE_STATUS(Check(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, rank, dims,
                                                      nullptr, XNN_INVALID_VALUE_ID, 0, transposed),
                              "xnn_define_tensor_value"));
  return Check(xnn_define_static_transpose(subgraph_, rank, perm, in, *transposed, 0),
               "xnn_define_static_transpose");
}

TfLiteStatus OpBuilder::DefineHybridBatchMatMul(uint32_t lhs, int rank, const size_t* lhs_dims,
                                                int b, int out, int columns, uint32_t flags,
                                                const TfLiteBatchMatMulParams* p) {
  // XNNPACK reads one scale per output column of every B matrix.
  const int rb = NumDims(b);
  const auto* q = static_cast<const TfLiteAffineQuantization*>(TensorAt(b).quantization.params);
  size_t b_batches = 1;
  size_t b_dims[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rb; ++i) {
    b_dims[i] = static_cast<size_t>(Dim(b, i));
    if (i < rb - 2) b_batches *= b_dims[i];
  }
  auto scales = std::make_shared<std::vector<float>>(b_batches * static_cast<size_t>(columns));
  for (size_t i = 0; i < scales->size(); ++i)
    (*scales)[i] = q->scale->data[q->scale->size == 1 ? 0 : i % static_cast<size_t>(columns)];
  owned_scales_.push_back(scales);
  uint32_t qb = XNN_INVALID_VALUE_ID, qa = XNN_INVALID_VALUE_ID;
  TF_LITE_ENSURE_STATUS(Check(xnn_define_channelwise_quantized_tensor_value_v2(
                                  subgraph_, xnn_datatype_qcint8, 0, scales->data(), rb,
                                  static_cast<size_t>(p->adj_y ? rb - 2 : rb - 1), b_dims,
                                  StaticPointer(b), XNN_INVALID_VALUE_ID, 0, &qb),
                              "xnn_define_channelwise_quantized_tensor_value_v2"));
  TF_LITE_ENSURE_STATUS(DefineDynamicallyQuantized(lhs, rank, lhs_dims, /*nonbatch_dims=*/1, &qa));
  return Check(xnn_define_batch_matrix_multiply(subgraph_, qa, qb, ValueIdOf(out), flags),
               "xnn_define_batch_matrix_multiply");
}

TfLiteStatus OpBuilder::VisitBatchMatMul(const TfLiteNode* n, const TfLiteBatchMatMulParams* p) {
  if (!p || !Arity(n, 2, 2, 1)) return kTfLiteError;
  const int a = InputTensor(n, 0), b = InputTensor(n, 1), out = OutputTensor(n, 0);
  const bool hybrid = ValidIndex(b) && TensorAt(b).type == kTfLiteInt8;
  const int min_rank = hybrid ? 2 : 3;
  if (!IsDynamicFloat(a, min_rank) || !IsDynamicFloat(out, min_rank))
    return Fail("unsupported tensor types/shapes");
  const int rank = NumDims(a);
  if (hybrid) {
    TF_LITE_ENSURE_STATUS(CheckHybridBatchMatMulB(a, b, out, p));
  } else {
    if (!IsFloat(b, 3)) return Fail("unsupported tensor types/shapes");
    if (IsStatic(b) && StaticPointer(b) == nullptr) return Fail("static input without data");
    if (NumDims(b) != rank || NumDims(out) != rank) return Fail("ranks differ");
    for (int i = 0; i + 2 < rank; ++i)
      if (Dim(a, i) != Dim(b, i) || Dim(out, i) != Dim(a, i)) return Fail("batch dims differ");
  }
  const int rb = NumDims(b);
  const int m = p->adj_x ? Dim(a, rank - 1) : Dim(a, rank - 2);
  const int k = p->adj_x ? Dim(a, rank - 2) : Dim(a, rank - 1);
  const int bk = p->adj_y ? Dim(b, rb - 1) : Dim(b, rb - 2);
  const int bn = p->adj_y ? Dim(b, rb - 2) : Dim(b, rb - 1);
  const int ro = NumDims(out);
  if (bk != k || Dim(out, ro - 2) != m || Dim(out, ro - 1) != bn) return Fail("shape mismatch");
  if (!Defining()) return kTfLiteOk;
  uint32_t lhs = ValueIdOf(a);
  size_t dims[XNN_MAX_TENSOR_DIMS];
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(a, i));
  if (p->adj_x) TF_LITE_ENSURE_STATUS(DefineTransposedMatrices(ValueIdOf(a), rank, dims, &lhs));
  const uint32_t flags = p->adj_y ? XNN_FLAG_TRANSPOSE_B : 0;
  if (hybrid) return DefineHybridBatchMatMul(lhs, rank, dims, b, out, bn, flags, p);
  return Check(
      xnn_define_batch_matrix_multiply(subgraph_, lhs, ValueIdOf(b), ValueIdOf(out), flags),
      "xnn_define_batch_matrix_multiply");
}

TfLiteStatus OpBuilder::VisitPool(const TfLiteNode* n, bool max, const TfLitePoolParams* p) {
  if (!p || !Arity(n, 1, 1, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (max ? !MovesData(in, out) || NumDims(in) != 4 || NumDims(out) != 4
          : !IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(out, 4, 4))
    return Fail("unsupported tensors");
  float lo, hi;
  TF_LITE_ENSURE_STATUS(CheckWindow(p->activation, p->stride_width, p->stride_height,
                                    p->filter_width, p->filter_height, p->padding,
                                    "invalid pooling parameters", &lo, &hi));
  // XNNPACK's max pooling refuses, at definition, a stride beyond the window;
  // both poolings multiply the window sides in 32 bits.
  if (max && (p->stride_height > p->filter_height || p->stride_width > p->filter_width))
    return Fail("max pooling stride larger than the window");
  if (int64_t{p->filter_height} * p->filter_width > std::numeric_limits<int32_t>::max())
    return Fail("pooling window too large");
  const uint32_t flags = PaddingFlags(p->padding);
  if (p->filter_width == 1 && p->filter_height == 1) {
    if (p->stride_width != 1 || p->stride_height != 1)
      return Fail("1x1 pooling with non-unit stride");
    if (!Defining()) return kTfLiteOk;
    xnn_unary_params params;
    params.clamp.min = lo;
    params.clamp.max = hi;
    return Check(
        xnn_define_unary(subgraph_, xnn_unary_clamp, &params, ValueIdOf(in), ValueIdOf(out), 0),
        "xnn_define_unary(clamp)");
  }
  if (!Defining()) return kTfLiteOk;
  if (max) {
    return Check(xnn_define_max_pooling_2d(subgraph_, 0, 0, 0, 0, p->filter_height, p->filter_width,
                                           p->stride_height, p->stride_width, 1, 1, lo, hi,
                                           ValueIdOf(in), ValueIdOf(out), flags),
                 "xnn_define_max_pooling_2d");
  }
  return Check(xnn_define_average_pooling_2d(subgraph_, 0, 0, 0, 0, p->filter_height,
                                             p->filter_width, p->stride_height, p->stride_width, lo,
                                             hi, ValueIdOf(in), ValueIdOf(out), flags),
               "xnn_define_average_pooling_2d");
}

TfLiteStatus OpBuilder::VisitBinary(const TfLiteNode* n, int builtin_code,
                                    xnn_binary_operator op, TfLiteFusedActivation act) {
  if (!Arity(n, 2, 2, 1)) return kTfLiteError;
  const int a = InputTensor(n, 0), b = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!GoodShape(a, 0, XNN_MAX_TENSOR_DIMS) || !GoodShape(b, 0, XNN_MAX_TENSOR_DIMS) ||
      !IsActivation(out))
    return Fail("unsupported tensor types");
  if (!SameType(a, out) || !SameType(b, out)) return Fail("input and output types differ");
  if (IsStatic(a) && IsStatic(b)) return Fail("both inputs static");
  if ((IsStatic(a) && StaticPointer(a) == nullptr) || (IsStatic(b) && StaticPointer(b) == nullptr))
    return Fail("static input without data");
  if (Datatype(out) != xnn_datatype_fp32) {
    // QS8/QU8: ADD, SUB and MUL, within XNNPACK's requantization ranges.
    if (!IsQuantized(out)) return Fail("unsupported quantization");
    const float sa = Scale(a) / Scale(out), sb = Scale(b) / Scale(out);
    if (builtin_code == kTfLiteBuiltinAdd || builtin_code == kTfLiteBuiltinSub) {
      if (sa < 1.0f / 1024.0f || sa >= 256.0f || sb < 1.0f / 1024.0f || sb >= 256.0f)
        return Fail("input-to-output scale ratio out of range");
    } else if (builtin_code == kTfLiteBuiltinMul) {
      const float r = Scale(a) * Scale(b) / Scale(out);
      if (r < 1.0f / 65536.0f || r >= 256.0f) return Fail("product scale ratio out of range");
    } else {
      return Fail("quantized operator not supported");
    }
  }
  // Broadcasting: right-aligned dims equal or 1.
  const int ra = NumDims(a), rb = NumDims(b), ro = NumDims(out);
  if (ro != std::max(ra, rb)) return Fail("output rank mismatch");
  for (int i = 1; i <= ro; ++i) {
    const int da = i <= ra ? Dim(a, ra - i) : 1, db = i <= rb ? Dim(b, rb - i) : 1;
    if (da != db && da != 1 && db != 1) return Fail("shapes do not broadcast");
    if (Dim(out, ro - i) != std::max(da, db)) return Fail("output shape mismatch");
  }
  float lo, hi;
  if (!ActivationRange(act, &lo, &hi)) return Fail("unsupported fused activation");
  if (!Defining()) return kTfLiteOk;
  xnn_binary_params params = {lo, hi};
  return Check(
      xnn_define_binary(subgraph_, op, &params, ValueIdOf(a), ValueIdOf(b), ValueIdOf(out), 0),
      "xnn_define_binary");
}

TfLiteStatus OpBuilder::VisitClamp(const TfLiteNode* n, float lo, float hi) {
  if (!Arity(n, 1, 1, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!IsDynamicFloat(in) || !IsDynamicFloat(out)) return Fail("unsupported tensors");
  if (!Defining()) return kTfLiteOk;
  xnn_unary_params params;
  params.clamp.min = lo;
  params.clamp.max = hi;
  return Check(
      xnn_define_unary(subgraph_, xnn_unary_clamp, &params, ValueIdOf(in), ValueIdOf(out), 0),
      "xnn_define_unary(clamp)");
}

TfLiteStatus OpBuilder::VisitUnary(const TfLiteNode* n, xnn_unary_operator op,
                                   const xnn_unary_params* params) {
  if (!Arity(n, 1, 1, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (IsActivation(in) && Datatype(in) != xnn_datatype_fp32) {
    // QS8/QU8 as upstream takes them: ELU (int8 only), LOGISTIC, TANH and
    // LEAKY_RELU; input and output of one type, each with its own quantization.
    const bool qs8 = Datatype(in) == xnn_datatype_qint8;
    const bool taken = op == xnn_unary_sigmoid || op == xnn_unary_tanh ||
                       op == xnn_unary_leaky_relu || (op == xnn_unary_elu && qs8);
    if (!taken) return Fail("quantized operator not supported");
    if (!IsActivation(out) || !SameType(in, out)) return Fail("input and output types differ");
    if (op == xnn_unary_leaky_relu) {
      const float alpha = params->leaky_relu.negative_slope;
      const float positive = Scale(in) / Scale(out), negative = positive * alpha;
      if (!std::isnormal(alpha)) return Fail("unsupported LEAKY_RELU alpha");
      if (positive < 1.0f / 256.0f || positive > 128.0f)
        return Fail("input-to-output scale ratio out of range");
      if (negative < -127.99609375f || negative > 128.0f || std::fabs(negative) < 1.0f / 256.0f)
        return Fail("negative input-to-output scale ratio out of range");
    }
  } else if (!IsDynamicFloat(in) || !IsDynamicFloat(out)) {
    return Fail("unsupported tensors");
  }
  for (int i = 0; i < NumDims(in); ++i)
    if (NumDims(out) != NumDims(in) || Dim(out, i) != Dim(in, i)) return Fail("shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_unary(subgraph_, op, params, ValueIdOf(in), ValueIdOf(out), 0),
               "xnn_define_unary");
}

TfLiteStatus OpBuilder::VisitPrelu(const TfLiteNode* n) {
  if (!Arity(n, 2, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), slope = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!IsDynamicFloat(in, 1, 4) || !IsStaticFloat(slope, 1, 4) || !IsDynamicFloat(out, 1, 4))
    return Fail("unsupported tensors");
  // The slope varies along the channels only (all other dimensions 1).
  const int rank = NumDims(in), srank = NumDims(slope);
  if (srank > rank || NumDims(out) != rank) return Fail("slope rank too large");
  for (int i = 0; i + 1 < srank; ++i)
    if (Dim(slope, i) != 1) return Fail("slope must vary along channels only");
  const int sc = Dim(slope, srank - 1), c = Dim(in, rank - 1);
  if (sc != c && sc != 1) return Fail("slope channels mismatch");
  for (int i = 0; i < rank; ++i)
    if (Dim(out, i) != Dim(in, i)) return Fail("output shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_binary(subgraph_, xnn_binary_prelu, nullptr, ValueIdOf(in),
                                 ValueIdOf(slope), ValueIdOf(out), 0),
               "xnn_define_binary(prelu)");
}

TfLiteStatus OpBuilder::VisitSoftmax(const TfLiteNode* n, const TfLiteSoftmaxParams* p) {
  if (!p || !Arity(n, 1, 1, 1)) return kTfLiteError;
  if (p->beta != 1.0f) return Fail("beta != 1");
  const int in = InputTensor(n, 0), out = OutputTensor(n, 0);
  if (!IsDynamicFloat(in, 1) || !IsDynamicFloat(out, 1)) return Fail("unsupported tensors");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_softmax(subgraph_, ValueIdOf(in), ValueIdOf(out), 0),
               "xnn_define_softmax");
}

TfLiteStatus OpBuilder::VisitReduce(const TfLiteNode* n, const TfLiteReducerParams* p,
                                    xnn_reduce_operator op) {
  if (!p || !Arity(n, 2, 2, 1)) return kTfLiteError;
  const int in = InputTensor(n, 0), axes_t = InputTensor(n, 1), out = OutputTensor(n, 0);
  // float32, or QS8/QU8 (input and output of one type, own quantizations);
  // any rank XNNPACK takes, any constant int32 axes set (negative axes count
  // from the end, repeats count once), keep_dims either way, as upstream.
  if (!IsActivation(in, 1) || !IsActivation(out) || !SameType(in, out))
    return Fail("unsupported tensors");
  if (!ValidIndex(axes_t) || TensorAt(axes_t).type != kTfLiteInt32 || NumDims(axes_t) > 1)
    return Fail("axes must be an int32 vector");
  std::vector<int64_t> v;
  if (!StaticInts(axes_t, &v) || v.empty()) return Fail("axes must be static and non-empty");
  if (v.size() > XNN_MAX_TENSOR_DIMS) return Fail("too many reduction axes");
  const int rank = NumDims(in);
  std::vector<size_t> axes;
  for (int64_t a : v) {
    if (a < 0) a += rank;
    if (a < 0 || a >= rank) return Fail("invalid axis");
    axes.push_back(static_cast<size_t>(a));
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  // The output shape: reduced dimensions become 1 (keep_dims) or go away.
  std::vector<int> expected;
  for (int i = 0; i < rank; ++i) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), static_cast<size_t>(i));
    if (!reduced) expected.push_back(Dim(in, i));
    else if (p->keep_dims) expected.push_back(1);
  }
  if (NumDims(out) != static_cast<int>(expected.size())) return Fail("output rank mismatch");
  for (size_t i = 0; i < expected.size(); ++i)
    if (Dim(out, static_cast<int>(i)) != expected[i]) return Fail("output shape mismatch");
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_static_reduce(subgraph_, op, axes.size(), axes.data(), ValueIdOf(in),
                                        ValueIdOf(out), p->keep_dims ? XNN_FLAG_KEEP_DIMS : 0),
               "xnn_define_static_reduce");
}

}  // namespace xnnpack
}  // namespace tflite_c

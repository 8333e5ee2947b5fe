// Support checks of the XNNPACK delegate: which tensors can be XNNPACK values
// (float32, per-tensor QS8/QU8, per-channel int8 weights, int32 biases), the
// quantization rules, and the dispatch from builtin op codes to the Visit*
// functions of ops_compute.cc / ops_layout.cc.
#include "src/delegates/xnnpack/op_builder.h"

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "src/delegates/xnnpack/report.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace xnnpack {

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ffu;
      bits = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

namespace {

const TfLiteAffineQuantization* Affine(const TfLiteTensor& t) {
  if (t.quantization.type != kTfLiteAffineQuantization) return nullptr;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
  if (q == nullptr || q->scale == nullptr || q->scale->size < 1 || q->zero_point == nullptr ||
      (q->zero_point->size != q->scale->size && q->zero_point->size != 1))
    return nullptr;
  // Every scale a positive normal float: bit patterns 0x00800000..0x7F7FFFFF.
  // Tested on the bits without an early exit, so the loop vectorizes (it runs
  // over every channel of a weight each time a check asks for its datatype).
  uint32_t bad = 0;
  for (int i = 0; i < q->scale->size; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &q->scale->data[i], sizeof(bits));
    bad |= static_cast<uint32_t>(bits - 0x00800000u >= 0x7F000000u);
  }
  return bad == 0 ? q : nullptr;
}

}  // namespace

// ---- dispatch -----------------------------------------------------------------------

// Visit's table from builtin code to visitor: one line per operator. A
// nested class, so its entries may name OpBuilder's private Visit* functions.
struct OpBuilder::Visitors {
  using Visitor = TfLiteStatus (*)(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration* r);
  struct Entry {
    int builtin_code;
    Visitor visit;
  };
  static const Entry kTable[];

  static Visitor Find(int builtin_code);  // nullptr: not an operator XNNPACK runs

  // Visit*(node, options) and Visit*(node).
  template <typename Options, TfLiteStatus (OpBuilder::*F)(const TfLiteNode*, const Options*)>
  static TfLiteStatus With(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return (b->*F)(n, static_cast<const Options*>(n->builtin_data));
  }
  template <TfLiteStatus (OpBuilder::*F)(const TfLiteNode*)>
  static TfLiteStatus Plain(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return (b->*F)(n);
  }
  // ADD / SUB / MUL / DIV (with a fused activation) and binary ops without one.
  template <typename Options, xnn_binary_operator op>
  static TfLiteStatus Binary(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration* r) {
    const auto* p = static_cast<const Options*>(n->builtin_data);
    return b->VisitBinary(n, r->builtin_code, op, p ? p->activation : kTfLiteActNone);
  }
  template <xnn_binary_operator op>
  static TfLiteStatus Binary(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration* r) {
    return b->VisitBinary(n, r->builtin_code, op, kTfLiteActNone);
  }
  template <xnn_unary_operator op>
  static TfLiteStatus Unary(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitUnary(n, op);
  }
  template <xnn_reduce_operator op>
  static TfLiteStatus Reduce(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitReduce(n, static_cast<const TfLiteReducerParams*>(n->builtin_data), op);
  }
  template <bool max>
  static TfLiteStatus Pool(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitPool(n, max, static_cast<const TfLitePoolParams*>(n->builtin_data));
  }
  static TfLiteStatus Relu(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitClamp(n, 0.0f, std::numeric_limits<float>::infinity());
  }
  static TfLiteStatus Relu6(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitClamp(n, 0.0f, 6.0f);
  }
  static TfLiteStatus ReluN1To1(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    return b->VisitClamp(n, -1.0f, 1.0f);
  }
  static TfLiteStatus Elu(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    xnn_unary_params params;
    params.elu.alpha = 1.0f;
    return b->VisitUnary(n, xnn_unary_elu, &params);
  }
  static TfLiteStatus LeakyRelu(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    const auto* p = static_cast<const TfLiteLeakyReluParams*>(n->builtin_data);
    if (p == nullptr || !std::isfinite(p->alpha)) return b->Fail("invalid LEAKY_RELU alpha");
    xnn_unary_params params;
    params.leaky_relu.negative_slope = p->alpha;
    return b->VisitUnary(n, xnn_unary_leaky_relu, &params);
  }
  static TfLiteStatus Gelu(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration*) {
    const auto* p = static_cast<const TfLiteGeluParams*>(n->builtin_data);
    // This XNNPACK has the exact (erf) GELU only.
    if (p == nullptr || p->approximate) return b->Fail("approximate GELU not supported");
    return b->VisitUnary(n, xnn_unary_gelu);
  }
  static TfLiteStatus Custom(OpBuilder* b, const TfLiteNode* n, const TfLiteRegistration* r) {
    return b->VisitCustom(n, r);
  }
};

const OpBuilder::Visitors::Entry OpBuilder::Visitors::kTable[] = {
    // ops_compute.cc
    {kTfLiteBuiltinConv2d, With<TfLiteConvParams, &OpBuilder::VisitConv2d>},
    {kTfLiteBuiltinDepthwiseConv2d,
     With<TfLiteDepthwiseConvParams, &OpBuilder::VisitDepthwiseConv2d>},
    {kTfLiteBuiltinTransposeConv, With<TfLiteTransposeConvParams, &OpBuilder::VisitTransposeConv>},
    {kTfLiteBuiltinFullyConnected,
     With<TfLiteFullyConnectedParams, &OpBuilder::VisitFullyConnected>},
    {kTfLiteBuiltinBatchMatmul, With<TfLiteBatchMatMulParams, &OpBuilder::VisitBatchMatMul>},
    {kTfLiteBuiltinAdd, Binary<TfLiteAddParams, xnn_binary_add>},
    {kTfLiteBuiltinSub, Binary<TfLiteSubParams, xnn_binary_subtract>},
    {kTfLiteBuiltinMul, Binary<TfLiteMulParams, xnn_binary_multiply>},
    {kTfLiteBuiltinDiv, Binary<TfLiteDivParams, xnn_binary_divide>},
    {kTfLiteBuiltinMaximum, Binary<xnn_binary_maximum>},
    {kTfLiteBuiltinMinimum, Binary<xnn_binary_minimum>},
    {kTfLiteBuiltinSquaredDifference, Binary<xnn_binary_squared_difference>},
    {kTfLiteBuiltinMaxPool2d, Pool<true>},
    {kTfLiteBuiltinAveragePool2d, Pool<false>},
    {kTfLiteBuiltinRelu, Relu},
    {kTfLiteBuiltinRelu6, Relu6},
    {kTfLiteBuiltinReluN1To1, ReluN1To1},
    {kTfLiteBuiltinLogistic, Unary<xnn_unary_sigmoid>},
    {kTfLiteBuiltinHardSwish, Unary<xnn_unary_hardswish>},
    {kTfLiteBuiltinTanh, Unary<xnn_unary_tanh>},
    {kTfLiteBuiltinAbs, Unary<xnn_unary_abs>},
    {kTfLiteBuiltinCeil, Unary<xnn_unary_ceiling>},
    {kTfLiteBuiltinFloor, Unary<xnn_unary_floor>},
    {kTfLiteBuiltinNeg, Unary<xnn_unary_negate>},
    {kTfLiteBuiltinRound, Unary<xnn_unary_bankers_rounding>},  // half to even, as TFLite
    {kTfLiteBuiltinSqrt, Unary<xnn_unary_square_root>},
    {kTfLiteBuiltinSquare, Unary<xnn_unary_square>},
    {kTfLiteBuiltinExp, Unary<xnn_unary_exp>},
    {kTfLiteBuiltinCos, Unary<xnn_unary_cosine>},
    {kTfLiteBuiltinSin, Unary<xnn_unary_sine>},
    {kTfLiteBuiltinLog, Unary<xnn_unary_log>},
    {kTfLiteBuiltinElu, Elu},
    {kTfLiteBuiltinLeakyRelu, LeakyRelu},
    {kTfLiteBuiltinGelu, Gelu},
    {kTfLiteBuiltinPrelu, Plain<&OpBuilder::VisitPrelu>},
    {kTfLiteBuiltinSoftmax, With<TfLiteSoftmaxParams, &OpBuilder::VisitSoftmax>},
    {kTfLiteBuiltinMean, Reduce<xnn_reduce_mean>},
    {kTfLiteBuiltinSum, Reduce<xnn_reduce_sum>},
    // ops_layout.cc
    {kTfLiteBuiltinPad, Plain<&OpBuilder::VisitPad>},
    {kTfLiteBuiltinConcatenation, With<TfLiteConcatenationParams, &OpBuilder::VisitConcatenation>},
    {kTfLiteBuiltinReshape, Plain<&OpBuilder::VisitReshape>},
    {kTfLiteBuiltinSlice, Plain<&OpBuilder::VisitSlice>},
    {kTfLiteBuiltinStridedSlice, With<TfLiteStridedSliceParams, &OpBuilder::VisitStridedSlice>},
    {kTfLiteBuiltinTranspose, Plain<&OpBuilder::VisitTranspose>},
    {kTfLiteBuiltinSplit, With<TfLiteSplitParams, &OpBuilder::VisitSplit>},
    {kTfLiteBuiltinDepthToSpace, With<TfLiteDepthToSpaceParams, &OpBuilder::VisitDepthToSpace>},
    {kTfLiteBuiltinSpaceToDepth, With<TfLiteSpaceToDepthParams, &OpBuilder::VisitSpaceToDepth>},
    {kTfLiteBuiltinResizeBilinear,
     With<TfLiteResizeBilinearParams, &OpBuilder::VisitResizeBilinear>},
    {kTfLiteBuiltinQuantize, Plain<&OpBuilder::VisitQuantize>},
    {kTfLiteBuiltinDequantize, Plain<&OpBuilder::VisitDequantize>},
    // ops_mediapipe.cc, ops_attention.cc
    {kTfLiteBuiltinCustom, Custom},
    {kTfLiteBuiltinStablehloComposite, Plain<&OpBuilder::VisitComposite>},
};

OpBuilder::Visitors::Visitor OpBuilder::Visitors::Find(int builtin_code) {
  for (const Entry& e : kTable)
    if (e.builtin_code == builtin_code) return e.visit;
  return nullptr;
}

TfLiteStatus OpBuilder::Visit(int node_index, const TfLiteNode* node,
                              const TfLiteRegistration* reg) {
  node_index_ = node_index;
  if (node->inputs == nullptr || node->outputs == nullptr) return kTfLiteError;
  for (int i = 0; i < node->inputs->size; ++i)
    if (node->inputs->data[i] >= 0 && !ValidIndex(node->inputs->data[i])) return kTfLiteError;
  for (int i = 0; i < node->outputs->size; ++i)
    if (!ValidIndex(node->outputs->data[i])) return kTfLiteError;
  // A sparse constant's buffer holds only its stored values (FULLY_CONNECTED
  // reads them through src/kernels/internal/sparse_fully_connected.h).
  for (int i = 0; i < node->inputs->size; ++i)
    if (node->inputs->data[i] >= 0 && TensorAt(node->inputs->data[i]).sparsity != nullptr)
      return Fail("sparse input tensors are not supported");
  const Visitors::Visitor visit = Visitors::Find(reg->builtin_code);
  return visit != nullptr ? visit(this, node, reg) : kTfLiteError;
}

void OpBuilder::ValueTensors(int builtin_code, const TfLiteNode* node, std::vector<int>* out) {
  int first = 0, last = node->inputs->size;  // data inputs [first, last)
  switch (builtin_code) {
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinMean:
    case kTfLiteBuiltinSum:
    case kTfLiteBuiltinResizeBilinear:
    case kTfLiteBuiltinSlice:
    case kTfLiteBuiltinStridedSlice:
    case kTfLiteBuiltinTranspose:
      last = 1;
      break;
    case kTfLiteBuiltinSplit:  // (axis, input)
      first = 1;
      last = 2;
      break;
    case kTfLiteBuiltinTransposeConv:  // (output_shape, weights, input[, bias])
      first = 1;
      break;
    default:
      break;
  }
  for (int i = first; i < last && i < node->inputs->size; ++i)
    if (node->inputs->data[i] >= 0) out->push_back(node->inputs->data[i]);
  for (int i = 0; i < node->outputs->size; ++i)
    if (node->outputs->data[i] >= 0) out->push_back(node->outputs->data[i]);
}

// ---- reporting ------------------------------------------------------------------------

TfLiteStatus OpBuilder::Fail(const char* format, ...) {
  if (!Defining()) return kTfLiteError;  // only checking: refusing is no error
  va_list args;
  va_start(args, format);
  const std::string what = FormatMessage(format, args);
  va_end(args);
  return Report(context_, "node #%d: %s", node_index_, what.c_str());
}

TfLiteStatus OpBuilder::Check(xnn_status s, const char* what) {
  if (s == xnn_status_success) return kTfLiteOk;
  return Fail("%s failed (status %d)", what, static_cast<int>(s));
}

// ---- tensors --------------------------------------------------------------------------

bool OpBuilder::IsStatic(int t) const {
  if (t < 0) return false;
  if (statics_ && statics_->count(t)) return true;
  return context_->tensors[t].allocation_type == kTfLiteMmapRo;
}

bool OpBuilder::GoodShape(int t, int min_rank, int max_rank) const {
  if (!ValidIndex(t)) return false;
  const TfLiteTensor& x = TensorAt(t);
  if (x.dims == nullptr || x.dims->size < min_rank || x.dims->size > max_rank) return false;
  if (x.allocation_type == kTfLiteDynamic && !IsStatic(t)) return false;
  for (int i = 0; i < x.dims->size; ++i)
    if (x.dims->data[i] <= 0) return false;
  return true;
}

const void* OpBuilder::StaticPointer(int t) const {
  if (statics_) {
    auto it = statics_->find(t);
    if (it != statics_->end()) return it->second->data();
  }
  return TensorAt(t).data.raw;
}

bool OpBuilder::StaticInts(int t, std::vector<int64_t>* out) const {
  if (!ValidIndex(t) || !IsStatic(t) || TensorAt(t).data.raw == nullptr ||
      TensorAt(t).dims == nullptr)
    return false;
  size_t n = 1;
  for (int i = 0; i < TensorAt(t).dims->size; ++i) {
    if (TensorAt(t).dims->data[i] < 0) return false;
    n *= static_cast<size_t>(TensorAt(t).dims->data[i]);
  }
  const size_t element = TensorAt(t).type == kTfLiteInt32   ? 4
                         : TensorAt(t).type == kTfLiteInt64 ? 8
                                                            : 0;
  if (element == 0 || TensorAt(t).bytes < n * element) return false;
  out->resize(n);
  for (size_t i = 0; i < n; ++i)
    (*out)[i] = element == 4 ? TensorAt(t).data.i32[i] : TensorAt(t).data.i64[i];
  return true;
}

xnn_datatype OpBuilder::Datatype(int t) const {
  if (!ValidIndex(t)) return xnn_datatype_invalid;
  // Unpacked statics are float32, except densified int8 weights (sparse_weights.cc).
  if (statics_ && statics_->count(t) && TensorAt(t).type != kTfLiteInt8) return xnn_datatype_fp32;
  const TfLiteTensor& x = TensorAt(t);
  if (x.type == kTfLiteFloat32) return xnn_datatype_fp32;
  if (x.type != kTfLiteInt8 && x.type != kTfLiteUInt8 && x.type != kTfLiteInt32)
    return xnn_datatype_invalid;
  const TfLiteAffineQuantization* q = Affine(x);
  if (q == nullptr) return xnn_datatype_invalid;
  const bool per_channel = q->scale->size > 1;
  if (per_channel) {
    // Channel-wise: symmetric, along a valid dimension of matching size.
    if (x.dims == nullptr || q->quantized_dimension < 0 ||
        q->quantized_dimension >= x.dims->size ||
        x.dims->data[q->quantized_dimension] != q->scale->size)
      return xnn_datatype_invalid;
    // OR of all zero points (no early exit, so it vectorizes: weights have
    // thousands of channels and this runs several times per node).
    int32_t any = 0;
    for (int i = 0; i < q->zero_point->size; ++i) any |= q->zero_point->data[i];
    if (any != 0) return xnn_datatype_invalid;
    if (x.type == kTfLiteInt8) return xnn_datatype_qcint8;
    if (x.type == kTfLiteInt32) return xnn_datatype_qcint32;
    return xnn_datatype_invalid;
  }
  const int32_t zp = q->zero_point->data[0];
  switch (x.type) {
    case kTfLiteInt8:
      return zp >= -128 && zp <= 127 ? xnn_datatype_qint8 : xnn_datatype_invalid;
    case kTfLiteUInt8:
      return zp >= 0 && zp <= 255 ? xnn_datatype_quint8 : xnn_datatype_invalid;
    default:
      return zp == 0 ? xnn_datatype_qint32 : xnn_datatype_invalid;
  }
}

xnn_status OpBuilder::DefineValue(xnn_subgraph_t subgraph, int t, uint32_t external_id,
                                  uint32_t flags, uint32_t* id) const {
  const TfLiteTensor& x = TensorAt(t);
  size_t dims[XNN_MAX_TENSOR_DIMS];
  const int rank = x.dims ? x.dims->size : 0;
  if (rank > XNN_MAX_TENSOR_DIMS) return xnn_status_unsupported_parameter;
  for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(x.dims->data[i]);
  // INT4 weights are defined by the node that reads them (DefineHybridFilter).
  if (x.type == kTfLiteInt4 && IsStatic(t)) return xnn_status_success;
  const void* data = IsStatic(t) ? StaticPointer(t) : nullptr;
  const xnn_datatype type = Datatype(t);
  if (data != nullptr) {
    // XNNPACK reads as many elements as the shape says: the data must hold
    // them (an unpacked fp16 weight keeps the size of its source, which a
    // model can contradict with the DEQUANTIZE output's shape).
    size_t count = 1;
    for (int i = 0; i < rank; ++i) {
      if (x.dims->data[i] < 0) return xnn_status_invalid_parameter;
      count *= dims[i];
      if (count > (SIZE_MAX >> 3)) return xnn_status_invalid_parameter;
    }
    size_t available = x.bytes, element = 4;
    if (statics_) {
      const auto it = statics_->find(t);
      if (it != statics_->end()) available = it->second->size() * sizeof(float);
    }
    if (type == xnn_datatype_qint8 || type == xnn_datatype_quint8 || type == xnn_datatype_qcint8)
      element = 1;
    if (count * element > available) return xnn_status_invalid_parameter;
  }
  switch (type) {
    case xnn_datatype_fp32:
      return xnn_define_tensor_value(subgraph, type, rank, dims, data, external_id, flags, id);
    case xnn_datatype_qint8:
    case xnn_datatype_quint8:
    case xnn_datatype_qint32:
      return xnn_define_quantized_tensor_value(subgraph, type, ZeroPoint(t), Scale(t), rank, dims,
                                               data, external_id, flags, id);
    case xnn_datatype_qcint8:
    case xnn_datatype_qcint32: {
      const TfLiteAffineQuantization* q = Affine(x);
      return xnn_define_channelwise_quantized_tensor_value(
          subgraph, type, q->scale->data, rank, static_cast<size_t>(q->quantized_dimension), dims,
          data, external_id, flags, id);
    }
    default:
      return xnn_status_unsupported_parameter;
  }
}

bool OpBuilder::IsFloat(int t, int min_rank, int max_rank) const {
  return GoodShape(t, min_rank, max_rank) && Datatype(t) == xnn_datatype_fp32;
}
bool OpBuilder::IsDynamicFloat(int t, int min_rank, int max_rank) const {
  return IsFloat(t, min_rank, max_rank) && !IsStatic(t);
}
bool OpBuilder::IsStaticFloat(int t, int min_rank, int max_rank) const {
  return IsFloat(t, min_rank, max_rank) && IsStatic(t) && StaticPointer(t) != nullptr;
}

bool OpBuilder::IsQuantized(int t) const {
  const xnn_datatype d = Datatype(t);
  return (d == xnn_datatype_qint8 && quant_.qs8) || (d == xnn_datatype_quint8 && quant_.qu8);
}
float OpBuilder::Scale(int t) const { return Affine(TensorAt(t))->scale->data[0]; }
int32_t OpBuilder::ZeroPoint(int t) const { return Affine(TensorAt(t))->zero_point->data[0]; }
bool OpBuilder::SameQuantization(int a, int b) const {
  return Scale(a) == Scale(b) && ZeroPoint(a) == ZeroPoint(b);
}

bool OpBuilder::IsActivation(int t, int min_rank, int max_rank) const {
  if (!GoodShape(t, min_rank, max_rank) || IsStatic(t)) return false;
  return Datatype(t) == xnn_datatype_fp32 || IsQuantized(t);
}

bool OpBuilder::MovesData(int in, int out) const {
  if (!IsActivation(in) || !IsActivation(out) || !SameType(in, out)) return false;
  return Datatype(in) == xnn_datatype_fp32 || SameQuantization(in, out);
}

bool OpBuilder::IsQuantizedFilter(int filter, int input, int channel_dim, int channels) const {
  if (!IsStatic(filter) || StaticPointer(filter) == nullptr) return false;
  const xnn_datatype in = Datatype(input), f = Datatype(filter);
  if (in == xnn_datatype_quint8) return f == xnn_datatype_quint8;
  if (in != xnn_datatype_qint8) return false;
  if (f == xnn_datatype_qint8) return ZeroPoint(filter) == 0;
  if (f != xnn_datatype_qcint8) return false;
  const TfLiteAffineQuantization* q = Affine(TensorAt(filter));
  return q->quantized_dimension == channel_dim && q->scale->size == channels;
}

bool OpBuilder::IsQuantizedBias(int bias, int filter, int channels) const {
  if (!IsStatic(bias) || TensorAt(bias).data.raw == nullptr || NumDims(bias) != 1 ||
      Dim(bias, 0) != channels)
    return false;
  const xnn_datatype b = Datatype(bias);
  if (Datatype(filter) == xnn_datatype_qcint8) return b == xnn_datatype_qcint32;
  return b == xnn_datatype_qint32;
}

TfLiteStatus OpBuilder::CheckFilterAndBias(int in, int filter, int bias, int out, int channel_dim,
                                           int channels, bool allow_hybrid) {
  if (Datatype(in) == xnn_datatype_fp32) {
    const bool hybrid = allow_hybrid && IsHybridFilter(in, filter, channel_dim, channels);
    if (Datatype(out) != xnn_datatype_fp32 || (!hybrid && !IsStaticFloat(filter)))
      return Fail("float32 convolution needs a static float32 filter");
    if (bias >= 0 && !IsStaticFloat(bias, 1, 1))
      return Fail("bias must be a static float32 vector");
    return kTfLiteOk;
  }
  if (!IsQuantized(in) || !IsQuantized(out) || !SameType(in, out))
    return Fail("unsupported input/output quantization");
  if (!IsQuantizedFilter(filter, in, channel_dim, channels))
    return Fail("unsupported filter quantization");
  if (bias >= 0 && !IsQuantizedBias(bias, filter, channels))
    return Fail("unsupported bias quantization");
  // XNNPACK requantizes with input_scale * filter_scale / output_scale < 256.
  const TfLiteAffineQuantization* q = Affine(TensorAt(filter));
  const float in_scale = Scale(in), out_scale = Scale(out);
  bool out_of_range = false;  // accumulated without an early exit, so it vectorizes
  for (int c = 0; c < q->scale->size; ++c) {
    const float r = in_scale * q->scale->data[c] / out_scale;
    out_of_range |= !(r > 0.0f) | (r >= 256.0f);
  }
  if (out_of_range) return Fail("requantization scale out of range");
  return kTfLiteOk;
}

bool OpBuilder::ActivationRange(TfLiteFusedActivation a, float* lo, float* hi) {
  const float inf = std::numeric_limits<float>::infinity();
  switch (a) {
    case kTfLiteActNone: *lo = -inf; *hi = inf; return true;
    case kTfLiteActRelu: *lo = 0.0f; *hi = inf; return true;
    case kTfLiteActReluN1To1: *lo = -1.0f; *hi = 1.0f; return true;
    case kTfLiteActRelu6: *lo = 0.0f; *hi = 6.0f; return true;
    default: return false;
  }
}

}  // namespace xnnpack
}  // namespace tflite_c

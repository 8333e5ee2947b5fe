// The XNNPACK delegate. A client of the public delegate ABI only:
//
//   DelegatePrepare   walks the execution plan (GetExecutionPlan /
//                     GetNodeAndRegistration), asks OpBuilder whether XNNPACK
//                     can run each node, and hands the supported ones to
//                     ReplaceNodeSubsetsWithDelegateKernels.
//   Kernel            one per partition: an xnn_subgraph with one XNNPACK node
//                     per TFLite node (constant tensors become static values,
//                     so weights are packed once), turned into an xnn_runtime.
//                     Prepare reshapes the runtime when input shapes change
//                     and resizes the outputs; Invoke binds the tensors'
//                     memory and runs it.
//
// fp16 weights: DEQUANTIZE nodes that turn a constant float16 tensor into
// float32 are claimed too when every consumer is claimed; their outputs become
// static float32 values (unpacked once), so no DEQUANTIZE runs at inference.
//
// The same OpBuilder code path checks a node (subgraph == nullptr) and
// defines it, so a node is claimed only if it can actually be built.
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <pthreadpool.h>
#include <xnnpack.h>

#include "src/delegates/xnnpack/default_delegate.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

struct TfLiteXNNPackDelegateWeightsCache;  // is an xnn_weights_cache

namespace tflite_c {
namespace xnnpack {
namespace {

void Log(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("XNNPACK delegate: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

bool InitializeXnnpack() {
  static const bool ok = xnn_initialize(/*allocator=*/nullptr) == xnn_status_success;
  return ok;
}

xnn_weights_cache_t ToXnn(TfLiteXNNPackDelegateWeightsCache* cache) {
  return reinterpret_cast<xnn_weights_cache_t>(cache);
}

// IEEE half -> float.
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

using StaticData = std::shared_ptr<std::vector<float>>;
// Tensor index -> float32 contents, for outputs of fp16-constant DEQUANTIZE.
using StaticMap = std::unordered_map<int, StaticData>;

// ---- the delegate object ------------------------------------------------------------

struct Delegate {
  TfLiteDelegate base;  // first: TfLiteDelegate* <-> Delegate*
  TfLiteXNNPackDelegateOptions options;
  pthreadpool_t threadpool = nullptr;
  // Set during DelegatePrepare for the kernels' Init (which runs inside
  // ReplaceNodeSubsetsWithDelegateKernels).
  const StaticMap* pending_static = nullptr;

  uint32_t RuntimeFlags() const {
    uint32_t f = options.runtime_flags;
    if (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16) f |= XNN_FLAG_FORCE_FP16_INFERENCE;
    if (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER)
      f |= XNN_FLAG_TRANSIENT_INDIRECTION_BUFFER;
    return f;
  }
};

Delegate* FromTfLite(TfLiteDelegate* d) { return reinterpret_cast<Delegate*>(d); }

// ---- op checking / definition -----------------------------------------------------

// Checks one node (subgraph_ == nullptr) or defines it in an xnn_subgraph.
class OpBuilder {
 public:
  OpBuilder(TfLiteContext* context, const StaticMap* statics, xnn_subgraph_t subgraph,
            const std::vector<uint32_t>* ids)
      : context_(context), statics_(statics), subgraph_(subgraph), ids_(ids) {}

  bool IsStatic(int t) const {
    if (t < 0) return false;
    if (statics_ && statics_->count(t)) return true;
    return context_->tensors[t].allocation_type == kTfLiteMmapRo;
  }

  // Whether `reg` at `node` can run on XNNPACK; with a subgraph, also defines it.
  TfLiteStatus Visit(int node_index, const TfLiteNode* node, const TfLiteRegistration* reg) {
    node_index_ = node_index;
    switch (reg->builtin_code) {
      case kTfLiteBuiltinConv2d:
        return VisitConv2d(node, static_cast<const TfLiteConvParams*>(node->builtin_data));
      case kTfLiteBuiltinDepthwiseConv2d:
        return VisitDepthwiseConv2d(
            node, static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data));
      case kTfLiteBuiltinFullyConnected:
        return VisitFullyConnected(
            node, static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data));
      case kTfLiteBuiltinAdd: {
        auto* p = static_cast<const TfLiteAddParams*>(node->builtin_data);
        return VisitBinary(node, xnn_binary_add, p ? p->activation : kTfLiteActNone);
      }
      case kTfLiteBuiltinSub: {
        auto* p = static_cast<const TfLiteSubParams*>(node->builtin_data);
        return VisitBinary(node, xnn_binary_subtract, p ? p->activation : kTfLiteActNone);
      }
      case kTfLiteBuiltinMul: {
        auto* p = static_cast<const TfLiteMulParams*>(node->builtin_data);
        return VisitBinary(node, xnn_binary_multiply, p ? p->activation : kTfLiteActNone);
      }
      case kTfLiteBuiltinMaxPool2d:
      case kTfLiteBuiltinAveragePool2d:
        return VisitPool(node, reg->builtin_code == kTfLiteBuiltinMaxPool2d,
                         static_cast<const TfLitePoolParams*>(node->builtin_data));
      case kTfLiteBuiltinRelu:
        return VisitClamp(node, 0.0f, std::numeric_limits<float>::infinity());
      case kTfLiteBuiltinRelu6:
        return VisitClamp(node, 0.0f, 6.0f);
      case kTfLiteBuiltinReluN1To1:
        return VisitClamp(node, -1.0f, 1.0f);
      case kTfLiteBuiltinLogistic:
        return VisitUnary(node, xnn_unary_sigmoid);
      case kTfLiteBuiltinHardSwish:
        return VisitUnary(node, xnn_unary_hardswish);
      case kTfLiteBuiltinPad:
        return VisitPad(node);
      case kTfLiteBuiltinConcatenation:
        return VisitConcatenation(
            node, static_cast<const TfLiteConcatenationParams*>(node->builtin_data));
      case kTfLiteBuiltinReshape:
        return VisitReshape(node);
      case kTfLiteBuiltinSoftmax:
        return VisitSoftmax(node, static_cast<const TfLiteSoftmaxParams*>(node->builtin_data));
      case kTfLiteBuiltinMean:
        return VisitMean(node, static_cast<const TfLiteReducerParams*>(node->builtin_data));
      case kTfLiteBuiltinPrelu:
        return VisitPrelu(node);
      case kTfLiteBuiltinResizeBilinear:
        return VisitResizeBilinear(
            node, static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data));
      default:
        return kTfLiteError;
    }
  }

 private:
  bool Defining() const { return subgraph_ != nullptr; }

  TfLiteStatus Fail(const char* format, ...) {
    if (Defining()) {
      char buf[512];
      va_list args;
      va_start(args, format);
      std::vsnprintf(buf, sizeof(buf), format, args);
      va_end(args);
      context_->ReportError(context_, "XNNPACK delegate: node #%d: %s", node_index_, buf);
    }
    return kTfLiteError;
  }
  TfLiteStatus Check(xnn_status s, const char* what) {
    if (s == xnn_status_success) return kTfLiteOk;
    return Fail("%s failed (status %d)", what, static_cast<int>(s));
  }

  const TfLiteTensor& T(int t) const { return context_->tensors[t]; }
  uint32_t Id(int t) const { return (*ids_)[t]; }
  int NumDims(int t) const { return T(t).dims ? T(t).dims->size : -1; }
  int Dim(int t, int i) const { return T(t).dims->data[i]; }

  // A float32 tensor of rank in [min_rank, max_rank] (static fp16-dequantized
  // tensors count as float32).
  bool IsFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const {
    if (t < 0 || t >= static_cast<int>(context_->tensors_size)) return false;
    const TfLiteTensor& x = T(t);
    if (x.type != kTfLiteFloat32) return false;
    if (x.dims == nullptr || x.dims->size < min_rank || x.dims->size > max_rank) return false;
    if (x.allocation_type == kTfLiteDynamic && !IsStatic(t)) return false;
    for (int i = 0; i < x.dims->size; ++i)
      if (x.dims->data[i] <= 0) return false;
    return true;
  }
  bool IsDynamicFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const {
    return IsFloat(t, min_rank, max_rank) && !IsStatic(t);
  }
  bool IsStaticFloat(int t, int min_rank = 0, int max_rank = XNN_MAX_TENSOR_DIMS) const {
    return IsFloat(t, min_rank, max_rank) && IsStatic(t) && StaticPointer(t) != nullptr;
  }
  const void* StaticPointer(int t) const {
    if (statics_) {
      auto it = statics_->find(t);
      if (it != statics_->end()) return it->second->data();
    }
    return T(t).data.raw;
  }
  // Reads a constant int32 (or int64) tensor; false if it is not one.
  bool StaticInts(int t, std::vector<int64_t>* out) const {
    if (t < 0 || !IsStatic(t) || T(t).data.raw == nullptr || T(t).dims == nullptr) return false;
    size_t n = 1;
    for (int i = 0; i < T(t).dims->size; ++i) n *= static_cast<size_t>(T(t).dims->data[i]);
    out->resize(n);
    if (T(t).type == kTfLiteInt32) {
      for (size_t i = 0; i < n; ++i) (*out)[i] = T(t).data.i32[i];
    } else if (T(t).type == kTfLiteInt64) {
      for (size_t i = 0; i < n; ++i) (*out)[i] = T(t).data.i64[i];
    } else {
      return false;
    }
    return true;
  }

  static bool ActivationRange(TfLiteFusedActivation a, float* lo, float* hi) {
    const float inf = std::numeric_limits<float>::infinity();
    switch (a) {
      case kTfLiteActNone: *lo = -inf; *hi = inf; return true;
      case kTfLiteActRelu: *lo = 0.0f; *hi = inf; return true;
      case kTfLiteActReluN1To1: *lo = -1.0f; *hi = 1.0f; return true;
      case kTfLiteActRelu6: *lo = 0.0f; *hi = 6.0f; return true;
      default: return false;
    }
  }

  int In(const TfLiteNode* n, int i) const { return i < n->inputs->size ? n->inputs->data[i] : -1; }
  int Out(const TfLiteNode* n, int i) const {
    return i < n->outputs->size ? n->outputs->data[i] : -1;
  }
  bool Arity(const TfLiteNode* n, int min_in, int max_in, int outs) const {
    return n->inputs->size >= min_in && n->inputs->size <= max_in && n->outputs->size == outs;
  }

  TfLiteStatus VisitConv2d(const TfLiteNode* n, const TfLiteConvParams* p) {
    if (!p || !Arity(n, 2, 3, 1)) return kTfLiteError;
    const int in = In(n, 0), filter = In(n, 1), bias = In(n, 2), out = Out(n, 0);
    if (!IsDynamicFloat(in, 4, 4) || !IsStaticFloat(filter, 4, 4) || !IsDynamicFloat(out, 4, 4))
      return Fail("unsupported tensor types/shapes");
    if (bias >= 0 && !IsStaticFloat(bias, 1, 1)) return Fail("bias must be a static float32 vector");
    float lo, hi;
    if (!ActivationRange(p->activation, &lo, &hi)) return Fail("unsupported fused activation");
    if (p->stride_width <= 0 || p->stride_height <= 0 || p->dilation_width_factor <= 0 ||
        p->dilation_height_factor <= 0)
      return Fail("invalid strides/dilations");
    if (p->padding != kTfLitePaddingSame && p->padding != kTfLitePaddingValid)
      return Fail("unknown padding");
    const int oc = Dim(filter, 0), kh = Dim(filter, 1), kw = Dim(filter, 2), gic = Dim(filter, 3);
    const int ic = Dim(in, 3);
    if (ic % gic != 0) return Fail("input channels not a multiple of filter channels");
    const int groups = ic / gic;
    if (oc % groups != 0 || Dim(out, 3) != oc) return Fail("output channels mismatch");
    if (bias >= 0 && Dim(bias, 0) != oc) return Fail("bias size mismatch");
    if (!Defining()) return kTfLiteOk;
    return Check(
        xnn_define_convolution_2d(
            subgraph_, 0, 0, 0, 0, kh, kw, p->stride_height, p->stride_width,
            p->dilation_height_factor, p->dilation_width_factor, groups, gic, oc / groups, lo, hi,
            Id(in), Id(filter), bias >= 0 ? Id(bias) : XNN_INVALID_VALUE_ID, Id(out),
            p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0),
        "xnn_define_convolution_2d");
  }

  TfLiteStatus VisitDepthwiseConv2d(const TfLiteNode* n, const TfLiteDepthwiseConvParams* p) {
    if (!p || !Arity(n, 2, 3, 1)) return kTfLiteError;
    const int in = In(n, 0), filter = In(n, 1), bias = In(n, 2), out = Out(n, 0);
    if (!IsDynamicFloat(in, 4, 4) || !IsStaticFloat(filter, 4, 4) || !IsDynamicFloat(out, 4, 4))
      return Fail("unsupported tensor types/shapes");
    if (bias >= 0 && !IsStaticFloat(bias, 1, 1)) return Fail("bias must be a static float32 vector");
    float lo, hi;
    if (!ActivationRange(p->activation, &lo, &hi)) return Fail("unsupported fused activation");
    if (p->stride_width <= 0 || p->stride_height <= 0 || p->dilation_width_factor <= 0 ||
        p->dilation_height_factor <= 0)
      return Fail("invalid strides/dilations");
    if (p->padding != kTfLitePaddingSame && p->padding != kTfLitePaddingValid)
      return Fail("unknown padding");
    if (Dim(filter, 0) != 1) return Fail("filter must be [1, h, w, c]");
    const int kh = Dim(filter, 1), kw = Dim(filter, 2), oc = Dim(filter, 3), ic = Dim(in, 3);
    if (oc % ic != 0 || Dim(out, 3) != oc) return Fail("channel mismatch");
    if (bias >= 0 && Dim(bias, 0) != oc) return Fail("bias size mismatch");
    if (!Defining()) return kTfLiteOk;
    return Check(
        xnn_define_depthwise_convolution_2d(
            subgraph_, 0, 0, 0, 0, kh, kw, p->stride_height, p->stride_width,
            p->dilation_height_factor, p->dilation_width_factor, oc / ic, ic, lo, hi, Id(in),
            Id(filter), bias >= 0 ? Id(bias) : XNN_INVALID_VALUE_ID, Id(out),
            p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0),
        "xnn_define_depthwise_convolution_2d");
  }

  TfLiteStatus VisitFullyConnected(const TfLiteNode* n, const TfLiteFullyConnectedParams* p) {
    if (!p || !Arity(n, 2, 3, 1)) return kTfLiteError;
    const int in = In(n, 0), filter = In(n, 1), bias = In(n, 2), out = Out(n, 0);
    if (p->weights_format != kTfLiteFullyConnectedWeightsFormatDefault)
      return Fail("unsupported weights format");
    if (!IsDynamicFloat(in, 1) || !IsStaticFloat(filter, 2, 2) || !IsDynamicFloat(out, 1))
      return Fail("unsupported tensor types/shapes");
    if (bias >= 0 && !IsStaticFloat(bias, 1, 1)) return Fail("bias must be a static float32 vector");
    float lo, hi;
    if (!ActivationRange(p->activation, &lo, &hi)) return Fail("unsupported fused activation");
    const int oc = Dim(filter, 0), ic = Dim(filter, 1);
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
    return Check(xnn_define_fully_connected(subgraph_, lo, hi, Id(in), Id(filter),
                                            bias >= 0 ? Id(bias) : XNN_INVALID_VALUE_ID, Id(out),
                                            flags),
                 "xnn_define_fully_connected");
  }

  TfLiteStatus VisitBinary(const TfLiteNode* n, xnn_binary_operator op, TfLiteFusedActivation act) {
    if (!Arity(n, 2, 2, 1)) return kTfLiteError;
    const int a = In(n, 0), b = In(n, 1), out = Out(n, 0);
    if (!IsFloat(a) || !IsFloat(b) || !IsDynamicFloat(out)) return Fail("unsupported tensor types");
    if (IsStatic(a) && IsStatic(b)) return Fail("both inputs static");
    if ((IsStatic(a) && StaticPointer(a) == nullptr) || (IsStatic(b) && StaticPointer(b) == nullptr))
      return Fail("static input without data");
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
    return Check(xnn_define_binary(subgraph_, op, &params, Id(a), Id(b), Id(out), 0),
                 "xnn_define_binary");
  }

  TfLiteStatus VisitPool(const TfLiteNode* n, bool max, const TfLitePoolParams* p) {
    if (!p || !Arity(n, 1, 1, 1)) return kTfLiteError;
    const int in = In(n, 0), out = Out(n, 0);
    if (!IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(out, 4, 4)) return Fail("unsupported tensors");
    float lo, hi;
    if (!ActivationRange(p->activation, &lo, &hi)) return Fail("unsupported fused activation");
    if (p->stride_width <= 0 || p->stride_height <= 0 || p->filter_width <= 0 ||
        p->filter_height <= 0)
      return Fail("invalid pooling parameters");
    if (p->padding != kTfLitePaddingSame && p->padding != kTfLitePaddingValid)
      return Fail("unknown padding");
    const uint32_t flags = p->padding == kTfLitePaddingSame ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
    if (p->filter_width == 1 && p->filter_height == 1) {
      if (p->stride_width != 1 || p->stride_height != 1)
        return Fail("1x1 pooling with non-unit stride");
      if (!Defining()) return kTfLiteOk;
      xnn_unary_params params;
      params.clamp.min = lo;
      params.clamp.max = hi;
      return Check(xnn_define_unary(subgraph_, xnn_unary_clamp, &params, Id(in), Id(out), 0),
                   "xnn_define_unary(clamp)");
    }
    if (!Defining()) return kTfLiteOk;
    if (max) {
      return Check(xnn_define_max_pooling_2d(subgraph_, 0, 0, 0, 0, p->filter_height,
                                             p->filter_width, p->stride_height, p->stride_width, 1,
                                             1, lo, hi, Id(in), Id(out), flags),
                   "xnn_define_max_pooling_2d");
    }
    return Check(xnn_define_average_pooling_2d(subgraph_, 0, 0, 0, 0, p->filter_height,
                                               p->filter_width, p->stride_height, p->stride_width,
                                               lo, hi, Id(in), Id(out), flags),
                 "xnn_define_average_pooling_2d");
  }

  TfLiteStatus VisitClamp(const TfLiteNode* n, float lo, float hi) {
    if (!Arity(n, 1, 1, 1)) return kTfLiteError;
    const int in = In(n, 0), out = Out(n, 0);
    if (!IsDynamicFloat(in) || !IsDynamicFloat(out)) return Fail("unsupported tensors");
    if (!Defining()) return kTfLiteOk;
    xnn_unary_params params;
    params.clamp.min = lo;
    params.clamp.max = hi;
    return Check(xnn_define_unary(subgraph_, xnn_unary_clamp, &params, Id(in), Id(out), 0),
                 "xnn_define_unary(clamp)");
  }

  TfLiteStatus VisitUnary(const TfLiteNode* n, xnn_unary_operator op) {
    if (!Arity(n, 1, 1, 1)) return kTfLiteError;
    const int in = In(n, 0), out = Out(n, 0);
    if (!IsDynamicFloat(in) || !IsDynamicFloat(out)) return Fail("unsupported tensors");
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_unary(subgraph_, op, nullptr, Id(in), Id(out), 0), "xnn_define_unary");
  }

  TfLiteStatus VisitPad(const TfLiteNode* n) {
    if (!Arity(n, 2, 2, 1)) return kTfLiteError;
    const int in = In(n, 0), pads = In(n, 1), out = Out(n, 0);
    if (!IsDynamicFloat(in, 1) || !IsDynamicFloat(out, 1)) return Fail("unsupported tensors");
    std::vector<int64_t> v;
    if (!StaticInts(pads, &v)) return Fail("paddings must be a static int tensor");
    const int rank = NumDims(in);
    if (NumDims(pads) != 2 || Dim(pads, 0) != rank || Dim(pads, 1) != 2 || NumDims(out) != rank)
      return Fail("paddings shape mismatch");
    size_t pre[XNN_MAX_TENSOR_DIMS], post[XNN_MAX_TENSOR_DIMS];
    for (int i = 0; i < rank; ++i) {
      if (v[2 * i] < 0 || v[2 * i + 1] < 0) return Fail("negative padding");
      pre[i] = static_cast<size_t>(v[2 * i]);
      post[i] = static_cast<size_t>(v[2 * i + 1]);
      if (static_cast<int64_t>(Dim(out, i)) != Dim(in, i) + v[2 * i] + v[2 * i + 1])
        return Fail("output shape mismatch");
    }
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_static_constant_pad(subgraph_, pre, post, 0.0f, Id(in), Id(out), 0),
                 "xnn_define_static_constant_pad");
  }

  TfLiteStatus VisitConcatenation(const TfLiteNode* n, const TfLiteConcatenationParams* p) {
    if (!p || n->inputs->size < 2 || n->inputs->size > 5 || n->outputs->size != 1)
      return Fail("only 2 to 5 inputs");
    if (p->activation != kTfLiteActNone) return Fail("fused activation");
    const int out = Out(n, 0);
    if (!IsDynamicFloat(out, 1)) return Fail("unsupported output");
    const int rank = NumDims(out);
    int axis = p->axis < 0 ? p->axis + rank : p->axis;
    if (axis < 0 || axis >= rank) return Fail("invalid axis");
    int total = 0;
    for (int i = 0; i < n->inputs->size; ++i) {
      const int t = In(n, i);
      if (!IsDynamicFloat(t, rank, rank)) return Fail("inputs must be non-constant float32");
      for (int d = 0; d < rank; ++d)
        if (d != axis && Dim(t, d) != Dim(out, d)) return Fail("input shape mismatch");
      total += Dim(t, axis);
    }
    if (total != Dim(out, axis)) return Fail("output shape mismatch");
    if (!Defining()) return kTfLiteOk;
    const uint32_t o = Id(out);
    switch (n->inputs->size) {
      case 2:
        return Check(xnn_define_concatenate2(subgraph_, axis, Id(In(n, 0)), Id(In(n, 1)), o, 0),
                     "xnn_define_concatenate2");
      case 3:
        return Check(xnn_define_concatenate3(subgraph_, axis, Id(In(n, 0)), Id(In(n, 1)),
                                             Id(In(n, 2)), o, 0),
                     "xnn_define_concatenate3");
      case 4:
        return Check(xnn_define_concatenate4(subgraph_, axis, Id(In(n, 0)), Id(In(n, 1)),
                                             Id(In(n, 2)), Id(In(n, 3)), o, 0),
                     "xnn_define_concatenate4");
      default:
        return Check(xnn_define_concatenate5(subgraph_, axis, Id(In(n, 0)), Id(In(n, 1)),
                                             Id(In(n, 2)), Id(In(n, 3)), Id(In(n, 4)), o, 0),
                     "xnn_define_concatenate5");
    }
  }

  TfLiteStatus VisitReshape(const TfLiteNode* n) {
    if (!Arity(n, 1, 2, 1)) return kTfLiteError;
    const int in = In(n, 0), shape = In(n, 1), out = Out(n, 0);
    if (!IsDynamicFloat(in) || !IsDynamicFloat(out, 1)) return Fail("unsupported tensors");
    size_t elements_in = 1, elements_out = 1;
    for (int i = 0; i < NumDims(in); ++i) elements_in *= static_cast<size_t>(Dim(in, i));
    for (int i = 0; i < NumDims(out); ++i) elements_out *= static_cast<size_t>(Dim(out, i));
    if (elements_in != elements_out) return Fail("element count mismatch");
    size_t dims[XNN_MAX_TENSOR_DIMS];
    const int rank = NumDims(out);
    for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(Dim(out, i));
    if (shape >= 0) {
      std::vector<int64_t> v;
      if (!StaticInts(shape, &v)) return Fail("new shape must be static");
      if (static_cast<int>(v.size()) != rank) return Fail("new shape rank mismatch");
      int inferred = 0;
      for (int i = 0; i < rank; ++i) {
        if (v[i] == -1) {
          ++inferred;
          dims[i] = 0;  // XNNPACK infers it (keeps working after input resizes)
        } else if (v[i] != Dim(out, i)) {
          return Fail("new shape mismatch");
        }
      }
      if (inferred > 1) return Fail("more than one inferred dimension");
    }
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_static_reshape(subgraph_, rank, dims, Id(in), Id(out), 0),
                 "xnn_define_static_reshape");
  }

  TfLiteStatus VisitSoftmax(const TfLiteNode* n, const TfLiteSoftmaxParams* p) {
    if (!p || !Arity(n, 1, 1, 1)) return kTfLiteError;
    if (p->beta != 1.0f) return Fail("beta != 1");
    const int in = In(n, 0), out = Out(n, 0);
    if (!IsDynamicFloat(in, 1) || !IsDynamicFloat(out, 1)) return Fail("unsupported tensors");
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_softmax(subgraph_, Id(in), Id(out), 0), "xnn_define_softmax");
  }

  TfLiteStatus VisitMean(const TfLiteNode* n, const TfLiteReducerParams* p) {
    if (!p || !Arity(n, 2, 2, 1)) return kTfLiteError;
    const int in = In(n, 0), axes_t = In(n, 1), out = Out(n, 0);
    if (!IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(out)) return Fail("unsupported tensors");
    std::vector<int64_t> v;
    if (!StaticInts(axes_t, &v) || v.empty()) return Fail("axes must be static");
    const int rank = NumDims(in);
    std::vector<size_t> axes;
    for (int64_t a : v) {
      if (a < 0) a += rank;
      if (a < 0 || a >= rank) return Fail("invalid axis");
      axes.push_back(static_cast<size_t>(a));
    }
    std::sort(axes.begin(), axes.end());
    axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
    // Reduction over the spatial dimensions (H, W) or over W only.
    const bool spatial = axes == std::vector<size_t>{1, 2} || axes == std::vector<size_t>{2};
    if (!spatial) return Fail("only [1, 2] and [2] axes");
    const int out_rank = p->keep_dims ? rank : rank - static_cast<int>(axes.size());
    if (NumDims(out) != out_rank) return Fail("output rank mismatch");
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_static_reduce(subgraph_, xnn_reduce_mean, axes.size(), axes.data(),
                                          Id(in), Id(out), p->keep_dims ? XNN_FLAG_KEEP_DIMS : 0),
                 "xnn_define_static_reduce");
  }

  TfLiteStatus VisitPrelu(const TfLiteNode* n) {
    if (!Arity(n, 2, 2, 1)) return kTfLiteError;
    const int in = In(n, 0), slope = In(n, 1), out = Out(n, 0);
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
    return Check(xnn_define_binary(subgraph_, xnn_binary_prelu, nullptr, Id(in), Id(slope), Id(out),
                                   0),
                 "xnn_define_binary(prelu)");
  }

  TfLiteStatus VisitResizeBilinear(const TfLiteNode* n, const TfLiteResizeBilinearParams* p) {
    if (!p || !Arity(n, 2, 2, 1)) return kTfLiteError;
    const int in = In(n, 0), size = In(n, 1), out = Out(n, 0);
    if (!IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(out, 4, 4)) return Fail("unsupported tensors");
    std::vector<int64_t> v;
    if (!StaticInts(size, &v) || v.size() != 2) return Fail("size must be static");
    if (v[0] <= 0 || v[1] <= 0 || v[0] != Dim(out, 1) || v[1] != Dim(out, 2))
      return Fail("invalid output size");
    if (p->align_corners && p->half_pixel_centers) return Fail("align_corners with half_pixel_centers");
    uint32_t flags = 0;
    if (p->align_corners) flags = XNN_FLAG_ALIGN_CORNERS;
    else if (!p->half_pixel_centers) flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
    if (!Defining()) return kTfLiteOk;
    return Check(xnn_define_static_resize_bilinear_2d(subgraph_, static_cast<size_t>(v[0]),
                                                      static_cast<size_t>(v[1]), Id(in), Id(out),
                                                      flags),
                 "xnn_define_static_resize_bilinear_2d");
  }

  TfLiteContext* context_;
  const StaticMap* statics_;
  xnn_subgraph_t subgraph_;
  const std::vector<uint32_t>* ids_;
  int node_index_ = -1;
};

// The tensors an XNNPACK node reads/writes as values (not shape/axes inputs).
void ValueTensors(int builtin_code, const TfLiteNode* node, std::vector<int>* out) {
  int data_inputs = node->inputs->size;
  switch (builtin_code) {
    case kTfLiteBuiltinPad:
    case kTfLiteBuiltinReshape:
    case kTfLiteBuiltinMean:
    case kTfLiteBuiltinResizeBilinear:
      data_inputs = 1;
      break;
    default:
      break;
  }
  for (int i = 0; i < data_inputs; ++i)
    if (node->inputs->data[i] >= 0) out->push_back(node->inputs->data[i]);
  for (int i = 0; i < node->outputs->size; ++i)
    if (node->outputs->data[i] >= 0) out->push_back(node->outputs->data[i]);
}

// ---- the kernel of one partition -------------------------------------------------------

struct Kernel {
  Delegate* delegate = nullptr;
  xnn_runtime_t runtime = nullptr;
  std::vector<int> external_inputs;   // tensor indices (= external ids)
  std::vector<int> external_outputs;  // computed by XNNPACK
  std::vector<std::pair<int, StaticData>> static_outputs;  // copied at Invoke
  StaticMap statics;                  // keeps unpacked fp16 weights alive
  std::vector<std::vector<int>> input_dims;  // at the last reshape
  std::vector<xnn_external_value> values;    // Invoke's scratch
  bool reshaped = false;
  bool ok = false;

  ~Kernel() {
    if (runtime) xnn_delete_runtime(runtime);
  }
};

std::vector<int> DimsOf(const TfLiteTensor& t) {
  return t.dims ? std::vector<int>(t.dims->data, t.dims->data + t.dims->size) : std::vector<int>();
}

void* KernelInit(TfLiteContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  auto* kernel = new Kernel;
  Delegate* delegate = FromTfLite(params->delegate);
  kernel->delegate = delegate;
  const StaticMap* pending = delegate->pending_static;

  // Which tensors become XNNPACK values, and in what role.
  std::vector<TfLiteNode*> nodes;
  std::vector<TfLiteRegistration*> regs;
  std::vector<int> node_ids;
  std::vector<char> used(context->tensors_size, 0);
  for (int i = 0; i < params->nodes_to_replace->size; ++i) {
    const int node_index = params->nodes_to_replace->data[i];
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk) return kernel;
    if (reg->builtin_code == kTfLiteBuiltinDequantize) continue;  // static fp16 weights
    nodes.push_back(node);
    regs.push_back(reg);
    node_ids.push_back(node_index);
    std::vector<int> ts;
    ValueTensors(reg->builtin_code, node, &ts);
    for (int t : ts) used[t] = 1;
  }
  if (pending) {
    for (auto& kv : *pending) {
      if (used[kv.first]) kernel->statics.insert(kv);
    }
  }
  std::vector<char> is_input(context->tensors_size, 0), is_output(context->tensors_size, 0);
  for (int i = 0; i < params->input_tensors->size; ++i) {
    const int t = params->input_tensors->data[i];
    if (t >= 0) is_input[t] = 1;
  }
  for (int i = 0; i < params->output_tensors->size; ++i) {
    const int t = params->output_tensors->data[i];
    if (t < 0) continue;
    is_output[t] = 1;
    if (pending && pending->count(t)) kernel->static_outputs.emplace_back(t, pending->at(t));
  }

  xnn_subgraph_t subgraph = nullptr;
  if (xnn_create_subgraph(static_cast<uint32_t>(context->tensors_size), 0, &subgraph) !=
      xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_create_subgraph failed");
    return kernel;
  }
  std::unique_ptr<xnn_subgraph, xnn_status (*)(xnn_subgraph_t)> subgraph_owner(subgraph,
                                                                               xnn_delete_subgraph);
  std::vector<uint32_t> ids(context->tensors_size, XNN_INVALID_VALUE_ID);
  OpBuilder checker(context, &kernel->statics, nullptr, nullptr);
  for (size_t t = 0; t < context->tensors_size; ++t) {
    if (!used[t]) continue;
    const TfLiteTensor& tensor = context->tensors[t];
    size_t dims[XNN_MAX_TENSOR_DIMS];
    const int rank = tensor.dims ? tensor.dims->size : 0;
    for (int i = 0; i < rank; ++i) dims[i] = static_cast<size_t>(tensor.dims->data[i]);
    const void* data = nullptr;
    uint32_t external_id = XNN_INVALID_VALUE_ID, flags = 0;
    if (checker.IsStatic(static_cast<int>(t))) {
      auto it = kernel->statics.find(static_cast<int>(t));
      data = it != kernel->statics.end() ? static_cast<const void*>(it->second->data())
                                         : static_cast<const void*>(tensor.data.raw);
    } else {
      if (is_input[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_INPUT;
        kernel->external_inputs.push_back(static_cast<int>(t));
      }
      if (is_output[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        kernel->external_outputs.push_back(static_cast<int>(t));
      }
    }
    if (xnn_define_tensor_value(subgraph, xnn_datatype_fp32, rank, dims, data, external_id, flags,
                                &ids[t]) != xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot define tensor %d", static_cast<int>(t));
      return kernel;
    }
  }
  OpBuilder builder(context, &kernel->statics, subgraph, &ids);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (builder.Visit(node_ids[i], nodes[i], regs[i]) != kTfLiteOk) return kernel;
  }
  const xnn_status s =
      xnn_create_runtime_v4(subgraph, ToXnn(delegate->options.weights_cache), /*workspace=*/nullptr,
                            delegate->threadpool, delegate->RuntimeFlags(), &kernel->runtime);
  if (s != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_create_runtime failed (status %d)",
                         static_cast<int>(s));
    kernel->runtime = nullptr;
    return kernel;
  }
  kernel->ok = true;
  return kernel;
}

void KernelFree(TfLiteContext*, void* buffer) { delete static_cast<Kernel*>(buffer); }

TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr || !kernel->ok) {
    context->ReportError(context, "XNNPACK delegate: the delegated subgraph could not be built");
    return kTfLiteError;
  }
  std::vector<std::vector<int>> dims;
  for (int t : kernel->external_inputs) dims.push_back(DimsOf(context->tensors[t]));
  if (kernel->reshaped && dims == kernel->input_dims) return kTfLiteOk;

  for (size_t i = 0; i < kernel->external_inputs.size(); ++i) {
    size_t d[XNN_MAX_TENSOR_DIMS];
    if (dims[i].size() > XNN_MAX_TENSOR_DIMS) return kTfLiteError;
    for (size_t k = 0; k < dims[i].size(); ++k) d[k] = static_cast<size_t>(dims[i][k]);
    if (xnn_reshape_external_value(kernel->runtime, kernel->external_inputs[i], dims[i].size(), d) !=
        xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot reshape input tensor %d",
                           kernel->external_inputs[i]);
      return kTfLiteError;
    }
  }
  if (xnn_reshape_runtime(kernel->runtime) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_reshape_runtime failed");
    return kTfLiteError;
  }
  for (int t : kernel->external_outputs) {
    size_t rank = 0, d[XNN_MAX_TENSOR_DIMS];
    if (xnn_get_external_value_shape(kernel->runtime, t, &rank, d) != xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot get the shape of tensor %d", t);
      return kTfLiteError;
    }
    std::vector<int> shape(d, d + rank);
    if (shape == DimsOf(context->tensors[t])) continue;
    TfLiteIntArray* new_dims = TfLiteIntArrayCreate(static_cast<int>(rank));
    for (size_t k = 0; k < rank; ++k) new_dims->data[k] = static_cast<int>(d[k]);
    if (context->ResizeTensor(context, &context->tensors[t], new_dims) != kTfLiteOk)
      return kTfLiteError;
  }
  kernel->input_dims = std::move(dims);
  kernel->reshaped = true;
  return kTfLiteOk;
}

TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr || !kernel->ok) return kTfLiteError;
  xnn_weights_cache_t cache = ToXnn(kernel->delegate->options.weights_cache);
  if (cache != nullptr && !xnn_weights_cache_is_finalized(cache)) {
    context->ReportError(context,
                         "XNNPACK delegate: the weights cache must be finalized "
                         "(TfLiteXNNPackDelegateWeightsCacheFinalizeSoft/Hard) before inference");
    return kTfLiteError;
  }
  std::vector<xnn_external_value>& values = kernel->values;  // reused: no allocation per run
  values.clear();
  for (int t : kernel->external_inputs)
    values.push_back({static_cast<uint32_t>(t), context->tensors[t].data.raw});
  for (int t : kernel->external_outputs)
    values.push_back({static_cast<uint32_t>(t), context->tensors[t].data.raw});
  if (xnn_setup_runtime_v2(kernel->runtime, values.size(), values.data()) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_setup_runtime failed");
    return kTfLiteError;
  }
  if (xnn_invoke_runtime(kernel->runtime) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_invoke_runtime failed");
    return kTfLiteError;
  }
  for (auto& so : kernel->static_outputs) {
    TfLiteTensor& t = context->tensors[so.first];
    const size_t bytes = std::min(t.bytes, so.second->size() * sizeof(float));
    if (t.data.raw) std::memcpy(t.data.raw, so.second->data(), bytes);
  }
  return kTfLiteOk;
}

// ---- DelegatePrepare: choose the nodes --------------------------------------------

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* base) {
  Delegate* delegate = FromTfLite(base);
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;

  struct Entry {
    int index;
    TfLiteNode* node;
    TfLiteRegistration* reg;
  };
  std::vector<Entry> entries;
  for (int i = 0; i < plan->size; ++i) {
    Entry e{plan->data[i], nullptr, nullptr};
    if (context->GetNodeAndRegistration(context, e.index, &e.node, &e.reg) != kTfLiteOk)
      return kTfLiteError;
    entries.push_back(e);
  }

  // fp16 constant -> DEQUANTIZE -> float32: the output becomes a static value.
  StaticMap statics;
  std::unordered_map<int, int> dequant_node_of;  // output tensor -> node index
  for (const Entry& e : entries) {
    if (e.reg->builtin_code != kTfLiteBuiltinDequantize || e.node->inputs->size != 1 ||
        e.node->outputs->size != 1)
      continue;
    const int in = e.node->inputs->data[0], out = e.node->outputs->data[0];
    if (in < 0 || out < 0) continue;
    const TfLiteTensor& ti = context->tensors[in];
    const TfLiteTensor& to = context->tensors[out];
    if (ti.type != kTfLiteFloat16 || ti.allocation_type != kTfLiteMmapRo || ti.data.raw == nullptr ||
        to.type != kTfLiteFloat32)
      continue;
    const size_t n = ti.bytes / 2;
    auto data = std::make_shared<std::vector<float>>(n + XNN_EXTRA_BYTES / sizeof(float));
    const auto* half = reinterpret_cast<const uint16_t*>(ti.data.raw);
    for (size_t k = 0; k < n; ++k) (*data)[k] = HalfToFloat(half[k]);
    statics[out] = data;
    dequant_node_of[out] = e.index;
  }

  OpBuilder checker(context, &statics, nullptr, nullptr);
  std::unordered_map<int, bool> claimed;
  for (const Entry& e : entries) {
    if (e.reg->builtin_code == kTfLiteBuiltinDequantize) continue;
    if (e.reg->custom_name != nullptr && e.reg->builtin_code == kTfLiteBuiltinCustom) continue;
    claimed[e.index] = checker.Visit(e.index, e.node, e.reg) == kTfLiteOk;
  }
  // A DEQUANTIZE goes with its consumers only if all of them are delegated.
  std::unordered_map<int, int> consumers, unclaimed_consumers;
  for (const Entry& e : entries) {
    for (int i = 0; i < e.node->inputs->size; ++i) {
      const int t = e.node->inputs->data[i];
      if (t < 0 || !dequant_node_of.count(t)) continue;
      ++consumers[t];
      if (!claimed[e.index]) ++unclaimed_consumers[t];
    }
  }
  for (auto& kv : dequant_node_of) {
    claimed[kv.second] = consumers[kv.first] > 0 && unclaimed_consumers[kv.first] == 0;
  }

  std::vector<int> supported;
  for (const Entry& e : entries)
    if (claimed[e.index]) supported.push_back(e.index);
  if (supported.empty()) return kTfLiteOk;

  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(supported.size()));
  std::copy(supported.begin(), supported.end(), nodes->data);

  TfLiteRegistration reg = {};
  reg.init = KernelInit;
  reg.free = KernelFree;
  reg.prepare = KernelPrepare;
  reg.invoke = KernelInvoke;
  reg.builtin_code = kTfLiteBuiltinDelegate;
  reg.custom_name = "TfLiteXNNPackDelegate";
  reg.version = 1;

  delegate->pending_static = &statics;
  const TfLiteStatus status =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, nodes, base);
  delegate->pending_static = nullptr;
  TfLiteIntArrayFree(nodes);
  return status;
}

TfLiteDelegate* CreateDelegate(const TfLiteXNNPackDelegateOptions* options) {
  if (!InitializeXnnpack()) {
    Log("XNNPACK cannot run on this CPU (xnn_initialize failed)");
    return nullptr;
  }
  auto* d = new Delegate;
  d->base = TfLiteDelegateCreate();
  d->options = options ? *options : TfLiteXNNPackDelegateOptionsDefault();
  if (d->options.handle_variable_ops)
    d->options.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS;
  if (d->options.weights_cache == nullptr &&
      ((d->options.weight_cache_file_path && d->options.weight_cache_file_path[0]) ||
       d->options.weight_cache_file_descriptor > 0 || d->options.weight_cache_provider)) {
    Log("unsupported: the file-backed weight cache (weight_cache_file_path / _descriptor / "
        "_provider) is not available in this build; weights are packed in memory");
  }
  if (d->options.num_threads > 1) {
    d->threadpool = pthreadpool_create(static_cast<size_t>(d->options.num_threads));
    if (d->threadpool == nullptr) {
      Log("cannot create a thread pool of %d threads", static_cast<int>(d->options.num_threads));
      delete d;
      return nullptr;
    }
  }
  d->base.data_ = d;
  d->base.Prepare = DelegatePrepare;
  // Each kernel reshapes its runtime in Prepare from the current input
  // shapes, so graphs with dynamic tensors elsewhere are fine.
  d->base.flags = (d->options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_SUBGRAPH_RESHAPING)
                      ? kTfLiteDelegateFlagsNone
                      : kTfLiteDelegateFlagsAllowDynamicTensors;
  return &d->base;
}

}  // namespace
}  // namespace xnnpack

TfLiteDelegate* MaybeCreateDefaultXnnpackDelegate(int num_threads) {
  TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
  options.num_threads = num_threads > 1 ? num_threads : 1;
  return xnnpack::CreateDelegate(&options);
}

}  // namespace tflite_c

// ---- C API ---------------------------------------------------------------------------

extern "C" {

bool TfLiteXNNPackDelegateCanUseInMemoryWeightCacheProvider(void) { return false; }

const char* TfLiteXNNPackDelegateInMemoryFilePath(void) { return ":memory"; }

TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void) {
  TfLiteXNNPackDelegateOptions o;
  std::memset(&o, 0, sizeof(o));
  o.num_threads = 0;  // no thread pool
  o.weight_cache_file_descriptor = -1;  // none
  // Quantized paths are on by default upstream (not implemented in this
  // increment: such nodes stay on the builtin kernels).
  o.flags = TFLITE_XNNPACK_DELEGATE_FLAG_QS8 | TFLITE_XNNPACK_DELEGATE_FLAG_QU8;
  return o;
}

TfLiteDelegate* TfLiteXNNPackDelegateCreate(const TfLiteXNNPackDelegateOptions* options) {
  return tflite_c::xnnpack::CreateDelegate(options);
}

TfLiteDelegate* TfLiteXNNPackDelegateCreateWithThreadpool(
    const TfLiteXNNPackDelegateOptions* options, TfLiteContext*) {
  return tflite_c::xnnpack::CreateDelegate(options);
}

void* TfLiteXNNPackDelegateGetThreadPool(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return nullptr;
  return tflite_c::xnnpack::FromTfLite(delegate)->threadpool;
}

const TfLiteXNNPackDelegateOptions* TfLiteXNNPackDelegateGetOptions(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return nullptr;
  return &tflite_c::xnnpack::FromTfLite(delegate)->options;
}

int TfLiteXNNPackDelegateGetFlags(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return 0;
  return static_cast<int>(tflite_c::xnnpack::FromTfLite(delegate)->options.flags);
}

void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  auto* d = tflite_c::xnnpack::FromTfLite(delegate);
  if (d->threadpool) pthreadpool_destroy(d->threadpool);
  delete d;
}

TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreate(void) {
  if (!tflite_c::xnnpack::InitializeXnnpack()) return nullptr;
  xnn_weights_cache_t cache = nullptr;
  if (xnn_create_weights_cache(&cache) != xnn_status_success) return nullptr;
  return reinterpret_cast<TfLiteXNNPackDelegateWeightsCache*>(cache);
}

TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreateWithSize(size_t size) {
  if (!tflite_c::xnnpack::InitializeXnnpack()) return nullptr;
  xnn_weights_cache_t cache = nullptr;
  if (xnn_create_weights_cache_with_size(size, &cache) != xnn_status_success) return nullptr;
  return reinterpret_cast<TfLiteXNNPackDelegateWeightsCache*>(cache);
}

bool TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return false;
  return xnn_finalize_weights_cache(tflite_c::xnnpack::ToXnn(cache),
                                    xnn_weights_cache_finalization_kind_soft) == xnn_status_success;
}

bool TfLiteXNNPackDelegateWeightsCacheFinalizeHard(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return false;
  return xnn_finalize_weights_cache(tflite_c::xnnpack::ToXnn(cache),
                                    xnn_weights_cache_finalization_kind_hard) == xnn_status_success;
}

void TfLiteXNNPackDelegateWeightsCacheDelete(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return;
  xnn_delete_weights_cache(tflite_c::xnnpack::ToXnn(cache));
}

}  // extern "C"

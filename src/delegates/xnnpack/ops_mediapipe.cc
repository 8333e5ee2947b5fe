// MediaPipe custom operators the XNNPACK delegate takes, found by custom_name
// (their options are the raw bytes of a TfLiteTransposeConvParams /
// TfLitePoolParams struct in custom_initial_data, read like the builtin
// kernels in src/kernels/mediapipe/ read them):
//
//   Convolution2DTransposeBias  float32; static filter [O, KH, KW, I] and bias
//                               [O]; output H * stride (SAME) or
//                               (H - 1) * stride + KH (VALID), as the kernel.
//   MaxPoolingWithArgmax2D      float32, stride == filter size, no fused
//                               activation, no padding actually applied.
//   MaxUnpooling2D              float32, stride == filter size.
//
// XNNPACK's argmax pooling writes uint32 window positions in column-major
// order, MediaPipe's kernel float (or int32) positions in row-major order, so
// the indices are only meaningful to XNNPACK's own unpooling. Hence both ops
// are taken only as a pair: an argmax pooling whose indices are read by
// MaxUnpooling2D nodes only (as their index input), all of which XNNPACK can
// run, and an unpooling whose indices come from such an argmax pooling. The
// composition then equals the builtin kernels' except where a window holds
// the same nonzero maximum more than once (XNNPACK puts it at the first
// position in column-major order, MediaPipe in row-major order).
#include <cstring>
#include <limits>

#include "src/delegates/xnnpack/op_builder.h"
#include "src/kernels/mediapipe/mediapipe_common.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace xnnpack {

namespace {

constexpr char kTransposeConvBias[] = "Convolution2DTransposeBias";
constexpr char kArgmaxPool[] = "MaxPoolingWithArgmax2D";
constexpr char kUnpool[] = "MaxUnpooling2D";

bool Named(const TfLiteRegistration* reg, const char* name) {
  return reg != nullptr && reg->builtin_code == kTfLiteBuiltinCustom &&
         reg->custom_name != nullptr && std::strcmp(reg->custom_name, name) == 0;
}

// The options struct from custom_initial_data: missing bytes stay zero, and
// enum words outside their enum are clamped as the builtin kernels do
// (padding unknown, which the visitors refuse).
template <typename Params>
Params CustomParams(const TfLiteNode* n) {
  Params p;
  std::memset(&p, 0, sizeof(p));
  if (n->custom_initial_data != nullptr && n->custom_initial_data_size > 0) {
    const size_t size = static_cast<size_t>(n->custom_initial_data_size);
    std::memcpy(&p, n->custom_initial_data, size < sizeof(p) ? size : sizeof(p));
  }
  mediapipe::ClampWindowEnums(&p);
  return p;
}

// XNNPACK's argmax pooling and unpooling refuse a 1x1 window at definition.
bool SquareWindow(const TfLitePoolParams& p) {
  const bool one_pixel = p.filter_width == 1 && p.filter_height == 1;
  return p.filter_width > 0 && p.filter_height > 0 && !one_pixel &&
         p.stride_width == p.filter_width && p.stride_height == p.filter_height &&
         p.filter_width <= 255 && p.filter_height <= 255 &&
         (p.padding == kTfLitePaddingSame || p.padding == kTfLitePaddingValid);
}

}  // namespace

bool OpBuilder::KnownCustomOp(const char* name) {
  return name != nullptr && (std::strcmp(name, kTransposeConvBias) == 0 ||
                             std::strcmp(name, kArgmaxPool) == 0 ||
                             std::strcmp(name, kUnpool) == 0 || std::strcmp(name, kSdpa) == 0);
}

TfLiteStatus OpBuilder::VisitCustom(const TfLiteNode* n, const TfLiteRegistration* reg) {
  if (Named(reg, kTransposeConvBias)) return VisitTransposeConvBias(n);
  if (Named(reg, kArgmaxPool)) return VisitArgmaxPool(n, /*pair_check=*/!Defining());
  if (Named(reg, kUnpool)) return VisitUnpool(n, /*pair_check=*/!Defining());
  if (Named(reg, kSdpa))  // ops_attention.cc
    return VisitScaledDotProductAttention(
        n, n->custom_initial_data,
        n->custom_initial_data_size > 0 ? static_cast<size_t>(n->custom_initial_data_size) : 0);
  return kTfLiteError;
}

TfLiteStatus OpBuilder::VisitTransposeConvBias(const TfLiteNode* n) {
  if (!Arity(n, 3, 3, 1)) return Fail("%s needs 3 inputs and 1 output", kTransposeConvBias);
  const auto p = CustomParams<TfLiteTransposeConvParams>(n);
  const int in = InputTensor(n, 0), filter = InputTensor(n, 1), bias = InputTensor(n, 2),
            out = OutputTensor(n, 0);
  if (!IsDynamicFloat(in, 4, 4) || !IsStaticFloat(filter, 4, 4) || !IsStaticFloat(bias, 1, 1) ||
      !IsDynamicFloat(out, 4, 4))
    return Fail("%s: unsupported tensor types/shapes", kTransposeConvBias);
  if (p.stride_width <= 0 || p.stride_height <= 0 ||
      (p.padding != kTfLitePaddingSame && p.padding != kTfLitePaddingValid))
    return Fail("%s: invalid strides or padding", kTransposeConvBias);
  const int oc = Dim(filter, 0), kh = Dim(filter, 1), kw = Dim(filter, 2), ic = Dim(filter, 3);
  if (Dim(in, 3) != ic || Dim(bias, 0) != oc) return Fail("%s: channel mismatch", kTransposeConvBias);
  // The output size the builtin kernel gives this input.
  const int64_t h = Dim(in, 1), w = Dim(in, 2);
  const int64_t oh = p.padding == kTfLitePaddingSame ? h * p.stride_height
                                                     : (h - 1) * p.stride_height + kh;
  const int64_t ow = p.padding == kTfLitePaddingSame ? w * p.stride_width
                                                     : (w - 1) * p.stride_width + kw;
  if (Dim(out, 0) != Dim(in, 0) || Dim(out, 1) != oh || Dim(out, 2) != ow || Dim(out, 3) != oc)
    return Fail("%s: output shape mismatch", kTransposeConvBias);
  // (The MediaPipe kernel applies no activation, whatever the options say.)
  const float inf = std::numeric_limits<float>::infinity();
  return DefineDeconvolution(in, filter, bias, out, p.padding, p.stride_height, p.stride_width,
                             -inf, inf);
}

TfLiteStatus OpBuilder::VisitArgmaxPool(const TfLiteNode* n, bool pair_check) {
  if (!Arity(n, 1, 1, 2)) return Fail("%s needs 1 input and 2 outputs", kArgmaxPool);
  const auto p = CustomParams<TfLitePoolParams>(n);
  const int in = InputTensor(n, 0), values = OutputTensor(n, 0), indices = OutputTensor(n, 1);
  if (!IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(values, 4, 4) ||
      !IsDynamicFloat(indices, 4, 4))
    return Fail("%s: unsupported tensor types/shapes (float32 indices only)", kArgmaxPool);
  if (!SquareWindow(p))
    return Fail("%s: window not supported (stride must equal a filter of 2+ pixels)", kArgmaxPool);
  if (p.activation != kTfLiteActNone) return Fail("%s: fused activation", kArgmaxPool);
  const int h = Dim(in, 1), w = Dim(in, 2);
  // SAME is taken only when it pads nothing: XNNPACK's padded windows can
  // pick a padding position where the builtin kernel never does.
  if (p.padding == kTfLitePaddingSame && (h % p.filter_height != 0 || w % p.filter_width != 0))
    return Fail("%s: SAME padding that pads", kArgmaxPool);
  const int oh = h / p.filter_height, ow = w / p.filter_width;
  for (int t : {values, indices}) {
    if (Dim(t, 0) != Dim(in, 0) || Dim(t, 1) != oh || Dim(t, 2) != ow || Dim(t, 3) != Dim(in, 3))
      return Fail("%s: output shape mismatch", kArgmaxPool);
  }
  if (pair_check && !ArgmaxPairSupported(node_index_))
    return Fail("%s: indices not read by MaxUnpooling2D only", kArgmaxPool);
  if (!Defining()) return kTfLiteOk;
  if (IndicesLeaveTheModel(indices)) return Fail("%s: indices are a model output", kArgmaxPool);
  return Check(
      xnn_define_argmax_pooling_2d(subgraph_, 0, 0, 0, 0, p.filter_height, p.filter_width,
                                   ValueIdOf(in), ValueIdOf(values), ValueIdOf(indices), 0),
      "xnn_define_argmax_pooling_2d");
}

TfLiteStatus OpBuilder::VisitUnpool(const TfLiteNode* n, bool pair_check) {
  if (!Arity(n, 2, 2, 1)) return Fail("%s needs 2 inputs and 1 output", kUnpool);
  const auto p = CustomParams<TfLitePoolParams>(n);
  const int in = InputTensor(n, 0), indices = InputTensor(n, 1), out = OutputTensor(n, 0);
  if (!IsDynamicFloat(in, 4, 4) || !IsDynamicFloat(indices, 4, 4) || !IsDynamicFloat(out, 4, 4))
    return Fail("%s: unsupported tensor types/shapes (float32 indices only)", kUnpool);
  if (!SquareWindow(p))
    return Fail("%s: window not supported (stride must equal a filter of 2+ pixels)", kUnpool);
  for (int d = 0; d < 4; ++d)
    if (Dim(indices, d) != Dim(in, d)) return Fail("%s: indices shape mismatch", kUnpool);
  // With stride == filter size both paddings give H * stride, unpadded.
  if (Dim(out, 0) != Dim(in, 0) || Dim(out, 1) != Dim(in, 1) * p.filter_height ||
      Dim(out, 2) != Dim(in, 2) * p.filter_width || Dim(out, 3) != Dim(in, 3))
    return Fail("%s: output shape mismatch", kUnpool);
  if (pair_check) {
    // The indices must come from an argmax pooling that pairs with us.
    TfLiteIntArray* plan = nullptr;
    if (context_->GetExecutionPlan(context_, &plan) != kTfLiteOk) return kTfLiteError;
    for (int i = 0; i < plan->size; ++i) {
      TfLiteNode* node;
      TfLiteRegistration* reg;
      if (context_->GetNodeAndRegistration(context_, plan->data[i], &node, &reg) != kTfLiteOk)
        return kTfLiteError;
      for (int k = 0; k < node->outputs->size; ++k) {
        if (node->outputs->data[k] != indices) continue;
        const bool ok = Named(reg, kArgmaxPool) && k == 1 && ArgmaxPairSupported(plan->data[i]);
        return ok ? kTfLiteOk : Fail("%s: indices not from a supported argmax pooling", kUnpool);
      }
    }
    return Fail("%s: indices not from an argmax pooling", kUnpool);
  }
  if (!Defining()) return kTfLiteOk;
  return Check(xnn_define_unpooling_2d(subgraph_, 0, 0, 0, 0, p.filter_height, p.filter_width,
                                       ValueIdOf(in), ValueIdOf(indices), ValueIdOf(out), 0),
               "xnn_define_unpooling_2d");
}

// The delegate cannot see the model's outputs while choosing nodes; once the
// partition is known, indices read after it by no node outside it must be
// one (they would hold XNNPACK's indices, so the partition is refused).
bool OpBuilder::IndicesLeaveTheModel(int indices) {
  if (partition_ == nullptr) return false;
  bool read_after = false;
  for (int i = 0; i < partition_->output_tensors->size; ++i)
    if (partition_->output_tensors->data[i] == indices) read_after = true;
  if (!read_after) return false;
  TfLiteIntArray* plan = nullptr;
  if (context_->GetExecutionPlan(context_, &plan) != kTfLiteOk) return true;
  for (int i = 0; i < plan->size; ++i) {
    bool inside = false;
    for (int k = 0; k < partition_->nodes_to_replace->size; ++k)
      if (partition_->nodes_to_replace->data[k] == plan->data[i]) inside = true;
    if (inside) continue;
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context_->GetNodeAndRegistration(context_, plan->data[i], &node, &reg) != kTfLiteOk)
      return true;
    for (int k = 0; k < node->inputs->size; ++k)
      if (node->inputs->data[k] == indices) return false;  // another partition's unpooling
  }
  return true;
}

bool OpBuilder::ArgmaxPairSupported(int argmax_node) {
  TfLiteIntArray* plan = nullptr;
  TfLiteNode* node;
  TfLiteRegistration* reg;
  if (context_->GetExecutionPlan(context_, &plan) != kTfLiteOk ||
      context_->GetNodeAndRegistration(context_, argmax_node, &node, &reg) != kTfLiteOk ||
      !Named(reg, kArgmaxPool))
    return false;
  const int saved = node_index_;
  node_index_ = argmax_node;
  bool ok = VisitArgmaxPool(node, /*pair_check=*/false) == kTfLiteOk;
  const int indices = node->outputs->size == 2 ? node->outputs->data[1] : -1;
  int readers = 0;
  for (int i = 0; ok && i < plan->size; ++i) {
    TfLiteNode* other;
    TfLiteRegistration* other_reg;
    if (context_->GetNodeAndRegistration(context_, plan->data[i], &other, &other_reg) !=
        kTfLiteOk) {
      ok = false;
      break;
    }
    bool reads = false, as_indices_only = true;
    for (int k = 0; k < other->inputs->size; ++k) {
      if (other->inputs->data[k] != indices) continue;
      reads = true;
      if (k != 1) as_indices_only = false;
    }
    if (!reads) continue;
    ++readers;
    node_index_ = plan->data[i];
    ok = Named(other_reg, kUnpool) && as_indices_only &&
         VisitUnpool(other, /*pair_check=*/false) == kTfLiteOk;
  }
  node_index_ = saved;
  return ok && readers > 0;
}

}  // namespace xnnpack
}  // namespace tflite_c

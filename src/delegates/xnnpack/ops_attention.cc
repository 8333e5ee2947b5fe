// STABLEHLO_COMPOSITE "odml.scaled_dot_product_attention" (the scaled
// dot-product attention AI Edge Torch exports) on XNNPACK, as upstream's
// delegate takes it: the composite node is defined directly from its inputs
// and its decomposition subgraph is not run. As upstream, a custom op of the
// same name (attributes in its custom options) is taken the same way.
//
//   inputs  query [B, T, N, H], key [B, S, G, H], value [B, S, G, D],
//           optional mask broadcastable to [B, N, T, S] (added to the logits)
//   output  [B, T, N, D]
//   attributes (flexbuffer map): "scale" (default 1 / sqrt(H)) multiplies the
//           query; "logit_cap" c > 0 soft-caps the logits as c * tanh(x / c)
//
// N == G is multi-head, G == 1 multi-query and otherwise grouped-query
// attention (N a multiple of G; query head n reads key/value head n / (N / G)).
// All three are built the same way: each key/value head's N / G query heads
// are stacked along the token axis, so one batch matmul per step covers them
// without broadcasting:
//
//   q * scale -> [B, N, T, H] -> [B, G, R*T, H]      (R = N / G)
//   k -> [B, G, S, H];  logits = q . k^T -> [B, G, R*T, S] -> [B, N, T, S]
//   [cap], + mask, softmax over S
//   v -> [B, G, D, S];  p . v^T -> [B, G, R*T, D] -> [B, N, T, D] -> [B, T, N, D]
//
// The reshapes leave the token axis to XNNPACK (a 0 in the new shape), so a
// query resized to another token count T after delegation still runs; other
// resized dimensions make the runtime reshape fail with an error.
//
// Anything else (other types, ranks, shapes, attributes that are not numbers,
// a non-positive or non-finite cap) is refused and the builtin kernel runs the
// decomposition.
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"
#include "src/kernels/internal/flex_map.h"

namespace tflite_c {
namespace xnnpack {
namespace {

}  // namespace

bool OpBuilder::IsSdpaComposite(const TfLiteNode* n) {
  const auto* p = static_cast<const TfLiteStablehloCompositeParams*>(n->builtin_data);
  return p != nullptr && p->name != nullptr && std::strcmp(p->name, kSdpa) == 0;
}

TfLiteStatus OpBuilder::VisitComposite(const TfLiteNode* n) {
  const auto* p = static_cast<const TfLiteStablehloCompositeParams*>(n->builtin_data);
  if (p == nullptr || p->name == nullptr) return Fail("STABLEHLO_COMPOSITE without options");
  if (!IsSdpaComposite(n))
    return Fail("STABLEHLO_COMPOSITE \"%s\" is not supported", p->name);
  return VisitScaledDotProductAttention(n, p->attributes, p->attributes_size);
}

TfLiteStatus OpBuilder::VisitScaledDotProductAttention(const TfLiteNode* n,
                                                       const void* attributes,
                                                       size_t attributes_size) {
  if (!Arity(n, 3, 4, 1)) return Fail("%s needs 3 or 4 inputs and 1 output", kSdpa);
  const int q = InputTensor(n, 0), k = InputTensor(n, 1), v = InputTensor(n, 2),
            mask = InputTensor(n, 3), out = OutputTensor(n, 0);
  for (int t : {q, k, v, out})
    if (!IsFloat(t, 4, 4)) return Fail("%s: query/key/value/output must be 4-D float32", kSdpa);
  if (IsStatic(out)) return Fail("%s: constant output", kSdpa);
  if (mask >= 0 && !IsFloat(mask, 1, 4))
    return Fail("%s: mask must be float32 of rank 1 to 4", kSdpa);
  for (int t : {q, k, v, mask})
    if (t >= 0 && IsStatic(t) && StaticPointer(t) == nullptr)
      return Fail("%s: static input without data", kSdpa);
  const int batch = Dim(q, 0), tokens = Dim(q, 1), heads = Dim(q, 2), depth = Dim(q, 3);
  const int kv_tokens = Dim(k, 1), groups = Dim(k, 2), value_depth = Dim(v, 3);
  if (Dim(k, 0) != batch || Dim(v, 0) != batch) return Fail("%s: batch sizes differ", kSdpa);
  if (Dim(k, 3) != depth) return Fail("%s: query and key head sizes differ", kSdpa);
  if (Dim(v, 1) != kv_tokens || Dim(v, 2) != groups)
    return Fail("%s: key and value shapes differ", kSdpa);
  if (heads % groups != 0)
    return Fail("%s: %d query heads are not a multiple of %d key/value heads", kSdpa, heads,
                groups);
  if (Dim(out, 0) != batch || Dim(out, 1) != tokens || Dim(out, 2) != heads ||
      Dim(out, 3) != value_depth)
    return Fail("%s: output shape mismatch", kSdpa);
  const int logits[4] = {batch, heads, tokens, kv_tokens};
  if (mask >= 0) {
    const int rank = NumDims(mask);
    for (int i = 1; i <= rank; ++i) {
      const int d = Dim(mask, rank - i);
      if (d != 1 && d != logits[4 - i])
        return Fail("%s: mask does not broadcast to [B, N, T, S]", kSdpa);
    }
  }

  // Attributes. An empty buffer means none; anything unreadable is refused.
  double scale = 1.0 / std::sqrt(static_cast<double>(depth));
  double cap = 0.0;
  bool has_cap = false;
  if (attributes != nullptr && attributes_size > 0) {
    kernels::internal::FlexMap map;
    if (!map.Parse(attributes, attributes_size))
      return Fail("%s: attributes are not a flexbuffer map (not supported)", kSdpa);
    if (map.Has("scale") && !map.GetDouble("scale", &scale))
      return Fail("%s: non-numeric scale is not supported", kSdpa);
    if (map.Has("logit_cap")) {
      if (!map.GetDouble("logit_cap", &cap))
        return Fail("%s: non-numeric logit_cap is not supported", kSdpa);
      has_cap = true;
    }
  }
  if (!std::isfinite(scale) || std::fabs(scale) > std::numeric_limits<float>::max())
    return Fail("%s: scale %g is not supported", kSdpa, scale);
  if (has_cap && !(cap > 0.0 && cap <= std::numeric_limits<float>::max()))
    return Fail("%s: logit_cap %g is not supported (must be positive and finite)", kSdpa, cap);
  if (!Defining()) return kTfLiteOk;

  // The scalars live as long as the kernel: XNNPACK reads static values at
  // every run.
  if (constants_ == nullptr) return Fail("%s: no storage for constants", kSdpa);
  auto scalars = std::make_shared<std::vector<float>>(
      std::vector<float>{static_cast<float>(scale), static_cast<float>(cap)});
  constants_->push_back(scalars);
  const float* scale_data = scalars->data();
  const float* cap_data = scalars->data() + 1;

  const float inf = std::numeric_limits<float>::infinity();
  const xnn_binary_params unclamped = {-inf, inf};
  auto value = [&](std::initializer_list<size_t> dims, const float* data,
                   uint32_t* id) -> TfLiteStatus {
    *id = XNN_INVALID_VALUE_ID;
    return Check(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.begin(),
                                         data, XNN_INVALID_VALUE_ID, 0, id),
                 "xnn_define_tensor_value");
  };
  auto transpose = [&](uint32_t in, std::initializer_list<size_t> perm, uint32_t to) {
    return Check(xnn_define_static_transpose(subgraph_, perm.size(), perm.begin(), in, to, 0),
                 "xnn_define_static_transpose");
  };
  auto reshape = [&](uint32_t in, std::initializer_list<size_t> dims, uint32_t to) {
    return Check(xnn_define_static_reshape(subgraph_, dims.size(), dims.begin(), in, to, 0),
                 "xnn_define_static_reshape");
  };
  auto binary = [&](xnn_binary_operator op, uint32_t a, uint32_t b, uint32_t to) {
    return Check(xnn_define_binary(subgraph_, op, &unclamped, a, b, to, 0), "xnn_define_binary");
  };

  const size_t B = batch, T = tokens, N = heads, H = depth, S = kv_tokens, G = groups,
               D = value_depth, R = N / G;
  uint32_t scale_id, cap_id, q_scaled, q_heads, q_grouped, k_heads, scores, scores_heads;
  TF_LITE_ENSURE_STATUS(value({}, scale_data, &scale_id));
  TF_LITE_ENSURE_STATUS(value({B, T, N, H}, nullptr, &q_scaled));
  TF_LITE_ENSURE_STATUS(binary(xnn_binary_multiply, ValueIdOf(q), scale_id, q_scaled));
  TF_LITE_ENSURE_STATUS(value({B, N, T, H}, nullptr, &q_heads));
  TF_LITE_ENSURE_STATUS(transpose(q_scaled, {0, 2, 1, 3}, q_heads));
  TF_LITE_ENSURE_STATUS(value({B, G, R * T, H}, nullptr, &q_grouped));
  TF_LITE_ENSURE_STATUS(reshape(q_heads, {B, G, 0, H}, q_grouped));
  TF_LITE_ENSURE_STATUS(value({B, G, S, H}, nullptr, &k_heads));
  TF_LITE_ENSURE_STATUS(transpose(ValueIdOf(k), {0, 2, 1, 3}, k_heads));
  TF_LITE_ENSURE_STATUS(value({B, G, R * T, S}, nullptr, &scores));
  TF_LITE_ENSURE_STATUS(Check(xnn_define_batch_matrix_multiply(subgraph_, q_grouped, k_heads,
                                                               scores, XNN_FLAG_TRANSPOSE_B),
                              "xnn_define_batch_matrix_multiply"));
  TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &scores_heads));
  TF_LITE_ENSURE_STATUS(reshape(scores, {B, N, 0, S}, scores_heads));
  uint32_t logits_id = scores_heads;
  if (has_cap) {
    uint32_t divided, squashed, capped;
    TF_LITE_ENSURE_STATUS(value({}, cap_data, &cap_id));
    TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &divided));
    TF_LITE_ENSURE_STATUS(binary(xnn_binary_divide, logits_id, cap_id, divided));
    TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &squashed));
    TF_LITE_ENSURE_STATUS(Check(xnn_define_unary(subgraph_, xnn_unary_tanh, nullptr, divided,
                                                 squashed, 0),
                                "xnn_define_unary(tanh)"));
    TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &capped));
    TF_LITE_ENSURE_STATUS(binary(xnn_binary_multiply, squashed, cap_id, capped));
    logits_id = capped;
  }
  if (mask >= 0) {
    uint32_t masked;
    TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &masked));
    TF_LITE_ENSURE_STATUS(binary(xnn_binary_add, logits_id, ValueIdOf(mask), masked));
    logits_id = masked;
  }
  uint32_t probs, probs_grouped, v_heads, context, context_heads;
  TF_LITE_ENSURE_STATUS(value({B, N, T, S}, nullptr, &probs));
  TF_LITE_ENSURE_STATUS(
      Check(xnn_define_softmax(subgraph_, logits_id, probs, 0), "xnn_define_softmax"));
  TF_LITE_ENSURE_STATUS(value({B, G, R * T, S}, nullptr, &probs_grouped));
  TF_LITE_ENSURE_STATUS(reshape(probs, {B, G, 0, S}, probs_grouped));
  TF_LITE_ENSURE_STATUS(value({B, G, D, S}, nullptr, &v_heads));
  TF_LITE_ENSURE_STATUS(transpose(ValueIdOf(v), {0, 2, 3, 1}, v_heads));
  TF_LITE_ENSURE_STATUS(value({B, G, R * T, D}, nullptr, &context));
  TF_LITE_ENSURE_STATUS(Check(xnn_define_batch_matrix_multiply(subgraph_, probs_grouped, v_heads,
                                                               context, XNN_FLAG_TRANSPOSE_B),
                              "xnn_define_batch_matrix_multiply"));
  TF_LITE_ENSURE_STATUS(value({B, N, T, D}, nullptr, &context_heads));
  TF_LITE_ENSURE_STATUS(reshape(context, {B, N, 0, D}, context_heads));
  return transpose(context_heads, {0, 2, 1, 3}, ValueIdOf(out));
}

}  // namespace xnnpack
}  // namespace tflite_c

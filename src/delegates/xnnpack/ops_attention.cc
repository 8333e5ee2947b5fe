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
#include <initializer_list>
#include <limits>
#include <memory>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"
#include "src/kernels/internal/flex_map.h"

namespace tflite_c {
namespace xnnpack {

// One attention node: its tensors, sizes and attributes, checked, and the
// XNNPACK graph that computes it. Nested in OpBuilder for Fail and Check.
struct OpBuilder::Sdpa {
  explicit Sdpa(OpBuilder* builder) : b(builder) {}

  TfLiteStatus CheckTensors(const TfLiteNode* n);
  TfLiteStatus CheckMask() const;
  TfLiteStatus ReadAttributes(const void* attributes, size_t attributes_size);
  TfLiteStatus Define();

  // Steps of Define: [B, T, N, H] query and [B, S, G, H] key -> the logits
  // [B, N, T, S]; capped and masked; softmax and the [B, S, G, D] value ->
  // the output [B, T, N, D].
  TfLiteStatus DefineScores(const float* scale_data, uint32_t* scores);
  TfLiteStatus DefineCapAndMask(const float* cap_data, uint32_t* logits);
  TfLiteStatus DefineContext(uint32_t logits);

  // A new internal float32 value (static if `data` is given).
  TfLiteStatus Value(std::initializer_list<size_t> dims, const float* data, uint32_t* id) {
    *id = XNN_INVALID_VALUE_ID;
    return b->Check(xnn_define_tensor_value(b->subgraph_, xnn_datatype_fp32, dims.size(),
                                            dims.begin(), data, XNN_INVALID_VALUE_ID, 0, id),
                    "xnn_define_tensor_value");
  }
  TfLiteStatus Transpose(uint32_t in, std::initializer_list<size_t> perm, uint32_t to) {
    return b->Check(xnn_define_static_transpose(b->subgraph_, perm.size(), perm.begin(), in, to, 0),
                    "xnn_define_static_transpose");
  }
  TfLiteStatus Reshape(uint32_t in, std::initializer_list<size_t> dims, uint32_t to) {
    return b->Check(xnn_define_static_reshape(b->subgraph_, dims.size(), dims.begin(), in, to, 0),
                    "xnn_define_static_reshape");
  }
  TfLiteStatus Binary(xnn_binary_operator op, uint32_t x, uint32_t y, uint32_t to) {
    const float inf = std::numeric_limits<float>::infinity();
    const xnn_binary_params unclamped = {-inf, inf};
    return b->Check(xnn_define_binary(b->subgraph_, op, &unclamped, x, y, to, 0),
                    "xnn_define_binary");
  }
  TfLiteStatus BatchMatMulTransposed(uint32_t x, uint32_t y, uint32_t to) {
    return b->Check(xnn_define_batch_matrix_multiply(b->subgraph_, x, y, to, XNN_FLAG_TRANSPOSE_B),
                    "xnn_define_batch_matrix_multiply");
  }

  OpBuilder* b;
  int q = -1, k = -1, v = -1, mask = -1, out = -1;                // tensors
  size_t B = 0, T = 0, N = 0, H = 0, S = 0, G = 0, D = 0, R = 0;  // sizes, R = N / G
  double scale = 0.0, cap = 0.0;
  bool has_cap = false;
};

TfLiteStatus OpBuilder::Sdpa::CheckTensors(const TfLiteNode* n) {
  if (!b->Arity(n, 3, 4, 1)) return b->Fail("%s needs 3 or 4 inputs and 1 output", kSdpa);
  q = b->InputTensor(n, 0), k = b->InputTensor(n, 1), v = b->InputTensor(n, 2);
  mask = b->InputTensor(n, 3), out = b->OutputTensor(n, 0);
  for (int t : {q, k, v, out})
    if (!b->IsFloat(t, 4, 4))
      return b->Fail("%s: query/key/value/output must be 4-D float32", kSdpa);
  if (b->IsStatic(out)) return b->Fail("%s: constant output", kSdpa);
  if (mask >= 0 && !b->IsFloat(mask, 1, 4))
    return b->Fail("%s: mask must be float32 of rank 1 to 4", kSdpa);
  for (int t : {q, k, v, mask})
    if (t >= 0 && b->IsStatic(t) && b->StaticPointer(t) == nullptr)
      return b->Fail("%s: static input without data", kSdpa);
  const int batch = b->Dim(q, 0), heads = b->Dim(q, 2), depth = b->Dim(q, 3);
  const int groups = b->Dim(k, 2);
  if (b->Dim(k, 0) != batch || b->Dim(v, 0) != batch)
    return b->Fail("%s: batch sizes differ", kSdpa);
  if (b->Dim(k, 3) != depth) return b->Fail("%s: query and key head sizes differ", kSdpa);
  if (b->Dim(v, 1) != b->Dim(k, 1) || b->Dim(v, 2) != groups)
    return b->Fail("%s: key and value shapes differ", kSdpa);
  if (heads % groups != 0)
    return b->Fail("%s: %d query heads are not a multiple of %d key/value heads", kSdpa, heads,
                   groups);
  if (b->Dim(out, 0) != batch || b->Dim(out, 1) != b->Dim(q, 1) || b->Dim(out, 2) != heads ||
      b->Dim(out, 3) != b->Dim(v, 3))
    return b->Fail("%s: output shape mismatch", kSdpa);
  B = batch, T = b->Dim(q, 1), N = heads, H = depth;
  S = b->Dim(k, 1), G = groups, D = b->Dim(v, 3), R = N / G;
  return CheckMask();
}

TfLiteStatus OpBuilder::Sdpa::CheckMask() const {
  if (mask < 0) return kTfLiteOk;
  const size_t logits[4] = {B, N, T, S};
  const int rank = b->NumDims(mask);
  for (int i = 1; i <= rank; ++i) {
    const int d = b->Dim(mask, rank - i);
    if (d != 1 && static_cast<size_t>(d) != logits[4 - i])
      return b->Fail("%s: mask does not broadcast to [B, N, T, S]", kSdpa);
  }
  return kTfLiteOk;
}

// An empty buffer means no attributes; anything unreadable is refused.
TfLiteStatus OpBuilder::Sdpa::ReadAttributes(const void* attributes, size_t attributes_size) {
  scale = 1.0 / std::sqrt(static_cast<double>(H));
  if (attributes != nullptr && attributes_size > 0) {
    kernels::internal::FlexMap map;
    if (!map.Parse(attributes, attributes_size))
      return b->Fail("%s: attributes are not a flexbuffer map (not supported)", kSdpa);
    if (map.Has("scale") && !map.GetDouble("scale", &scale))
      return b->Fail("%s: non-numeric scale is not supported", kSdpa);
    if (map.Has("logit_cap")) {
      if (!map.GetDouble("logit_cap", &cap))
        return b->Fail("%s: non-numeric logit_cap is not supported", kSdpa);
      has_cap = true;
    }
  }
  if (!std::isfinite(scale) || std::fabs(scale) > std::numeric_limits<float>::max())
    return b->Fail("%s: scale %g is not supported", kSdpa, scale);
  if (has_cap && !(cap > 0.0 && cap <= std::numeric_limits<float>::max()))
    return b->Fail("%s: logit_cap %g is not supported (must be positive and finite)", kSdpa, cap);
  return kTfLiteOk;
}

TfLiteStatus OpBuilder::Sdpa::DefineScores(const float* scale_data, uint32_t* scores) {
  uint32_t scale_id, q_scaled, q_heads, q_grouped, k_heads, grouped_scores;
  TF_LITE_ENSURE_STATUS(Value({}, scale_data, &scale_id));
  TF_LITE_ENSURE_STATUS(Value({B, T, N, H}, nullptr, &q_scaled));
  TF_LITE_ENSURE_STATUS(Binary(xnn_binary_multiply, b->ValueIdOf(q), scale_id, q_scaled));
  TF_LITE_ENSURE_STATUS(Value({B, N, T, H}, nullptr, &q_heads));
  TF_LITE_ENSURE_STATUS(Transpose(q_scaled, {0, 2, 1, 3}, q_heads));
  TF_LITE_ENSURE_STATUS(Value({B, G, R * T, H}, nullptr, &q_grouped));
  TF_LITE_ENSURE_STATUS(Reshape(q_heads, {B, G, 0, H}, q_grouped));
  TF_LITE_ENSURE_STATUS(Value({B, G, S, H}, nullptr, &k_heads));
  TF_LITE_ENSURE_STATUS(Transpose(b->ValueIdOf(k), {0, 2, 1, 3}, k_heads));
  TF_LITE_ENSURE_STATUS(Value({B, G, R * T, S}, nullptr, &grouped_scores));
  TF_LITE_ENSURE_STATUS(BatchMatMulTransposed(q_grouped, k_heads, grouped_scores));
  TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, scores));
  return Reshape(grouped_scores, {B, N, 0, S}, *scores);
}

TfLiteStatus OpBuilder::Sdpa::DefineCapAndMask(const float* cap_data, uint32_t* logits) {
  if (has_cap) {
    uint32_t cap_id, divided, squashed, capped;
    TF_LITE_ENSURE_STATUS(Value({}, cap_data, &cap_id));
    TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, &divided));
    TF_LITE_ENSURE_STATUS(Binary(xnn_binary_divide, *logits, cap_id, divided));
    TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, &squashed));
    TF_LITE_ENSURE_STATUS(
        b->Check(xnn_define_unary(b->subgraph_, xnn_unary_tanh, nullptr, divided, squashed, 0),
                 "xnn_define_unary(tanh)"));
    TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, &capped));
    TF_LITE_ENSURE_STATUS(Binary(xnn_binary_multiply, squashed, cap_id, capped));
    *logits = capped;
  }
  if (mask >= 0) {
    uint32_t masked;
    TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, &masked));
    TF_LITE_ENSURE_STATUS(Binary(xnn_binary_add, *logits, b->ValueIdOf(mask), masked));
    *logits = masked;
  }
  return kTfLiteOk;
}

TfLiteStatus OpBuilder::Sdpa::DefineContext(uint32_t logits) {
  uint32_t probs, probs_grouped, v_heads, context, context_heads;
  TF_LITE_ENSURE_STATUS(Value({B, N, T, S}, nullptr, &probs));
  TF_LITE_ENSURE_STATUS(
      b->Check(xnn_define_softmax(b->subgraph_, logits, probs, 0), "xnn_define_softmax"));
  TF_LITE_ENSURE_STATUS(Value({B, G, R * T, S}, nullptr, &probs_grouped));
  TF_LITE_ENSURE_STATUS(Reshape(probs, {B, G, 0, S}, probs_grouped));
  TF_LITE_ENSURE_STATUS(Value({B, G, D, S}, nullptr, &v_heads));
  TF_LITE_ENSURE_STATUS(Transpose(b->ValueIdOf(v), {0, 2, 3, 1}, v_heads));
  TF_LITE_ENSURE_STATUS(Value({B, G, R * T, D}, nullptr, &context));
  TF_LITE_ENSURE_STATUS(BatchMatMulTransposed(probs_grouped, v_heads, context));
  TF_LITE_ENSURE_STATUS(Value({B, N, T, D}, nullptr, &context_heads));
  TF_LITE_ENSURE_STATUS(Reshape(context, {B, N, 0, D}, context_heads));
  return Transpose(context_heads, {0, 2, 1, 3}, b->ValueIdOf(out));
}

TfLiteStatus OpBuilder::Sdpa::Define() {
  // The scalars live as long as the kernel: XNNPACK reads static values at
  // every run.
  if (b->constants_ == nullptr) return b->Fail("%s: no storage for constants", kSdpa);
  auto scalars = std::make_shared<std::vector<float>>(
      std::vector<float>{static_cast<float>(scale), static_cast<float>(cap)});
  b->constants_->push_back(scalars);
  uint32_t logits;
  TF_LITE_ENSURE_STATUS(DefineScores(scalars->data(), &logits));
  TF_LITE_ENSURE_STATUS(DefineCapAndMask(scalars->data() + 1, &logits));
  return DefineContext(logits);
}

bool OpBuilder::IsSdpaComposite(const TfLiteNode* n) {
  const auto* p = static_cast<const TfLiteStablehloCompositeParams*>(n->builtin_data);
  return p != nullptr && p->name != nullptr && std::strcmp(p->name, kSdpa) == 0;
}

TfLiteStatus OpBuilder::VisitComposite(const TfLiteNode* n) {
  const auto* p = static_cast<const TfLiteStablehloCompositeParams*>(n->builtin_data);
  if (p == nullptr || p->name == nullptr) return Fail("STABLEHLO_COMPOSITE without options");
  if (!IsSdpaComposite(n)) return Fail("STABLEHLO_COMPOSITE \"%s\" is not supported", p->name);
  return VisitScaledDotProductAttention(n, p->attributes, p->attributes_size);
}

TfLiteStatus OpBuilder::VisitScaledDotProductAttention(const TfLiteNode* n, const void* attributes,
                                                       size_t attributes_size) {
  Sdpa attention(this);
  TF_LITE_ENSURE_STATUS(attention.CheckTensors(n));
  TF_LITE_ENSURE_STATUS(attention.ReadAttributes(attributes, attributes_size));
  if (!Defining()) return kTfLiteOk;
  return attention.Define();
}

}  // namespace xnnpack
}  // namespace tflite_c

// Sparse weights for the XNNPACK delegate, as upstream's delegate handles
// them: a DENSIFY of a read-only sparse float32, float16 or int8 constant is
// done once, when the delegate prepares, instead of by the DENSIFY kernel.
//
//   sparse float32 -> DENSIFY -> consumers            the DENSIFY output
//   sparse int8    -> DENSIFY -> quantized conv / FC  the DENSIFY output (int8,
//                                                     its own quantization)
//   sparse float16 -> DENSIFY -> DEQUANTIZE -> ...    the DEQUANTIZE output
//
// becomes a static float32 value of the delegate (like fp16 weights), and the
// DENSIFY (and DEQUANTIZE) nodes go with their consumers when all of those
// are delegated. Partitions holding such weights run with
// XNN_FLAG_HINT_SPARSE_INFERENCE (XNNPACK may then use its sparse kernels).
//
// The encoding (TfLiteSparsity): the tensor's dimensions (blocked ones reduced
// to their block counts) followed by one dimension per block_map entry, walked
// in traversal_order; each level DENSE (every coordinate) or SPARSE_CSR
// (coordinates array_indices[array_segments[p] .. array_segments[p + 1]) for
// parent position p); stored values are consumed in walk order. Anything
// inconsistent leaves the DENSIFY to its builtin kernel (which reports it).
#include <cstring>
#include <unordered_map>
#include <vector>

#include "src/delegates/xnnpack/op_builder.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace xnnpack {

namespace {

constexpr int kMaxLevels = 16;
// Larger weights (over 1 GiB as float32) are not densified here.
constexpr size_t kMaxDenseElements = size_t{1} << 28;

class Densifier {
 public:
  // False if the encoding does not describe `t`'s shape.
  bool Init(const TfLiteTensor& t) {
    s_ = t.sparsity;
    if (s_ == nullptr || t.dims == nullptr || t.data.raw == nullptr) return false;
    const int rank = t.dims->size;
    const int blocks = s_->block_map ? s_->block_map->size : 0;
    const int levels = rank + blocks;
    if (rank < 1 || levels > kMaxLevels || s_->traversal_order == nullptr ||
        s_->traversal_order->size != levels || s_->dim_metadata_size != levels ||
        s_->dim_metadata == nullptr)
      return false;
    shape_.assign(t.dims->data, t.dims->data + rank);
    for (int d : shape_)
      if (d <= 0) return false;
    level_dim_.assign(s_->traversal_order->data, s_->traversal_order->data + levels);
    std::vector<int> level_of(levels, -1);
    for (int l = 0; l < levels; ++l) {
      const int d = level_dim_[l];
      if (d < 0 || d >= levels || level_of[d] != -1) return false;
      level_of[d] = l;
    }
    block_of_.assign(rank, -1);
    block_size_.assign(blocks, 0);
    for (int b = 0; b < blocks; ++b) {
      const int d = s_->block_map->data[b];
      if (d < 0 || d >= rank || block_of_[d] != -1) return false;
      const TfLiteDimensionMetadata& m = s_->dim_metadata[level_of[rank + b]];
      if (m.format != kTfLiteDimDense || m.dense_size <= 0 || shape_[d] % m.dense_size != 0)
        return false;
      block_of_[d] = b;
      block_size_[b] = m.dense_size;
    }
    std::vector<int> extent(levels);
    for (int d = 0; d < rank; ++d)
      extent[d] = block_of_[d] >= 0 ? shape_[d] / block_size_[block_of_[d]] : shape_[d];
    for (int b = 0; b < blocks; ++b) extent[rank + b] = block_size_[b];
    level_size_.resize(levels);
    for (int l = 0; l < levels; ++l) {
      const TfLiteDimensionMetadata& m = s_->dim_metadata[l];
      level_size_[l] = extent[level_dim_[l]];
      if (m.format == kTfLiteDimDense) {
        if (m.dense_size != level_size_[l]) return false;
      } else if (m.format != kTfLiteDimSparseCSR || m.array_segments == nullptr ||
                 m.array_indices == nullptr) {
        return false;
      }
    }
    coord_.assign(levels, 0);
    return true;
  }

  // The element count, saturating at kMaxDenseElements + 1.
  size_t DenseSize() const {
    size_t n = 1;
    for (int d : shape_) {
      n *= static_cast<size_t>(d);
      if (n > kMaxDenseElements) return kMaxDenseElements + 1;
    }
    return n;
  }

  // Writes the dense tensor into `out` (DenseSize() elements, zeroed first);
  // `value(i)` is stored value i. False if the encoding is broken.
  template <typename Out, typename Value>
  bool Run(size_t num_values, Value value, Out* out) {
    std::memset(out, 0, DenseSize() * sizeof(Out));
    num_values_ = num_values;
    next_ = 0;
    return Walk(0, 0, value, out);
  }

 private:
  template <typename Out, typename Value>
  bool Walk(int level, int parent, Value& value, Out* out) {
    const int rank = static_cast<int>(shape_.size());
    if (level == static_cast<int>(level_dim_.size())) {
      if (next_ >= num_values_) return false;
      size_t flat = 0;
      for (int d = 0; d < rank; ++d) {
        int c = coord_[d];
        if (block_of_[d] >= 0) c = c * block_size_[block_of_[d]] + coord_[rank + block_of_[d]];
        flat = flat * static_cast<size_t>(shape_[d]) + static_cast<size_t>(c);
      }
      out[flat] = value(next_++);
      return true;
    }
    const TfLiteDimensionMetadata& m = s_->dim_metadata[level];
    const int dim = level_dim_[level];
    if (m.format == kTfLiteDimDense) {
      for (int i = 0; i < m.dense_size; ++i) {
        coord_[dim] = i;
        if (!Walk(level + 1, parent * m.dense_size + i, value, out)) return false;
      }
      return true;
    }
    const TfLiteIntArray* seg = m.array_segments;
    const TfLiteIntArray* idx = m.array_indices;
    if (parent < 0 || parent + 1 >= seg->size) return false;
    const int begin = seg->data[parent], end = seg->data[parent + 1];
    if (begin < 0 || end < begin || end > idx->size) return false;
    for (int j = begin; j < end; ++j) {
      const int c = idx->data[j];
      if (c < 0 || c >= level_size_[level]) return false;
      coord_[dim] = c;
      if (!Walk(level + 1, j, value, out)) return false;
    }
    return true;
  }

  const TfLiteSparsity* s_ = nullptr;
  std::vector<int> shape_, level_dim_, level_size_, block_of_, block_size_, coord_;
  size_t num_values_ = 0, next_ = 0;
};

// The dense contents of sparse constant `t`: float32 for float32 / float16,
// the int8 bytes for int8; null if it cannot be densified here.
StaticData Densify(const TfLiteTensor& t) {
  Densifier d;
  if (!d.Init(t)) return nullptr;
  const size_t n = d.DenseSize();
  if (n > kMaxDenseElements) return nullptr;  // left to the builtin kernel
  auto data = std::make_shared<std::vector<float>>(n + XNN_EXTRA_BYTES / sizeof(float));
  bool ok = false;
  const char* raw = t.data.raw_const;
  if (t.type == kTfLiteFloat32) {
    auto value = [raw](size_t i) {
      float f;
      std::memcpy(&f, raw + i * sizeof(float), sizeof(f));
      return f;
    };
    ok = d.Run(t.bytes / sizeof(float), value, data->data());
  } else if (t.type == kTfLiteFloat16) {
    auto value = [raw](size_t i) {
      uint16_t h;
      std::memcpy(&h, raw + i * sizeof(h), sizeof(h));
      return HalfToFloat(h);
    };
    ok = d.Run(t.bytes / sizeof(uint16_t), value, data->data());
  } else if (t.type == kTfLiteInt8) {
    // The int8 values themselves (the buffer is only storage), read with the
    // quantization of the DENSIFY output tensor.
    data->assign((n + 3) / 4 + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
    auto value = [raw](size_t i) { return static_cast<int8_t>(raw[i]); };
    ok = d.Run(t.bytes, value, reinterpret_cast<int8_t*>(data->data()));
  }
  return ok ? data : nullptr;
}

}  // namespace

void UnpackSparseWeights(TfLiteContext* context, StaticMap* statics,
                         std::unordered_map<int, int>* producer,
                         std::vector<std::pair<int, int>>* follows) {
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return;
  struct Node {
    int index;
    TfLiteNode* node;
    TfLiteRegistration* reg;
  };
  std::vector<Node> nodes;
  std::unordered_map<int, int> readers;  // tensor -> number of reading nodes
  for (int i = 0; i < plan->size; ++i) {
    Node n{plan->data[i], nullptr, nullptr};
    if (context->GetNodeAndRegistration(context, n.index, &n.node, &n.reg) != kTfLiteOk) return;
    nodes.push_back(n);
    for (int k = 0; k < n.node->inputs->size; ++k)
      if (n.node->inputs->data[k] >= 0) ++readers[n.node->inputs->data[k]];
  }
  auto valid = [context](int t) { return t >= 0 && t < static_cast<int>(context->tensors_size); };
  auto same_dims = [context](int a, int b) {
    const TfLiteIntArray* x = context->tensors[a].dims;
    const TfLiteIntArray* y = context->tensors[b].dims;
    if (x == nullptr || y == nullptr || x->size != y->size) return false;
    for (int i = 0; i < x->size; ++i)
      if (x->data[i] != y->data[i]) return false;
    return true;
  };
  for (const Node& n : nodes) {
    if (n.reg->builtin_code != kTfLiteBuiltinDensify || n.node->inputs->size != 1 ||
        n.node->outputs->size != 1)
      continue;
    const int in = n.node->inputs->data[0], out = n.node->outputs->data[0];
    if (!valid(in) || !valid(out)) continue;
    const TfLiteTensor& ti = context->tensors[in];
    const TfLiteTensor& to = context->tensors[out];
    if (ti.allocation_type != kTfLiteMmapRo || ti.sparsity == nullptr || to.type != ti.type ||
        (ti.type != kTfLiteFloat32 && ti.type != kTfLiteFloat16 && ti.type != kTfLiteInt8) ||
        !same_dims(in, out))
      continue;
    if (ti.type == kTfLiteInt8 && to.quantization.type != kTfLiteAffineQuantization) continue;
    if (ti.type == kTfLiteFloat32 || ti.type == kTfLiteInt8) {
      StaticData data = Densify(ti);
      if (!data) continue;
      (*statics)[out] = data;
      (*producer)[out] = n.index;
      continue;
    }
    // float16: read by exactly one DEQUANTIZE to float32, whose output
    // becomes the static value; the DENSIFY follows that DEQUANTIZE.
    if (readers[out] != 1) continue;
    for (const Node& q : nodes) {
      if (q.reg->builtin_code != kTfLiteBuiltinDequantize || q.node->inputs->size != 1 ||
          q.node->outputs->size != 1 || q.node->inputs->data[0] != out)
        continue;
      const int f = q.node->outputs->data[0];
      if (!valid(f) || context->tensors[f].type != kTfLiteFloat32 || !same_dims(in, f)) break;
      StaticData data = Densify(ti);
      if (!data) break;
      (*statics)[f] = data;
      (*producer)[f] = q.index;
      follows->emplace_back(n.index, q.index);
      break;
    }
  }
}

}  // namespace xnnpack
}  // namespace tflite_c

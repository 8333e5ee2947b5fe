// DENSIFY: expands a sparse constant (TfLiteSparsity) into a dense tensor.
//
// The input is a constant whose buffer holds only the stored values; its
// sparsity describes how to place them. The n dimensions of the encoding are
// the tensor's own dimensions (each blocked one reduced to its block count)
// followed by one dimension per block_map entry (the block's extent). They
// are visited in traversal_order; dim_metadata[level] describes level
// `level` of that walk: DENSE (every coordinate 0..dense_size-1 present) or
// SPARSE_CSR (for the parent position p, the coordinates
// array_indices[array_segments[p] .. array_segments[p+1]) are present). The
// stored values are consumed in walk order, one per complete path.
//
// The input never changes, so the output is computed once in Prepare into a
// kTfLitePersistentRo tensor; later kernels see it as a constant.
#include <cstring>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DENSIFY";
// Levels of a sparsity encoding (rank + block dims) accepted.
constexpr int kMaxLevels = 16;

// One walk over a validated encoding, writing elements of `elem` bytes.
struct Expander {
  const TfLiteSparsity* sparsity;
  internal::ScratchVector<int> dense_shape;   // the output's shape
  internal::ScratchVector<int> level_dim;     // traversal_order
  internal::ScratchVector<int> level_size;    // extent of each level's dimension
  internal::ScratchVector<int> block_of_dim;  // per dense dim: its block index, or -1
  internal::ScratchVector<int> block_size;    // per block index
  const char* values;
  size_t num_values;
  size_t elem;
  char* out;
  size_t next_value = 0;
  internal::ScratchVector<int> coord;  // per encoded dimension

  TfLiteStatus Walk(TfLiteContext* context, int level, int parent) {
    const int rank = static_cast<int>(dense_shape.size());
    if (level == static_cast<int>(level_dim.size())) {
      if (next_value >= num_values) {
        TF_LITE_KERNEL_LOG(context, "%s: sparse encoding needs more values than stored (%zu)", kOp,
                           num_values);
        return kTfLiteError;
      }
      size_t flat = 0;
      for (int d = 0; d < rank; ++d) {
        int c = coord[d];
        if (block_of_dim[d] >= 0) {
          const int b = block_of_dim[d];
          c = c * block_size[b] + coord[rank + b];
        }
        flat = flat * dense_shape[d] + c;
      }
      std::memcpy(out + flat * elem, values + next_value * elem, elem);
      ++next_value;
      return kTfLiteOk;
    }
    const TfLiteDimensionMetadata& m = sparsity->dim_metadata[level];
    const int dim = level_dim[level];
    if (m.format == kTfLiteDimDense) {
      for (int i = 0; i < m.dense_size; ++i) {
        coord[dim] = i;
        TF_LITE_ENSURE_OK(context, Walk(context, level + 1, parent * m.dense_size + i));
      }
      return kTfLiteOk;
    }
    const TfLiteIntArray* seg = m.array_segments;
    const TfLiteIntArray* idx = m.array_indices;
    if (parent + 1 >= seg->size) {
      TF_LITE_KERNEL_LOG(context, "%s: level %d has too few array_segments", kOp, level);
      return kTfLiteError;
    }
    const int begin = seg->data[parent];
    const int end = seg->data[parent + 1];
    if (begin < 0 || end < begin || end > idx->size) {
      TF_LITE_KERNEL_LOG(context, "%s: level %d has invalid array_segments", kOp, level);
      return kTfLiteError;
    }
    for (int j = begin; j < end; ++j) {
      const int c = idx->data[j];
      if (c < 0 || c >= level_size[level]) {
        TF_LITE_KERNEL_LOG(context, "%s: level %d index %d outside [0, %d)", kOp, level, c,
                           level_size[level]);
        return kTfLiteError;
      }
      coord[dim] = c;
      TF_LITE_ENSURE_OK(context, Walk(context, level + 1, j));
    }
    return kTfLiteOk;
  }
};

// Checks the encoding against the dense shape and fills in `e`'s tables.
TfLiteStatus Validate(TfLiteContext* context, const TfLiteTensor* input, Expander* e) {
  const TfLiteSparsity* s = input->sparsity;
  const int rank = internal::NumDims(input);
  e->dense_shape.assign(input->dims->data, input->dims->data + rank);
  const int blocks = s->block_map != nullptr ? s->block_map->size : 0;
  const int levels = rank + blocks;
  if (s->traversal_order == nullptr || s->traversal_order->size != levels ||
      s->dim_metadata_size != levels || levels > kMaxLevels) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: sparsity of a rank-%d tensor with %d block dims needs %d levels "
                       "(at most %d) in traversal_order and dim_metadata",
                       kOp, rank, blocks, levels, kMaxLevels);
    return kTfLiteError;
  }
  e->block_of_dim.assign(rank, -1);
  e->block_size.assign(blocks, 0);
  e->level_dim.assign(s->traversal_order->data, s->traversal_order->data + levels);
  std::vector<int> level_of_dim(levels, -1);
  for (int l = 0; l < levels; ++l) {
    const int d = e->level_dim[l];
    if (d < 0 || d >= levels || level_of_dim[d] != -1) {
      TF_LITE_KERNEL_LOG(context, "%s: traversal_order is not a permutation", kOp);
      return kTfLiteError;
    }
    level_of_dim[d] = l;
  }
  for (int b = 0; b < blocks; ++b) {
    const int d = s->block_map->data[b];
    if (d < 0 || d >= rank || e->block_of_dim[d] != -1) {
      TF_LITE_KERNEL_LOG(context, "%s: invalid block_map entry %d", kOp, d);
      return kTfLiteError;
    }
    const TfLiteDimensionMetadata& m = s->dim_metadata[level_of_dim[rank + b]];
    if (m.format != kTfLiteDimDense || m.dense_size <= 0 || e->dense_shape[d] % m.dense_size) {
      TF_LITE_KERNEL_LOG(context, "%s: block %d must be dense and divide dimension %d", kOp, b, d);
      return kTfLiteError;
    }
    e->block_of_dim[d] = b;
    e->block_size[b] = m.dense_size;
  }
  // Extent of every encoded dimension.
  std::vector<int> extent(levels);
  for (int d = 0; d < rank; ++d) {
    extent[d] = e->block_of_dim[d] >= 0 ? e->dense_shape[d] / e->block_size[e->block_of_dim[d]]
                                        : e->dense_shape[d];
  }
  for (int b = 0; b < blocks; ++b) extent[rank + b] = e->block_size[b];
  e->level_size.resize(levels);
  for (int l = 0; l < levels; ++l) {
    const TfLiteDimensionMetadata& m = s->dim_metadata[l];
    e->level_size[l] = extent[e->level_dim[l]];
    if (m.format == kTfLiteDimDense) {
      if (m.dense_size != e->level_size[l]) {
        TF_LITE_KERNEL_LOG(context, "%s: dense level %d has size %d, expected %d", kOp, l,
                           m.dense_size, e->level_size[l]);
        return kTfLiteError;
      }
    } else if (m.format != kTfLiteDimSparseCSR || m.array_segments == nullptr ||
               m.array_indices == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: level %d is neither DENSE nor complete SPARSE_CSR", kOp, l);
      return kTfLiteError;
    }
  }
  e->coord.assign(levels, 0);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  size_t elem = 0;
  switch (input->type) {
    case kTfLiteFloat32:
      elem = 4;
      break;
    case kTfLiteFloat16:
      elem = 2;
      break;
    case kTfLiteInt8:
      elem = 1;
      break;
    default:
      return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  if (!internal::IsConstantOrPersistent(input) || input->sparsity == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be a constant with sparsity parameters", kOp);
    return kTfLiteError;
  }
  Expander e;
  e.sparsity = input->sparsity;
  TF_LITE_ENSURE_OK(context, Validate(context, input, &e));

  // Persistent memory of the output's own, filled right away.
  if (output->allocation_type != kTfLitePersistentRo) {
    TfLiteTensorDataFree(output);
    output->allocation_type = kTfLitePersistentRo;
  }
  TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, input->dims));
  if (output->bytes != static_cast<size_t>(internal::NumElements(output)) * elem ||
      (output->bytes > 0 && output->data.raw == nullptr)) {
    TF_LITE_KERNEL_LOG(context, "%s: could not allocate the dense output", kOp);
    return kTfLiteError;
  }
  std::memset(output->data.raw, 0, output->bytes);
  e.values = input->data.raw_const;
  e.num_values = input->bytes / elem;
  e.elem = elem;
  e.out = output->data.raw;
  return e.Walk(context, 0, 0);
}

TfLiteStatus Eval(TfLiteContext*, TfLiteNode*) { return kTfLiteOk; }

}  // namespace

const TfLiteRegistration* Register_DENSIFY() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

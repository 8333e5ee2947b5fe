// STABLEHLO_GATHER (operand, start_indices; TfLiteStablehloGatherParams),
// as stablehlo.gather without batching dimensions: every result index splits
// into batch dimensions (those not in offset_dims) and offset dimensions.
// The batch part picks a vector of start_indices along index_vector_dim
// (index_vector_dim == rank(start_indices) means vectors of one element);
// entry k of it is the start along operand dimension start_index_map[k]
// (other dimensions start at 0). Each start is clamped to
// [0, operand_dim - slice_size], as the specification says, so any index
// value is safe. The offset part, with a 0 inserted at every
// collapsed_slice_dims position, is added to the start to give the operand
// element.
//
// Element types as upstream: FLOAT16, FLOAT32, FLOAT64, INT8, INT16, INT32,
// INT64, UINT8, UINT16, UINT32, UINT64 (moved as bytes); INT32 or INT64
// indices. Upstream trusts the attributes; we check the specification's
// constraints on them in Prepare.
#include <cstdint>
#include <cstring>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/stablehlo_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STABLEHLO_GATHER";
constexpr int kMaxRank = TFLITE_STABLEHLO_GATHER_PARAMS_MAX_DIMENSION_COUNT;

struct OpData {
  int operand_rank, indices_rank, result_rank;
  bool is_offset[kMaxRank];      // per result dimension
  int offset_operand_dim[kMaxRank];  // per offset result dimension: its operand dimension
  int batch_indices_dim[kMaxRank];   // per batch result dimension: its start_indices dimension
  int64_t index_vector_size;         // entries per start vector
};

TfLiteStatus Fail(TfLiteContext* context, const char* what) {
  TF_LITE_KERNEL_LOG(context, "%s: %s", kOp, what);
  return kTfLiteError;
}

// The ranks and the specification's constraints on the attributes; sets the
// ranks and index vector size in OpData.
TfLiteStatus CheckAttributes(TfLiteContext* context, const TfLiteStablehloGatherParams* p,
                             const TfLiteTensor* operand, const TfLiteTensor* indices, OpData* d) {
  d->operand_rank = internal::NumDims(operand);
  d->indices_rank = internal::NumDims(indices);
  const int64_t ivd = p->index_vector_dim;
  if (d->operand_rank > kMaxRank || d->indices_rank > kMaxRank) {
    return Fail(context, "operand or start_indices rank is above 8");
  }
  if (ivd < 0 || ivd > d->indices_rank) {
    return Fail(context, "index_vector_dim is outside [0, rank(start_indices)]");
  }
  d->index_vector_size = ivd == d->indices_rank ? 1 : internal::Dim(indices, ivd);
  const int batch_rank = d->indices_rank - (ivd < d->indices_rank ? 1 : 0);
  d->result_rank = batch_rank + p->num_offset_dims;
  if (p->num_slice_sizes != d->operand_rank) {
    return Fail(context, "slice_sizes must have one entry per operand dimension");
  }
  if (!internal::SortedInRange(p->collapsed_slice_dims, p->num_collapsed_slice_dims, d->operand_rank)) {
    return Fail(context, "collapsed_slice_dims must be sorted, unique operand dimensions");
  }
  if (p->num_offset_dims != d->operand_rank - p->num_collapsed_slice_dims ||
      d->result_rank > kMaxRank ||
      !internal::SortedInRange(p->offset_dims, p->num_offset_dims, d->result_rank)) {
    return Fail(context,
                "offset_dims must be sorted, unique result dimensions, one per operand "
                "dimension not collapsed");
  }
  if (p->num_start_index_map != d->index_vector_size) {
    return Fail(context, "start_index_map must have one entry per index vector element");
  }
  for (int k = 0; k < p->num_start_index_map; ++k) {
    const int64_t m = p->start_index_map[k];
    if (m < 0 || m >= d->operand_rank || internal::Contains(p->start_index_map, k, m)) {
      return Fail(context, "start_index_map must hold unique operand dimensions");
    }
  }
  for (int i = 0; i < d->operand_rank; ++i) {
    const int64_t s = p->slice_sizes[i];
    if (s < 0 || s > internal::Dim(operand, i) ||
        (s > 1 && internal::Contains(p->collapsed_slice_dims, p->num_collapsed_slice_dims, i))) {
      return Fail(context,
                  "slice_sizes must be in [0, operand dimension], and <= 1 where collapsed");
    }
  }
  return kTfLiteOk;
}

// Result shape: offset dimensions take the uncollapsed slice sizes in
// order, batch dimensions the start_indices dimensions other than
// index_vector_dim, in order. Records each result dimension's source.
void ComputeResultShape(const TfLiteStablehloGatherParams* p, const TfLiteTensor* indices,
                        OpData* d, int* shape) {
  const int64_t ivd = p->index_vector_dim;
  int next_operand_dim = 0, next_indices_dim = 0;
  for (int r = 0; r < d->result_rank; ++r) {
    d->is_offset[r] = internal::Contains(p->offset_dims, p->num_offset_dims, r);
    if (d->is_offset[r]) {
      while (internal::Contains(p->collapsed_slice_dims, p->num_collapsed_slice_dims, next_operand_dim)) {
        ++next_operand_dim;
      }
      d->offset_operand_dim[r] = next_operand_dim;
      shape[r] = static_cast<int>(p->slice_sizes[next_operand_dim++]);
    } else {
      if (next_indices_dim == ivd) ++next_indices_dim;
      d->batch_indices_dim[r] = next_indices_dim;
      shape[r] = internal::Dim(indices, next_indices_dim++);
    }
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* p = static_cast<const TfLiteStablehloGatherParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *operand, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &operand));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckIndexedTypes(context, kOp, operand, indices,
                                                        "start_indices", output));
  TF_LITE_ENSURE_OK(context, CheckAttributes(context, p, operand, indices, d));
  int shape[kMaxRank];
  ComputeResultShape(p, indices, d, shape);
  int64_t result_elements = 1;
  for (int r = 0; r < d->result_rank; ++r) result_elements *= shape[r];
  if (internal::NumElements(operand) == 0 && result_elements > 0) {
    return Fail(context, "cannot gather elements from an empty operand");
  }
  return context->ResizeTensor(context, output,
                               internal::MakeIntArray(shape, d->result_rank).release());
}

template <typename Index>
void Gather(const OpData& d, const TfLiteStablehloGatherParams& p, const TfLiteTensor* operand,
            const Index* indices, const TfLiteIntArray* indices_dims, TfLiteTensor* output) {
  const size_t es = internal::ElementBytes(operand->type);
  const int64_t count = internal::NumElements(output);
  int64_t operand_strides[kMaxRank], indices_strides[kMaxRank];
  internal::RowMajorStrides(operand->dims, operand_strides);
  internal::RowMajorStrides(indices_dims, indices_strides);
  const int64_t ivd_stride =
      p.index_vector_dim < d.indices_rank ? indices_strides[p.index_vector_dim] : 0;
  int64_t result_index[kMaxRank] = {};
  char* out = output->data.raw;
  for (int64_t n = 0; n < count; ++n, out += es) {
    // Start vector of this batch position, then operand element.
    int64_t vector_offset = 0;
    int64_t element = 0;
    for (int r = 0; r < d.result_rank; ++r) {
      if (d.is_offset[r]) {
        element += result_index[r] * operand_strides[d.offset_operand_dim[r]];
      } else {
        vector_offset += result_index[r] * indices_strides[d.batch_indices_dim[r]];
      }
    }
    for (int k = 0; k < p.num_start_index_map; ++k) {
      const int dim = static_cast<int>(p.start_index_map[k]);
      const int64_t limit = internal::Dim(operand, dim) - p.slice_sizes[dim];
      int64_t start = static_cast<int64_t>(indices[vector_offset + k * ivd_stride]);
      start = start < 0 ? 0 : (start > limit ? limit : start);
      element += start * operand_strides[dim];
    }
    std::memcpy(out, operand->data.raw_const + element * es, es);
    for (int r = d.result_rank - 1; r >= 0 && ++result_index[r] == internal::Dim(output, r);
         --r) {
      result_index[r] = 0;
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& d = *static_cast<const OpData*>(node->user_data);
  const auto& p = *static_cast<const TfLiteStablehloGatherParams*>(node->builtin_data);
  const TfLiteTensor* operand = internal::InputAt(context, node, 0);
  const TfLiteTensor* indices = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (indices->type == kTfLiteInt32) {
    Gather(d, p, operand, indices->data.i32, indices->dims, output);
  } else {
    Gather(d, p, operand, indices->data.i64, indices->dims, output);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_GATHER() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

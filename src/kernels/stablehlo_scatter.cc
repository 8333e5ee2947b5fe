// STABLEHLO_SCATTER (operand, scatter_indices, updates;
// TfLiteStablehloScatterParams), as stablehlo.scatter with one operand and
// without batching dimensions: the output starts as the operand; then, for
// every updates index in row-major order, its scatter dimensions (those not
// in update_window_dims) pick a vector of scatter_indices along
// index_vector_dim, whose entry k is the start along operand dimension
// scatter_dims_to_operand_dims[k]; its window dimensions, with a 0 inserted
// at every inserted_window_dims position, are added to the start. When that
// output index lies inside the output, the element becomes
// f(element, update), else the update is dropped (the specification leaves
// this to the implementation; StableHLO's reference interpreter and
// upstream drop it, though upstream checks only the upper bound and would
// write out of bounds for a negative index; we check both).
//
// f is the update computation subgraph: empty (the update replaces the
// element) or a single STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM
// or STABLEHLO_MINIMUM, as upstream; other bodies are refused. Integer sums
// and products wrap. indices_are_sorted and unique_indices are hints only.
//
// Element types as upstream: FLOAT16 (computed as Eigen::half), FLOAT32,
// FLOAT64, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64; INT32
// or INT64 indices.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/stablehlo_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STABLEHLO_SCATTER";
constexpr int kMaxRank = TFLITE_STABLEHLO_SCATTER_PARAMS_MAX_DIMENSION_COUNT;

enum class Computation { kReplace, kAdd, kMultiply, kMaximum, kMinimum };

struct OpData {
  Computation computation;
  int operand_rank, indices_rank, updates_rank;
  bool is_window[kMaxRank];      // per updates dimension
  int window_operand_dim[kMaxRank];  // per window updates dimension: its operand dimension
  int scatter_indices_dim[kMaxRank];  // per scatter updates dimension: its indices dimension
};

TfLiteStatus Fail(TfLiteContext* context, const char* what) {
  TF_LITE_KERNEL_LOG(context, "%s: %s", kOp, what);
  return kTfLiteError;
}

TfLiteStatus ReadComputation(TfLiteContext* context, int index, Computation* c) {
  int32_t code;
  TF_LITE_ENSURE_OK(context, internal::ReadBodyOperator(context, kOp, index, &code));
  switch (code) {
    case -1: *c = Computation::kReplace; return kTfLiteOk;
    case kTfLiteBuiltinStablehloAdd: *c = Computation::kAdd; return kTfLiteOk;
    case kTfLiteBuiltinStablehloMultiply: *c = Computation::kMultiply; return kTfLiteOk;
    case kTfLiteBuiltinStablehloMaximum: *c = Computation::kMaximum; return kTfLiteOk;
    case kTfLiteBuiltinStablehloMinimum: *c = Computation::kMinimum; return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context,
                         "%s: update computation (builtin code %d) not supported; supported are "
                         "an empty body, STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM and "
                         "STABLEHLO_MINIMUM",
                         kOp, code);
      return kTfLiteError;
  }
}

TfLiteStatus CheckAttributes(TfLiteContext* context, const TfLiteStablehloScatterParams& p,
                             const TfLiteTensor* operand, const TfLiteTensor* indices,
                             const TfLiteTensor* updates, OpData* d) {
  const int64_t ivd = p.index_vector_dim;
  if (ivd < 0 || ivd > d->indices_rank) {
    return Fail(context, "index_vector_dim is outside [0, rank(scatter_indices)]");
  }
  const int64_t vector_size = ivd == d->indices_rank ? 1 : internal::Dim(indices, ivd);
  const int scatter_rank = d->indices_rank - (ivd < d->indices_rank ? 1 : 0);
  if (!internal::SortedInRange(p.update_window_dims, p.num_update_window_dims, d->updates_rank) ||
      d->updates_rank != scatter_rank + p.num_update_window_dims) {
    return Fail(context,
                "update_window_dims must be sorted, unique updates dimensions, and the others "
                "as many as the scatter_indices dimensions besides index_vector_dim");
  }
  if (!internal::SortedInRange(p.inserted_window_dims, p.num_inserted_window_dims,
                               d->operand_rank) ||
      p.num_update_window_dims + p.num_inserted_window_dims != d->operand_rank) {
    return Fail(context,
                "inserted_window_dims must be sorted, unique operand dimensions, as many as the "
                "operand dimensions without an update window dimension");
  }
  if (p.num_scatter_dims_to_operand_dims != vector_size) {
    return Fail(context, "scatter_dims_to_operand_dims must have one entry per index vector element");
  }
  for (int k = 0; k < p.num_scatter_dims_to_operand_dims; ++k) {
    const int64_t m = p.scatter_dims_to_operand_dims[k];
    if (m < 0 || m >= d->operand_rank || internal::Contains(p.scatter_dims_to_operand_dims, k, m)) {
      return Fail(context, "scatter_dims_to_operand_dims must hold unique operand dimensions");
    }
  }
  // Pair updates dimensions with operand (window) or indices (scatter) ones.
  int next_operand_dim = 0, next_indices_dim = 0;
  for (int u = 0; u < d->updates_rank; ++u) {
    d->is_window[u] = internal::Contains(p.update_window_dims, p.num_update_window_dims, u);
    if (d->is_window[u]) {
      while (internal::Contains(p.inserted_window_dims, p.num_inserted_window_dims,
                                next_operand_dim)) {
        ++next_operand_dim;
      }
      d->window_operand_dim[u] = next_operand_dim;
      if (internal::Dim(updates, u) > internal::Dim(operand, next_operand_dim++)) {
        return Fail(context, "an update window is larger than the operand");
      }
    } else {
      if (next_indices_dim == ivd) ++next_indices_dim;
      d->scatter_indices_dim[u] = next_indices_dim;
      if (internal::Dim(updates, u) != internal::Dim(indices, next_indices_dim++)) {
        return Fail(context,
                    "updates' scatter dimensions must match the scatter_indices dimensions");
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* p = static_cast<const TfLiteStablehloScatterParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *operand, *indices, *updates;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &operand));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &updates));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckIndexedTypes(context, kOp, operand, indices,
                                                        "scatter_indices", output));
  if (updates->type != operand->type) {
    return internal::TypeMismatch(context, kOp, "operand", operand->type, "updates",
                                  updates->type);
  }
  d->operand_rank = internal::NumDims(operand);
  d->indices_rank = internal::NumDims(indices);
  d->updates_rank = internal::NumDims(updates);
  if (d->operand_rank > kMaxRank || d->indices_rank > kMaxRank || d->updates_rank > kMaxRank) {
    return Fail(context, "operand, scatter_indices or updates rank is above 8");
  }
  TF_LITE_ENSURE_OK(context, CheckAttributes(context, *p, operand, indices, updates, d));
  TF_LITE_ENSURE_OK(context,
                    ReadComputation(context, p->update_computation_subgraph_index, &d->computation));
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(operand->dims));
}

// f(element, update); integers wrap, max/min as std::max/std::min.
template <typename T>
T Combine(Computation c, T element, T update) {
  using Wide = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;
  switch (c) {
    case Computation::kAdd:
      return static_cast<T>(static_cast<Wide>(element) + static_cast<Wide>(update));
    case Computation::kMultiply:
      return static_cast<T>(static_cast<Wide>(element) * static_cast<Wide>(update));
    case Computation::kMaximum:
      return element < update ? update : element;
    case Computation::kMinimum:
      return update < element ? update : element;
    default:
      return update;
  }
}

template <typename T, typename Index>
void Scatter(const OpData& d, const TfLiteStablehloScatterParams& p, const Index* indices,
             const TfLiteIntArray* indices_dims, const TfLiteTensor* updates,
             TfLiteTensor* output) {
  int64_t output_strides[kMaxRank], indices_strides[kMaxRank];
  internal::RowMajorStrides(output->dims, output_strides);
  internal::RowMajorStrides(indices_dims, indices_strides);
  const int64_t ivd_stride =
      p.index_vector_dim < d.indices_rank ? indices_strides[p.index_vector_dim] : 0;
  const T* upd = reinterpret_cast<const T*>(updates->data.raw_const);
  T* out = reinterpret_cast<T*>(output->data.raw);
  int64_t position[kMaxRank] = {};  // per output dimension
  int64_t update_index[kMaxRank] = {};
  const int64_t count = internal::NumElements(updates);
  for (int64_t n = 0; n < count; ++n) {
    for (int i = 0; i < d.operand_rank; ++i) position[i] = 0;
    int64_t vector_offset = 0;
    for (int u = 0; u < d.updates_rank; ++u) {
      if (d.is_window[u]) {
        position[d.window_operand_dim[u]] = update_index[u];
      } else {
        vector_offset += update_index[u] * indices_strides[d.scatter_indices_dim[u]];
      }
    }
    bool inside = true;
    int64_t element = 0;
    for (int k = 0; k < p.num_scatter_dims_to_operand_dims; ++k) {
      const int dim = static_cast<int>(p.scatter_dims_to_operand_dims[k]);
      const int64_t start = static_cast<int64_t>(indices[vector_offset + k * ivd_stride]);
      // The window offset is in [0, size): a start outside (-size, size)
      // misses the output (and could overflow the sum).
      const int64_t size = internal::Dim(output, dim);
      if (start <= -size || start >= size) {
        inside = false;
      } else {
        position[dim] += start;
      }
    }
    for (int i = 0; i < d.operand_rank && inside; ++i) {
      inside = position[i] >= 0 && position[i] < internal::Dim(output, i);
      element += position[i] * output_strides[i];
    }
    if (inside) out[element] = Combine(d.computation, out[element], upd[n]);
    for (int u = d.updates_rank - 1; u >= 0 && ++update_index[u] == internal::Dim(updates, u);
         --u) {
      update_index[u] = 0;
    }
  }
}

template <typename T>
void EvalType(const OpData& d, const TfLiteStablehloScatterParams& p, const TfLiteTensor* indices,
              const TfLiteTensor* updates, TfLiteTensor* output) {
  if (indices->type == kTfLiteInt32) {
    Scatter<T>(d, p, indices->data.i32, indices->dims, updates, output);
  } else {
    Scatter<T>(d, p, indices->data.i64, indices->dims, updates, output);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& d = *static_cast<const OpData*>(node->user_data);
  const auto& p = *static_cast<const TfLiteStablehloScatterParams*>(node->builtin_data);
  const TfLiteTensor* operand = internal::InputAt(context, node, 0);
  const TfLiteTensor* indices = internal::InputAt(context, node, 1);
  const TfLiteTensor* updates = internal::InputAt(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (output->bytes > 0 && output->data.raw != operand->data.raw_const) {
    std::memcpy(output->data.raw, operand->data.raw_const, output->bytes);
  }
  switch (operand->type) {
    case kTfLiteFloat16: EvalType<Eigen::half>(d, p, indices, updates, output); break;
    case kTfLiteFloat32: EvalType<float>(d, p, indices, updates, output); break;
    case kTfLiteFloat64: EvalType<double>(d, p, indices, updates, output); break;
    case kTfLiteInt8: EvalType<int8_t>(d, p, indices, updates, output); break;
    case kTfLiteInt16: EvalType<int16_t>(d, p, indices, updates, output); break;
    case kTfLiteInt32: EvalType<int32_t>(d, p, indices, updates, output); break;
    case kTfLiteInt64: EvalType<int64_t>(d, p, indices, updates, output); break;
    case kTfLiteUInt8: EvalType<uint8_t>(d, p, indices, updates, output); break;
    case kTfLiteUInt16: EvalType<uint16_t>(d, p, indices, updates, output); break;
    case kTfLiteUInt32: EvalType<uint32_t>(d, p, indices, updates, output); break;
    default: EvalType<uint64_t>(d, p, indices, updates, output); break;  // Prepare checked
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_SCATTER() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

#include "src/kernels/internal/sparse_fully_connected.h"

#include <initializer_list>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Block size along the depth: 1 for the unblocked encoding.
int BlockSize(const TfLiteSparsity& s) {
  return s.dim_metadata_size == 3 ? s.dim_metadata[2].dense_size : 1;
}

bool ArrayIs(const TfLiteIntArray* a, std::initializer_list<int> values) {
  if (a == nullptr || a->size != static_cast<int>(values.size())) return false;
  int i = 0;
  for (int v : values) {
    if (a->data[i++] != v) return false;
  }
  return true;
}

}  // namespace

TfLiteStatus CheckSparseFullyConnected(TfLiteContext* context, const char* op,
                                       const TfLiteTensor* input, const TfLiteTensor* weights,
                                       const TfLiteTensor* output) {
  if (input->type != kTfLiteFloat32 || weights->type != kTfLiteFloat32 ||
      output->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: sparse weights are supported with FLOAT32 input, weights and output "
                       "only (got %s, %s, %s): not supported",
                       op, TfLiteTypeGetName(input->type), TfLiteTypeGetName(weights->type),
                       TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  if (!IsConstantOrPersistent(weights) || weights->dims == nullptr || weights->dims->size != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: sparse weights must be a constant of rank 2", op);
    return kTfLiteError;
  }
  const TfLiteSparsity& s = *weights->sparsity;
  const int units = weights->dims->data[0];
  const int depth = weights->dims->data[1];
  const bool plain = s.dim_metadata_size == 2 && ArrayIs(s.traversal_order, {0, 1}) &&
                     (s.block_map == nullptr || s.block_map->size == 0);
  const bool blocked = s.dim_metadata_size == 3 && ArrayIs(s.traversal_order, {0, 1, 2}) &&
                       ArrayIs(s.block_map, {1});
  if ((!plain && !blocked) || s.dim_metadata == nullptr ||
      s.dim_metadata[0].format != kTfLiteDimDense ||
      s.dim_metadata[1].format != kTfLiteDimSparseCSR ||
      (blocked && s.dim_metadata[2].format != kTfLiteDimDense)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: sparse weight format not supported (only DENSE x SPARSE_CSR, "
                       "optionally in 1xk blocks along the depth)",
                       op);
    return kTfLiteError;
  }
  const int block = BlockSize(s);
  const TfLiteIntArray* segments = s.dim_metadata[1].array_segments;
  const TfLiteIntArray* indices = s.dim_metadata[1].array_indices;
  if (block <= 0 || depth % block != 0 || s.dim_metadata[0].dense_size != units ||
      segments == nullptr || indices == nullptr || segments->size != units + 1 ||
      segments->data[0] != 0 || segments->data[units] != indices->size) {
    TF_LITE_KERNEL_LOG(context, "%s: invalid sparsity parameters for weights [%d, %d]", op, units,
                       depth);
    return kTfLiteError;
  }
  for (int u = 0; u < units; ++u) {
    if (segments->data[u + 1] < segments->data[u]) {
      TF_LITE_KERNEL_LOG(context, "%s: invalid sparsity parameters: segments decrease at %d", op,
                         u);
      return kTfLiteError;
    }
  }
  const int blocks_per_row = depth / block;
  for (int j = 0; j < indices->size; ++j) {
    if (indices->data[j] < 0 || indices->data[j] >= blocks_per_row) {
      TF_LITE_KERNEL_LOG(context, "%s: invalid sparsity parameters: index %d outside [0, %d)", op,
                         indices->data[j], blocks_per_row);
      return kTfLiteError;
    }
  }
  const uint64_t stored = static_cast<uint64_t>(indices->size) * static_cast<uint64_t>(block);
  if (weights->data.raw_const == nullptr || weights->bytes < stored * sizeof(float)) {
    TF_LITE_KERNEL_LOG(context, "%s: sparse weights hold %zu bytes, the encoding needs %llu", op,
                       weights->bytes, static_cast<unsigned long long>(stored * sizeof(float)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

void SparseFullyConnected(const TfLiteTensor* weights, const float* input, const float* bias,
                          float* output, int64_t batches, int units, int depth,
                          TfLiteFusedActivation activation) {
  const TfLiteSparsity& s = *weights->sparsity;
  const int block = BlockSize(s);
  const int* segments = s.dim_metadata[1].array_segments->data;
  const int* indices = s.dim_metadata[1].array_indices->data;
  const float* values = weights->data.f;
  const ActivationRange<float> range = GetActivationRange<float>(activation);
  for (int64_t b = 0; b < batches; ++b) {
    const float* in = input + b * depth;
    float* out = output + b * units;
    for (int u = 0; u < units; ++u) {
      float acc = bias != nullptr ? bias[u] : 0.f;
      for (int j = segments[u]; j < segments[u + 1]; ++j) {
        const float* w = values + static_cast<int64_t>(j) * block;
        const float* x = in + static_cast<int64_t>(indices[j]) * block;
        for (int t = 0; t < block; ++t) acc += w[t] * x[t];
      }
      out[u] = ApplyRange(acc, range);
    }
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

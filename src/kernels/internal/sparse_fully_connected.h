// FULLY_CONNECTED with sparse FLOAT32 weights (weights->sparsity set), called
// from fully_connected.cc. Supported encodings are upstream's: weights
// [units, depth] with traversal_order {0, 1}, dim 0 DENSE (units) and dim 1
// SPARSE_CSR over the depth ("random sparse"), or additionally blocked along
// the depth with block_map {1}, traversal_order {0, 1, 2} and a DENSE third
// level of the block size (upstream runs 1x4 blocks; any 1xk block that
// divides the depth is accepted here). The weights buffer holds only the
// stored values, in that order. Anything else is reported as not supported.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_SPARSE_FULLY_CONNECTED_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_SPARSE_FULLY_CONNECTED_H_

#include <cstdint>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Prepare-time check of a node whose weights carry sparsity: FLOAT32 input,
// weights and output, constant weights of rank 2, and a supported, valid
// encoding (segments ascending within the stored values, indices in range).
// Reports through `context` (naming `op`) and returns kTfLiteError otherwise.
TfLiteStatus CheckSparseFullyConnected(TfLiteContext* context, const char* op,
                                       const TfLiteTensor* input, const TfLiteTensor* weights,
                                       const TfLiteTensor* output);

// out[b, u] = activation(bias[u] + sum over stored weights w[u, k] of
// w[u, k] * in[b, k]) for `batches` rows; `bias` may be null. The weights
// must have passed CheckSparseFullyConnected.
void SparseFullyConnected(const TfLiteTensor* weights, const float* input, const float* bias,
                          float* output, int64_t batches, int units, int depth,
                          TfLiteFusedActivation activation);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_SPARSE_FULLY_CONNECTED_H_

// FULLY_CONNECTED with float activations and integer weights ("hybrid"):
// each input row is quantized to int8 on the fly, multiplied with the int8
// (or unpacked int4) weights in integer arithmetic, and the sums are scaled
// back to float. The rounding rules follow upstream's reference kernels so
// results match theirs, not merely a float matmul with dequantized weights.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_HYBRID_FC_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_HYBRID_FC_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// The affine quantization of a hybrid operand's integer weights, or null
// when it has none.
inline const TfLiteAffineQuantization* HybridWeightQuantization(const TfLiteTensor* weights) {
  return weights->quantization.type == kTfLiteAffineQuantization
             ? static_cast<const TfLiteAffineQuantization*>(weights->quantization.params)
             : nullptr;
}

// Whether every zero point of `aq` is 0 (hybrid weights are symmetric).
inline bool ZeroPointsAreZero(const TfLiteAffineQuantization& aq) {
  if (aq.zero_point == nullptr) return true;
  for (int i = 0; i < aq.zero_point->size; ++i) {
    if (aq.zero_point->data[i] != 0) return false;
  }
  return true;
}

// Symmetric: scale = max|x| / 127, q = round(x / scale) in [-127, 127]; an
// all-zero row gives q = 0 and scale 1.
void QuantizeRowSymmetric(const float* x, int n, int8_t* q, float* scale);

// Asymmetric over [min(x, 0), max(x, 0)] onto [-128, 127] with a nudged zero
// point `offset`: q = round(offset + x / scale).
void QuantizeRowAsymmetric(const float* x, int n, int8_t* q, float* scale, int32_t* offset);

struct HybridFcArgs {
  const float* input;      // [batches, depth]
  const int8_t* weights;   // [units, depth], int8 (int4 already unpacked)
  const float* bias;       // [units] or null
  float* output;           // [batches, units]
  int64_t batches;
  int units;
  int depth;
  const float* channel_scales;  // [units], or null for one scale:
  float weight_scale;           // used when channel_scales is null
  bool asymmetric_inputs;
  int threads = 1;  // at most this many (units are split between them)
};

// out = bias + dequantized (quantized(input) x weights^T); no activation.
// Each input row is quantized once, then the units are split between
// threads; the integer sums, and so the results, do not depend on the split.
void HybridFullyConnected(const HybridFcArgs& a);

// Sums of each row of an int8 [rows, cols] matrix (for asymmetric inputs).
void WeightRowSums(const int8_t* w, int rows, int cols, int32_t* sums);

// The recurrent kernels' hybrid product: each of `n_batch` rows of `x`
// ([n_batch, depth]) is quantized to int8 (symmetric, or asymmetric when
// `row_sums` (from WeightRowSums) is given), multiplied with the int8
// [rows, depth] weights in integer arithmetic and the scaled sums added:
//   out[b * out_stride + r] += s_b * weight_scale * (sum_k q[b, k] w[r, k] - zp_b * row_sums[r]).
// An all-zero `x` adds nothing. `q` holds depth int8 values.
void HybridMatMulAccumulate(const float* x, int n_batch, int depth, const int8_t* w, int rows,
                            float weight_scale, const int32_t* row_sums, int8_t* q, float* out,
                            int out_stride);

struct BlockwiseFcArgs {
  const float* input;       // [batches, depth]
  const uint8_t* weights;   // int4 [units, depth], rows padded to whole bytes
  const float* scales;      // [units, depth / blocksize]
  const float* bias;        // [units] or null
  float* output;            // [batches, units]
  int64_t batches;
  int units;
  int depth;
  int blocksize;
};

// Inputs quantized asymmetrically per row; per block, the integer dot product
// is scaled by the block's weight scale; the input zero point is removed with
// the scaled block sums of the weights.
void BlockwiseInt4FullyConnected(const BlockwiseFcArgs& a);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_HYBRID_FC_H_

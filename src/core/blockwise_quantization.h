// Blockwise quantization of a tensor (schema: QuantizationDetails /
// BlockwiseQuantization), used by FULLY_CONNECTED's INT4 weights.
//
// TensorFlow Lite 2.19's public common.h has no such quantization type; later
// upstream versions add it as kTfLiteBlockwiseQuantization = 2 with the
// struct below. This runtime keeps the 2.19 header unchanged and defines the
// same value and layout here, so builtin kernels can read it and a later
// header update would be transparent. The interpreter builder creates it and
// TfLiteQuantizationFree releases it.
//
// Each weight row (along `quantized_dimension`) is split into blocks of
// `blocksize` consecutive values; block j of row i has the scale
// tensors[scale][i * blocks_per_row + j] (and, when `zero_point` >= 0, the
// zero point from that tensor): real = scale * (q - zero_point).
#ifndef TFLITE_C_SRC_CORE_BLOCKWISE_QUANTIZATION_H_
#define TFLITE_C_SRC_CORE_BLOCKWISE_QUANTIZATION_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

constexpr TfLiteQuantizationType kBlockwiseQuantization = static_cast<TfLiteQuantizationType>(2);

struct BlockwiseQuantization {
  int32_t scale;       // tensor index of the scales
  int32_t zero_point;  // tensor index of the zero points, or -1
  int32_t blocksize;
  int32_t quantized_dimension;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_BLOCKWISE_QUANTIZATION_H_

// The one validation layer for quantization parameters. Every kernel gets it
// twice over: CheckArity (kernel_util.h), which nearly every Prepare starts
// with, checks each quantized input and output of the node, and
// GetQuantParams (quant_math.h) checks the tensor it reads. Kernels add only
// their op-specific rules on top (e.g. INT16 zero points of 0).
//
// Messages, naming the op and the tensor:
//   ADD: input 1 scale nan must be positive and finite
//   CONV_2D: output zero point 300 is outside the INT8 range [-128, 127]
//   FULLY_CONNECTED: input 1 has 3 scales for 4 channels along dimension 0
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_VALIDATE_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_VALIDATE_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Checks `t`'s affine quantization, if it has one (a tensor without is
// accepted: whether an op needs one is the op's rule):
//  * as many zero points as scales;
//  * one scale, or one per channel: quantized_dimension within the rank and
//    as many scales as that dimension has elements;
//  * for the quantized element types (INT4, INT8, UINT8, INT16), every
//    scale positive and finite and every zero point inside the type's range;
//    for other types (an INT32/INT64 bias, whose scale upstream's converters
//    may leave at 0) every scale finite and not negative.
TfLiteStatus CheckQuantization(TfLiteContext* context, const char* op, const char* what,
                               const TfLiteTensor* t);

// CheckQuantization on every input ("input i") and output ("output i") of
// `node`; omitted optional tensors are skipped.
TfLiteStatus CheckNodeQuantization(TfLiteContext* context, const TfLiteNode* node,
                                   const char* op);

// The values a zero point of a quantized element type can take; false for
// types whose zero points are not range-checked.
bool ZeroPointRange(TfLiteType type, int32_t* lo, int32_t* hi);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_QUANT_VALIDATE_H_

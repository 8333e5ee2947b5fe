// Kernel groups registered by RegisterBuiltinKernels (src/kernels/register.cc).
// Each group lives in its own register_<group>.cc next to its kernels.
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_GROUPS_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_GROUPS_H_

#include "src/core/op_resolver.h"

namespace tflite_c {

// Layout and data movement: padding, pooling, concatenation, transposes,
// resizing, (de)quantization.
void RegisterLayoutKernels(MutableOpResolver* resolver);
// Element-wise math, comparisons, logic, reductions, batch matmul.
void RegisterElementwiseKernels(MutableOpResolver* resolver);
// Control flow (WHILE, IF, STABLEHLO_CASE, CALL_ONCE), resource variables, DENSIFY.
void RegisterControlFlowKernels(MutableOpResolver* resolver);
// Recurrent ops: LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF, RNN, UNIDIRECTIONAL_SEQUENCE_RNN.
void RegisterRecurrentKernels(MutableOpResolver* resolver);
// String tensors and text features: lookup tables (HASHTABLE*,
// HASHTABLE_LOOKUP), SKIP_GRAM, LSH_PROJECTION.
void RegisterStringKernels(MutableOpResolver* resolver);
// Scans, n-ary sums, scatters, segment reductions, ATAN2, STABLEHLO_COMPOSITE,
// UNIQUE, EMBEDDING_LOOKUP_SPARSE, REDUCE_WINDOW, STABLEHLO_REDUCE_WINDOW,
// STABLEHLO_GATHER, STABLEHLO_SCATTER.
void RegisterExtraKernels(MutableOpResolver* resolver);
// Detection: NON_MAX_SUPPRESSION_V4/V5 and the TFLite_Detection_PostProcess
// custom op (registered by name, as upstream's builtin resolver does).
void RegisterDetectionKernels(MutableOpResolver* resolver);
// Complex numbers and audio: RFFT2D, REAL, IMAG, COMPLEX_ABS and the custom
// ops AudioSpectrogram and Mfcc (plus the custom NumericVerify).
void RegisterAudioKernels(MutableOpResolver* resolver);
// Random numbers: RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL,
// STABLEHLO_RNG_BIT_GENERATOR.
void RegisterRandomKernels(MutableOpResolver* resolver);
// StableHLO element-wise binary ops (ADD, MULTIPLY, MAXIMUM, MINIMUM, AND,
// SHIFT_LEFT).
void RegisterStablehloKernels(MutableOpResolver* resolver);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_GROUPS_H_

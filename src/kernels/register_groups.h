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
// Control flow (WHILE, IF, CALL_ONCE), resource variables, DENSIFY.
void RegisterControlFlowKernels(MutableOpResolver* resolver);
// Recurrent ops: LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF, RNN, UNIDIRECTIONAL_SEQUENCE_RNN.
void RegisterRecurrentKernels(MutableOpResolver* resolver);
// String tensors: lookup tables (HASHTABLE*, HASHTABLE_LOOKUP).
void RegisterStringKernels(MutableOpResolver* resolver);
// Scans, n-ary sums, scatters, segment reductions, ATAN2, STABLEHLO_COMPOSITE,
// UNIQUE, EMBEDDING_LOOKUP_SPARSE, REDUCE_WINDOW, STABLEHLO_REDUCE_WINDOW,
// STABLEHLO_GATHER, STABLEHLO_SCATTER.
void RegisterExtraKernels(MutableOpResolver* resolver);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_GROUPS_H_

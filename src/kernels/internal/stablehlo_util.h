// What the StableHLO kernels share: reading the single operator of a body
// ("region") subgraph, and checks of dimension-list attributes.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_STABLEHLO_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_STABLEHLO_UTIL_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Sets *builtin_code to the builtin code of the only operator of subgraph
// `index`, or to -1 when that subgraph has no operator. Fails, naming `op`,
// for an invalid index or more than one operator. The subgraph is only
// inspected, never prepared or run.
TfLiteStatus ReadBodyOperator(TfLiteContext* context, const char* op, int index,
                              int32_t* builtin_code);

// STABLEHLO_GATHER's and STABLEHLO_SCATTER's type rules (upstream's): the
// operand FLOAT16/32/64, INT8/16/32/64 or UINT8/16/32/64, the output of the
// same type, INT32 or INT64 indices (named `indices_name`).
TfLiteStatus CheckIndexedTypes(TfLiteContext* context, const char* op, const TfLiteTensor* operand,
                               const TfLiteTensor* indices, const char* indices_name,
                               const TfLiteTensor* output);

// Whether `v` is one of values[0, count).
bool Contains(const int64_t* values, int count, int64_t v);

// Whether values[0, count) are strictly increasing and in [0, limit).
bool SortedInRange(const int64_t* values, int count, int64_t limit);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_STABLEHLO_UTIL_H_

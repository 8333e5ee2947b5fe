// Checked arithmetic on attributes and dimensions, one helper per concept,
// each reporting failures through the context in one style:
//   SPACE_TO_DEPTH: block_size must be positive, got 0
//   DEPTH_TO_SPACE: output height 65536 * 65536 overflows
//   SPACE_TO_BATCH_ND: padded dimension 1 2147483647 + 1 + 0 overflows
// (Window geometry, dilation * (filter - 1) + 1 and friends, is in padding.h
// on top of these.)
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_CHECKED_MATH_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_CHECKED_MATH_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// The largest tensor dimension (dimensions are int).
inline constexpr int64_t kMaxDim = 0x7fffffff;

// Reports "<op>: <what> must be positive, got V" unless value > 0.
TfLiteStatus CheckPositive(TfLiteContext* context, const char* op, const char* what,
                           int64_t value);

// *out = a * b, a tensor dimension: fails with "<op>: <what> A * B
// overflows" unless the product is in [0, INT_MAX] (a and b non-negative).
TfLiteStatus MulDim(TfLiteContext* context, const char* op, const char* what, int64_t a,
                    int64_t b, int* out);

// *out = a + b + c, a tensor dimension: fails with "<op>: <what> A + B + C
// overflows" ("A + B" when c is 0) unless the sum is in [0, INT_MAX].
TfLiteStatus AddDims(TfLiteContext* context, const char* op, const char* what, int64_t a,
                     int64_t b, int64_t c, int* out);

// Extents in int64 for the ops whose geometry may go negative or past int
// (StableHLO pads, REDUCE_WINDOW); each returns false on int64 overflow and
// leaves the message to the caller, who knows the axis.
//   SpreadExtent: (count - 1) * spacing + 1, the extent of `count` points
//     `spacing` apart (base dilation, window dilation, interior padding + 1).
//   AddEdges: *extent + low + high (either may be negative).
bool SpreadExtent(int64_t count, int64_t spacing, int64_t* out);
bool AddEdges(int64_t extent, int64_t low, int64_t high, int64_t* out);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_CHECKED_MATH_H_

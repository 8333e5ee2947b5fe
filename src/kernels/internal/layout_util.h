// Helpers of the data-movement kernels (padding, pooling, concatenation,
// slicing, transposes, (de)quantization): element sizes, axis arguments,
// integer parameter tensors, constant folding into persistent outputs, and
// the quantized form of fused activations.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_LAYOUT_UTIL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_LAYOUT_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Highest rank the layout kernels accept: upstream's largest limit (8, for
// BROADCAST_TO); its other kernels stop at 4 to 6, which we exceed harmlessly.
constexpr int kMaxLayoutRank = 8;

// Bytes per element of a fixed-size type; 0 for strings, resources, int4
// and other types whose elements cannot be moved one by one.
size_t ElementBytes(TfLiteType type);

// Like ElementBytes, but reports "<op>: <what> type <T> is not supported"
// for types without a per-element size.
TfLiteStatus GetElementBytes(TfLiteContext* context, const char* op, const char* what,
                             TfLiteType type, size_t* bytes);

// Reports an `input` that is not 4-D (the NHWC kernels).
TfLiteStatus CheckNhwcInput(TfLiteContext* context, const char* op, const TfLiteTensor* input);

// Maps `axis` in [-rank, rank) to [0, rank), reporting it otherwise.
TfLiteStatus NormalizeAxis(TfLiteContext* context, const char* op, int axis, int rank,
                           int* normalized);

// Reads all values of an integer tensor (INT32, INT64, INT16, INT8, UINT8 or
// BOOL) widened to int64; reports other types.
TfLiteStatus ReadIntValues(TfLiteContext* context, const char* op, const char* what,
                           const TfLiteTensor* t, std::vector<int64_t>* values);

// Like ReadIntValues, for values that must fit an int.
TfLiteStatus ReadIntValues(TfLiteContext* context, const char* op, const char* what,
                           const TfLiteTensor* t, std::vector<int>* values);

// Makes `t` a read-only tensor that owns heap memory, allocated by the next
// ResizeTensor: what a kernel does whose output it computes once, in Prepare,
// from constant inputs.
void SetTensorToPersistentRo(TfLiteTensor* t);

// Element strides of a row-major shape.
void RowMajorStrides(const TfLiteIntArray* dims, int64_t* strides);

// Product of dims [first, last).
int64_t DimsProduct(const TfLiteIntArray* dims, int first, int last);

// Copies `count` elements of `element_bytes` each from `src` to every
// position of `dst` (a fill with an element-sized pattern).
void FillElements(void* dst, int64_t count, const void* value, size_t element_bytes);

// Fills `output` with `value`, then places each element of `input` (same
// rank and fixed-size type) at index i into output index offset + i * step,
// axis by axis; elements landing outside the output are dropped. DILATE
// (offset 0, step = dilation) and STABLEHLO_PAD (offset = low edge padding,
// step = interior padding + 1, negative offsets crop).
void SpreadElements(const TfLiteTensor* input, const int64_t* offset, const int64_t* step,
                    const void* value, TfLiteTensor* output);

// The fused activation of a quantized op as a range of quantized output
// values (like upstream, bounds are rounded with the output's scale and zero
// point and clipped to the type's range).
TfLiteStatus QuantizedActivationRange(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation activation,
                                      const TfLiteTensor* output, int32_t* act_min,
                                      int32_t* act_max);

// Smallest and largest value of a quantized integer type.
void QuantizedTypeRange(TfLiteType type, int32_t* min, int32_t* max);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_LAYOUT_UTIL_H_

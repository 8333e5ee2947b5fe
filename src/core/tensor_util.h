// Size arithmetic shared by the loader, the subgraph and the C API.
#ifndef TFLITE_C_SRC_CORE_TENSOR_UTIL_H_
#define TFLITE_C_SRC_CORE_TENSOR_UTIL_H_

#include <cstddef>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

// Bytes per element of a fixed-size type. Returns false for types whose
// size is not per-element (string, resource, variant, no type) — int4 is
// reported as 1 byte, the unpacked in-memory layout of non-constant tensors.
bool TypeElementSize(TfLiteType type, size_t* size);

// Product of `dims` (all >= 0) times the element size of `type`, with
// overflow detection. Returns false on a negative dim, an unsized type or
// overflow (the result would exceed SIZE_MAX or INT64_MAX elements).
bool BytesRequired(TfLiteType type, const int* dims, int num_dims, size_t* bytes);

// Number of elements, or -1 on overflow / negative dims.
long long NumElements(const int* dims, int num_dims);

// A new TfLiteIntArray holding `v` (nullptr if allocation fails); the
// caller owns it (TfLiteIntArrayFree).
TfLiteIntArray* IntArrayFromVector(const std::vector<int>& v);

// True for types whose tensors always live on the heap (variable length).
inline bool IsHeapOnlyType(TfLiteType t) {
  return t == kTfLiteString || t == kTfLiteResource || t == kTfLiteVariant;
}

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_TENSOR_UTIL_H_

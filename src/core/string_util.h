// Reading and writing TFLite string tensors.
//
// A kTfLiteString tensor's buffer holds, in native (little-endian) int32s:
//   count N, then N + 1 offsets (from the start of the buffer; offset i is
//   where string i begins, offset N is the total buffer size), then the
//   bytes of all strings back to back, without separators or terminators.
#ifndef TFLITE_C_SRC_CORE_STRING_UTIL_H_
#define TFLITE_C_SRC_CORE_STRING_UTIL_H_

#include <cstddef>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

// Number of strings in `tensor`, or -1 when the tensor is null, has no data
// or its header does not fit in its byte size.
int StringTensorCount(const TfLiteTensor* tensor);

// Points *str at string `index` of `tensor` (not NUL-terminated) and stores
// its length in *len. False when the tensor or index is invalid or the
// offsets stored in the buffer point outside the strings area (into the
// header or past the end) or run backwards.
bool StringTensorGet(const TfLiteTensor* tensor, int index, const char** str, int* len);

// Encodes `count` strings (the i-th is `lengths[i]` bytes at `strings[i]`)
// into a newly malloc()ed buffer. Returns false (nothing allocated) on
// negative lengths/count, null strings with a non-zero length, or a total
// size that does not fit in an int32.
bool StringBufferEncode(const char* const* strings, const int* lengths, int count, char** buffer,
                        size_t* bytes);

// Replaces the contents of `tensor` with the given strings and reshapes it
// to a 1-D tensor of `count` elements. The tensor becomes kTfLiteDynamic
// and owns the new buffer; data the tensor owned before is freed.
TfLiteStatus StringTensorWrite(TfLiteTensor* tensor, const char* const* strings,
                               const int* lengths, int count);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_STRING_UTIL_H_

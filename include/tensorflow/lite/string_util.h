// Reading and writing kTfLiteString tensors from C++ (libtflite_cc).
//
// A string tensor's buffer holds an int32 count N, N + 1 int32 offsets
// from the start of the buffer, then the bytes of all strings back to back.
#ifndef TENSORFLOW_LITE_STRING_UTIL_H_
#define TENSORFLOW_LITE_STRING_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {

// A view of one string: `len` bytes at `str`, not NUL-terminated.
struct StringRef {
  const char* str;
  int len;
};

// Collects strings, then writes them into a tensor in one go.
class TFLITE_CC_EXPORT DynamicBuffer {
 public:
  DynamicBuffer() = default;

  // kTfLiteError when the total would not fit the format's int32 offsets.
  TfLiteStatus AddString(const StringRef& string);
  TfLiteStatus AddString(const char* str, size_t len);
  // Adds one string: the given strings joined by `separator`.
  void AddJoinedString(const std::vector<StringRef>& strings, char separator);
  void AddJoinedString(const std::vector<StringRef>& strings, StringRef separator);

  // Encodes the strings into a new malloc()ed buffer at *buffer and returns
  // its size.
  int WriteToBuffer(char** buffer);
  // Replaces the contents of `tensor` (which becomes kTfLiteDynamic and owns
  // the new buffer). `new_shape` (taken over, may be null for 1-D) must hold
  // as many elements as there are strings.
  void WriteToTensor(TfLiteTensor* tensor, TfLiteIntArray* new_shape);
  // Same, reshaping the tensor to 1-D.
  void WriteToTensorAsVector(TfLiteTensor* tensor);

 private:
  std::vector<char> data_;
  std::vector<size_t> offset_{0};
};

// Number of strings in the tensor (0 for an empty or malformed one).
TFLITE_CC_EXPORT int GetStringCount(const TfLiteTensor* tensor);
TFLITE_CC_EXPORT int GetStringCount(const void* raw_buffer);
// String `string_index` of the tensor ({nullptr, 0} when out of range).
TFLITE_CC_EXPORT StringRef GetString(const TfLiteTensor* tensor, int string_index);
TFLITE_CC_EXPORT StringRef GetString(const void* raw_buffer, int string_index);

}  // namespace tflite

#endif  // TENSORFLOW_LITE_STRING_UTIL_H_

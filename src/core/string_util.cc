#include "src/core/string_util.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tflite_c {
namespace {

int32_t ReadInt32(const char* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void WriteInt32(char* p, int32_t v) { std::memcpy(p, &v, sizeof(v)); }

}  // namespace

int StringTensorCount(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->data.raw == nullptr || tensor->bytes < sizeof(int32_t)) {
    return -1;
  }
  const int32_t count = ReadInt32(tensor->data.raw);
  if (count < 0) return -1;
  // The header alone (count + count + 1 offsets) must fit in the buffer.
  const uint64_t header = (static_cast<uint64_t>(count) + 2) * sizeof(int32_t);
  if (header > tensor->bytes) return -1;
  return count;
}

bool StringTensorGet(const TfLiteTensor* tensor, int index, const char** str, int* len) {
  if (str == nullptr || len == nullptr) return false;
  const int count = StringTensorCount(tensor);
  if (count < 0 || index < 0 || index >= count) return false;
  const char* base = tensor->data.raw;
  const int32_t begin = ReadInt32(base + sizeof(int32_t) * (1 + index));
  const int32_t end = ReadInt32(base + sizeof(int32_t) * (2 + index));
  // Strings live after the header (count + count + 1 offsets), within the buffer.
  const int64_t header = (static_cast<int64_t>(count) + 2) * static_cast<int64_t>(sizeof(int32_t));
  if (begin < header || end < begin || static_cast<size_t>(end) > tensor->bytes) return false;
  *str = base + begin;
  *len = end - begin;
  return true;
}

bool StringBufferEncode(const char* const* strings, const int* lengths, int count, char** buffer,
                        size_t* bytes) {
  if (count < 0 || buffer == nullptr || bytes == nullptr) return false;
  if (count > 0 && (strings == nullptr || lengths == nullptr)) return false;
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
  uint64_t total = (static_cast<uint64_t>(count) + 2) * sizeof(int32_t);
  for (int i = 0; i < count; ++i) {
    if (lengths[i] < 0 || (lengths[i] > 0 && strings[i] == nullptr)) return false;
    total += static_cast<uint64_t>(lengths[i]);
    if (total > limit) return false;
  }
  char* out = static_cast<char*>(std::malloc(static_cast<size_t>(total)));
  if (out == nullptr) return false;
  WriteInt32(out, count);
  int32_t offset = static_cast<int32_t>((static_cast<uint64_t>(count) + 2) * sizeof(int32_t));
  for (int i = 0; i < count; ++i) {
    WriteInt32(out + sizeof(int32_t) * (1 + i), offset);
    if (lengths[i] > 0) std::memcpy(out + offset, strings[i], static_cast<size_t>(lengths[i]));
    offset += lengths[i];
  }
  WriteInt32(out + sizeof(int32_t) * (1 + count), offset);
  *buffer = out;
  *bytes = static_cast<size_t>(total);
  return true;
}

TfLiteStatus StringTensorWrite(TfLiteTensor* tensor, const char* const* strings,
                               const int* lengths, int count) {
  if (tensor == nullptr) return kTfLiteError;
  char* buffer = nullptr;
  size_t bytes = 0;
  if (!StringBufferEncode(strings, lengths, count, &buffer, &bytes)) return kTfLiteError;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  if (dims == nullptr) {
    std::free(buffer);
    return kTfLiteError;
  }
  dims->data[0] = count;
  // Free only what the tensor owns (heap data); arena/mapped data is not ours.
  TfLiteTensorDataFree(tensor);
  TfLiteIntArrayFree(tensor->dims);
  tensor->dims = dims;
  tensor->data.raw = buffer;
  tensor->bytes = bytes;
  tensor->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}

}  // namespace tflite_c

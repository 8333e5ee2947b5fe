// tflite::DynamicBuffer and the string tensor readers, over the core's
// string tensor codec (src/core/string_util).
#include "tensorflow/lite/string_util.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "src/core/string_util.h"

namespace tflite {
namespace {

// A TfLiteTensor view of a raw string buffer, for the core's readers. The
// buffer's size is taken from its own final offset.
bool ViewOfRawBuffer(const void* raw, TfLiteTensor* view) {
  if (raw == nullptr) return false;
  int32_t count;
  std::memcpy(&count, raw, sizeof(count));
  if (count < 0) return false;
  int32_t total;
  std::memcpy(&total, static_cast<const char*>(raw) + sizeof(int32_t) * (1 + count),
              sizeof(total));
  if (total < 0) return false;
  std::memset(view, 0, sizeof(*view));
  view->type = kTfLiteString;
  view->data.raw = const_cast<char*>(static_cast<const char*>(raw));
  view->bytes = static_cast<size_t>(total);
  return true;
}

}  // namespace

TfLiteStatus DynamicBuffer::AddString(const char* str, size_t len) {
  const size_t limit = static_cast<size_t>(std::numeric_limits<int32_t>::max());
  // The header grows by one offset per string too.
  const size_t header = (offset_.size() + 2) * sizeof(int32_t);
  if (len > limit || data_.size() + len + header > limit || (len > 0 && str == nullptr)) {
    return kTfLiteError;
  }
  data_.insert(data_.end(), str, str + len);
  offset_.push_back(data_.size());
  return kTfLiteOk;
}

TfLiteStatus DynamicBuffer::AddString(const StringRef& string) {
  return AddString(string.str, string.len < 0 ? 0 : static_cast<size_t>(string.len));
}

void DynamicBuffer::AddJoinedString(const std::vector<StringRef>& strings, StringRef separator) {
  std::vector<char> joined;
  for (size_t i = 0; i < strings.size(); ++i) {
    if (i > 0 && separator.len > 0) {
      joined.insert(joined.end(), separator.str, separator.str + separator.len);
    }
    if (strings[i].len > 0) {
      joined.insert(joined.end(), strings[i].str, strings[i].str + strings[i].len);
    }
  }
  AddString(joined.data(), joined.size());
}

void DynamicBuffer::AddJoinedString(const std::vector<StringRef>& strings, char separator) {
  AddJoinedString(strings, StringRef{&separator, 1});
}

int DynamicBuffer::WriteToBuffer(char** buffer) {
  const int count = static_cast<int>(offset_.size()) - 1;
  std::vector<const char*> strings(count);
  std::vector<int> lengths(count);
  for (int i = 0; i < count; ++i) {
    strings[i] = data_.data() + offset_[i];
    lengths[i] = static_cast<int>(offset_[i + 1] - offset_[i]);
  }
  size_t bytes = 0;
  if (!tflite_c::StringBufferEncode(strings.data(), lengths.data(), count, buffer, &bytes)) {
    *buffer = nullptr;
    return 0;
  }
  return static_cast<int>(bytes);
}

void DynamicBuffer::WriteToTensorAsVector(TfLiteTensor* tensor) {
  WriteToTensor(tensor, nullptr);
}

void DynamicBuffer::WriteToTensor(TfLiteTensor* tensor, TfLiteIntArray* new_shape) {
  if (tensor == nullptr) {
    TfLiteIntArrayFree(new_shape);
    return;
  }
  char* buffer = nullptr;
  const int bytes = WriteToBuffer(&buffer);
  if (buffer == nullptr) {
    TfLiteIntArrayFree(new_shape);
    return;
  }
  if (new_shape == nullptr) {
    new_shape = TfLiteIntArrayCreate(1);
    new_shape->data[0] = static_cast<int>(offset_.size()) - 1;
  }
  // Only heap data belongs to the tensor; arena or mapped data does not.
  TfLiteTensorDataFree(tensor);
  TfLiteIntArrayFree(tensor->dims);
  tensor->dims = new_shape;
  tensor->data.raw = buffer;
  tensor->bytes = static_cast<size_t>(bytes);
  tensor->allocation_type = kTfLiteDynamic;
}

int GetStringCount(const TfLiteTensor* tensor) {
  const int count = tflite_c::StringTensorCount(tensor);
  return count < 0 ? 0 : count;
}

int GetStringCount(const void* raw_buffer) {
  TfLiteTensor view;
  return ViewOfRawBuffer(raw_buffer, &view) ? GetStringCount(&view) : 0;
}

StringRef GetString(const TfLiteTensor* tensor, int string_index) {
  StringRef ref{nullptr, 0};
  if (!tflite_c::StringTensorGet(tensor, string_index, &ref.str, &ref.len)) return {nullptr, 0};
  return ref;
}

StringRef GetString(const void* raw_buffer, int string_index) {
  TfLiteTensor view;
  return ViewOfRawBuffer(raw_buffer, &view) ? GetString(&view, string_index)
                                            : StringRef{nullptr, 0};
}

}  // namespace tflite

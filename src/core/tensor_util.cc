#include "src/core/tensor_util.h"

#include <cstdint>
#include <limits>

namespace tflite_c {

bool TypeElementSize(TfLiteType type, size_t* size) {
  switch (type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt4:
      *size = 1;
      return true;
    case kTfLiteInt16:
    case kTfLiteUInt16:
    case kTfLiteFloat16:
    case kTfLiteBFloat16:
      *size = 2;
      return true;
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteUInt32:
      *size = 4;
      return true;
    case kTfLiteInt64:
    case kTfLiteUInt64:
    case kTfLiteFloat64:
    case kTfLiteComplex64:
      *size = 8;
      return true;
    case kTfLiteComplex128:
      *size = 16;
      return true;
    default:
      return false;
  }
}

long long NumElements(const int* dims, int num_dims) {
  if (num_dims < 0) return -1;
  unsigned long long count = 1;
  constexpr unsigned long long kMax = static_cast<unsigned long long>(
      std::numeric_limits<long long>::max());
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) return -1;
    const unsigned long long d = static_cast<unsigned long long>(dims[i]);
    if (d != 0 && count > kMax / d) return -1;
    count *= d;
  }
  return static_cast<long long>(count);
}

bool BytesRequired(TfLiteType type, const int* dims, int num_dims, size_t* bytes) {
  size_t elem = 0;
  if (!TypeElementSize(type, &elem)) return false;
  const long long n = NumElements(dims, num_dims);
  if (n < 0) return false;
  const unsigned long long un = static_cast<unsigned long long>(n);
  if (un != 0 && elem > std::numeric_limits<size_t>::max() / un) return false;
  *bytes = static_cast<size_t>(un) * elem;
  return true;
}

TfLiteIntArray* IntArrayFromVector(const std::vector<int>& v) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(v.size()));
  if (a == nullptr) return nullptr;
  for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
  return a;
}

}  // namespace tflite_c

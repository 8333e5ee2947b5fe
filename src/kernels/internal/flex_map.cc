#include "src/kernels/internal/flex_map.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tflite_c {
namespace kernels {
namespace internal {

// The flexbuffer layout, as far as it matters here: the last byte of the
// buffer is the root's byte width, the byte before it the root's packed type
// (type << 2 | log2 of the width of what it points to), and the root value
// itself sits just before those two bytes. Vectors, strings and maps are
// reached through unsigned offsets that count backwards from where the offset
// is stored; a vector's length is stored just before its first element. An
// untyped vector (and a map's values) is followed by one packed type byte per
// element. A map additionally stores, before its length, the byte width of
// its key vector and the backwards offset to that key vector; each key is an
// offset to a NUL-terminated string.

namespace {

enum FlexType {
  kFlexNull = 0,
  kFlexInt = 1,
  kFlexUInt = 2,
  kFlexFloat = 3,
  kFlexKey = 4,
  kFlexString = 5,
  kFlexIndirectInt = 6,
  kFlexIndirectUInt = 7,
  kFlexIndirectFloat = 8,
  kFlexMap = 9,
  kFlexVector = 10,
  kFlexVectorInt = 11,
  kFlexVectorUInt = 12,
  kFlexVectorFloat = 13,
  kFlexVectorKey = 14,
  kFlexVectorInt2 = 16,   // ... through kFlexVectorFloat4 = 24, fixed length
  kFlexVectorFloat4 = 24,
  kFlexBool = 26,
  kFlexVectorBool = 36,
};

bool ValidWidth(int width) { return width == 1 || width == 2 || width == 4 || width == 8; }

}  // namespace

bool FlexMap::ReadUInt(size_t at, int width, uint64_t* value) const {
  if (!ValidWidth(width) || at > size_ || size_ - at < static_cast<size_t>(width)) return false;
  uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | data_[at + i];  // little endian
  *value = v;
  return true;
}

bool FlexMap::Deref(const Ref& ref, size_t* target) const {
  uint64_t offset = 0;
  if (!ReadUInt(ref.at, ref.parent_width, &offset) || offset > ref.at) return false;
  *target = ref.at - static_cast<size_t>(offset);
  return true;
}

bool FlexMap::Parse(const void* data, size_t size) {
  data_ = static_cast<const uint8_t*>(data);
  size_ = size;
  count_ = 0;
  if (data_ == nullptr || size_ < 3) return false;
  Ref root;
  root.parent_width = data_[size_ - 1];
  const uint8_t packed = data_[size_ - 2];
  root.type = packed >> 2;
  root.width = 1 << (packed & 3);
  if (!ValidWidth(root.parent_width) || size_ - 2 < static_cast<size_t>(root.parent_width)) {
    return false;
  }
  root.at = size_ - 2 - root.parent_width;
  if (root.type != kFlexMap) return false;
  size_t values = 0;
  if (!Deref(root, &values)) return false;
  const int w = root.width;
  if (values < 3 * static_cast<size_t>(w)) return false;
  uint64_t count = 0, keys_offset = 0, keys_width = 0, keys_count = 0;
  if (!ReadUInt(values - w, w, &count) || !ReadUInt(values - 2 * w, w, &keys_width) ||
      !ReadUInt(values - 3 * w, w, &keys_offset)) {
    return false;
  }
  // Values, then one type byte per value, must fit.
  if (count > (size_ - values) / (w + 1)) return false;
  if (!ValidWidth(static_cast<int>(keys_width)) || keys_offset > values - 3 * w) return false;
  const size_t keys = values - 3 * w - static_cast<size_t>(keys_offset);
  const int kw = static_cast<int>(keys_width);
  if (keys < static_cast<size_t>(kw) || !ReadUInt(keys - kw, kw, &keys_count) ||
      keys_count != count || count > (size_ - keys) / kw) {
    return false;
  }
  values_ = values;
  values_width_ = w;
  keys_ = keys;
  keys_width_ = kw;
  count_ = static_cast<size_t>(count);
  return true;
}

bool FlexMap::Find(const char* key, Ref* ref) const {
  const size_t key_length = std::strlen(key);
  for (size_t i = 0; i < count_; ++i) {
    Ref k;
    k.at = keys_ + i * keys_width_;
    k.parent_width = keys_width_;
    size_t str = 0;
    if (!Deref(k, &str)) continue;
    // The key must be NUL-terminated inside the buffer.
    if (size_ - str <= key_length || std::memcmp(data_ + str, key, key_length) != 0 ||
        data_[str + key_length] != 0) {
      continue;
    }
    const uint8_t packed = data_[values_ + count_ * values_width_ + i];
    ref->at = values_ + i * values_width_;
    ref->parent_width = values_width_;
    ref->type = packed >> 2;
    ref->width = 1 << (packed & 3);
    return true;
  }
  return false;
}

bool FlexMap::Has(const char* key) const {
  Ref ref;
  return Find(key, &ref);
}

// Reads a scalar (inline or indirect) as int64 and double.
bool FlexMap::ReadNumber(const Ref& ref, bool want_int, int64_t* i, double* d) const {
  size_t at = ref.at;
  int width = ref.parent_width;
  int type = ref.type;
  if (type == kFlexIndirectInt || type == kFlexIndirectUInt || type == kFlexIndirectFloat) {
    if (!Deref(ref, &at)) return false;
    width = ref.width;
    type = type - kFlexIndirectInt + kFlexInt;
  }
  uint64_t bits = 0;
  if (!ReadUInt(at, width, &bits)) return false;
  switch (type) {
    case kFlexInt: {
      const int shift = 64 - 8 * width;  // sign-extend
      const int64_t v = static_cast<int64_t>(bits << shift) >> shift;
      *i = v;
      *d = static_cast<double>(v);
      return true;
    }
    case kFlexUInt:
    case kFlexBool:
      if (bits > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
      *i = static_cast<int64_t>(bits);
      *d = static_cast<double>(bits);
      return true;
    case kFlexFloat: {
      double v = 0;
      if (width == 4) {
        float f;
        const uint32_t b32 = static_cast<uint32_t>(bits);
        std::memcpy(&f, &b32, sizeof(f));
        v = f;
      } else if (width == 8) {
        std::memcpy(&v, &bits, sizeof(v));
      } else {
        return false;
      }
      *d = v;
      if (want_int) {
        // Only whole numbers in range convert to integers.
        if (!(std::fabs(v) < 9.0e18) || v != std::floor(v)) return false;
        *i = static_cast<int64_t>(v);
      }
      return true;
    }
    default:
      return false;
  }
}

bool FlexMap::GetInt(const char* key, int64_t* value) const {
  Ref ref;
  double d = 0;
  return Find(key, &ref) && ReadNumber(ref, /*want_int=*/true, value, &d);
}

bool FlexMap::GetDouble(const char* key, double* value) const {
  Ref ref;
  int64_t i = 0;
  return Find(key, &ref) && ReadNumber(ref, /*want_int=*/false, &i, value);
}

bool FlexMap::VectorElement(size_t vec, int width, int type, size_t size, size_t index,
                            Ref* out) const {
  out->at = vec + index * width;
  out->parent_width = width;
  if (type == kFlexVector) {
    const size_t type_at = vec + size * width + index;
    if (type_at >= size_) return false;
    out->type = data_[type_at] >> 2;
    out->width = 1 << (data_[type_at] & 3);
  } else {
    out->type = type;
    out->width = width;
  }
  return true;
}

bool FlexMap::GetIntVector(const char* key, std::vector<int64_t>* values) const {
  Ref ref;
  if (!Find(key, &ref)) return false;
  size_t vec = 0;
  const bool fixed = ref.type >= kFlexVectorInt2 && ref.type <= kFlexVectorFloat4;
  const bool typed = (ref.type >= kFlexVectorInt && ref.type <= kFlexVectorFloat) ||
                     ref.type == kFlexVectorBool;
  if (!fixed && !typed && ref.type != kFlexVector) return false;
  if (!Deref(ref, &vec)) return false;
  const int w = ref.width;
  uint64_t count = 0;
  int element_type = kFlexVector;
  if (fixed) {
    count = (ref.type - kFlexVectorInt2) / 3 + 2;
    element_type = (ref.type - kFlexVectorInt2) % 3 + kFlexInt;
  } else {
    if (vec < static_cast<size_t>(w) || !ReadUInt(vec - w, w, &count)) return false;
    if (typed) {
      element_type = ref.type == kFlexVectorBool ? kFlexBool : ref.type - kFlexVectorInt + kFlexInt;
    }
  }
  const size_t per_element = static_cast<size_t>(w) + (element_type == kFlexVector ? 1 : 0);
  if (vec > size_ || count > (size_ - vec) / per_element) return false;
  values->clear();
  values->reserve(static_cast<size_t>(count));
  for (size_t i = 0; i < count; ++i) {
    Ref element;
    int64_t v = 0;
    double d = 0;
    if (!VectorElement(vec, w, element_type, static_cast<size_t>(count), i, &element) ||
        !ReadNumber(element, /*want_int=*/true, &v, &d)) {
      return false;
    }
    values->push_back(v);
  }
  return true;
}

bool FlexMap::GetString(const char* key, std::string* value) const {
  Ref ref;
  if (!Find(key, &ref) || (ref.type != kFlexString && ref.type != kFlexKey)) return false;
  size_t str = 0;
  if (!Deref(ref, &str) || str >= size_) return false;
  if (ref.type == kFlexKey) {
    const void* end = std::memchr(data_ + str, 0, size_ - str);
    if (end == nullptr) return false;
    value->assign(reinterpret_cast<const char*>(data_ + str),
                  static_cast<const uint8_t*>(end) - (data_ + str));
    return true;
  }
  uint64_t length = 0;
  if (str < static_cast<size_t>(ref.width) || !ReadUInt(str - ref.width, ref.width, &length) ||
      length > size_ - str) {
    return false;
  }
  value->assign(reinterpret_cast<const char*>(data_ + str), static_cast<size_t>(length));
  return true;
}

bool FlexInt(const FlexMap& map, const char* key, bool required, int* value,
             std::string* error) {
  if (!map.Has(key)) {
    if (!required) return true;
    *error = std::string("option '") + key + "' is missing";
    return false;
  }
  int64_t v = 0;
  if (!map.GetInt(key, &v) || v < std::numeric_limits<int>::min() ||
      v > std::numeric_limits<int>::max()) {
    *error = std::string("option '") + key + "' is not a 32-bit integer";
    return false;
  }
  *value = static_cast<int>(v);
  return true;
}

bool FlexFloat(const FlexMap& map, const char* key, bool required, float* value,
               std::string* error) {
  if (!map.Has(key)) {
    if (!required) return true;
    *error = std::string("option '") + key + "' is missing";
    return false;
  }
  double v = 0;
  if (!map.GetDouble(key, &v) || !std::isfinite(static_cast<float>(v))) {
    *error = std::string("option '") + key + "' is not a finite number";
    return false;
  }
  *value = static_cast<float>(v);
  return true;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

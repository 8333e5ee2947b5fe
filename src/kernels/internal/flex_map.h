// A bounds-checked reader of flexbuffer maps, the usual encoding of a custom
// operator's options (custom_options in the model, custom_initial_data in the
// node). Shared by the custom operators built into the library.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_FLEX_MAP_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_FLEX_MAP_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tflite_c {
namespace kernels {
namespace internal {

// A read-only view of a flexbuffer whose root is a map (the usual format of
// custom_options). Every read is bounds-checked against the buffer: corrupt
// or truncated bytes make Parse or the getters fail, never read outside it.
// The buffer must outlive the view.
class FlexMap {
 public:
  // False unless `data` holds a flexbuffer whose root is a map.
  bool Parse(const void* data, size_t size);

  bool Has(const char* key) const;
  // Integer (or bool / whole float) value of `key`; false if missing or not
  // a number.
  bool GetInt(const char* key, int64_t* value) const;
  // Numeric value of `key` as a double; false if missing or not a number.
  bool GetDouble(const char* key, double* value) const;
  // A vector of numbers (typed, untyped or fixed-length), converted to int.
  bool GetIntVector(const char* key, std::vector<int64_t>* values) const;
  // A string or key value.
  bool GetString(const char* key, std::string* value) const;

  // A decoded value: where it lives, how wide it is stored in its parent,
  // its flexbuffer type and the byte width of what it points to.
  struct Ref {
    size_t at = 0;
    int parent_width = 0;
    int type = 0;
    int width = 0;
  };

 private:
  bool Find(const char* key, Ref* ref) const;
  bool ReadUInt(size_t at, int width, uint64_t* value) const;
  bool Deref(const Ref& ref, size_t* target) const;
  bool ReadNumber(const Ref& ref, bool want_int, int64_t* i, double* d) const;
  bool VectorElement(size_t vec, int width, int type, size_t size, size_t index, Ref* out) const;

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t values_ = 0;  // the map's value vector
  size_t keys_ = 0;    // its key vector
  int values_width_ = 0, keys_width_ = 0;
  size_t count_ = 0;
};

// Reads one option of `map` into `*value`: a missing `required` option, a
// non-numeric value or an int outside int32 fails with the reason in
// `*error`; a missing optional option leaves `*value` unchanged.
bool FlexInt(const FlexMap& map, const char* key, bool required, int* value, std::string* error);
bool FlexFloat(const FlexMap& map, const char* key, bool required, float* value,
               std::string* error);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_FLEX_MAP_H_

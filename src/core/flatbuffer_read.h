// Reads of flatbuffer vector elements that do not assume alignment.
//
// The verifier of the flatbuffers release we build with (Debian's 2.0.8)
// checks that a vector's length field is 4-byte aligned, not that its
// elements are aligned to their size: a model can place a vector of int64
// (a tensor's zero points, StableHLO attributes) at a 4-byte boundary, and
// flatbuffers' own Get() then loads an int64 from a misaligned address
// (undefined behaviour; a bus error on some 32-bit ARM loads).
#ifndef TFLITE_C_SRC_CORE_FLATBUFFER_READ_H_
#define TFLITE_C_SRC_CORE_FLATBUFFER_READ_H_

#include <cstring>

#include "flatbuffers/flatbuffers.h"

namespace tflite_c {

// Element `i` of `v` (which must hold more than `i` elements), copied byte-wise.
template <typename T>
T ReadElement(const flatbuffers::Vector<T>* v, flatbuffers::uoffset_t i) {
  T value;
  std::memcpy(&value, v->Data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return flatbuffers::EndianScalar(value);
}

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_FLATBUFFER_READ_H_

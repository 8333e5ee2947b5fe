// Packed INT4 tensors (two values per byte, low nibble first): reading and
// writing single values, unpacking runs of them (the hybrid and INT4 weights
// of FULLY_CONNECTED and CONV_2D, DEQUANTIZE), and copying runs of them
// without unpacking (CONCATENATION, DYNAMIC_UPDATE_SLICE, GATHER, CAST,
// EMBEDDING_LOOKUP, and the INT4 gathers of string_gather.h used by SLICE and
// TRANSPOSE).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_INT4_COPY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_INT4_COPY_H_

#include <cstdint>
#include <cstring>

#include "src/kernels/internal/kernel_util.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// The four bits (0..15) of value `i`.
inline uint8_t Int4Bits(const uint8_t* packed, int64_t i) {
  return (i % 2 == 0) ? static_cast<uint8_t>(packed[i / 2] & 0x0F)
                      : static_cast<uint8_t>(packed[i / 2] >> 4);
}

// Value `i` sign-extended: -8..7.
inline int8_t Int4Value(const uint8_t* packed, int64_t i) {
  return static_cast<int8_t>((Int4Bits(packed, i) ^ 0x8) - 8);
}

// Writes the first `count` values of `packed`, sign-extended, to `out`. For
// int8 output (FULLY_CONNECTED's INT4 weights, unpacked once at Prepare) a
// byte's two values are one 16-bit store (little-endian: the first value in
// the low byte), each nibble n becoming ((n ^ 8) + 0x78) ^ 0x80, i.e. (n ^ 8)
// - 8 modulo 256 without a borrow into the other byte, which the compiler
// vectorizes. Other element types, and builds optimized for size, keep the
// shortest loop, one value a step (several kernels instantiate it).
typedef uint16_t UnalignedU16 __attribute__((may_alias, aligned(1)));
template <typename T>
inline void UnpackInt4(const uint8_t* packed, int64_t count, T* out) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(__OPTIMIZE_SIZE__)
  if constexpr (sizeof(T) == 1) {
    const int64_t pairs = count / 2;
    UnalignedU16* out16 = reinterpret_cast<UnalignedU16*>(out);
    for (int64_t j = 0; j < pairs; ++j) {
      const uint16_t u = packed[j];
      const uint16_t lo = static_cast<uint16_t>((((u & 0xF) ^ 8) + 0x78) ^ 0x80);
      const uint16_t hi = static_cast<uint16_t>(((((u >> 4) ^ 8) + 0x78) ^ 0x80) << 8);
      out16[j] = static_cast<uint16_t>(lo | hi);
    }
    if (count % 2 != 0) out[count - 1] = static_cast<T>(Int4Value(packed, count - 1));
    return;
  }
#endif
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(Int4Value(packed, i));
}

// Stores the low four bits of `bits` as value `i`, leaving its byte's other
// nibble as it is.
inline void SetInt4Bits(uint8_t* packed, int64_t i, uint8_t bits) {
  uint8_t& b = packed[i / 2];
  b = (i % 2 == 0) ? static_cast<uint8_t>((b & 0xF0) | (bits & 0x0F))
                   : static_cast<uint8_t>((b & 0x0F) | ((bits & 0x0F) << 4));
}

// Copies `count` packed INT4 values from value index `from` of `src` to value
// index `to` of `dst`, leaving the other nibbles of `dst` as they are.
inline void CopyInt4(const uint8_t* src, int64_t from, uint8_t* dst, int64_t to,
                     int64_t count) {
  int64_t i = 0;
  if (from % 2 == 0 && to % 2 == 0) {  // whole bytes, then at most one nibble
    i = count - count % 2;
    if (i > 0) std::memcpy(dst + to / 2, src + from / 2, static_cast<size_t>(i / 2));
  }
  for (; i < count; ++i) SetInt4Bits(dst, to + i, Int4Bits(src, from + i));
}

// Fails (naming `op` and `what`) unless the INT4 tensor `t` holds its values
// packed: at least ceil(elements / 2) bytes.
inline TfLiteStatus CheckInt4Bytes(TfLiteContext* context, const char* op, const char* what,
                                   const TfLiteTensor* t) {
  const int64_t needed = (NumElements(t) + 1) / 2;
  if ((needed > 0 && t->data.raw == nullptr) || static_cast<int64_t>(t->bytes) < needed) {
    TF_LITE_KERNEL_LOG(context, "%s: INT4 %s holds %zu bytes, needs %lld", op, what, t->bytes,
                       static_cast<long long>(needed));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_INT4_COPY_H_

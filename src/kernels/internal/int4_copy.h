// Packed INT4 tensors (two values per byte, low nibble first) for the kernels
// that move INT4 values without unpacking them (CONCATENATION,
// DYNAMIC_UPDATE_SLICE).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_INT4_COPY_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_INT4_COPY_H_

#include <cstdint>

#include "src/kernels/internal/kernel_util.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

// Copies `count` packed INT4 values from value index `from` of `src` to value
// index `to` of `dst`, leaving the other nibbles of `dst` as they are.
inline void CopyInt4(const uint8_t* src, int64_t from, uint8_t* dst, int64_t to,
                     int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    const int64_t s = from + i, d = to + i;
    const uint8_t v = (s % 2 == 0) ? (src[s / 2] & 0x0F) : (src[s / 2] >> 4);
    uint8_t& out = dst[d / 2];
    out = (d % 2 == 0) ? static_cast<uint8_t>((out & 0xF0) | v)
                       : static_cast<uint8_t>((out & 0x0F) | (v << 4));
  }
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

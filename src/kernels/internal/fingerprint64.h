// FarmHash's 64-bit fingerprint (farmhashna::Hash64, "Fingerprint64" in
// google/farmhash), the hash upstream's LSH_PROJECTION keys on: a fixed
// function of the bytes, the same on every platform (words are read
// little-endian).
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_FINGERPRINT64_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_FINGERPRINT64_H_

#include <cstddef>
#include <cstdint>

namespace tflite_c {
namespace kernels {
namespace internal {

uint64_t Fingerprint64(const void* data, size_t length);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_FINGERPRINT64_H_

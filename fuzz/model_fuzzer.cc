// Target 1: raw bytes as a model. The first byte picks the path (bit 0:
// the XNNPACK delegate on; the rest of the byte seeds the input values), the
// remaining bytes are the .tflite flatbuffer handed to TfLiteModelCreate,
// then interpreter create -> AllocateTensors -> Invoke (twice).
//
// Seeds: fuzz/run.sh prefixes each seed model with 0x00 and 0x01.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const bool xnnpack = (data[0] & 1) != 0;
  const uint8_t fill[2] = {static_cast<uint8_t>(data[0] >> 1), 0x3c};
  tflite_c::fuzz::RunModel(data + 1, size - 1, xnnpack, fill, sizeof(fill));
  return 0;
}

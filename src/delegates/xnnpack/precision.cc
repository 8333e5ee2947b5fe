// Reduced-precision flags of the XNNPACK delegate (see precision.h).
#include "src/delegates/xnnpack/precision.h"

#include <cstring>

#include <xnnpack.h>

namespace tflite_c {
namespace xnnpack {
namespace {

// Whether the 4-character token `token` is at `*pos`; advances past it if so.
bool Take(const char* data, size_t size, size_t* pos, const char* token) {
  const size_t n = std::strlen(token);
  if (size - *pos < n || std::memcmp(data + *pos, token, n) != 0) return false;
  *pos += n;
  return true;
}

}  // namespace

bool ParseReducedPrecision(const char* data, size_t size, ReducedPrecision* out) {
  if (data == nullptr || out == nullptr) return false;
  ReducedPrecision r;
  size_t pos = 0;
  bool any_inference = false;
  for (;;) {
    if (Take(data, size, &pos, "fp16")) {
      r.fp16_inference = true;
    } else if (Take(data, size, &pos, "bf16")) {
      r.bf16_inference = true;
    } else {
      break;
    }
    any_inference = true;
  }
  if (!any_inference || !Take(data, size, &pos, "acc")) return false;
  if (Take(data, size, &pos, "fp16")) {
    r.fp16_accumulation = true;
  } else if (Take(data, size, &pos, "fp32")) {
    r.fp32_accumulation = true;
  } else {
    return false;
  }
  if (pos != size) return false;
  *out = r;
  return true;
}

uint32_t PrecisionRuntimeFlags(TfLiteContext* context, bool force_fp16) {
  if (force_fp16) return XNN_FLAG_FORCE_FP16_INFERENCE;
  if (context == nullptr || context->GetModelMetadata == nullptr) return 0;
  const char* data = nullptr;
  size_t size = 0;
  if (context->GetModelMetadata(context, kReducedPrecisionMetadataKey, &data, &size) !=
      kTfLiteOk)
    return 0;
  ReducedPrecision r;
  if (!ParseReducedPrecision(data, size, &r)) return 0;
  return (r.fp16_inference && r.fp16_accumulation) ? XNN_FLAG_HINT_FP16_INFERENCE : 0;
}

}  // namespace xnnpack
}  // namespace tflite_c

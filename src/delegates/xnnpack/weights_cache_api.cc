// C API of xnnpack_delegate.h around weight caches: the shareable in-memory
// TfLiteXNNPackDelegateWeightsCache (XNNPACK's own weights cache) and the
// in-memory path of the file-backed cache (weight_cache.h).
#include <xnnpack.h>

#include "src/delegates/xnnpack/allocator.h"
#include "src/delegates/xnnpack/weight_cache.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

struct TfLiteXNNPackDelegateWeightsCache;  // is an xnn_weights_cache

namespace {

xnn_weights_cache_t ToXnn(TfLiteXNNPackDelegateWeightsCache* cache) {
  return reinterpret_cast<xnn_weights_cache_t>(cache);
}

// xnn_initialize may be called any number of times.
bool Initialize() {
  return xnn_initialize(tflite_c::xnnpack::CountingAllocator()) == xnn_status_success;
}

}  // namespace

extern "C" {

bool TfLiteXNNPackDelegateCanUseInMemoryWeightCacheProvider(void) { return true; }

const char* TfLiteXNNPackDelegateInMemoryFilePath(void) {
  return tflite_c::xnnpack::kInMemoryCachePath;
}

TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreate(void) {
  if (!Initialize()) return nullptr;
  xnn_weights_cache_t cache = nullptr;
  if (xnn_create_weights_cache(&cache) != xnn_status_success) return nullptr;
  return reinterpret_cast<TfLiteXNNPackDelegateWeightsCache*>(cache);
}

TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreateWithSize(size_t size) {
  if (!Initialize()) return nullptr;
  xnn_weights_cache_t cache = nullptr;
  if (xnn_create_weights_cache_with_size(size, &cache) != xnn_status_success) return nullptr;
  return reinterpret_cast<TfLiteXNNPackDelegateWeightsCache*>(cache);
}

bool TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return false;
  return xnn_finalize_weights_cache(ToXnn(cache), xnn_weights_cache_finalization_kind_soft) ==
         xnn_status_success;
}

bool TfLiteXNNPackDelegateWeightsCacheFinalizeHard(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return false;
  return xnn_finalize_weights_cache(ToXnn(cache), xnn_weights_cache_finalization_kind_hard) ==
         xnn_status_success;
}

void TfLiteXNNPackDelegateWeightsCacheDelete(TfLiteXNNPackDelegateWeightsCache* cache) {
  if (cache == nullptr) return;
  xnn_delete_weights_cache(ToXnn(cache));
}

}  // extern "C"

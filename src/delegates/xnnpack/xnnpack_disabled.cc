// The XNNPACK delegate's C API in a build without XNNPACK
// (TFLITE_C_WITH_XNNPACK=OFF): the functions exist, so programs link against
// either build, but nothing can be created.
#include "src/delegates/xnnpack/default_delegate.h"
#include "src/delegates/xnnpack/report.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

namespace {
void ReportUnsupported() {
  static bool reported = false;
  if (!reported) {
    reported = true;
    tflite_c::xnnpack::Report(nullptr, "unsupported: this library was built without XNNPACK");
  }
}
}  // namespace

namespace tflite_c {
TfLiteDelegate* MaybeCreateDefaultXnnpackDelegate(int) { return nullptr; }
}  // namespace tflite_c

extern "C" {

bool TfLiteXNNPackDelegateCanUseInMemoryWeightCacheProvider(void) { return false; }
const char* TfLiteXNNPackDelegateInMemoryFilePath(void) { return ":memory"; }

TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void) {
  TfLiteXNNPackDelegateOptions o = {};
  o.num_threads = 0;  // no thread pool
  o.weight_cache_file_descriptor = -1;  // none
  o.flags = TFLITE_XNNPACK_DELEGATE_FLAG_QS8 | TFLITE_XNNPACK_DELEGATE_FLAG_QU8;
  return o;
}
TfLiteDelegate* TfLiteXNNPackDelegateCreate(const TfLiteXNNPackDelegateOptions*) {
  ReportUnsupported();
  return nullptr;
}
TfLiteDelegate* TfLiteXNNPackDelegateCreateWithThreadpool(const TfLiteXNNPackDelegateOptions*,
                                                          TfLiteContext*) {
  ReportUnsupported();
  return nullptr;
}
void* TfLiteXNNPackDelegateGetThreadPool(TfLiteDelegate*) { return nullptr; }
const TfLiteXNNPackDelegateOptions* TfLiteXNNPackDelegateGetOptions(TfLiteDelegate*) {
  return nullptr;
}
int TfLiteXNNPackDelegateGetFlags(TfLiteDelegate*) { return 0; }
void TfLiteXNNPackDelegateDelete(TfLiteDelegate*) {}

TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreate(void) {
  ReportUnsupported();
  return nullptr;
}
TfLiteXNNPackDelegateWeightsCache* TfLiteXNNPackDelegateWeightsCacheCreateWithSize(size_t) {
  ReportUnsupported();
  return nullptr;
}
bool TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(TfLiteXNNPackDelegateWeightsCache*) {
  return false;
}
bool TfLiteXNNPackDelegateWeightsCacheFinalizeHard(TfLiteXNNPackDelegateWeightsCache*) {
  return false;
}
void TfLiteXNNPackDelegateWeightsCacheDelete(TfLiteXNNPackDelegateWeightsCache*) {}

}  // extern "C"

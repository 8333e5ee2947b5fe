// TfLiteInterpreterOptionsSetProfiler (tensorflow/lite/c/tflite_c_experimental.h):
// this runtime's C entry point for upstream's Interpreter::SetProfiler.
#include "src/c_api/c_api_internal.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"

extern "C" {

TfLiteStatus TfLiteInterpreterOptionsSetProfiler(TfLiteInterpreterOptions* options,
                                                 void* profiler) {
  if (options == nullptr) {
    tflite_c::DefaultErrorReporter()->Reportf("TfLiteInterpreterOptionsSetProfiler: options is NULL");
    return kTfLiteError;
  }
  options->profiler = profiler;
  return kTfLiteOk;
}

}  // extern "C"

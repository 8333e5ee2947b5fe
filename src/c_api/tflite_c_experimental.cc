// Entry points of tensorflow/lite/c/tflite_c_experimental.h that concern
// control flow, memory limits and the last error (this runtime's extensions,
// not upstream API). TfLiteModelCreateCopy* live with the other model
// constructors in c_api.cc.
#include "tensorflow/lite/c/tflite_c_experimental.h"

#include "src/c_api/c_api_internal.h"

extern "C" {

TfLiteStatus TfLiteInterpreterOptionsSetMaxWhileIterations(TfLiteInterpreterOptions* options,
                                                           int64_t max_iterations) {
  if (options == nullptr) {
    tflite_c::DefaultErrorReporter()->Reportf(
        "TfLiteInterpreterOptionsSetMaxWhileIterations: options is NULL");
    return kTfLiteError;
  }
  if (max_iterations < 0) {
    tflite_c::DefaultErrorReporter()->Reportf(
        "TfLiteInterpreterOptionsSetMaxWhileIterations: max_iterations must be >= 0, got %lld",
        static_cast<long long>(max_iterations));
    return kTfLiteError;
  }
  options->max_while_iterations = max_iterations;
  return kTfLiteOk;
}

TfLiteStatus TfLiteInterpreterOptionsSetMaxAllocationBytes(TfLiteInterpreterOptions* options,
                                                           int64_t max_bytes) {
  if (options == nullptr) {
    tflite_c::DefaultErrorReporter()->Reportf(
        "TfLiteInterpreterOptionsSetMaxAllocationBytes: options is NULL");
    return kTfLiteError;
  }
  if (max_bytes < 0) {
    tflite_c::DefaultErrorReporter()->Reportf(
        "TfLiteInterpreterOptionsSetMaxAllocationBytes: max_bytes must be >= 0, got %lld",
        static_cast<long long>(max_bytes));
    return kTfLiteError;
  }
  options->max_allocation_bytes = max_bytes;
  return kTfLiteOk;
}

const char* TfLiteInterpreterGetLastError(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    tflite_c::ReportNull(__func__, "interpreter");
    return nullptr;
  }
  return interpreter->reporter != nullptr ? interpreter->reporter->last() : "";
}

const char* TfLiteGetLastCreateError(void) { return tflite_c::LastCreateError(); }

}  // extern "C"

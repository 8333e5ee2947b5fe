// The TfLiteInterpreterOptions entry points of the stable C API
// (tensorflow/lite/core/c/c_api.h); the rest of it is in c_api.cc, whose
// header comment describes the conventions these follow.
#include "tensorflow/lite/core/c/c_api.h"

#include <new>

#include "src/c_api/c_api_internal.h"

using tflite_c::GuardC;
using tflite_c::ReportNull;

extern "C" {

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void) {
  return GuardC<TfLiteInterpreterOptions*>(nullptr, __func__, nullptr,
                                           [] { return new TfLiteInterpreterOptions; });
}

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCopy(const TfLiteInterpreterOptions* from) {
  if (from == nullptr) {
    ReportNull(__func__, "from");
    return nullptr;
  }
  return GuardC<TfLiteInterpreterOptions*>(nullptr, __func__, nullptr,
                                           [&] { return new TfLiteInterpreterOptions(*from); });
}

void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options) { delete options; }

void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options,
                                           int32_t num_threads) {
  if (options == nullptr) return ReportNull(__func__, "options");
  options->num_threads = num_threads;
}

void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                         TfLiteOpaqueDelegate* delegate) {
  if (options == nullptr) return ReportNull(__func__, "options");
  // A NULL delegate is kept, as upstream: TfLiteInterpreterCreate then fails
  // with "Null delegate.".
  GuardC(nullptr, __func__,
         [&] { options->delegates.push_back(reinterpret_cast<TfLiteDelegate*>(delegate)); });
}

void TfLiteInterpreterOptionsSetErrorReporter(TfLiteInterpreterOptions* options,
                                              void (*reporter)(void* user_data,
                                                               const char* format,
                                                               va_list args),
                                              void* user_data) {
  if (options == nullptr) return ReportNull(__func__, "options");
  options->error_reporter = reporter;
  options->error_reporter_user_data = user_data;
}

void TfLiteInterpreterOptionsAddOperator(TfLiteInterpreterOptions* options,
                                         TfLiteOperator* registration) {
  if (options == nullptr) return ReportNull(__func__, "options");
  if (registration == nullptr) return ReportNull(__func__, "registration");
  GuardC(nullptr, __func__, [&] { options->operators.push_back(registration); });
}

TfLiteStatus TfLiteInterpreterOptionsEnableCancellation(TfLiteInterpreterOptions* options,
                                                        bool enable) {
  if (options == nullptr) {
    ReportNull(__func__, "options");
    return kTfLiteError;
  }
  options->enable_cancellation = enable;
  return kTfLiteOk;
}

}  // extern "C"

// Default-on XNNPACK for TfLiteInterpreterCreate, and its opt-out
// TfLiteInterpreterOptionsSetUseXNNPACK (tflite_c_experimental.h).
#include "src/c_api/default_xnnpack.h"

#include <cstdlib>
#include <cstring>

#include "src/c_api/c_api_internal.h"
#include "src/delegates/xnnpack/default_delegate.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

namespace tflite_c {
namespace {

// Upstream's Subgraph::IsFullyDelegated: every node of the primary plan is a
// delegate kernel.
bool IsFullyDelegated(Interpreter* interpreter) {
  Subgraph& primary = interpreter->primary();
  const std::vector<int>& plan = primary.execution_plan();
  if (plan.empty()) return false;
  for (int i : plan) {
    if (primary.node_and_registration(i)->second.builtin_code != kTfLiteBuiltinDelegate)
      return false;
  }
  return true;
}

}  // namespace

bool DefaultXnnpackEnabled(const TfLiteInterpreterOptions* options) {
  if (options != nullptr && options->use_xnnpack >= 0) return options->use_xnnpack != 0;
  const char* env = std::getenv("TFLITE_C_DISABLE_XNNPACK");
  return env == nullptr || env[0] == '\0' || std::strcmp(env, "0") == 0;
}

TfLiteStatus ApplyDefaultXnnpack(Interpreter* interpreter, const TfLiteInterpreterOptions* options,
                                 DefaultDelegatePtr* owned) {
  if (!DefaultXnnpackEnabled(options) || IsFullyDelegated(interpreter)) return kTfLiteOk;
  const int threads = options != nullptr ? options->num_threads : -1;
  DefaultDelegatePtr delegate(MaybeCreateDefaultXnnpackDelegate(threads),
                              TfLiteXNNPackDelegateDelete);
  if (delegate == nullptr) return kTfLiteOk;  // no XNNPACK in this build / on this CPU
  const TfLiteStatus s = ModifyGraphWithDelegate(interpreter, delegate.get());
  // Kept even after a failure: subgraphs visited before the failing one may
  // still use it.
  *owned = std::move(delegate);
  if (s == kTfLiteError) return kTfLiteError;
  // kTfLiteDelegateError / kTfLiteApplicationError: the failing subgraph went
  // back to its CPU kernels, as upstream continues without its default
  // delegate.
  return kTfLiteOk;
}

}  // namespace tflite_c

extern "C" {

TfLiteStatus TfLiteInterpreterOptionsSetUseXNNPACK(TfLiteInterpreterOptions* options,
                                                   bool enable) {
  if (options == nullptr) {
    tflite_c::DefaultErrorReporter()->Reportf(
        "TfLiteInterpreterOptionsSetUseXNNPACK: options is NULL");
    return kTfLiteError;
  }
  options->use_xnnpack = enable ? 1 : 0;
  return kTfLiteOk;
}

}  // extern "C"

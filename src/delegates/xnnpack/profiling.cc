#include "src/delegates/xnnpack/profiling.h"

#include <cstring>
#include <vector>

#include "tensorflow/lite/core/api/profiler.h"

namespace tflite_c {
namespace xnnpack {

uint32_t ProfilingRuntimeFlags(const TfLiteContext* context) {
  return context != nullptr && context->profiler != nullptr ? XNN_FLAG_BASIC_PROFILING : 0;
}

namespace {

// One xnn_get_runtime_profiling_info query of variable size: asks for the
// size first, then fills `out`.
template <typename T>
bool QueryArray(xnn_runtime_t runtime, xnn_profile_info info, std::vector<T>* out) {
  size_t required = 0;
  xnn_status s = xnn_get_runtime_profiling_info(runtime, info, 0, nullptr, &required);
  if (s == xnn_status_success && required == 0) {
    out->clear();
    return true;
  }
  if (s != xnn_status_out_of_memory) return false;
  out->assign((required + sizeof(T) - 1) / sizeof(T), T());
  s = xnn_get_runtime_profiling_info(runtime, info, out->size() * sizeof(T), out->data(),
                                     &required);
  return s == xnn_status_success;
}

}  // namespace

TfLiteStatus ReportOperatorTimings(TfLiteContext* context, xnn_runtime_t runtime) {
  auto* profiler = reinterpret_cast<tflite::Profiler*>(context->profiler);
  if (profiler == nullptr || runtime == nullptr) return kTfLiteOk;
  size_t num_operators = 0, required = 0;
  if (xnn_get_runtime_profiling_info(runtime, xnn_profile_info_num_operators,
                                     sizeof(num_operators), &num_operators,
                                     &required) != xnn_status_success) {
    return kTfLiteError;
  }
  if (num_operators == 0) return kTfLiteOk;
  std::vector<char> names;
  std::vector<uint64_t> timings;
  if (!QueryArray(runtime, xnn_profile_info_operator_name, &names) ||
      !QueryArray(runtime, xnn_profile_info_operator_timing, &timings) ||
      timings.size() < num_operators) {
    return kTfLiteError;
  }
  // The names are NUL-terminated, one after another.
  size_t offset = 0;
  for (size_t i = 0; i < num_operators; ++i) {
    if (offset >= names.size()) return kTfLiteError;
    const char* name = names.data() + offset;
    const size_t len = strnlen(name, names.size() - offset);
    if (offset + len >= names.size()) return kTfLiteError;  // not terminated
    offset += len + 1;
    profiler->AddEvent(name, tflite::Profiler::EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT,
                       timings[i], static_cast<int64_t>(i));
  }
  return kTfLiteOk;
}

}  // namespace xnnpack
}  // namespace tflite_c

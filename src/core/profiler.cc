#include "src/core/profiler.h"

#include <memory>

#include "src/core/subgraph.h"
#include "tensorflow/lite/profiling/telemetry/c/profiler.h"

namespace tflite_c {

namespace {

// Upstream's TelemetryStatusCode: the source in the high 32 bits (1 = the
// interpreter), the status in the low ones.
constexpr uint64_t kInterpreterSource = 1;

}  // namespace

uint32_t TelemetryOpProfiler::BeginOp(const char* op_name, int node_index, int subgraph_index) {
  if (profiler_->ReportBeginOpInvokeEvent == nullptr) return UINT32_MAX;
  return profiler_->ReportBeginOpInvokeEvent(profiler_, op_name, node_index, subgraph_index);
}

void TelemetryOpProfiler::EndOp(uint32_t handle) {
  // Upstream's telemetry bridge never forwards the "no event" handle.
  if (handle == UINT32_MAX || profiler_->ReportEndOpInvokeEvent == nullptr) return;
  profiler_->ReportEndOpInvokeEvent(profiler_, handle);
}

void TelemetryOpProfiler::InvokeDone(int subgraph_index, TfLiteStatus status) {
  (void)subgraph_index;
  if (profiler_->ReportTelemetryEvent == nullptr) return;
  profiler_->ReportTelemetryEvent(profiler_, "Invoke",
                                  kInterpreterSource << 32 | static_cast<uint32_t>(status));
}

void SetOpProfiler(InterpreterShared* shared, OpProfiler* profiler) {
  shared->op_profiler = profiler;
  if (profiler != shared->owned_op_profiler.get()) shared->owned_op_profiler.reset();
}

void SetTelemetryProfiler(InterpreterShared* shared, TfLiteTelemetryProfilerStruct* profiler) {
  if (profiler == nullptr) {
    SetOpProfiler(shared, nullptr);
    return;
  }
  auto adapter = std::make_unique<TelemetryOpProfiler>(profiler);
  shared->op_profiler = adapter.get();
  shared->owned_op_profiler = std::move(adapter);
}

}  // namespace tflite_c

// Profiling of an interpreter.
//
// Events flow through tflite::Profiler (tensorflow/lite/core/api/profiler.h),
// the class whose layout upstream's delegates and kernels expect behind
// TfLiteContext::profiler:
//   * Subgraph::Invoke brackets every node with an OPERATOR_INVOKE_EVENT
//     (metadata: node index, subgraph index), except delegate nodes whose
//     delegate sets kTfLiteDelegateFlagsPerOperatorProfiling: such a
//     delegate reports its own steps, and the runtime does not time its node.
//   * Whole Invoke, AllocateTensors (when memory is planned) and
//     ModifyGraphWithDelegate are DEFAULT events; each subgraph Invoke also
//     ends with a TELEMETRY_EVENT "Invoke" carrying its status.
//   * Kernels and delegates report through context->profiler, a
//     SubgraphProfiler that stamps the subgraph index as the second metadata
//     value (upstream's SubgraphAwareProfiler).
// context->profiler is NULL whenever no profiler is installed; the cost of
// profiling is then one null check per node.
//
// TelemetryProfiler adapts the events to an application's
// TfLiteTelemetryProfilerStruct (TfLiteInterpreterOptionsSetTelemetryProfiler)
// with upstream's mapping; several profilers can be installed at once.
#ifndef TFLITE_C_SRC_CORE_PROFILER_H_
#define TFLITE_C_SRC_CORE_PROFILER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/core/c/common.h"

struct TfLiteTelemetryProfilerStruct;

namespace tflite_c {

struct InterpreterShared;
class Subgraph;

using ProfileEventType = tflite::Profiler::EventType;

// Adapter to the C telemetry profiler (not owned; must outlive the adapter).
class TelemetryProfiler : public tflite::Profiler {
 public:
  explicit TelemetryProfiler(TfLiteTelemetryProfilerStruct* profiler) : profiler_(profiler) {}
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;
  void AddEvent(const char* tag, EventType event_type, uint64_t metric, int64_t event_metadata1,
                int64_t event_metadata2) override;
  void AddEventWithData(const char* tag, EventType event_type, const void* data) override;
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;
  using tflite::Profiler::EndEvent;

 private:
  TfLiteTelemetryProfilerStruct* profiler_;
};

// Forwards every event to several profilers (not owned).
class FanOutProfiler : public tflite::Profiler {
 public:
  void Add(tflite::Profiler* p) { children_.push_back(p); }
  bool empty() const { return children_.empty(); }
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle, int64_t event_metadata1, int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;
  void AddEvent(const char* tag, EventType event_type, uint64_t metric, int64_t event_metadata1,
                int64_t event_metadata2) override;
  void AddEventWithData(const char* tag, EventType event_type, const void* data) override;
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;

 private:
  std::vector<tflite::Profiler*> children_;
  // Per open event: the children's handles. A handle indexes `open_`; the
  // table is emptied whenever no event is open.
  std::vector<std::vector<uint32_t>> open_;
  size_t open_count_ = 0;
};

// What context->profiler of one subgraph points to.
class SubgraphProfiler : public tflite::Profiler {
 public:
  SubgraphProfiler(const InterpreterShared* shared, int subgraph_index)
      : shared_(shared), subgraph_index_(subgraph_index) {}
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle, int64_t event_metadata1, int64_t event_metadata2) override;
  void EndEvent(uint32_t event_handle) override;
  void AddEvent(const char* tag, EventType event_type, uint64_t metric, int64_t event_metadata1,
                int64_t event_metadata2) override;
  void AddEventWithData(const char* tag, EventType event_type, const void* data) override;
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;

 private:
  const InterpreterShared* shared_;
  int64_t subgraph_index_;
};

// The profilers of one interpreter (a member of InterpreterShared).
struct ProfilerState {
  // What events go to: nullptr, the one installed profiler, or `fan_out`.
  tflite::Profiler* active = nullptr;
  tflite::Profiler* user = nullptr;  // TfLiteInterpreterOptionsSetProfiler
  std::unique_ptr<TelemetryProfiler> telemetry;
  FanOutProfiler fan_out;
};

// Installs `profiler` (not owned; nullptr removes it) for every subgraph
// sharing `shared`, next to the telemetry profiler if there is one.
void SetProfiler(InterpreterShared* shared, tflite::Profiler* profiler);

// Installs an owned TelemetryProfiler over `profiler` (nullptr removes it).
void SetTelemetryProfiler(InterpreterShared* shared, TfLiteTelemetryProfilerStruct* profiler);

// The profiler receiving events (nullptr: profiling is off).
tflite::Profiler* ActiveProfiler(const InterpreterShared* shared);

// RAII DEFAULT event ("AllocateTensors", "ModifyGraphWithDelegate", "Invoke")
// on the interpreter's profiler, if any, tagged with the subgraph index.
class ScopedRuntimeEvent {
 public:
  ScopedRuntimeEvent(const InterpreterShared* shared, const char* tag, int subgraph_index);
  ~ScopedRuntimeEvent();
  ScopedRuntimeEvent(const ScopedRuntimeEvent&) = delete;
  ScopedRuntimeEvent& operator=(const ScopedRuntimeEvent&) = delete;

 private:
  tflite::Profiler* profiler_;
  uint32_t handle_ = 0;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_PROFILER_H_

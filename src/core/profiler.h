// Per-node profiling hook of Subgraph::Invoke.
//
// When an interpreter has an OpProfiler installed (InterpreterShared::
// op_profiler), Invoke brackets every node it runs with BeginOp/EndOp; with
// none installed the cost is one null check per node. Ops are named as
// upstream names them in profiles: the builtin name ("CONV_2D"), the custom
// op name, or the delegate kernel's registration name.
//
// TelemetryOpProfiler forwards the events to an application's
// TfLiteTelemetryProfilerStruct (TfLiteInterpreterOptionsSetTelemetryProfiler).
#ifndef TFLITE_C_SRC_CORE_PROFILER_H_
#define TFLITE_C_SRC_CORE_PROFILER_H_

#include <cstdint>

#include "tensorflow/lite/core/c/common.h"

struct TfLiteTelemetryProfilerStruct;

namespace tflite_c {

struct InterpreterShared;

class OpProfiler {
 public:
  virtual ~OpProfiler() = default;
  // A node starts running; the returned handle is passed to EndOp.
  virtual uint32_t BeginOp(const char* op_name, int node_index, int subgraph_index) = 0;
  virtual void EndOp(uint32_t handle) = 0;
  // A whole subgraph Invoke finished with `status`.
  virtual void InvokeDone(int subgraph_index, TfLiteStatus status) {
    (void)subgraph_index;
    (void)status;
  }
};

// Adapter to the C telemetry profiler (not owned; must outlive the adapter).
class TelemetryOpProfiler : public OpProfiler {
 public:
  explicit TelemetryOpProfiler(TfLiteTelemetryProfilerStruct* profiler) : profiler_(profiler) {}
  uint32_t BeginOp(const char* op_name, int node_index, int subgraph_index) override;
  void EndOp(uint32_t handle) override;
  void InvokeDone(int subgraph_index, TfLiteStatus status) override;

 private:
  TfLiteTelemetryProfilerStruct* profiler_;
};

// Installs `profiler` (not owned; nullptr removes it) for every subgraph
// sharing `shared`. Replaces any profiler installed before.
void SetOpProfiler(InterpreterShared* shared, OpProfiler* profiler);

// Installs an owned TelemetryOpProfiler over `profiler` (nullptr removes it).
void SetTelemetryProfiler(InterpreterShared* shared, TfLiteTelemetryProfilerStruct* profiler);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_PROFILER_H_

/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * The telemetry profiler an application installs with
 * TfLiteInterpreterOptionsSetTelemetryProfiler (c_api_experimental.h). The
 * field order matches upstream's struct of the same name; like upstream, the
 * struct is not covered by ABI stability guarantees.
 *
 * What this runtime reports:
 *   - ReportBeginOpInvokeEvent / ReportEndOpInvokeEvent around every node
 *     Invoke runs (builtin kernels, custom ops and delegate kernels), with
 *     the op name (builtin name such as "CONV_2D", the custom op name, or
 *     the delegate kernel's name), the node index and the subgraph index.
 *     The handle Begin returns is passed back to End unchanged.
 *   - ReportTelemetryEvent(profiler, "Invoke", status) after each subgraph
 *     Invoke, status being (source << 32 | TfLiteStatus) with source 1 (the
 *     interpreter).
 *   - Operators delegate kernels report through TfLiteContext::profiler
 *     (tensorflow/lite/core/api/profiler.h), as upstream maps them: scoped
 *     events through ReportBeginOpInvokeEvent / ReportEndOpInvokeEvent,
 *     events measured by the delegate (XNNPACK's operators) through
 *     ReportOpInvokeEvent, with the delegate's operator index and the
 *     subgraph index. A delegate with kTfLiteDelegateFlagsPerOperatorProfiling
 *     reports its operators instead of its node being reported.
 * A null callback is skipped. ReportTelemetryOpEvent and ReportSettings are
 * called only when a kernel or delegate reports such events.
 */
#ifndef TENSORFLOW_LITE_PROFILING_TELEMETRY_C_PROFILER_H_
#define TENSORFLOW_LITE_PROFILING_TELEMETRY_C_PROFILER_H_

#include <stdint.h>

#include "tensorflow/lite/profiling/telemetry/c/telemetry_setting.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TfLiteTelemetryProfilerStruct {
  /* The profiler's own state; owned by the application. */
  void* data;

  /* An event not tied to an op, e.g. "Invoke"; `status` is the 64-bit
   * telemetry status code. */
  void (*ReportTelemetryEvent)(struct TfLiteTelemetryProfilerStruct* profiler,
                               const char* event_name, uint64_t status);

  /* As ReportTelemetryEvent, for one op of one subgraph. */
  void (*ReportTelemetryOpEvent)(struct TfLiteTelemetryProfilerStruct* profiler,
                                 const char* event_name, int64_t op_idx,
                                 int64_t subgraph_idx, uint64_t status);

  /* Model, interpreter or delegate settings; `settings` is valid only for
   * the duration of the call. */
  void (*ReportSettings)(struct TfLiteTelemetryProfilerStruct* profiler,
                         const char* setting_name,
                         const TfLiteTelemetrySettings* settings);

  /* An op starts running. Returns a handle for ReportEndOpInvokeEvent. */
  uint32_t (*ReportBeginOpInvokeEvent)(
      struct TfLiteTelemetryProfilerStruct* profiler, const char* op_name,
      int64_t op_idx, int64_t subgraph_idx);

  /* The op whose Begin returned `event_handle` has finished. */
  void (*ReportEndOpInvokeEvent)(struct TfLiteTelemetryProfilerStruct* profiler,
                                 uint32_t event_handle);

  /* An op that measured itself: `elapsed_time` in microseconds. */
  void (*ReportOpInvokeEvent)(struct TfLiteTelemetryProfilerStruct* profiler,
                              const char* op_name, uint64_t elapsed_time,
                              int64_t op_idx, int64_t subgraph_idx);
} TfLiteTelemetryProfilerStruct;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_PROFILING_TELEMETRY_C_PROFILER_H_ */

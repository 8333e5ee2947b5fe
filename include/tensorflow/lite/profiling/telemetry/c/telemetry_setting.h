/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Settings a telemetry profiler may receive through its ReportSettings
 * callback (same layout as upstream's telemetry_setting.h). Not ABI-stable
 * upstream either.
 *
 * This runtime never reports interpreter or GPU settings, so the opaque
 * setting types below are declared for source compatibility only and the
 * accessor functions upstream declares for them are not provided.
 */
#ifndef TENSORFLOW_LITE_PROFILING_TELEMETRY_C_TELEMETRY_SETTING_H_
#define TENSORFLOW_LITE_PROFILING_TELEMETRY_C_TELEMETRY_SETTING_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/core/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Settings of a model, interpreter or delegate. */
typedef struct TfLiteTelemetrySettings {
  /* Who produced the settings; decides how `data` is read (upstream's
   * tflite::telemetry::TelemetrySource: 1 interpreter, 2 custom delegate,
   * 3 GPU, 4 NNAPI, 5 Hexagon, 6 XNNPACK, 7 Core ML). */
  uint32_t source;
  /* Owned by the reporter; valid only during the ReportSettings call. */
  const void* data;
} TfLiteTelemetrySettings;

typedef struct TfLiteTelemetryConversionMetadata TfLiteTelemetryConversionMetadata;
typedef struct TfLiteTelemetryInterpreterSettings TfLiteTelemetryInterpreterSettings;
typedef struct TfLiteTelemetrySubgraphInfo TfLiteTelemetrySubgraphInfo;
typedef struct TfLiteTelemetryGpuDelegateSettings TfLiteTelemetryGpuDelegateSettings;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_PROFILING_TELEMETRY_C_TELEMETRY_SETTING_H_ */

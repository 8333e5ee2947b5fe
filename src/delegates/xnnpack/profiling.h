// Per-operator profiling of the XNNPACK delegate, as upstream's delegate
// does it: while the interpreter is profiled (context->profiler set when a
// kernel builds its runtime) the runtime is created with
// XNN_FLAG_BASIC_PROFILING, and after every run the time XNNPACK measured
// for each of its operators is reported as a
// DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT (tag: XNNPACK's operator name,
// metadata: the operator's position in the runtime). The delegate sets
// kTfLiteDelegateFlagsPerOperatorProfiling, so these events replace the
// delegate node in operator-wise profiles.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_PROFILING_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_PROFILING_H_

#include <cstdint>

#include <xnnpack.h>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// XNN_FLAG_BASIC_PROFILING when `context` is being profiled, else 0.
uint32_t ProfilingRuntimeFlags(const TfLiteContext* context);

// Reports the operator timings of the last run of `runtime` (created with
// ProfilingRuntimeFlags) to context->profiler. Does nothing without a
// profiler; kTfLiteError when XNNPACK has no profile to give.
TfLiteStatus ReportOperatorTimings(TfLiteContext* context, xnn_runtime_t runtime);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_PROFILING_H_

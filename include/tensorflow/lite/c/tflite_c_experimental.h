/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Extensions of this runtime that upstream TensorFlow Lite does not have.
 * They live in their own header so that upstream's headers stay exactly as
 * upstream ships them; a program using them does not build against upstream.
 * Like the experimental API, these may change between releases.
 */
#ifndef TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_

#include <stdint.h>

#include "tensorflow/lite/core/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Step budget of WHILE loops: at most `max_iterations` iterations of the loop
 * body per WHILE node and Invoke. A loop that would run one more iteration
 * makes Invoke fail with kTfLiteError and the message "WHILE: loop exceeded
 * its budget of N iterations" (through the interpreter's error reporter).
 *
 * 0 (the default) sets no limit, as upstream; the environment variable
 * TFLITE_C_MAX_WHILE_ITERATIONS (a positive decimal number, read whenever a
 * WHILE node runs) then supplies one, also for interpreters built through
 * the C++ API. A value set here wins over the environment. Returns
 * kTfLiteError (and changes nothing) when `options` is null or
 * `max_iterations` is negative. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsSetMaxWhileIterations(
    TfLiteInterpreterOptions* options, int64_t max_iterations);

/* Memory ceiling: the most bytes the interpreter may hold (the arenas of all
 * its subgraphs, kernels' scratch and packed weights, XNNPACK's allocations;
 * also any one tensor). A model or a resize that needs more fails cleanly
 * (kTfLiteError and a message through the interpreter's error reporter
 * naming the limit) instead of allocating it: this guards against hostile
 * or corrupt models whose shapes ask for gigabytes. The limit set here applies from
 * AllocateTensors on (resizes and Invoke included); 0 (the default) means the
 * process's budget when the interpreter is created: the smallest of physical
 * memory plus swap and what RLIMIT_AS, RLIMIT_DATA and the cgroup's memory
 * limit still allow (minus headroom), which is also what applies while
 * TfLiteInterpreterCreate reads the model's shapes. Returns
 * kTfLiteError (and changes nothing) when `options` is null or `max_bytes`
 * is negative. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsSetMaxAllocationBytes(
    TfLiteInterpreterOptions* options, int64_t max_bytes);

/* Whether TfLiteInterpreterCreate applies the built-in XNNPACK delegate (on
 * by default, after any delegates added with TfLiteInterpreterOptionsAddDelegate,
 * with the thread count of TfLiteInterpreterOptionsSetNumThreads; -1 means
 * one thread). Nodes XNNPACK cannot run stay on the builtin kernels; if the
 * delegate cannot be applied at all the model runs on the builtin kernels.
 * Without a call, the environment variable TFLITE_C_DISABLE_XNNPACK (any
 * value but "" and "0") turns it off; a value set here wins over the
 * environment. Libraries built without XNNPACK ignore it. Returns
 * kTfLiteError when `options` is null. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsSetUseXNNPACK(
    TfLiteInterpreterOptions* options, bool enable);

/* Installs a profiler: `profiler` points to a C++ tflite::Profiler
 * (tensorflow/lite/core/api/profiler.h), which must outlive every interpreter
 * created with these options; NULL removes it. The interpreter reports to it
 * what upstream's Interpreter::SetProfiler reports: DEFAULT events
 * "ModifyGraphWithDelegate" (also during TfLiteInterpreterCreate, including
 * the default XNNPACK delegate), "AllocateTensors" (when memory is planned)
 * and "Invoke"; an OPERATOR_INVOKE_EVENT per node run (metadata: node index,
 * subgraph index); the events delegate kernels report through
 * TfLiteContext::profiler (DELEGATE_OPERATOR_INVOKE_EVENT and
 * DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT, second metadata the subgraph
 * index); and a TELEMETRY_EVENT "Invoke" with the status of each subgraph
 * Invoke. It may be combined with a telemetry profiler. Events come from the
 * thread calling the interpreter. Returns kTfLiteError when `options` is
 * null. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsSetProfiler(
    TfLiteInterpreterOptions* options, void* profiler);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_ */

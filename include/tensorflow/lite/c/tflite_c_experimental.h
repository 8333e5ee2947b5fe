/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Extensions of this runtime that upstream TensorFlow Lite does not have.
 * They live in their own header so that upstream's headers stay exactly as
 * upstream ships them; a program using them does not build against upstream.
 * Like the experimental API, these may change between releases.
 */
#ifndef TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_

#include <stdarg.h>
#include <stddef.h>
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

/* ---- model buffers ---------------------------------------------------------
 *
 * TfLiteModelCreate and TfLiteModelCreateWithErrorReporter keep a pointer to
 * the caller's buffer and never copy it: tensors with constant data, custom
 * options, metadata and names all point into it. The buffer must therefore
 * stay valid and unchanged until TfLiteModelDelete has been called on the
 * model AND every interpreter built from it has been deleted (an interpreter
 * keeps the model alive after TfLiteModelDelete), exactly as upstream.
 * TfLiteModelCreateFromFile maps the file read-only and keeps it mapped (and
 * its descriptor open) for the same lifetime.
 *
 * TfLiteModelCreateCopy verifies and wraps a private copy of the
 * `model_size` bytes at `model_data`: the caller may free or reuse its buffer
 * as soon as the call returns. The copy is released with the model (after
 * the last interpreter using it). Returns NULL on the same failures as
 * TfLiteModelCreate, and when the copy cannot be allocated. */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateCopy(const void* model_data,
                                                          size_t model_size);

/* TfLiteModelCreateCopy with diagnostics sent to `reporter` (see
 * TfLiteModelCreateWithErrorReporter). */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateCopyWithErrorReporter(
    const void* model_data, size_t model_size,
    void (*reporter)(void* user_data, const char* format, va_list args), void* user_data);

/* ---- last error without an error reporter -----------------------------------
 *
 * The last message `interpreter` reported (through its error reporter, which
 * still receives every message): kernel and delegate failures, invalid
 * arguments, out-of-memory. "" when it has reported nothing yet; NULL when
 * `interpreter` is NULL. Messages are truncated to 1023 bytes. The string
 * belongs to the interpreter: it stays valid until the interpreter reports
 * its next message (any later call on it may) or is deleted; copy it to keep
 * it. A message is not cleared by a later successful call, so read it right
 * after the call that failed. */
TFL_CAPI_EXPORT extern const char* TfLiteInterpreterGetLastError(
    const TfLiteInterpreter* interpreter);

/* Why the last TfLiteModelCreate* or TfLiteInterpreterCreate* (including
 * TfLiteInterpreterCreateWithSelectedOps and TfLiteModelCreateCopy*) called
 * on this thread returned NULL: the last message it reported, truncated to
 * 1023 bytes. Each of those calls clears it on entry, so it is "" after one
 * that succeeded. Never NULL. The string is thread-local storage of this
 * library: valid on this thread until its next create call, or until the
 * thread exits. */
TFL_CAPI_EXPORT extern const char* TfLiteGetLastCreateError(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_C_TFLITE_C_EXPERIMENTAL_H_ */

/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Experimental additions to the C API (c_api.h): op registration with plain
 * TfLiteRegistration structs or resolver callbacks, interpreters restricted
 * to selected ops, delegate control, buffer handles, variable tensors,
 * custom tensor allocations and telemetry. Everything here may change
 * between releases, exactly as upstream.
 *
 * Applications should include "tensorflow/lite/c/c_api_experimental.h".
 */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_

#include <stdbool.h>
#include <stdint.h>

/* common.h comes first so that the forward typedefs in c_api.h / operator.h
 * can see it has already named those types. */
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/core/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===== Variable tensors =================================================== */

/** Resets every variable tensor of the model to zero. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterResetVariableTensors(
    TfLiteInterpreter* interpreter);

/** Number of variable (resource/state) tensors of the primary subgraph. */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetVariableTensorCount(
    const TfLiteInterpreter* interpreter);

/** The `variable_index`-th variable tensor
 * (0 <= variable_index < TfLiteInterpreterGetVariableTensorCount()).
 * Runtime-owned. */
TFL_CAPI_EXPORT extern TfLiteTensor* TfLiteInterpreterGetVariableTensor(
    const TfLiteInterpreter* interpreter, int32_t variable_index);

/* ===== Op registration with TfLiteRegistration ============================ */

/** Makes `registration` the kernel for builtin `op`, versions
 * min_version..max_version inclusive. Only a shallow copy of the struct is
 * kept, so everything it points to must outlive the interpreters created
 * from these options (a static struct is the usual choice). Do not combine
 * with TfLiteInterpreterOptionsSetOpResolver*() on the same options. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsAddBuiltinOp(
    TfLiteInterpreterOptions* options, TfLiteBuiltinOperator op,
    const TfLiteRegistration* registration, int32_t min_version,
    int32_t max_version);

/** Makes `registration` the kernel for custom op `name`, versions
 * min_version..max_version inclusive. Shallow copy, as for AddBuiltinOp; the
 * `name` string must outlive the options. Do not combine with
 * TfLiteInterpreterOptionsSetOpResolver*() on the same options. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsAddCustomOp(
    TfLiteInterpreterOptions* options, const char* name,
    const TfLiteRegistration* registration, int32_t min_version,
    int32_t max_version);

/* ===== Op resolver callbacks ============================================== */
/* Instead of registering ops one by one, the caller can hand over lookup
 * callbacks. Each returns the kernel for (op, version) or NULL if it has
 * none. `op_resolver_user_data` is passed to every callback; if non-NULL it
 * must outlive the options. Do not combine with the AddBuiltinOp /
 * AddCustomOp functions on the same options. */

/** Resolver callbacks returning TfLiteOperator objects. The returned
 * operators must outlive the options and every interpreter created from
 * them. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolverExternal(
    TfLiteInterpreterOptions* options,
    const TfLiteOperator* (*find_builtin_op)(void* user_data, int op,
                                             int version),
    const TfLiteOperator* (*find_custom_op)(void* user_data,
                                            const char* custom_op, int version),
    void* op_resolver_user_data);

/** Both resolver flavours at once: the TfLiteOperator callbacks are asked
 * first; when they return NULL or an operator with no callbacks set, the
 * TfLiteRegistration callbacks are asked. Internal to TF Lite upstream; not
 * meant for applications. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolverExternalWithFallback(
    TfLiteInterpreterOptions* options,
    const TfLiteOperator* (*find_builtin_op_external)(void* user_data, int op,
                                                      int version),
    const TfLiteOperator* (*find_custom_op_external)(void* user_data,
                                                     const char* custom_op,
                                                     int version),
    const TfLiteRegistration* (*find_builtin_op)(void* user_data,
                                                 TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* op,
                                                int version),
    void* op_resolver_user_data);

/** Resolver callbacks returning TfLiteRegistration structs (which must
 * outlive the interpreters). Deprecated in favour of
 * TfLiteInterpreterOptionsSetOpResolverExternal(). */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolver(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration* (*find_builtin_op)(void* user_data,
                                                 TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data,
                                                const char* custom_op,
                                                int version),
    void* op_resolver_user_data);

/** Binary-compatibility entry point for callers built against the older
 * TfLiteRegistration_V3 layout. Do not use in new code. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolverV3(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V3* (*find_builtin_op_v3)(void* user_data,
                                                       TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V3* (*find_custom_op_v3)(void* user_data,
                                                      const char* op,
                                                      int version),
    void* op_resolver_user_data);

/** Binary-compatibility entry point for the TfLiteRegistration_V2 layout. Do
 * not use in new code. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolverV2(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V2* (*find_builtin_op_v2)(void* user_data,
                                                       TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V2* (*find_custom_op_v2)(void* user_data,
                                                      const char* op,
                                                      int version),
    void* op_resolver_user_data);

/** Binary-compatibility entry point for the TfLiteRegistration_V1 layout. Do
 * not use in new code. */
TFL_CAPI_EXPORT void TfLiteInterpreterOptionsSetOpResolverV1(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V1* (*find_builtin_op_v1)(void* user_data,
                                                       TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V1* (*find_custom_op_v1)(void* user_data,
                                                      const char* op,
                                                      int version),
    void* op_resolver_user_data);

/* ===== Interpreter creation and delegates ================================= */

/** Like TfLiteInterpreterCreate(), but with no builtin kernels: only the ops
 * registered in `options` (AddOperator / AddBuiltinOp / AddCustomOp /
 * SetOpResolver*) are available. `options` must not be NULL. Ownership and
 * lifetime rules are those of TfLiteInterpreterCreate(). Returns NULL on
 * failure. */
TFL_CAPI_EXPORT extern TfLiteInterpreter*
TfLiteInterpreterCreateWithSelectedOps(const TfLiteModel* model,
                                       const TfLiteInterpreterOptions* options);

/** When true, TfLiteInterpreterCreate() also applies the Android NNAPI
 * delegate, and fails if that delegate cannot be applied. NNAPI exists only
 * on Android. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetUseNNAPI(
    TfLiteInterpreterOptions* options, bool enable);

/** When enabled, a TfLiteInterpreterInvoke() that fails inside a delegate
 * removes all delegates and retries on the CPU with the same inputs (see
 * TfLiteInterpreterInvoke() for the resulting status codes). Only safe if the
 * caller does not cache tensor data pointers across invokes and the model
 * keeps no state between runs that matters. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetEnableDelegateFallback(
    TfLiteInterpreterOptions* options, bool enable);

/** Applies `delegate` to an existing interpreter (prefer
 * TfLiteInterpreterOptionsAddDelegate()). The delegate must outlive the
 * interpreter. Returns kTfLiteOk; kTfLiteDelegateError if the delegate
 * failed and the interpreter was restored to its undelegated state (which
 * also undoes previously applied delegates); kTfLiteError on other
 * failures. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterModifyGraphWithDelegate(
    const TfLiteInterpreter* interpreter, TfLiteDelegate* delegate);

/** Global tensor index of the `input_index`-th input. */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetInputTensorIndex(
    const TfLiteInterpreter* interpreter, int32_t input_index);

/** Global tensor index of the `output_index`-th output. */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetOutputTensorIndex(
    const TfLiteInterpreter* interpreter, int32_t output_index);

/** Makes tensor `tensor_index` use caller-provided memory. The runtime does
 * not take ownership; the memory must outlive the interpreter and be at
 * least as large as the tensor (re-checked on resize), aligned to 64 bytes
 * unless `flags` contains kTfLiteCustomAllocationFlagsSkipAlignCheck, and
 * readable (inputs) or writable (others). Only arena tensors (typically
 * inputs, outputs and variables) qualify. Call
 * TfLiteInterpreterAllocateTensors() afterwards; bad buffers are reported
 * then (or by invoke for dynamic shapes). Returns kTfLiteError if
 * `allocation` is NULL. */
TFL_CAPI_EXPORT extern TfLiteStatus
TfLiteInterpreterSetCustomAllocationForTensor(
    TfLiteInterpreter* interpreter, int tensor_index,
    const TfLiteCustomAllocation* allocation, int64_t flags);

/* ===== Buffer handles ===================================================== */

/** Associates `tensor` with a delegate-owned buffer (e.g. accelerator
 * memory) identified by `buffer_handle`, handled by `delegate`. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterSetBufferHandle(
    TfLiteInterpreter* interpreter, TfLiteTensor* tensor,
    TfLiteBufferHandle buffer_handle, TfLiteOpaqueDelegate* delegate);

/** Reads back the buffer handle and owning delegate of tensor
 * `tensor_index` into `*buffer_handle` and `*delegate`. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterGetBufferHandle(
    TfLiteInterpreter* interpreter, int tensor_index,
    TfLiteBufferHandle* buffer_handle, TfLiteOpaqueDelegate** delegate);

/** If `allow_buffer_handle_output` is true, outputs backed by a delegate
 * buffer handle are not copied back to CPU memory after invoke; the caller
 * then uses the handle, or TfLiteInterpreterEnsureTensorDataIsReadable(). */
TFL_CAPI_EXPORT extern void TfLiteSetAllowBufferHandleOutput(
    const TfLiteInterpreter* interpreter, bool allow_buffer_handle_output);

/* ===== Signature runner =================================================== */

/** Cancels an in-flight invocation on the runner's interpreter (this affects
 * all runners of that interpreter). Non-blocking, thread-safe. Returns
 * kTfLiteError if cancellation was not enabled in the options, otherwise
 * kTfLiteOk. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerCancel(
    TfLiteSignatureRunner* signature_runner);

/* ===== Telemetry ========================================================== */

/* Defined in tensorflow/lite/profiling/telemetry/c/profiler.h upstream. */
struct TfLiteTelemetryProfilerStruct;

/** Installs a telemetry profiler. Not owned by the runtime: the profiler and
 * its data must outlive every interpreter created from `options`. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetTelemetryProfiler(
    TfLiteInterpreterOptions* options,
    struct TfLiteTelemetryProfilerStruct* profiler);

/** Makes the CPU data of tensor `tensor_index` valid, copying it from its
 * delegate buffer handle if needed (see TfLiteSetAllowBufferHandleOutput). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterEnsureTensorDataIsReadable(
    TfLiteInterpreter* interpreter, int tensor_index);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_EXPERIMENTAL_H_ */

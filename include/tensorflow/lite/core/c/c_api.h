/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * The stable C API: load a .tflite model, configure and build an
 * interpreter, feed inputs, run inference, read outputs, and run named
 * signatures.
 *
 * Applications should include "tensorflow/lite/c/c_api.h" (which forwards
 * here and adds backwards-compatibility aliases).
 *
 * Conventions used throughout:
 *   - every name starts with TfLite;
 *   - byte counts of memory in the caller's address space are size_t;
 *   - indices are int / int32_t;
 *   - an object returned by a ...Create function is owned by the caller and
 *     released with the matching ...Delete function; every ...Delete function
 *     accepts NULL and then does nothing;
 *   - pointers returned by accessors (tensors, names, index arrays) are owned
 *     by the runtime and must not be freed by the caller;
 *   - unless a function says otherwise, passing NULL for a required object
 *     or an out-of-range index is a precondition violation (undefined
 *     behaviour), exactly as in TensorFlow Lite.
 *
 * Minimal usage:
 *
 *   TfLiteModel* model = TfLiteModelCreateFromFile("model.tflite");
 *   TfLiteInterpreterOptions* opts = TfLiteInterpreterOptionsCreate();
 *   TfLiteInterpreterOptionsSetNumThreads(opts, 2);
 *   TfLiteInterpreter* interp = TfLiteInterpreterCreate(model, opts);
 *   TfLiteInterpreterAllocateTensors(interp);
 *   TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interp, 0),
 *                              in, in_bytes);
 *   TfLiteInterpreterInvoke(interp);
 *   TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interp, 0),
 *                            out, out_bytes);
 *   TfLiteInterpreterDelete(interp);
 *   TfLiteInterpreterOptionsDelete(opts);
 *   TfLiteModelDelete(model);
 */
#ifndef TENSORFLOW_LITE_CORE_C_C_API_H_
#define TENSORFLOW_LITE_CORE_C_C_API_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/async/c/types.h"
#include "tensorflow/lite/core/c/c_api_types.h"
#include "tensorflow/lite/core/c/operator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The prototypes below spell out (void) so that they are real prototypes in
 * C as well as in C++. */

/* ===== Opaque handle types ================================================ */

/** A loaded, verified model (immutable; may be shared by interpreters). */
typedef struct TfLiteModel TfLiteModel;

/** Interpreter configuration collected before TfLiteInterpreterCreate(). */
typedef struct TfLiteInterpreterOptions TfLiteInterpreterOptions;

/** An interpreter: executes one model. Not thread-safe; use one thread at a
 * time per interpreter (TfLiteInterpreterCancel() is the exception). */
typedef struct TfLiteInterpreter TfLiteInterpreter;

/* TfLiteTensor: a tensor owned by an interpreter. Its full layout is in
 * tensorflow/lite/core/c/common.h; this header only needs the name. Strict
 * C99 forbids repeating a typedef, so it is only declared here when common.h
 * has not done so (and TFLITE_C_TYPEDEF_TFLITE_TENSOR tells common.h it
 * already exists). */
#if !defined(TENSORFLOW_LITE_CORE_C_COMMON_H_) && \
    !defined(TFLITE_C_TYPEDEF_TFLITE_TENSOR)
#define TFLITE_C_TYPEDEF_TFLITE_TENSOR 1
typedef struct TfLiteTensor TfLiteTensor;
#endif

/** Runs one named signature (entry point) of a model. A signature has a
 * unique key plus named inputs and outputs, each mapped to a tensor.
 * Created by TfLiteInterpreterGetSignatureRunner(). */
typedef struct TfLiteSignatureRunner TfLiteSignatureRunner;

/* ===== Versions =========================================================== */

/** Version of this runtime as a semver string, e.g. "2.19.0". The string is
 * statically allocated; never NULL. */
TFL_CAPI_EXPORT extern const char* TfLiteVersion(void);

/** Version (semver string) of the Extension APIs this runtime implements:
 * the custom-op / delegate interfaces of c_api_opaque.h, common.h,
 * builtin_op_data.h and builtin_ops.h. Statically allocated; never NULL. */
TFL_CAPI_EXPORT extern const char* TfLiteExtensionApisVersion(void);

/** Major version of the .tflite flatbuffer schema this runtime reads (3). */
TFL_CAPI_EXPORT int TfLiteSchemaVersion(void);

/* ===== Model ============================================================== */

/** Verifies and wraps an in-memory flatbuffer; returns NULL on failure (bad
 * buffer, failed verification, out of memory).
 *
 * The buffer is NOT copied: the model keeps the pointer `model_data`, and
 * constant tensor data, custom operator options, metadata and tensor names
 * all point into it. The caller keeps ownership and must keep the buffer
 * alive and unmodified until TfLiteModelDelete() has been called on the model
 * AND every interpreter built from it has been deleted (an interpreter keeps
 * the model alive after TfLiteModelDelete()), as upstream. tflite-c
 * extensions (tensorflow/lite/c/tflite_c_experimental.h):
 * TfLiteModelCreateCopy() copies the buffer instead, and
 * TfLiteGetLastCreateError() says why a create returned NULL. */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreate(const void* model_data,
                                                      size_t model_size);

/** TfLiteModelCreate() that sends diagnostics to `reporter` (called with
 * `user_data` and a printf-style format plus va_list) instead of stderr.
 * `user_data` may be NULL; if not, the caller owns it and must keep it valid
 * for the model's lifetime. */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateWithErrorReporter(
    const void* model_data, size_t model_size,
    void (*reporter)(void* user_data, const char* format, va_list args),
    void* user_data);

/** Loads (typically memory-maps) and verifies a model file; returns NULL on
 * failure. The file must not change while the model or any interpreter built
 * from it exists. */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateFromFile(
    const char* model_path);

/** TfLiteModelCreateFromFile() with a custom error reporter (see
 * TfLiteModelCreateWithErrorReporter()). */
TFL_CAPI_EXPORT extern TfLiteModel* TfLiteModelCreateFromFileWithErrorReporter(
    const char* model_path,
    void (*reporter)(void* user_data, const char* format, va_list args),
    void* user_data);

/** Releases a model. NULL is a no-op. Interpreters already created from the
 * model stay valid (they keep the model alive internally), but a caller-owned
 * buffer given to TfLiteModelCreate() must still outlive them. */
TFL_CAPI_EXPORT extern void TfLiteModelDelete(TfLiteModel* model);

/* ===== Interpreter options ================================================ */

/** Returns new options with defaults (runtime-chosen thread count, no
 * delegates, no custom ops, default error reporting). Caller owns it. */
TFL_CAPI_EXPORT extern TfLiteInterpreterOptions*
TfLiteInterpreterOptionsCreate(void);

/** Returns a shallow copy of `from` (delegates, operators and callbacks are
 * shared, not duplicated). Release it with TfLiteInterpreterOptionsDelete(). */
TFL_CAPI_EXPORT extern TfLiteInterpreterOptions* TfLiteInterpreterOptionsCopy(
    const TfLiteInterpreterOptions* from);

/** Releases options. NULL is a no-op. Safe to call as soon as the
 * interpreters that use them have been created. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsDelete(
    TfLiteInterpreterOptions* options);

/** Number of CPU threads kernels may use; -1 lets the runtime decide. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetNumThreads(
    TfLiteInterpreterOptions* options, int32_t num_threads);

/** Queues a delegate to be applied when the interpreter is created; if
 * applying it fails, TfLiteInterpreterCreate() fails (returns NULL) and the
 * error is reported. The caller keeps ownership and must keep the delegate
 * alive for the lifetime of every interpreter created with these options.
 * In this (non stable-ABI) build TfLiteOpaqueDelegate is the same type as
 * TfLiteDelegate, so either may be passed. A NULL delegate is queued too, as
 * upstream, and makes TfLiteInterpreterCreate() fail with "Null delegate.". */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsAddDelegate(
    TfLiteInterpreterOptions* options, TfLiteOpaqueDelegate* delegate);

/** Routes the interpreter's error messages to `reporter` (printf-style format
 * plus va_list). `user_data` is passed through; if non-NULL the caller owns
 * it and keeps it valid for the interpreter's lifetime. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsSetErrorReporter(
    TfLiteInterpreterOptions* options,
    void (*reporter)(void* user_data, const char* format, va_list args),
    void* user_data);

/** Registers an operator (builtin override or custom op) for interpreters
 * created with these options. The caller keeps ownership of `registration`
 * and must keep it alive as long as those interpreters. Experimental. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsAddOperator(
    TfLiteInterpreterOptions* options, TfLiteOperator* registration);

/** Allows TfLiteInterpreterCancel() to work on interpreters created with
 * these options (disabled by default). Returns kTfLiteOk. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterOptionsEnableCancellation(
    TfLiteInterpreterOptions* options, bool enable);

/* ===== Interpreter ======================================================== */

/** Builds an interpreter for `model` with the builtin op set plus anything
 * registered in `optional_options` (which may be NULL). Returns NULL on
 * failure (unresolved ops, delegate failure, invalid model, ...).
 *
 * The caller keeps ownership of `model` and of the options and may delete
 * both right after this call; the model's underlying buffer/file must still
 * outlive the interpreter (see TfLiteModelCreate()).
 *
 * Tensors must be allocated with TfLiteInterpreterAllocateTensors() before
 * input data is written or the interpreter is invoked. */
TFL_CAPI_EXPORT extern TfLiteInterpreter* TfLiteInterpreterCreate(
    const TfLiteModel* model, const TfLiteInterpreterOptions* optional_options);

/** Destroys an interpreter and every tensor it owns. NULL is a no-op.
 * Signature runners obtained from it should be deleted first. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterDelete(
    TfLiteInterpreter* interpreter);

/** Number of inputs of the primary subgraph. */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetInputTensorCount(
    const TfLiteInterpreter* interpreter);

/** Tensor indices of the inputs (TfLiteInterpreterGetInputTensorCount()
 * entries). Runtime-owned; stays valid until the interpreter's input list is
 * changed or the interpreter is destroyed. */
TFL_CAPI_EXPORT const int* TfLiteInterpreterInputTensorIndices(
    const TfLiteInterpreter* interpreter);

/** The `input_index`-th input tensor (0 <= input_index < input count).
 * Runtime-owned. */
TFL_CAPI_EXPORT extern TfLiteTensor* TfLiteInterpreterGetInputTensor(
    const TfLiteInterpreter* interpreter, int32_t input_index);

/** Changes the shape of the `input_index`-th input to the `input_dims_size`
 * dimensions in `input_dims` (copied; the caller may free them afterwards).
 * Buffers are not reallocated until TfLiteInterpreterAllocateTensors() is
 * called again, which is required before the next invoke or data access. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterResizeInputTensor(
    TfLiteInterpreter* interpreter, int32_t input_index, const int* input_dims,
    int32_t input_dims_size);

/** (Re)plans and allocates memory for all tensors, propagating the current
 * input shapes. Comparatively expensive: call after creation and after
 * resizing inputs, not before every invoke. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterAllocateTensors(
    TfLiteInterpreter* interpreter);

/** Runs the model. Tensors must be allocated and inputs filled.
 *
 * Returns kTfLiteOk on success; kTfLiteDelegateError or
 * kTfLiteApplicationError when a delegate (or its interaction with the
 * model) failed -- if delegate fallback was enabled (see
 * TfLiteInterpreterOptionsSetEnableDelegateFallback in
 * c_api_experimental.h) these mean the delegates were removed and the CPU
 * re-run succeeded, so outputs are valid; kTfLiteCancelled when cancelled;
 * kTfLiteError on any other failure (outputs invalid). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterInvoke(
    TfLiteInterpreter* interpreter);

/** Number of outputs of the primary subgraph. */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetOutputTensorCount(
    const TfLiteInterpreter* interpreter);

/** Tensor indices of the outputs (TfLiteInterpreterGetOutputTensorCount()
 * entries). Runtime-owned; same validity rules as the input index array. */
TFL_CAPI_EXPORT const int* TfLiteInterpreterOutputTensorIndices(
    const TfLiteInterpreter* interpreter);

/** The `output_index`-th output tensor (0 <= output_index < output count).
 * Runtime-owned. Its shape and data are only meaningful after allocation,
 * and for dynamically shaped outputs only after a successful invoke. */
TFL_CAPI_EXPORT extern const TfLiteTensor* TfLiteInterpreterGetOutputTensor(
    const TfLiteInterpreter* interpreter, int32_t output_index);

/** Any tensor of the primary subgraph by its global tensor index
 * (0 <= index < number of tensors), unlike the Get{Input,Output}Tensor
 * functions which take a position in the input/output list. Mutable and
 * runtime-owned; adding tensors to the interpreter invalidates it. */
TFL_CAPI_EXPORT
TfLiteTensor* TfLiteInterpreterGetTensor(const TfLiteInterpreter* interpreter,
                                         int index);

/** Requests that an in-flight TfLiteInterpreterInvoke() (or signature-runner
 * invoke on this interpreter) stop early; that call then returns
 * kTfLiteCancelled. Later invocations are unaffected. Non-blocking and safe
 * to call from another thread. Returns kTfLiteError if cancellation was not
 * enabled with TfLiteInterpreterOptionsEnableCancellation(). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteInterpreterCancel(
    const TfLiteInterpreter* interpreter);

/* ===== Signatures ========================================================= */
/* Either use signature runners or the interpreter's own input/output API for
 * a given interpreter, not both: they share tensors. A runner is only as
 * thread-safe as its interpreter. Delegates are applied per interpreter (via
 * the options), never per signature. */

/** Number of signatures in the model (0 if it declares none). */
TFL_CAPI_EXPORT extern int32_t TfLiteInterpreterGetSignatureCount(
    const TfLiteInterpreter* interpreter);

/** Key of the `signature_index`-th signature, or NULL if the index is out of
 * range. The string lives as long as the interpreter. */
TFL_CAPI_EXPORT extern const char* TfLiteInterpreterGetSignatureKey(
    const TfLiteInterpreter* interpreter, int32_t signature_index);

/** Returns a new runner for the signature named `signature_key`, or NULL if
 * there is no such signature. A NULL `signature_key` selects the primary
 * subgraph: the first signature that runs subgraph 0, or, for a model without
 * signatures, a placeholder signature whose inputs/outputs are the model's,
 * named after their tensors ("input<i>"/"output<i>" for unnamed ones); NULL
 * if signatures exist but none runs subgraph 0. The caller owns the
 * runner and must release it with TfLiteSignatureRunnerDelete() before
 * deleting the interpreter. */
TFL_CAPI_EXPORT extern TfLiteSignatureRunner*
TfLiteInterpreterGetSignatureRunner(const TfLiteInterpreter* interpreter,
                                    const char* signature_key);

/** Number of named inputs of the signature. */
TFL_CAPI_EXPORT extern size_t TfLiteSignatureRunnerGetInputCount(
    const TfLiteSignatureRunner* signature_runner);

/** Name of the `input_index`-th input, or NULL if out of range. Lives as long
 * as the runner. */
TFL_CAPI_EXPORT extern const char* TfLiteSignatureRunnerGetInputName(
    const TfLiteSignatureRunner* signature_runner, int32_t input_index);

/** Resizes the input called `input_name`. Strict: only dimensions that are
 * -1 in the tensor's shape signature may change (stricter than
 * TfLiteInterpreterResizeInputTensor()). `input_dims` is copied.
 * TfLiteSignatureRunnerAllocateTensors() must be called afterwards. Returns
 * an error for an unknown name or a disallowed shape. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(
    TfLiteSignatureRunner* signature_runner, const char* input_name,
    const int* input_dims, int32_t input_dims_size);

/** Allocates the signature's tensors for the current input shapes. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerAllocateTensors(
    TfLiteSignatureRunner* signature_runner);

/** Input tensor called `input_name`, or NULL for an unknown name. Lives as
 * long as the runner. */
TFL_CAPI_EXPORT extern TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(
    TfLiteSignatureRunner* signature_runner, const char* input_name);

/** Runs the signature (tensors allocated, inputs filled beforehand). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteSignatureRunnerInvoke(
    TfLiteSignatureRunner* signature_runner);

/** Number of named outputs of the signature. */
TFL_CAPI_EXPORT extern size_t TfLiteSignatureRunnerGetOutputCount(
    const TfLiteSignatureRunner* signature_runner);

/** Name of the `output_index`-th output, or NULL if out of range. Lives as
 * long as the runner. */
TFL_CAPI_EXPORT extern const char* TfLiteSignatureRunnerGetOutputName(
    const TfLiteSignatureRunner* signature_runner, int32_t output_index);

/** Output tensor called `output_name`, or NULL for an unknown name. Lives as
 * long as the runner. */
TFL_CAPI_EXPORT extern const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name);

/* ===== Tensor accessors =================================================== */
/* TfLiteTensor's fields are public in common.h, but these accessors are the
 * preferred, binding-friendly way to read them. */

/** Element type. */
TFL_CAPI_EXPORT extern TfLiteType TfLiteTensorType(const TfLiteTensor* tensor);

/** Rank, or -1 if the tensor has no shape yet. */
TFL_CAPI_EXPORT extern int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor);

/** Extent of dimension `dim_index` (0 <= dim_index < rank). */
TFL_CAPI_EXPORT extern int32_t TfLiteTensorDim(const TfLiteTensor* tensor,
                                               int32_t dim_index);

/** Size of the tensor's data in bytes. */
TFL_CAPI_EXPORT extern size_t TfLiteTensorByteSize(const TfLiteTensor* tensor);

/** The tensor's data buffer; NULL until allocated (and, for dynamically
 * shaped outputs, until the interpreter has been invoked). Runtime-owned. */
TFL_CAPI_EXPORT extern void* TfLiteTensorData(const TfLiteTensor* tensor);

/** NUL-terminated tensor name (runtime-owned; may be NULL for unnamed
 * tensors). */
TFL_CAPI_EXPORT extern const char* TfLiteTensorName(const TfLiteTensor* tensor);

/** Per-tensor affine quantization (scale, zero_point); meaningful only when
 * scale != 0. real = scale * (quantized - zero_point). */
TFL_CAPI_EXPORT extern TfLiteQuantizationParams TfLiteTensorQuantizationParams(
    const TfLiteTensor* tensor);

/** Copies `input_data_size` bytes into the tensor. Returns kTfLiteError
 * (copying nothing) unless input_data_size == TfLiteTensorByteSize(tensor). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteTensorCopyFromBuffer(
    TfLiteTensor* tensor, const void* input_data, size_t input_data_size);

/** Copies the tensor's bytes into `output_data`. Returns kTfLiteError
 * (copying nothing) unless output_data_size == TfLiteTensorByteSize(tensor). */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteTensorCopyToBuffer(
    const TfLiteTensor* output_tensor, void* output_data,
    size_t output_data_size);

/** Releases a signature runner (not its tensors). NULL is a no-op. */
TFL_CAPI_EXPORT extern void TfLiteSignatureRunnerDelete(
    TfLiteSignatureRunner* signature_runner);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_C_API_H_ */

/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * TfLiteOperator: an ABI-stable, opaque description of an operator kernel
 * (builtin or custom) built from C callbacks. It is the Extension-API
 * counterpart of the plain TfLiteRegistration struct from common.h.
 *
 * Applications normally reach these declarations through
 * "tensorflow/lite/c/c_api.h" or "tensorflow/lite/c/c_api_opaque.h".
 *
 * Marked experimental upstream: the Extension APIs are versioned separately
 * (see TfLiteExtensionApisVersion()).
 */
#ifndef TENSORFLOW_LITE_CORE_C_OPERATOR_H_
#define TENSORFLOW_LITE_CORE_C_OPERATOR_H_

#include <stdint.h>
#include <stdlib.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/async/c/types.h"
#include "tensorflow/lite/core/c/c_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TfLiteOperator: opaque operator definition -- identity (builtin code or
 * custom name, plus version), an optional user_data pointer, and a set of
 * callbacks. common.h names the type as well; strict C99 forbids repeating a
 * typedef, so it is only declared here when common.h has not done so (and
 * TFLITE_C_TYPEDEF_TFLITE_OPERATOR tells common.h it already exists). */
#if !defined(TENSORFLOW_LITE_CORE_C_COMMON_H_) && \
    !defined(TFLITE_C_TYPEDEF_TFLITE_OPERATOR)
#define TFLITE_C_TYPEDEF_TFLITE_OPERATOR 1
typedef struct TfLiteOperator TfLiteOperator;
#endif

/** Allocates a new operator definition with no callbacks set.
 *
 * - builtin_code: the builtin being implemented, or kTfLiteBuiltinCustom.
 * - custom_name: NUL-terminated op name for custom ops (builtin_code must then
 *   be kTfLiteBuiltinCustom), or NULL for builtins. The string is not copied
 *   and must outlive the operator.
 * - version: operator version this kernel implements.
 * - user_data: passed unchanged to every "...WithData" callback; owned by the
 *   caller, who must keep it alive until the free callback has run.
 *
 * The caller owns the result (release it with TfLiteOperatorDelete()) and
 * must keep it alive for as long as any interpreter that uses it. Invoking a
 * node whose prepare/invoke callbacks were never set yields an error status.
 * Returns NULL on allocation failure. */
TFL_CAPI_EXPORT extern TfLiteOperator* TfLiteOperatorCreate(
    TfLiteBuiltinOperator builtin_code, const char* custom_name, int version,
    void* user_data);

/** Releases an operator created by TfLiteOperatorCreate(). NULL is a no-op. */
TFL_CAPI_EXPORT extern void TfLiteOperatorDelete(TfLiteOperator* registration);

/** The builtin code given at creation (kTfLiteBuiltinCustom for custom ops). */
TFL_CAPI_EXPORT extern TfLiteBuiltinOperator TfLiteOperatorGetBuiltInCode(
    const TfLiteOperator* registration);

/** The custom op name given at creation; NULL for builtin operators. */
TFL_CAPI_EXPORT extern const char* TfLiteOperatorGetCustomName(
    const TfLiteOperator* registration);

/** The version given at creation, or -1 when `registration` is NULL. */
TFL_CAPI_EXPORT extern int TfLiteOperatorGetVersion(
    const TfLiteOperator* registration);

/** The user_data pointer given at creation (may be NULL). */
TFL_CAPI_EXPORT extern void* TfLiteOperatorGetUserData(
    const TfLiteOperator* registration);

/* ---- Callback setters ----------------------------------------------------
 * Each callback has the meaning of the same-named field of TfLiteRegistration
 * (common.h). The plain setters are the older, deprecated form; the
 * "...WithData" setters additionally pass the operator's user_data as the
 * first argument and report failure through their return value. Both forms
 * are stored independently; when both are set for the same callback, the
 * "...WithData" one is the one the runtime calls. */

/** init: called once per node with the op's custom options buffer (or the
 * builtin parameters); the returned pointer becomes the node's user data.
 * Deprecated: prefer TfLiteOperatorSetInitWithData(). */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetInit(
    TfLiteOperator* registration,
    void* (*init)(TfLiteOpaqueContext* context, const char* buffer,
                  size_t length));

/** init, receiving the operator's user_data first. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOperatorSetInitWithData(
    TfLiteOperator* registration,
    void* (*init)(void* user_data, TfLiteOpaqueContext* context,
                  const char* buffer, size_t length));

/** free: releases what init returned (passed as `data`).
 * Deprecated: prefer TfLiteOperatorSetFreeWithData(). */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetFree(
    TfLiteOperator* registration,
    void (*free)(TfLiteOpaqueContext* context, void* data));

/** free, receiving the operator's user_data first. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOperatorSetFreeWithData(
    TfLiteOperator* registration,
    void (*free)(void* user_data, TfLiteOpaqueContext* context, void* data));

/** prepare: called whenever input shapes may have changed, before invoke.
 * Deprecated: prefer TfLiteOperatorSetPrepareWithData(). */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetPrepare(
    TfLiteOperator* registration,
    TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                            TfLiteOpaqueNode* node));

/** prepare, receiving the operator's user_data first. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOperatorSetPrepareWithData(
    TfLiteOperator* registration,
    TfLiteStatus (*prepare)(void* user_data, TfLiteOpaqueContext* context,
                            TfLiteOpaqueNode* node));

/** invoke: computes the node's outputs.
 * Deprecated: prefer TfLiteOperatorSetInvokeWithData(). */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetInvoke(
    TfLiteOperator* registration,
    TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                           TfLiteOpaqueNode* node));

/** invoke, receiving the operator's user_data first. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOperatorSetInvokeWithData(
    TfLiteOperator* registration,
    TfLiteStatus (*invoke)(void* user_data, TfLiteOpaqueContext* context,
                           TfLiteOpaqueNode* node));

/** async_kernel: returns the node's TfLiteAsyncKernel, or NULL when the
 * (delegate) kernel has no asynchronous execution support. Experimental.
 * Deprecated: prefer TfLiteOperatorSetAsyncKernelWithData(). */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetAsyncKernel(
    TfLiteOperator* registration,
    struct TfLiteAsyncKernel* (*async_kernel)(TfLiteOpaqueContext* context,
                                              TfLiteOpaqueNode* node));

/** async_kernel, receiving the operator's user_data first. Experimental. */
TFL_CAPI_EXPORT extern TfLiteStatus TfLiteOperatorSetAsyncKernelWithData(
    TfLiteOperator* registration,
    struct TfLiteAsyncKernel* (*async_kernel)(void* user_data,
                                              TfLiteOpaqueContext* context,
                                              TfLiteOpaqueNode* node));

/** Sets the in-place bitmask (TfLiteInPlaceOp values from common.h) that
 * tells the runtime which outputs may share an input's buffer. */
TFL_CAPI_EXPORT extern void TfLiteOperatorSetInplaceOperator(
    TfLiteOperator* registration, uint64_t inplace_operator);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_CORE_C_OPERATOR_H_ */

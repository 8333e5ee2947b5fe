/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Public entry header of the C API. The declarations live in
 * tensorflow/lite/core/c/c_api.h; this header adds the pre-2.16 names of the
 * operator API (TfLiteRegistrationExternal*), which the "Custom operators"
 * guide still teaches.
 *
 * Upstream 2.19 turned those names into aliases of the TfLiteOperator*
 * functions, which broke guide code: the aliased Create takes four
 * arguments. Here they are real exported functions with their original
 * signatures, so a custom op written from the guide compiles and links in C
 * and in C++. Code written against 2.19's aliases keeps compiling as well:
 * TfLiteRegistrationExternalCreate also accepts the four-argument form
 * (builtin_code, custom_name, version, user_data), through a C++ overload or,
 * in C99 and later, a macro that picks the function by argument count.
 *
 * New code should prefer the TfLiteOperator* names.
 */
#ifndef TENSORFLOW_LITE_C_C_API_H_
#define TENSORFLOW_LITE_C_C_API_H_

#include "tensorflow/lite/core/c/c_api.h"

#ifndef DOYXGEN_SKIP

#ifdef __cplusplus
/* Repeating an alias of the same type is legal C++. */
using TfLiteRegistrationExternal = TfLiteOperator;
#else
/* common.h declares the same typedef; strict C99 forbids repeating it. */
#if !defined(TENSORFLOW_LITE_CORE_C_COMMON_H_) && \
    !defined(TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL)
#define TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL 1
typedef TfLiteOperator TfLiteRegistrationExternal;
#endif
#endif /* __cplusplus */

#ifdef __cplusplus
extern "C" {
#endif

/** Older name of TfLiteOperatorCreate(), without user_data: the
 * "...WithData" callbacks of the result receive NULL. Normally called with
 * kTfLiteBuiltinCustom, the op's name and version 1. */
TFL_CAPI_EXPORT extern TfLiteRegistrationExternal*
TfLiteRegistrationExternalCreate(TfLiteBuiltinOperator builtin_code,
                                 const char* custom_name, int version);

/** Older name of TfLiteOperatorDelete(). NULL is a no-op. */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalDelete(
    TfLiteRegistrationExternal* registration);

/** Older name of TfLiteOperatorGetBuiltInCode(). */
TFL_CAPI_EXPORT extern TfLiteBuiltinOperator
TfLiteRegistrationExternalGetBuiltInCode(
    const TfLiteRegistrationExternal* registration);

/** Older name of TfLiteOperatorGetCustomName(). */
TFL_CAPI_EXPORT extern const char* TfLiteRegistrationExternalGetCustomName(
    const TfLiteRegistrationExternal* registration);

/** Older name of TfLiteOperatorGetVersion(). */
TFL_CAPI_EXPORT extern int TfLiteRegistrationExternalGetVersion(
    const TfLiteRegistrationExternal* registration);

/** Older name of TfLiteOperatorSetInit(). */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalSetInit(
    TfLiteRegistrationExternal* registration,
    void* (*init)(TfLiteOpaqueContext* context, const char* buffer,
                  size_t length));

/** Older name of TfLiteOperatorSetFree(). */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalSetFree(
    TfLiteRegistrationExternal* registration,
    void (*free)(TfLiteOpaqueContext* context, void* data));

/** Older name of TfLiteOperatorSetPrepare(). */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalSetPrepare(
    TfLiteRegistrationExternal* registration,
    TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                            TfLiteOpaqueNode* node));

/** Older name of TfLiteOperatorSetInvoke(). */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalSetInvoke(
    TfLiteRegistrationExternal* registration,
    TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                           TfLiteOpaqueNode* node));

/** Older name of TfLiteOperatorSetAsyncKernel(). */
TFL_CAPI_EXPORT extern void TfLiteRegistrationExternalSetAsyncKernel(
    TfLiteRegistrationExternal* registration,
    struct TfLiteAsyncKernel* (*async_kernel)(TfLiteOpaqueContext* context,
                                              TfLiteOpaqueNode* node));

/** Older name of TfLiteInterpreterOptionsAddOperator(): registers
 * `registration` for interpreters created with `options`. The caller keeps
 * ownership and keeps it alive as long as those interpreters. */
TFL_CAPI_EXPORT extern void TfLiteInterpreterOptionsAddRegistrationExternal(
    TfLiteInterpreterOptions* options,
    TfLiteRegistrationExternal* registration);

#ifdef __cplusplus
} /* extern "C" */

/* The four-argument spelling of TensorFlow Lite 2.19's alias. */
inline TfLiteRegistrationExternal* TfLiteRegistrationExternalCreate(
    TfLiteBuiltinOperator builtin_code, const char* custom_name, int version,
    void* user_data) {
  return TfLiteOperatorCreate(builtin_code, custom_name, version, user_data);
}

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L

/* C has no overloading: a call with four arguments goes to
 * TfLiteOperatorCreate, one with three to the function above (the
 * parenthesized name is not expanded again). Taking the address,
 * &TfLiteRegistrationExternalCreate, still names the function. */
#define TFLITE_C_PICK_5TH_(a, b, c, d, picked, ...) picked
#define TfLiteRegistrationExternalCreate(...)                        \
  TFLITE_C_PICK_5TH_(__VA_ARGS__, TfLiteOperatorCreate,              \
                     (TfLiteRegistrationExternalCreate), 0, 0)       \
  (__VA_ARGS__)

#endif /* __cplusplus */

#endif /* DOYXGEN_SKIP */

#endif /* TENSORFLOW_LITE_C_C_API_H_ */

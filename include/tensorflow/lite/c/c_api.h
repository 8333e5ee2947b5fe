/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Public entry header of the C API. The declarations live in
 * tensorflow/lite/core/c/c_api.h; this header adds the pre-2.16 spellings
 * of the operator API (TfLiteRegistrationExternal*) for source
 * compatibility. Those old names are deprecated: use TfLiteOperator*.
 */
#ifndef TENSORFLOW_LITE_C_C_API_H_
#define TENSORFLOW_LITE_C_C_API_H_

#include "tensorflow/lite/core/c/c_api.h"

#ifndef DOYXGEN_SKIP

#ifdef __cplusplus

/* C++: a type alias plus constant function pointers, so the old names can be
 * called, passed and compared like the new functions. */
using TfLiteRegistrationExternal = TfLiteOperator;
const auto TfLiteRegistrationExternalCreate = TfLiteOperatorCreate;
const auto TfLiteRegistrationExternalGetBuiltInCode =
    TfLiteOperatorGetBuiltInCode;
const auto TfLiteRegistrationExternalGetVersion = TfLiteOperatorGetVersion;
const auto TfLiteRegistrationExternalDelete = TfLiteOperatorDelete;
const auto TfLiteRegistrationExternalSetInit = TfLiteOperatorSetInit;
const auto TfLiteRegistrationExternalSetFree = TfLiteOperatorSetFree;
const auto TfLiteRegistrationExternalSetPrepare = TfLiteOperatorSetPrepare;
const auto TfLiteRegistrationExternalSetInvoke = TfLiteOperatorSetInvoke;
const auto TfLiteRegistrationExternalGetCustomName =
    TfLiteOperatorGetCustomName;

#else /* C */

/* common.h declares the same typedef; strict C99 forbids repeating it. */
#if !defined(TENSORFLOW_LITE_CORE_C_COMMON_H_) && \
    !defined(TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL)
#define TFLITE_C_TYPEDEF_TFLITE_REGISTRATION_EXTERNAL 1
typedef TfLiteOperator TfLiteRegistrationExternal;
#endif
#define TfLiteRegistrationExternalCreate TfLiteOperatorCreate
#define TfLiteRegistrationExternalGetBuiltInCode TfLiteOperatorGetBuiltInCode
#define TfLiteRegistrationExternalGetVersion TfLiteOperatorGetVersion
#define TfLiteRegistrationExternalDelete TfLiteOperatorDelete
#define TfLiteRegistrationExternalSetInit TfLiteOperatorSetInit
#define TfLiteRegistrationExternalSetFree TfLiteOperatorSetFree
#define TfLiteRegistrationExternalSetPrepare TfLiteOperatorSetPrepare
#define TfLiteRegistrationExternalSetInvoke TfLiteOperatorSetInvoke
#define TfLiteRegistrationExternalGetCustomName TfLiteOperatorGetCustomName

#endif /* __cplusplus */

#endif /* DOYXGEN_SKIP */

#endif /* TENSORFLOW_LITE_C_C_API_H_ */

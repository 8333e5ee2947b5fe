// The pre-2.16 names of the operator API (tensorflow/lite/c/c_api.h), kept as
// real exported functions so custom ops written from the "Custom operators"
// guide link against this library. Each forwards to its TfLiteOperator*
// counterpart; the types are the same, so nothing is converted.
#include "tensorflow/lite/c/c_api.h"

#include "tensorflow/lite/core/c/operator.h"

extern "C" {

TfLiteRegistrationExternal* TfLiteRegistrationExternalCreate(TfLiteBuiltinOperator builtin_code,
                                                             const char* custom_name,
                                                             int version) {
  return TfLiteOperatorCreate(builtin_code, custom_name, version, /*user_data=*/nullptr);
}

void TfLiteRegistrationExternalDelete(TfLiteRegistrationExternal* registration) {
  TfLiteOperatorDelete(registration);
}

TfLiteBuiltinOperator TfLiteRegistrationExternalGetBuiltInCode(
    const TfLiteRegistrationExternal* registration) {
  return TfLiteOperatorGetBuiltInCode(registration);
}

const char* TfLiteRegistrationExternalGetCustomName(
    const TfLiteRegistrationExternal* registration) {
  return TfLiteOperatorGetCustomName(registration);
}

int TfLiteRegistrationExternalGetVersion(const TfLiteRegistrationExternal* registration) {
  return TfLiteOperatorGetVersion(registration);
}

void TfLiteRegistrationExternalSetInit(TfLiteRegistrationExternal* registration,
                                       void* (*init)(TfLiteOpaqueContext* context,
                                                     const char* buffer, size_t length)) {
  TfLiteOperatorSetInit(registration, init);
}

void TfLiteRegistrationExternalSetFree(TfLiteRegistrationExternal* registration,
                                       void (*free)(TfLiteOpaqueContext* context, void* data)) {
  TfLiteOperatorSetFree(registration, free);
}

void TfLiteRegistrationExternalSetPrepare(TfLiteRegistrationExternal* registration,
                                          TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                                                                  TfLiteOpaqueNode* node)) {
  TfLiteOperatorSetPrepare(registration, prepare);
}

void TfLiteRegistrationExternalSetInvoke(TfLiteRegistrationExternal* registration,
                                         TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                                                                TfLiteOpaqueNode* node)) {
  TfLiteOperatorSetInvoke(registration, invoke);
}

void TfLiteRegistrationExternalSetAsyncKernel(
    TfLiteRegistrationExternal* registration,
    struct TfLiteAsyncKernel* (*async_kernel)(TfLiteOpaqueContext* context,
                                              TfLiteOpaqueNode* node)) {
  TfLiteOperatorSetAsyncKernel(registration, async_kernel);
}

void TfLiteInterpreterOptionsAddRegistrationExternal(TfLiteInterpreterOptions* options,
                                                     TfLiteRegistrationExternal* registration) {
  TfLiteInterpreterOptionsAddOperator(options, registration);
}

}  // extern "C"

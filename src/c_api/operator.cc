// TfLiteOperator: the opaque way to describe a kernel (core/c/operator.h).
#include "tensorflow/lite/core/c/operator.h"

#include <memory>

#include "src/core/exception_guard.h"
#include "src/core/operator_internal.h"

namespace tflite_c {

TfLiteRegistration RegistrationFromOperator(const TfLiteOperator* op) {
  TfLiteRegistration r{};
  if (op == nullptr) return r;
  r.builtin_code = op->builtin_code;
  r.custom_name = op->custom_name;
  r.version = op->version;
  r.registration_external = const_cast<TfLiteOperator*>(op);
  r.inplace_operator = op->inplace_operator;
  return r;
}

}  // namespace tflite_c

extern "C" {

TfLiteOperator* TfLiteOperatorCreate(TfLiteBuiltinOperator builtin_code, const char* custom_name,
                                     int version, void* user_data) {
  // Copying the name allocates: guarded, and owned until returned.
  return tflite_c::GuardC(nullptr, __func__, static_cast<TfLiteOperator*>(nullptr), [&] {
    auto op = std::make_unique<TfLiteOperator>();
    op->builtin_code = builtin_code;
    if (custom_name != nullptr) {
      op->custom_name_storage = custom_name;
      op->custom_name = op->custom_name_storage.c_str();
    }
    op->version = version;
    op->user_data = user_data;
    return op.release();
  });
}

void TfLiteOperatorDelete(TfLiteOperator* registration) { delete registration; }

TfLiteBuiltinOperator TfLiteOperatorGetBuiltInCode(const TfLiteOperator* registration) {
  return registration ? static_cast<TfLiteBuiltinOperator>(registration->builtin_code)
                      : kTfLiteBuiltinCustom;
}

const char* TfLiteOperatorGetCustomName(const TfLiteOperator* registration) {
  return registration ? registration->custom_name : nullptr;
}

int TfLiteOperatorGetVersion(const TfLiteOperator* registration) {
  return registration ? registration->version : -1;
}

void* TfLiteOperatorGetUserData(const TfLiteOperator* registration) {
  return registration ? registration->user_data : nullptr;
}

void TfLiteOperatorSetInit(TfLiteOperator* registration,
                           void* (*init)(TfLiteOpaqueContext* context, const char* buffer,
                                         size_t length)) {
  if (registration) registration->init = init;
}

TfLiteStatus TfLiteOperatorSetInitWithData(
    TfLiteOperator* registration,
    void* (*init)(void* user_data, TfLiteOpaqueContext* context, const char* buffer,
                  size_t length)) {
  if (registration == nullptr) return kTfLiteError;
  registration->init_with_data = init;
  return kTfLiteOk;
}

void TfLiteOperatorSetFree(TfLiteOperator* registration,
                           void (*free)(TfLiteOpaqueContext* context, void* data)) {
  if (registration) registration->free = free;
}

TfLiteStatus TfLiteOperatorSetFreeWithData(
    TfLiteOperator* registration,
    void (*free)(void* user_data, TfLiteOpaqueContext* context, void* data)) {
  if (registration == nullptr) return kTfLiteError;
  registration->free_with_data = free;
  return kTfLiteOk;
}

void TfLiteOperatorSetPrepare(TfLiteOperator* registration,
                              TfLiteStatus (*prepare)(TfLiteOpaqueContext* context,
                                                      TfLiteOpaqueNode* node)) {
  if (registration) registration->prepare = prepare;
}

TfLiteStatus TfLiteOperatorSetPrepareWithData(
    TfLiteOperator* registration,
    TfLiteStatus (*prepare)(void* user_data, TfLiteOpaqueContext* context,
                            TfLiteOpaqueNode* node)) {
  if (registration == nullptr) return kTfLiteError;
  registration->prepare_with_data = prepare;
  return kTfLiteOk;
}

void TfLiteOperatorSetInvoke(TfLiteOperator* registration,
                             TfLiteStatus (*invoke)(TfLiteOpaqueContext* context,
                                                    TfLiteOpaqueNode* node)) {
  if (registration) registration->invoke = invoke;
}

TfLiteStatus TfLiteOperatorSetInvokeWithData(
    TfLiteOperator* registration,
    TfLiteStatus (*invoke)(void* user_data, TfLiteOpaqueContext* context,
                           TfLiteOpaqueNode* node)) {
  if (registration == nullptr) return kTfLiteError;
  registration->invoke_with_data = invoke;
  return kTfLiteOk;
}

void TfLiteOperatorSetAsyncKernel(TfLiteOperator* registration,
                                  struct TfLiteAsyncKernel* (*async_kernel)(
                                      TfLiteOpaqueContext* context, TfLiteOpaqueNode* node)) {
  if (registration) registration->async_kernel = async_kernel;
}

TfLiteStatus TfLiteOperatorSetAsyncKernelWithData(
    TfLiteOperator* registration,
    struct TfLiteAsyncKernel* (*async_kernel)(void* user_data, TfLiteOpaqueContext* context,
                                              TfLiteOpaqueNode* node)) {
  if (registration == nullptr) return kTfLiteError;
  registration->async_kernel_with_data = async_kernel;
  return kTfLiteOk;
}

void TfLiteOperatorSetInplaceOperator(TfLiteOperator* registration, uint64_t inplace_operator) {
  if (registration) registration->inplace_operator = inplace_operator;
}

}  // extern "C"

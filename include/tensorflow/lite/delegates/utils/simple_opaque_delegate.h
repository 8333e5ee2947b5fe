// The opaque-API twin of simple_delegate.h: the same two classes, seen
// through TfLiteOpaqueContext / TfLiteOpaqueNode / TfLiteOperator, so a
// delegate written this way depends only on the stable opaque C API.
// Same API as TensorFlow Lite 2.19's header of the same name.
//
// Unlike the non-opaque factory this one has no partition limits: every
// supported node is handed to the runtime, as upstream does.
//
// Implemented in the static library tflite_c::delegate_utils.
#ifndef TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_OPAQUE_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_OPAQUE_DELEGATE_H_

#include <stdint.h>

#include <memory>
#include <utility>

#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

namespace tflite {

using TfLiteOpaqueDelegateUniquePtr =
    std::unique_ptr<TfLiteOpaqueDelegate, void (*)(TfLiteOpaqueDelegate*)>;

// One delegated partition (see SimpleDelegateKernelInterface).
class SimpleOpaqueDelegateKernelInterface {
 public:
  virtual ~SimpleOpaqueDelegateKernelInterface() = default;

  virtual TfLiteStatus Init(TfLiteOpaqueContext* context,
                            const TfLiteOpaqueDelegateParams* params) = 0;
  virtual TfLiteStatus Prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) = 0;
  virtual TfLiteStatus Eval(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) = 0;
};

// What the delegate can run (see SimpleDelegateInterface).
class SimpleOpaqueDelegateInterface {
 public:
  virtual ~SimpleOpaqueDelegateInterface() = default;

  virtual bool IsNodeSupportedByDelegate(const TfLiteOperator* registration_external,
                                         const TfLiteOpaqueNode* node,
                                         TfLiteOpaqueContext* context) const = 0;
  virtual TfLiteStatus Initialize(TfLiteOpaqueContext* context) = 0;
  virtual const char* Name() const = 0;
  virtual std::unique_ptr<SimpleOpaqueDelegateKernelInterface>
  CreateDelegateKernelInterface() = 0;

  // Optional buffer-handle support.
  virtual TfLiteStatus CopyFromBufferHandle(TfLiteOpaqueContext* context,
                                            TfLiteBufferHandle buffer_handle,
                                            TfLiteOpaqueTensor* tensor) {
    (void)context, (void)buffer_handle, (void)tensor;
    return kTfLiteError;
  }
  virtual TfLiteStatus CopyToBufferHandle(TfLiteOpaqueContext* context,
                                          TfLiteBufferHandle buffer_handle,
                                          const TfLiteOpaqueTensor* tensor) {
    (void)context, (void)buffer_handle, (void)tensor;
    return kTfLiteError;
  }
  virtual void FreeBufferHandle(TfLiteOpaqueContext* context, TfLiteBufferHandle* handle) {
    (void)context, (void)handle;
  }
};

class TfLiteOpaqueDelegateFactory {
 public:
  // Wraps `simple_delegate` (ownership moves in) into a TfLiteOpaqueDelegate
  // built with TfLiteOpaqueDelegateCreate. NULL when `simple_delegate` is
  // null. Release with DeleteSimpleDelegate.
  static TfLiteOpaqueDelegate* CreateSimpleDelegate(
      std::unique_ptr<SimpleOpaqueDelegateInterface> simple_delegate,
      int64_t flags = kTfLiteDelegateFlagsNone);

  // NULL is a no-op.
  static void DeleteSimpleDelegate(TfLiteOpaqueDelegate* opaque_delegate);

  inline static TfLiteOpaqueDelegateUniquePtr Create(
      std::unique_ptr<SimpleOpaqueDelegateInterface> simple_delegate) {
    return TfLiteOpaqueDelegateUniquePtr(CreateSimpleDelegate(std::move(simple_delegate)),
                                         DeleteSimpleDelegate);
  }
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_OPAQUE_DELEGATE_H_

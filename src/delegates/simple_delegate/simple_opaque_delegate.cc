// TfLiteOpaqueDelegateFactory: adapts a SimpleOpaqueDelegateInterface to a
// TfLiteOpaqueDelegateBuilder, using nothing but the opaque C API. The
// builder's data holds the interface object; the delegate kernel is a
// TfLiteOperator whose node user_data is the partition's
// SimpleOpaqueDelegateKernelInterface.
#include "tensorflow/lite/delegates/utils/simple_opaque_delegate.h"

#include <memory>
#include <vector>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"

namespace tflite {
namespace {

SimpleOpaqueDelegateInterface* InterfaceOf(void* data) {
  return static_cast<SimpleOpaqueDelegateInterface*>(data);
}

SimpleOpaqueDelegateKernelInterface* KernelOf(TfLiteOpaqueNode* node) {
  return static_cast<SimpleOpaqueDelegateKernelInterface*>(TfLiteOpaqueNodeGetUserData(node));
}

void* KernelInit(void*, TfLiteOpaqueContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteOpaqueDelegateParams*>(buffer);
  if (params == nullptr || params->delegate_data == nullptr) {
    TfLiteOpaqueContextReportError(context, "Delegate kernel: no TfLiteOpaqueDelegateParams");
    return nullptr;
  }
  SimpleOpaqueDelegateInterface* simple = InterfaceOf(params->delegate_data);
  std::unique_ptr<SimpleOpaqueDelegateKernelInterface> kernel =
      simple->CreateDelegateKernelInterface();
  if (kernel == nullptr) {
    TfLiteOpaqueContextReportError(context, "%s: CreateDelegateKernelInterface returned null",
                                   simple->Name());
    return nullptr;
  }
  if (kernel->Init(context, params) != kTfLiteOk) return nullptr;
  return kernel.release();
}

void KernelFree(void*, TfLiteOpaqueContext*, void* buffer) {
  delete static_cast<SimpleOpaqueDelegateKernelInterface*>(buffer);
}

TfLiteStatus KernelPrepare(void*, TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  if (KernelOf(node) == nullptr) {
    TfLiteOpaqueContextReportError(context,
                                   "Delegate kernel was not initialized (its Init failed)");
    return kTfLiteDelegateError;
  }
  return KernelOf(node)->Prepare(context, node);
}

TfLiteStatus KernelEval(void*, TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  if (KernelOf(node) == nullptr) {
    TfLiteOpaqueContextReportError(context,
                                   "Delegate kernel was not initialized (its Init failed)");
    return kTfLiteDelegateError;
  }
  return KernelOf(node)->Eval(context, node);
}

TfLiteOperator* KernelOperator(const SimpleOpaqueDelegateInterface* simple) {
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinDelegate, simple->Name(),
                                            /*version=*/1, /*user_data=*/nullptr);
  if (op == nullptr) return nullptr;
  TfLiteOperatorSetInitWithData(op, KernelInit);
  TfLiteOperatorSetFreeWithData(op, KernelFree);
  TfLiteOperatorSetPrepareWithData(op, KernelPrepare);
  TfLiteOperatorSetInvokeWithData(op, KernelEval);
  return op;
}

TfLiteStatus DelegatePrepare(TfLiteOpaqueContext* context, TfLiteOpaqueDelegate* delegate,
                             void* data) {
  SimpleOpaqueDelegateInterface* simple = InterfaceOf(data);
  TF_LITE_ENSURE_STATUS(simple->Initialize(context));

  TfLiteIntArray* plan_view = nullptr;
  TF_LITE_ENSURE_STATUS(TfLiteOpaqueContextGetExecutionPlan(context, &plan_view));
  // Copied: the predicate may call GetExecutionPlan again.
  const std::vector<int> plan(plan_view->data, plan_view->data + plan_view->size);
  std::vector<int> supported;
  for (int node_index : plan) {
    TfLiteOpaqueNode* node = nullptr;
    TfLiteOperator* op = nullptr;
    TF_LITE_ENSURE_STATUS(
        TfLiteOpaqueContextGetNodeAndRegistration(context, node_index, &node, &op));
    if (simple->IsNodeSupportedByDelegate(op, node, context)) supported.push_back(node_index);
  }

  std::unique_ptr<TfLiteIntArray, void (*)(TfLiteIntArray*)> nodes(
      TfLiteIntArrayCreate(static_cast<int>(supported.size())), TfLiteIntArrayFree);
  TfLiteOperator* kernel = KernelOperator(simple);
  if (!nodes || kernel == nullptr) {
    TfLiteOperatorDelete(kernel);
    return kTfLiteError;
  }
  for (size_t i = 0; i < supported.size(); ++i) nodes->data[i] = supported[i];
  // The runtime owns `kernel` from here on, whatever the outcome.
  return TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes.get(),
                                                                  delegate);
}

TfLiteStatus CopyFromBufferHandle(TfLiteOpaqueContext* context, TfLiteOpaqueDelegate*,
                                  void* data, TfLiteBufferHandle handle,
                                  TfLiteOpaqueTensor* tensor) {
  return InterfaceOf(data)->CopyFromBufferHandle(context, handle, tensor);
}

TfLiteStatus CopyToBufferHandle(TfLiteOpaqueContext* context, TfLiteOpaqueDelegate*, void* data,
                                TfLiteBufferHandle handle, TfLiteOpaqueTensor* tensor) {
  return InterfaceOf(data)->CopyToBufferHandle(context, handle, tensor);
}

void FreeBufferHandle(TfLiteOpaqueContext* context, TfLiteOpaqueDelegate*, void* data,
                      TfLiteBufferHandle* handle) {
  InterfaceOf(data)->FreeBufferHandle(context, handle);
}

}  // namespace

TfLiteOpaqueDelegate* TfLiteOpaqueDelegateFactory::CreateSimpleDelegate(
    std::unique_ptr<SimpleOpaqueDelegateInterface> simple_delegate, int64_t flags) {
  if (simple_delegate == nullptr) return nullptr;
  TfLiteOpaqueDelegateBuilder builder{};
  builder.data = simple_delegate.get();
  builder.Prepare = DelegatePrepare;
  builder.CopyFromBufferHandle = CopyFromBufferHandle;
  builder.CopyToBufferHandle = CopyToBufferHandle;
  builder.FreeBufferHandle = FreeBufferHandle;
  builder.flags = flags;
  TfLiteOpaqueDelegate* delegate = TfLiteOpaqueDelegateCreate(&builder);
  if (delegate != nullptr) simple_delegate.release();
  return delegate;
}

void TfLiteOpaqueDelegateFactory::DeleteSimpleDelegate(TfLiteOpaqueDelegate* opaque_delegate) {
  if (opaque_delegate == nullptr) return;
  delete InterfaceOf(TfLiteOpaqueDelegateGetData(opaque_delegate));
  TfLiteOpaqueDelegateDelete(opaque_delegate);
}

}  // namespace tflite

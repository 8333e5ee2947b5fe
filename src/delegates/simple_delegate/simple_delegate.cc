// TfLiteDelegateFactory: adapts a SimpleDelegateInterface to the
// TfLiteDelegate C struct. The delegate's data_ holds the interface object;
// every partition becomes one node whose user_data is the
// SimpleDelegateKernelInterface created for it.
#include "tensorflow/lite/delegates/utils/simple_delegate.h"

#include <memory>
#include <vector>

#include "src/delegates/simple_delegate/partition_selector.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite {
namespace {

SimpleDelegateInterface* InterfaceOf(const TfLiteDelegate* delegate) {
  return static_cast<SimpleDelegateInterface*>(delegate->data_);
}

SimpleDelegateKernelInterface* KernelOf(const TfLiteNode* node) {
  return static_cast<SimpleDelegateKernelInterface*>(node->user_data);
}

void* KernelInit(TfLiteContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  if (params == nullptr || params->delegate == nullptr) {
    context->ReportError(context, "Delegate kernel: no TfLiteDelegateParams");
    return nullptr;
  }
  std::unique_ptr<SimpleDelegateKernelInterface> kernel =
      InterfaceOf(params->delegate)->CreateDelegateKernelInterface();
  if (kernel == nullptr) {
    context->ReportError(context, "%s: CreateDelegateKernelInterface returned null",
                         InterfaceOf(params->delegate)->Name());
    return nullptr;
  }
  // A kernel whose Init failed is dropped; Prepare then reports it.
  if (kernel->Init(context, params) != kTfLiteOk) return nullptr;
  return kernel.release();
}

void KernelFree(TfLiteContext*, void* buffer) {
  delete static_cast<SimpleDelegateKernelInterface*>(buffer);
}

TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node) {
  if (KernelOf(node) == nullptr) {
    context->ReportError(context, "Delegate kernel was not initialized (its Init failed)");
    return kTfLiteError;
  }
  return KernelOf(node)->Prepare(context, node);
}

TfLiteStatus KernelEval(TfLiteContext* context, TfLiteNode* node) {
  if (KernelOf(node) == nullptr) {
    context->ReportError(context, "Delegate kernel was not initialized (its Init failed)");
    return kTfLiteError;
  }
  return KernelOf(node)->Eval(context, node);
}

TfLiteRegistration KernelRegistration(const SimpleDelegateInterface* simple) {
  TfLiteRegistration r{};
  r.init = KernelInit;
  r.free = KernelFree;
  r.prepare = KernelPrepare;
  r.invoke = KernelEval;
  r.builtin_code = kTfLiteBuiltinDelegate;
  r.custom_name = simple->Name();
  r.version = 1;
  return r;
}

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  SimpleDelegateInterface* simple = InterfaceOf(delegate);
  TF_LITE_ENSURE_STATUS(simple->Initialize(context));

  const SimpleDelegateInterface::Options options = simple->DelegateOptions();
  tflite_c::delegates::PartitionLimits limits;
  limits.max_partitions = options.max_delegated_partitions;
  limits.min_nodes = options.min_nodes_per_partition;
  tflite_c::delegates::PartitionSelection selection;
  TF_LITE_ENSURE_STATUS(tflite_c::delegates::SelectPartitions(
      context,
      [simple](TfLiteContext* ctx, TfLiteNode* node, TfLiteRegistration* reg) {
        return simple->IsNodeSupportedByDelegate(reg, node, ctx);
      },
      limits, &selection));

  std::unique_ptr<TfLiteIntArray, void (*)(TfLiteIntArray*)> nodes(
      TfLiteIntArrayCreate(static_cast<int>(selection.nodes.size())), TfLiteIntArrayFree);
  if (!nodes) return kTfLiteError;
  for (size_t i = 0; i < selection.nodes.size(); ++i) nodes->data[i] = selection.nodes[i];
  return context->ReplaceNodeSubsetsWithDelegateKernels(context, KernelRegistration(simple),
                                                        nodes.get(), delegate);
}

TfLiteStatus CopyFromBufferHandle(TfLiteContext* context, TfLiteDelegate* delegate,
                                  TfLiteBufferHandle handle, TfLiteTensor* tensor) {
  return InterfaceOf(delegate)->CopyFromBufferHandle(context, handle, tensor);
}

TfLiteStatus CopyToBufferHandle(TfLiteContext* context, TfLiteDelegate* delegate,
                                TfLiteBufferHandle handle, TfLiteTensor* tensor) {
  return InterfaceOf(delegate)->CopyToBufferHandle(context, handle, tensor);
}

void FreeBufferHandle(TfLiteContext* context, TfLiteDelegate* delegate,
                      TfLiteBufferHandle* handle) {
  InterfaceOf(delegate)->FreeBufferHandle(context, handle);
}

}  // namespace

TfLiteDelegate* TfLiteDelegateFactory::CreateSimpleDelegate(
    std::unique_ptr<SimpleDelegateInterface> simple_delegate, int64_t flags) {
  if (simple_delegate == nullptr) return nullptr;
  auto* delegate = new TfLiteDelegate(TfLiteDelegateCreate());
  delegate->data_ = simple_delegate.release();
  delegate->Prepare = DelegatePrepare;
  delegate->CopyFromBufferHandle = CopyFromBufferHandle;
  delegate->CopyToBufferHandle = CopyToBufferHandle;
  delegate->FreeBufferHandle = FreeBufferHandle;
  delegate->flags = flags;
  return delegate;
}

void TfLiteDelegateFactory::DeleteSimpleDelegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  delete InterfaceOf(delegate);
  delete delegate;
}

}  // namespace tflite

// SimpleDelegate: write a delegate as two small C++ classes instead of
// filling a TfLiteDelegate by hand.
//
//   SimpleDelegateInterface        what the delegate can run (one instance per
//                                  delegate): node support, partition limits,
//                                  optional buffer-handle callbacks.
//   SimpleDelegateKernelInterface  one delegated partition: Init once with the
//                                  partition's nodes, Prepare after every
//                                  (re)allocation, Eval on every Invoke.
//
// TfLiteDelegateFactory::CreateSimpleDelegate wraps an interface instance
// into a TfLiteDelegate usable with TfLiteInterpreterOptionsAddDelegate.
// Same API as TensorFlow Lite 2.19's header of the same name.
//
// The implementation is not part of libtensorflowlite_c.so (which exports C
// symbols only): link the static library tflite_c::delegate_utils
// (libtflite_c_delegate_utils.a), which calls the shared library's C API.
#ifndef TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_

#include <stdint.h>

#include <memory>
#include <utility>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {

using TfLiteDelegateUniquePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;

// One delegated partition. Created by
// SimpleDelegateInterface::CreateDelegateKernelInterface, one per partition,
// and destroyed with the node that stands for it.
class SimpleDelegateKernelInterface {
 public:
  virtual ~SimpleDelegateKernelInterface() = default;

  // Called once. params->nodes_to_replace lists the partition's nodes in
  // execution order; input_tensors / output_tensors are its boundary.
  virtual TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) = 0;

  // Called whenever tensors are (re)allocated: resize outputs, allocate the
  // kernel's own buffers, compile.
  virtual TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) = 0;

  // Runs the partition. Tensor data pointers may differ between calls.
  virtual TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) = 0;
};

class SimpleDelegateInterface {
 public:
  // Limits applied when choosing which partitions to delegate.
  struct Options {
    // Only the largest N partitions are delegated; <= 0: no limit.
    int max_delegated_partitions = 0;
    // Partitions with fewer nodes stay on the CPU; <= 0: no limit.
    int min_nodes_per_partition = 0;
  };

  virtual ~SimpleDelegateInterface() = default;

  // Whether this delegate can run `node`.
  virtual bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration,
                                         const TfLiteNode* node,
                                         TfLiteContext* context) const = 0;

  // Called at the start of every delegate Prepare, before nodes are queried.
  virtual TfLiteStatus Initialize(TfLiteContext* context) = 0;

  // A name for logs and profiles; also the delegate kernel's custom_name.
  virtual const char* Name() const = 0;

  // A new kernel for one partition; the caller owns it.
  virtual std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() = 0;

  virtual SimpleDelegateInterface::Options DelegateOptions() const = 0;

  // Buffer-handle support (optional). Copies the delegate buffer behind
  // `buffer_handle` into `tensor`'s CPU memory.
  virtual TfLiteStatus CopyFromBufferHandle(TfLiteContext* context,
                                            TfLiteBufferHandle buffer_handle,
                                            TfLiteTensor* tensor) {
    (void)context, (void)buffer_handle, (void)tensor;
    return kTfLiteError;
  }

  // Copies `tensor`'s CPU memory into the delegate buffer behind `buffer_handle`.
  virtual TfLiteStatus CopyToBufferHandle(TfLiteContext* context,
                                          TfLiteBufferHandle buffer_handle,
                                          const TfLiteTensor* tensor) {
    (void)context, (void)buffer_handle, (void)tensor;
    return kTfLiteError;
  }

  // Releases the handle itself (not necessarily the memory behind it).
  virtual void FreeBufferHandle(TfLiteContext* context, TfLiteBufferHandle* handle) {
    (void)context, (void)handle;
  }
};

class TfLiteDelegateFactory {
 public:
  // Wraps `simple_delegate` (ownership moves into the delegate) into a
  // TfLiteDelegate with the given kTfLiteDelegateFlags* bits. NULL when
  // `simple_delegate` is null. Release with DeleteSimpleDelegate.
  static TfLiteDelegate* CreateSimpleDelegate(
      std::unique_ptr<SimpleDelegateInterface> simple_delegate,
      int64_t flags = kTfLiteDelegateFlagsNone);

  // Destroys a delegate from CreateSimpleDelegate and its interface object.
  // NULL is a no-op.
  static void DeleteSimpleDelegate(TfLiteDelegate* delegate);

  // CreateSimpleDelegate + DeleteSimpleDelegate as a unique_ptr.
  inline static TfLiteDelegateUniquePtr Create(
      std::unique_ptr<SimpleDelegateInterface> simple_delegate) {
    return TfLiteDelegateUniquePtr(CreateSimpleDelegate(std::move(simple_delegate)),
                                   DeleteSimpleDelegate);
  }
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_DELEGATES_UTILS_SIMPLE_DELEGATE_H_

// tflite::Interpreter: runs a model built by tflite::InterpreterBuilder
// (libtflite_cc).
//
// A thin skin over the same core interpreter the C API wraps: tensors are
// the core's TfLiteTensor structs, delegates see the same TfLiteContext.
// Source compatible with TensorFlow Lite 2.19 for the members below; not
// ABI compatible (neither is upstream's C++ API across releases).
#ifndef TENSORFLOW_LITE_INTERPRETER_H_
#define TENSORFLOW_LITE_INTERPRETER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/signature_runner.h"

namespace tflite_c {
class Interpreter;
class Model;
struct CcAccess;  // libtflite_cc's own way in (src/cc/cc_internal.h)
}  // namespace tflite_c

namespace tflite {

class InterpreterBuilder;

// Owning handle to a delegate together with the function that frees it.
using TfLiteDelegatePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;

class TFLITE_CC_EXPORT Interpreter {
 public:
  using TfLiteDelegatePtr = ::tflite::TfLiteDelegatePtr;

  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // ---- graph inspection (primary subgraph) ---------------------------------
  const std::vector<int>& inputs() const;
  const std::vector<int>& outputs() const;
  const std::vector<int>& variables() const;
  const char* GetInputName(int index) const { return tensor(inputs()[index])->name; }
  const char* GetOutputName(int index) const { return tensor(outputs()[index])->name; }
  size_t tensors_size() const;
  size_t nodes_size() const;
  const std::vector<int>& execution_plan() const;
  // nullptr when out of range.
  TfLiteTensor* tensor(int tensor_index);
  const TfLiteTensor* tensor(int tensor_index) const;
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const;
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int subgraph_index,
                                                                         int node_index) const;
  size_t subgraphs_size() const;

  // nullptr when out of range or when the tensor's type is not T.
  template <class T>
  T* typed_tensor(int tensor_index) {
    if (TfLiteTensor* t = tensor(tensor_index)) {
      if (t->type == typeToTfLiteType<T>()) return reinterpret_cast<T*>(t->data.raw);
    }
    return nullptr;
  }
  template <class T>
  const T* typed_tensor(int tensor_index) const {
    if (const TfLiteTensor* t = tensor(tensor_index)) {
      if (t->type == typeToTfLiteType<T>()) return reinterpret_cast<const T*>(t->data.raw);
    }
    return nullptr;
  }

  // `index` counts inputs()/outputs(), it is not a tensor index.
  TfLiteTensor* input_tensor(size_t index) { return tensor(inputs()[index]); }
  const TfLiteTensor* input_tensor(size_t index) const { return tensor(inputs()[index]); }
  TfLiteTensor* output_tensor(size_t index) { return tensor(outputs()[index]); }
  const TfLiteTensor* output_tensor(size_t index) const { return tensor(outputs()[index]); }
  template <class T>
  T* typed_input_tensor(int index) {
    return typed_tensor<T>(inputs()[index]);
  }
  template <class T>
  const T* typed_input_tensor(int index) const {
    return typed_tensor<T>(inputs()[index]);
  }
  template <class T>
  T* typed_output_tensor(int index) {
    return typed_tensor<T>(outputs()[index]);
  }
  template <class T>
  const T* typed_output_tensor(int index) const {
    return typed_tensor<T>(outputs()[index]);
  }

  // ---- signatures -------------------------------------------------------------
  std::vector<const std::string*> signature_keys() const;
  // Owned by the interpreter; nullptr when no signature has that key. A null
  // key picks the signature of the primary subgraph (or, for a model without
  // signatures, one over the model's inputs and outputs).
  SignatureRunner* GetSignatureRunner(const char* signature_key);
  // Name -> tensor index of a signature's inputs / outputs (empty when the
  // key is unknown). The index is one of that signature's subgraph.
  const std::map<std::string, uint32_t>& signature_inputs(const char* signature_key) const;
  const std::map<std::string, uint32_t>& signature_outputs(const char* signature_key) const;
  TfLiteTensor* input_tensor_by_signature(const char* signature_input_name,
                                          const char* signature_key);
  const TfLiteTensor* output_tensor_by_signature(const char* signature_output_name,
                                                 const char* signature_key) const;

  // ---- running -----------------------------------------------------------------
  // `tensor_index` is a tensor index (typically inputs()[i]). Takes effect at
  // the next AllocateTensors.
  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims);
  // Only dimensions that are -1 in the model's shape signature may change.
  TfLiteStatus ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus AllocateTensors();
  // Also makes the outputs' CPU data current unless
  // SetAllowBufferHandleOutput(true) was called.
  TfLiteStatus Invoke();
  TfLiteStatus SetNumThreads(int num_threads);
  TfLiteStatus ResetVariableTensors();
  TfLiteStatus EnableCancellation();
  // kTfLiteError unless EnableCancellation() was called first.
  TfLiteStatus Cancel();
  // Recorded and reported back; the reference kernels always compute fp32
  // in fp32.
  void SetAllowFp16PrecisionForFp32(bool allow) { allow_fp16_ = allow; }
  bool GetAllowFp16PrecisionForFp32() const { return allow_fp16_; }
  void SetAllowBufferHandleOutput(bool allow) { allow_buffer_handle_output_ = allow; }
  TfLiteStatus SetCustomAllocationForTensor(int tensor_index,
                                            const TfLiteCustomAllocation& allocation,
                                            int64_t flags = kTfLiteCustomAllocationFlagsNone);
  ErrorReporter* error_reporter() const { return error_reporter_; }

  // ---- delegates -----------------------------------------------------------------
  // Offers the graph (every subgraph) to `delegate`, which the caller keeps
  // alive for the interpreter's lifetime. kTfLiteDelegateError (graph
  // restored) when the delegate fails, kTfLiteApplicationError when a
  // static-shape delegate meets dynamic tensors.
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);
  // An opaque delegate handle is the same object seen through another type.
  TfLiteStatus ModifyGraphWithDelegate(TfLiteOpaqueDelegateStruct* delegate) {
    return ModifyGraphWithDelegate(reinterpret_cast<TfLiteDelegate*>(delegate));
  }
  // Same, taking ownership; the delegate is freed with the interpreter (also
  // when applying it failed).
  template <typename Delegate, typename Deleter>
  TfLiteStatus ModifyGraphWithDelegate(std::unique_ptr<Delegate, Deleter> delegate) {
    Deleter deleter = std::move(delegate.get_deleter());
    TfLiteDelegate* raw = delegate.release();
    owned_delegates_.emplace_back(raw, [deleter](TfLiteDelegate* d) mutable {
      deleter(static_cast<typename std::unique_ptr<Delegate, Deleter>::pointer>(d));
    });
    return ModifyGraphWithDelegate(raw);
  }
  // A TfLiteDelegate is a C struct: the default deleter cannot free it.
  TfLiteStatus ModifyGraphWithDelegate(std::unique_ptr<TfLiteDelegate> delegate) = delete;

  // Copies delegate-held data into the tensor's CPU buffer if it is stale.
  TfLiteStatus EnsureTensorDataIsReadable(int tensor_index);
  TfLiteStatus SetBufferHandle(int tensor_index, TfLiteBufferHandle buffer_handle,
                               TfLiteDelegate* delegate);
  TfLiteStatus SetBufferHandle(TfLiteTensor* tensor, TfLiteBufferHandle buffer_handle,
                               TfLiteDelegate* delegate);
  TfLiteStatus GetBufferHandle(int tensor_index, TfLiteBufferHandle* buffer_handle,
                               TfLiteDelegate** delegate);


 private:
  friend class InterpreterBuilder;
  friend struct tflite_c::CcAccess;
  tflite_c::Interpreter* impl() const { return impl_.get(); }
  class ReporterAdapter;
  struct SignatureMaps {
    std::map<std::string, uint32_t> inputs, outputs;
  };

  Interpreter(std::shared_ptr<const tflite_c::Model> model, ErrorReporter* reporter);

  template <class T>
  static constexpr TfLiteType typeToTfLiteType();

  // Destroyed last: the core interpreter may still call into delegates while
  // it is torn down.
  std::vector<std::unique_ptr<TfLiteDelegate, std::function<void(TfLiteDelegate*)>>>
      owned_delegates_;
  std::shared_ptr<const tflite_c::Model> model_;
  ErrorReporter* error_reporter_;
  std::unique_ptr<ReporterAdapter> reporter_adapter_;
  std::unique_ptr<tflite_c::Interpreter> impl_;
  // One runner per signature, created on first request.
  std::map<const tflite_c::SignatureInfo*, std::unique_ptr<SignatureRunner>> signature_runners_;
  // Built on first request by signature_inputs()/signature_outputs().
  mutable std::map<std::string, SignatureMaps> signature_maps_;
  bool allow_fp16_ = false;
  bool allow_buffer_handle_output_ = false;
};

// C++ type -> TfLiteType, for typed_tensor<T>.
template <class T>
constexpr TfLiteType Interpreter::typeToTfLiteType() {
  using U = typename std::remove_cv<T>::type;
  return std::is_same<U, float>::value      ? kTfLiteFloat32
         : std::is_same<U, double>::value   ? kTfLiteFloat64
         : std::is_same<U, int8_t>::value   ? kTfLiteInt8
         : std::is_same<U, uint8_t>::value  ? kTfLiteUInt8
         : std::is_same<U, int16_t>::value  ? kTfLiteInt16
         : std::is_same<U, uint16_t>::value ? kTfLiteUInt16
         : std::is_same<U, int32_t>::value  ? kTfLiteInt32
         : std::is_same<U, uint32_t>::value ? kTfLiteUInt32
         : std::is_same<U, int64_t>::value  ? kTfLiteInt64
         : std::is_same<U, uint64_t>::value ? kTfLiteUInt64
         : std::is_same<U, bool>::value     ? kTfLiteBool
         : std::is_same<U, TfLiteFloat16>::value ? kTfLiteFloat16
         : std::is_same<U, TfLiteComplex64>::value ? kTfLiteComplex64
         : std::is_same<U, TfLiteComplex128>::value ? kTfLiteComplex128
         : std::is_same<U, char>::value ? kTfLiteString
                                        : kTfLiteNoType;
}

}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERPRETER_H_

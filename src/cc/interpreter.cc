// tflite::Interpreter and tflite::SignatureRunner: each member forwards to
// the core interpreter the C API also wraps.
#include "tensorflow/lite/interpreter.h"

#include <utility>

#include "src/c_api/c_api_internal.h"
#include "src/cc/cc_internal.h"
#include "src/core/interpreter.h"
#include "src/core/subgraph.h"
#include "tensorflow/lite/signature_runner.h"

namespace tflite {
namespace {

const std::map<std::string, uint32_t>& EmptySignatureMap() {
  static const std::map<std::string, uint32_t>* const kEmpty =
      new std::map<std::string, uint32_t>;
  return *kEmpty;
}

// Makes the CPU data of every output of `sg` current.
TfLiteStatus MakeOutputsReadable(tflite_c::Subgraph* sg) {
  for (int t : sg->outputs()) TF_LITE_ENSURE_STATUS(sg->EnsureTensorDataIsReadable(t));
  return kTfLiteOk;
}

}  // namespace

Interpreter::Interpreter(std::shared_ptr<const tflite_c::Model> model, ErrorReporter* reporter)
    : model_(std::move(model)), error_reporter_(reporter) {}

Interpreter::~Interpreter() {
  // Runners and the core interpreter go before the delegates they may use.
  signature_runners_.clear();
  impl_.reset();
  owned_delegates_.clear();
}

const std::vector<int>& Interpreter::inputs() const { return impl_->primary().inputs(); }
const std::vector<int>& Interpreter::outputs() const { return impl_->primary().outputs(); }
const std::vector<int>& Interpreter::variables() const { return impl_->primary().variables(); }
size_t Interpreter::tensors_size() const { return impl_->primary().tensors_size(); }
size_t Interpreter::nodes_size() const { return impl_->primary().nodes_size(); }
size_t Interpreter::subgraphs_size() const { return impl_->subgraphs_size(); }

const std::vector<int>& Interpreter::execution_plan() const {
  return impl_->primary().execution_plan();
}

TfLiteTensor* Interpreter::tensor(int tensor_index) {
  return impl_->primary().tensor(tensor_index);
}

const TfLiteTensor* Interpreter::tensor(int tensor_index) const {
  return impl_->primary().tensor(tensor_index);
}

const std::pair<TfLiteNode, TfLiteRegistration>* Interpreter::node_and_registration(
    int node_index) const {
  return impl_->primary().node_and_registration(node_index);
}

const std::pair<TfLiteNode, TfLiteRegistration>* Interpreter::node_and_registration(
    int subgraph_index, int node_index) const {
  const tflite_c::Subgraph* sg = impl_->subgraph(subgraph_index);
  return sg == nullptr ? nullptr : sg->node_and_registration(node_index);
}

// ---- signatures -------------------------------------------------------------

std::vector<const std::string*> Interpreter::signature_keys() const {
  std::vector<const std::string*> keys;
  for (const tflite_c::SignatureInfo& s : impl_->signatures()) keys.push_back(&s.key);
  return keys;
}

SignatureRunner* Interpreter::GetSignatureRunner(const char* signature_key) {
  const tflite_c::SignatureInfo* sig = impl_->ResolveSignature(signature_key);
  if (sig == nullptr) return nullptr;
  std::unique_ptr<SignatureRunner>& runner = signature_runners_[sig];
  if (runner == nullptr) {
    tflite_c::Subgraph* sg = impl_->subgraph(sig->subgraph_index);
    if (sg == nullptr) return nullptr;
    runner.reset(new SignatureRunner(impl_.get(), sig, sg));
  }
  return runner.get();
}

const std::map<std::string, uint32_t>& Interpreter::signature_inputs(
    const char* signature_key) const {
  const tflite_c::SignatureInfo* sig =
      signature_key == nullptr ? nullptr : impl_->FindSignature(signature_key);
  if (sig == nullptr) return EmptySignatureMap();
  auto found = signature_maps_.find(sig->key);
  if (found == signature_maps_.end()) {
    SignatureMaps maps;
    for (const auto& kv : sig->inputs) maps.inputs[kv.first] = static_cast<uint32_t>(kv.second);
    for (const auto& kv : sig->outputs) maps.outputs[kv.first] = static_cast<uint32_t>(kv.second);
    found = signature_maps_.emplace(sig->key, std::move(maps)).first;
  }
  return found->second.inputs;
}

const std::map<std::string, uint32_t>& Interpreter::signature_outputs(
    const char* signature_key) const {
  const tflite_c::SignatureInfo* sig =
      signature_key == nullptr ? nullptr : impl_->FindSignature(signature_key);
  if (sig == nullptr) return EmptySignatureMap();
  signature_inputs(signature_key);  // fills signature_maps_[key]
  return signature_maps_.at(sig->key).outputs;
}

TfLiteTensor* Interpreter::input_tensor_by_signature(const char* signature_input_name,
                                                     const char* signature_key) {
  SignatureRunner* runner =
      signature_key == nullptr ? nullptr : GetSignatureRunner(signature_key);
  return runner == nullptr ? nullptr : runner->input_tensor(signature_input_name);
}

const TfLiteTensor* Interpreter::output_tensor_by_signature(const char* signature_output_name,
                                                            const char* signature_key) const {
  const tflite_c::SignatureInfo* sig =
      signature_key == nullptr ? nullptr : impl_->FindSignature(signature_key);
  if (sig == nullptr || signature_output_name == nullptr) return nullptr;
  auto it = sig->outputs.find(signature_output_name);
  if (it == sig->outputs.end()) return nullptr;
  const tflite_c::Subgraph* sg = impl_->subgraph(sig->subgraph_index);
  return sg == nullptr ? nullptr : sg->tensor(it->second);
}

// ---- running ---------------------------------------------------------------------

TfLiteStatus Interpreter::ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
  return impl_->primary().ResizeInputTensor(tensor_index, dims);
}

TfLiteStatus Interpreter::ResizeInputTensorStrict(int tensor_index,
                                                  const std::vector<int>& dims) {
  return impl_->primary().ResizeInputTensorStrict(tensor_index, dims);
}

TfLiteStatus Interpreter::AllocateTensors() { return impl_->AllocateTensors(); }

TfLiteStatus Interpreter::Invoke() {
  TF_LITE_ENSURE_STATUS(impl_->Invoke());
  if (allow_buffer_handle_output_) return kTfLiteOk;
  return MakeOutputsReadable(&impl_->primary());
}

TfLiteStatus Interpreter::SetNumThreads(int num_threads) {
  if (num_threads < -1) {
    impl_->reporter()->Reportf(
        "num_threads should be >= 0 or just -1 to let the library choose; got %d", num_threads);
    return kTfLiteError;
  }
  impl_->SetNumThreads(num_threads);
  return kTfLiteOk;
}

TfLiteStatus Interpreter::ResetVariableTensors() { return impl_->ResetVariableTensors(); }

TfLiteStatus Interpreter::EnableCancellation() {
  impl_->EnableCancellation();
  return kTfLiteOk;
}

TfLiteStatus Interpreter::Cancel() { return impl_->Cancel(); }

TfLiteStatus Interpreter::SetCustomAllocationForTensor(int tensor_index,
                                                       const TfLiteCustomAllocation& allocation,
                                                       int64_t flags) {
  return impl_->primary().SetCustomAllocationForTensor(tensor_index, allocation, flags);
}

// ---- delegates -----------------------------------------------------------------

TfLiteStatus Interpreter::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  return tflite_c::ModifyGraphWithDelegate(impl_.get(), delegate);
}

TfLiteStatus Interpreter::EnsureTensorDataIsReadable(int tensor_index) {
  if (tensor(tensor_index) == nullptr) {
    impl_->reporter()->Reportf("EnsureTensorDataIsReadable: tensor index %d out of range",
                               tensor_index);
    return kTfLiteError;
  }
  return impl_->primary().EnsureTensorDataIsReadable(tensor_index);
}

TfLiteStatus Interpreter::SetBufferHandle(int tensor_index, TfLiteBufferHandle buffer_handle,
                                          TfLiteDelegate* delegate) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    impl_->reporter()->Reportf("SetBufferHandle: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  return SetBufferHandle(t, buffer_handle, delegate);
}

TfLiteStatus Interpreter::SetBufferHandle(TfLiteTensor* tensor, TfLiteBufferHandle buffer_handle,
                                          TfLiteDelegate* delegate) {
  if (tensor == nullptr) return kTfLiteError;
  if (tensor->delegate != nullptr && tensor->delegate != delegate) {
    impl_->reporter()->Reportf(
        "SetBufferHandle: the tensor already has a buffer handle of another delegate");
    return kTfLiteError;
  }
  // A handle being replaced is released by the delegate that issued it.
  if (tensor->buffer_handle != kTfLiteNullBufferHandle && tensor->buffer_handle != buffer_handle &&
      delegate != nullptr && delegate->FreeBufferHandle != nullptr) {
    delegate->FreeBufferHandle(impl_->primary().context(), delegate, &tensor->buffer_handle);
  }
  tensor->delegate = delegate;
  tensor->buffer_handle = buffer_handle;
  return kTfLiteOk;
}

TfLiteStatus Interpreter::GetBufferHandle(int tensor_index, TfLiteBufferHandle* buffer_handle,
                                          TfLiteDelegate** delegate) {
  const TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr || buffer_handle == nullptr || delegate == nullptr) {
    impl_->reporter()->Reportf("GetBufferHandle: invalid tensor index %d or null output",
                               tensor_index);
    return kTfLiteError;
  }
  *buffer_handle = t->buffer_handle;
  *delegate = t->delegate;
  return kTfLiteOk;
}

// ---- SignatureRunner --------------------------------------------------------------

SignatureRunner::SignatureRunner(tflite_c::Interpreter* interpreter,
                                 const tflite_c::SignatureInfo* signature,
                                 tflite_c::Subgraph* subgraph)
    : interpreter_(interpreter), signature_(signature), subgraph_(subgraph) {
  for (const auto& kv : signature->inputs) input_names_.push_back(kv.first.c_str());
  for (const auto& kv : signature->outputs) output_names_.push_back(kv.first.c_str());
}

const char* SignatureRunner::signature_key() const { return signature_->key.c_str(); }

int SignatureRunner::TensorIndex(const char* name, bool input) const {
  const auto& map = input ? signature_->inputs : signature_->outputs;
  if (name == nullptr) {
    subgraph_->ReportError("Signature %s name is null", input ? "input" : "output");
    return -1;
  }
  auto it = map.find(name);
  if (it == map.end()) {
    subgraph_->ReportError("Signature %s name %s was not found", input ? "input" : "output",
                           name);
    return -1;
  }
  return it->second;
}

TfLiteTensor* SignatureRunner::input_tensor(const char* input_name) {
  const int t = TensorIndex(input_name, true);
  return t < 0 ? nullptr : subgraph_->tensor(t);
}

const TfLiteTensor* SignatureRunner::output_tensor(const char* output_name) const {
  const int t = TensorIndex(output_name, false);
  return t < 0 ? nullptr : subgraph_->tensor(t);
}

TfLiteStatus SignatureRunner::ResizeInputTensor(const char* input_name,
                                                const std::vector<int>& new_size) {
  const int t = TensorIndex(input_name, true);
  return t < 0 ? kTfLiteError : subgraph_->ResizeInputTensor(t, new_size);
}

TfLiteStatus SignatureRunner::ResizeInputTensorStrict(const char* input_name,
                                                      const std::vector<int>& new_size) {
  const int t = TensorIndex(input_name, true);
  return t < 0 ? kTfLiteError : subgraph_->ResizeInputTensorStrict(t, new_size);
}

TfLiteStatus SignatureRunner::AllocateTensors() { return subgraph_->AllocateTensors(); }

TfLiteStatus SignatureRunner::Invoke() {
  TF_LITE_ENSURE_STATUS(interpreter_->InvokeSubgraph(subgraph_->index()));
  if (allow_buffer_handle_output_) return kTfLiteOk;
  return MakeOutputsReadable(subgraph_);
}

TfLiteStatus SignatureRunner::Cancel() { return interpreter_->Cancel(); }

TfLiteStatus SignatureRunner::SetCustomAllocationForInputTensor(
    const char* input_name, const TfLiteCustomAllocation& allocation, int64_t flags) {
  const int t = TensorIndex(input_name, true);
  return t < 0 ? kTfLiteError : subgraph_->SetCustomAllocationForTensor(t, allocation, flags);
}

TfLiteStatus SignatureRunner::SetCustomAllocationForOutputTensor(
    const char* output_name, const TfLiteCustomAllocation& allocation, int64_t flags) {
  const int t = TensorIndex(output_name, false);
  return t < 0 ? kTfLiteError : subgraph_->SetCustomAllocationForTensor(t, allocation, flags);
}

}  // namespace tflite

#include "src/core/interpreter.h"

#include <cstring>

namespace tflite_c {

Interpreter::Interpreter(ErrorReporter* reporter) {
  shared_.reporter = reporter != nullptr ? reporter : DefaultErrorReporter();
  shared_.subgraphs = &subgraphs_;
  shared_.continue_invocation.test_and_set();
  AddSubgraphs(1);
}

Interpreter::~Interpreter() {
  // Subgraphs are destroyed first (their kernels may still look at external
  // contexts while freeing).
  subgraphs_.clear();
}

void Interpreter::AddSubgraphs(int count) {
  for (int i = 0; i < count; ++i) {
    const int index = static_cast<int>(subgraphs_.size());
    subgraphs_.push_back(std::make_unique<Subgraph>(&shared_, index));
    subgraphs_.back()->SetNumThreads(num_threads_);
  }
}

Subgraph* Interpreter::subgraph(int index) {
  if (index < 0 || static_cast<size_t>(index) >= subgraphs_.size()) return nullptr;
  return subgraphs_[index].get();
}

TfLiteStatus Interpreter::InvokeSubgraph(int index) {
  Subgraph* sg = subgraph(index);
  if (sg == nullptr) {
    shared_.reporter->Reportf("Invoke: subgraph index %d out of range", index);
    return kTfLiteError;
  }
  // A Cancel() issued before this Invoke does not affect it.
  if (shared_.cancellation_enabled) shared_.continue_invocation.test_and_set();
  return sg->Invoke();
}

TfLiteStatus Interpreter::ResetVariableTensors() {
  for (auto& sg : subgraphs_) TF_LITE_ENSURE_STATUS(sg->ResetVariableTensors());
  return kTfLiteOk;
}

void Interpreter::SetNumThreads(int num_threads) {
  if (num_threads < -1) num_threads = -1;
  num_threads_ = num_threads;
  shared_.workers.SetThreads(num_threads);
  for (auto& sg : subgraphs_) sg->SetNumThreads(num_threads);
  for (TfLiteExternalContext* ec : shared_.external_contexts) {
    if (ec != nullptr && ec->Refresh != nullptr) ec->Refresh(primary().context());
  }
}

TfLiteStatus Interpreter::Cancel() {
  if (!shared_.cancellation_enabled) return kTfLiteError;
  shared_.continue_invocation.clear();
  return kTfLiteOk;
}

const SignatureInfo* Interpreter::FindSignature(const char* key) const {
  for (const SignatureInfo& s : signatures_) {
    if (key != nullptr && s.key == key) return &s;
  }
  return nullptr;
}

const SignatureInfo* Interpreter::ResolveSignature(const char* key) {
  if (key != nullptr) return FindSignature(key);
  if (signatures_.empty()) {
    if (!placeholder_signature_) {
      auto sig = std::make_unique<SignatureInfo>();
      sig->key = "<placeholder signature>";
      sig->subgraph_index = 0;
      const Subgraph& sg = primary();
      for (size_t i = 0; i < sg.inputs().size(); ++i) {
        const TfLiteTensor* t = sg.tensor(sg.inputs()[i]);
        std::string name = (t && t->name && *t->name) ? t->name : "input" + std::to_string(i);
        sig->inputs[name] = sg.inputs()[i];
      }
      for (size_t i = 0; i < sg.outputs().size(); ++i) {
        const TfLiteTensor* t = sg.tensor(sg.outputs()[i]);
        std::string name = (t && t->name && *t->name) ? t->name : "output" + std::to_string(i);
        sig->outputs[name] = sg.outputs()[i];
      }
      placeholder_signature_ = std::move(sig);
    }
    return placeholder_signature_.get();
  }
  for (const SignatureInfo& s : signatures_) {
    if (s.subgraph_index == 0) return &s;
  }
  shared_.reporter->Reportf(
      "The model has signature def but none of those points to primary subgraph.");
  return nullptr;
}

}  // namespace tflite_c

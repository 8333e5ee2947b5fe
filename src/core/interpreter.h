// The interpreter: all subgraphs of one model, its signatures, and the
// state they share (error reporter, external contexts, cancellation).
#ifndef TFLITE_C_SRC_CORE_INTERPRETER_H_
#define TFLITE_C_SRC_CORE_INTERPRETER_H_

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/core/error_reporter.h"
#include "src/core/model.h"
#include "src/core/subgraph.h"

namespace tflite_c {

struct SignatureInfo {
  std::string key;
  int subgraph_index = 0;
  // name -> tensor index in that subgraph. Ordered by name: the signature
  // runner API enumerates names in this order, as upstream does.
  std::map<std::string, int> inputs;
  std::map<std::string, int> outputs;
};

class Interpreter {
 public:
  explicit Interpreter(ErrorReporter* reporter);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Creates `count` more subgraphs; the first ever created is the primary one.
  void AddSubgraphs(int count);
  Subgraph& primary() { return *subgraphs_[0]; }
  const Subgraph& primary() const { return *subgraphs_[0]; }
  Subgraph* subgraph(int index);
  size_t subgraphs_size() const { return subgraphs_.size(); }

  TfLiteStatus AllocateTensors() { return primary().AllocateTensors(); }
  // Resets the cancellation flag, then runs the primary subgraph.
  TfLiteStatus Invoke() { return InvokeSubgraph(0); }
  TfLiteStatus InvokeSubgraph(int index);
  TfLiteStatus ResetVariableTensors();

  void SetNumThreads(int num_threads);
  int num_threads() const { return num_threads_; }
  void EnableCancellation() { shared_.cancellation_enabled = true; }
  TfLiteStatus Cancel();

  std::vector<SignatureInfo>& signatures() { return signatures_; }
  const std::vector<SignatureInfo>& signatures() const { return signatures_; }
  // nullptr when no signature has that key.
  const SignatureInfo* FindSignature(const char* key) const;
  // The signature a runner for `key` uses. A null key means the signature
  // on subgraph 0, or, for a model without signatures, a placeholder one
  // ("<placeholder signature>") over the primary subgraph's inputs and
  // outputs. nullptr (after reporting) when nothing matches.
  const SignatureInfo* ResolveSignature(const char* key);

  InterpreterShared* shared() { return &shared_; }
  ErrorReporter* reporter() const { return shared_.reporter; }
  void SetModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    shared_.model = model_.get();
  }
  const Model* model() const { return model_.get(); }

 private:
  InterpreterShared shared_;
  std::vector<std::unique_ptr<Subgraph>> subgraphs_;
  std::vector<SignatureInfo> signatures_;
  std::unique_ptr<SignatureInfo> placeholder_signature_;
  std::shared_ptr<const Model> model_;  // keeps weights and names alive
  int num_threads_ = -1;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_INTERPRETER_H_

// What control-flow and resource kernels need from the runtime beyond the
// TfLiteContext ABI.
//
// WHILE, IF and CALL_ONCE reach other subgraphs through
// context->AcquireSubgraphContext, as any op would; the ABI, though, has no
// callback to size, allocate or run the subgraph behind such a context. These
// functions are that missing piece. They take TfLiteContext pointers only, so
// the kernels still see nothing of Subgraph.
//
// Resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) and the
// CALL_ONCE "already ran" flags live in one ControlFlowState per interpreter,
// hung off InterpreterShared. (The alternative, a TfLiteExternalContext slot,
// would need a new value in the public TfLiteExternalContextType enum, which
// must stay as upstream's.) Like upstream, nothing here is cleared by
// ResetVariableTensors: variables and initialisation outlive it.
#ifndef TFLITE_C_SRC_CORE_SUBGRAPH_ACCESS_H_
#define TFLITE_C_SRC_CORE_SUBGRAPH_ACCESS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

// A per-interpreter object found by resource id.
class Resource {
 public:
  virtual ~Resource() = default;
};

// A variable: a dynamic tensor holding the last assigned value.
class ResourceVariable : public Resource {
 public:
  ResourceVariable();
  ~ResourceVariable() override;
  ResourceVariable(const ResourceVariable&) = delete;
  ResourceVariable& operator=(const ResourceVariable&) = delete;

  // Takes `value`'s type, shape, quantization scale/zero point and bytes.
  TfLiteStatus Assign(const TfLiteTensor* value);
  const TfLiteTensor* value() const { return &tensor_; }

 private:
  TfLiteTensor tensor_;
};

struct ControlFlowState {
  // VAR_HANDLE's (container, shared_name) -> resource id, assigned in order
  // of first sight, as upstream.
  std::map<std::pair<std::string, std::string>, int> resource_ids;
  std::map<int, std::unique_ptr<Resource>> resources;
  // Init subgraphs CALL_ONCE has run to completion.
  std::set<int> initialized_subgraphs;
  // Subgraphs being prepared or run on behalf of a control-flow kernel,
  // callers included (see EnterSubgraph in subgraph_access.cc).
  std::vector<int> active;
  // Most WHILE iterations one WHILE node may run per Invoke; 0 = no limit.
  int64_t max_while_iterations = 0;
};

// Nested control flow deeper than this fails instead of exhausting the stack.
constexpr int kMaxControlFlowDepth = 64;

// The interpreter-wide state of the subgraph behind `context` (created on
// first use); nullptr when `context` is not a subgraph's.
ControlFlowState* ControlFlowStateOf(TfLiteContext* context);

// The resource variable with id `id`, or nullptr. With `create`, a missing one
// is created (and a non-variable resource with that id is an error: nullptr).
ResourceVariable* GetResourceVariable(TfLiteContext* context, int id, bool create);

// Index of the subgraph behind `context` in its interpreter.
int SubgraphIndexOf(const TfLiteContext* context);
// Number of subgraphs of the interpreter behind `context` (0 if none).
int SubgraphCountOf(const TfLiteContext* context);
// The subgraph's input / output tensor indices.
const std::vector<int>& SubgraphInputs(const TfLiteContext* context);
const std::vector<int>& SubgraphOutputs(const TfLiteContext* context);

// Resizes input number `position` of the subgraph behind `callee`.
TfLiteStatus ResizeSubgraphInput(TfLiteContext* callee, int position, const TfLiteIntArray* dims);

// AllocateTensors / Invoke of the subgraph behind `callee` (a context obtained
// through caller->AcquireSubgraphContext). Fails, reporting through `caller`,
// when that would re-enter a subgraph already being prepared or run by
// control flow (a WHILE body that contains itself, ...) or nest deeper than
// kMaxControlFlowDepth.
TfLiteStatus AllocateSubgraph(TfLiteContext* caller, TfLiteContext* callee);
TfLiteStatus InvokeSubgraph(TfLiteContext* caller, TfLiteContext* callee);

// Makes a delegate-held tensor of the subgraph behind `context` readable on
// the CPU.
TfLiteStatus EnsureSubgraphTensorReadable(TfLiteContext* context, int tensor_index);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_SUBGRAPH_ACCESS_H_

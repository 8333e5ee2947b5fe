#include "src/core/subgraph_access.h"

#include <algorithm>
#include <cstring>

#include "src/core/subgraph.h"

namespace tflite_c {
namespace {

Subgraph* SubgraphOf(const TfLiteContext* context) {
  return context != nullptr ? static_cast<Subgraph*>(context->impl_) : nullptr;
}

// The subgraph behind `callee`, provided it belongs to the same interpreter
// as `caller`; reports through `caller` otherwise.
Subgraph* CalleeOf(TfLiteContext* caller, TfLiteContext* callee) {
  Subgraph* from = SubgraphOf(caller);
  Subgraph* to = SubgraphOf(callee);
  if (from == nullptr || to == nullptr || from->shared() != to->shared() ||
      to->context() != callee) {
    if (caller != nullptr) caller->ReportError(caller, "Control flow: not a subgraph context");
    return nullptr;
  }
  return to;
}

// Records that `caller` works inside `callee` until destroyed. `ok` is false
// (after reporting) when the callee is already active, is the caller itself,
// or the nesting is too deep: preparing or running it would recurse forever.
class EnterSubgraph {
 public:
  EnterSubgraph(TfLiteContext* caller, Subgraph* callee) {
    ControlFlowState* state = ControlFlowStateOf(caller);
    const int from = SubgraphIndexOf(caller);
    const int to = callee->index();
    if (state == nullptr) return;
    std::vector<int>& active = state->active;
    if (to == from || std::find(active.begin(), active.end(), to) != active.end()) {
      caller->ReportError(caller,
                          "Control flow: subgraph %d would run inside itself (recursive "
                          "WHILE/IF/CALL_ONCE through subgraph %d)",
                          to, from);
      return;
    }
    if (static_cast<int>(active.size()) >= 2 * kMaxControlFlowDepth) {
      caller->ReportError(caller, "Control flow: subgraphs nested deeper than %d levels",
                          kMaxControlFlowDepth);
      return;
    }
    active.push_back(from);
    active.push_back(to);
    state_ = state;
    ok = true;
  }
  ~EnterSubgraph() {
    if (state_ != nullptr) state_->active.resize(state_->active.size() - 2);
  }
  EnterSubgraph(const EnterSubgraph&) = delete;
  EnterSubgraph& operator=(const EnterSubgraph&) = delete;

  bool ok = false;

 private:
  ControlFlowState* state_ = nullptr;
};

}  // namespace

// ---- resources
// ----------------------------------------------------------------

ResourceVariable::ResourceVariable() {
  std::memset(&tensor_, 0, sizeof(tensor_));
  tensor_.name = "ResourceVariable";
  tensor_.allocation_type = kTfLiteDynamic;
}

ResourceVariable::~ResourceVariable() {
  TfLiteTensorDataFree(&tensor_);
  TfLiteIntArrayFree(tensor_.dims);
}

TfLiteStatus ResourceVariable::Assign(const TfLiteTensor* value) {
  if (value == nullptr || value->dims == nullptr) return kTfLiteError;
  if (value->bytes > 0 && value->data.raw_const == nullptr) return kTfLiteError;
  if (tensor_.dims == nullptr || !TfLiteIntArrayEqual(tensor_.dims, value->dims)) {
    TfLiteIntArray* dims = TfLiteIntArrayCopy(value->dims);
    if (dims == nullptr) return kTfLiteError;
    TfLiteIntArrayFree(tensor_.dims);
    tensor_.dims = dims;
  }
  if (tensor_.data.raw == nullptr || tensor_.bytes != value->bytes) {
    if (TfLiteTensorResizeMaybeCopy(value->bytes, &tensor_,
                                    /*preserve_data=*/false) != kTfLiteOk) {
      return kTfLiteError;
    }
  }
  tensor_.type = value->type;
  // Only the per-tensor parameters: the variable must not alias the value's
  // quantization arrays, which belong to another tensor.
  tensor_.params = value->params;
  if (value->bytes > 0) std::memcpy(tensor_.data.raw, value->data.raw_const, value->bytes);
  return kTfLiteOk;
}

ControlFlowState* ControlFlowStateOf(TfLiteContext* context) {
  Subgraph* sg = SubgraphOf(context);
  if (sg == nullptr || sg->shared() == nullptr) return nullptr;
  InterpreterShared* shared = sg->shared();
  if (!shared->control_flow) shared->control_flow = std::make_shared<ControlFlowState>();
  return shared->control_flow.get();
}

ResourceVariable* GetResourceVariable(TfLiteContext* context, int id, bool create) {
  ControlFlowState* state = ControlFlowStateOf(context);
  if (state == nullptr) return nullptr;
  auto it = state->resources.find(id);
  if (it == state->resources.end()) {
    if (!create) return nullptr;
    it = state->resources.emplace(id, std::make_unique<ResourceVariable>()).first;
  }
  return dynamic_cast<ResourceVariable*>(it->second.get());
}

// ---- subgraphs
// ------------------------------------------------------------------

int SubgraphIndexOf(const TfLiteContext* context) {
  const Subgraph* sg = SubgraphOf(context);
  return sg != nullptr ? sg->index() : -1;
}

int SubgraphCountOf(const TfLiteContext* context) {
  const Subgraph* sg = SubgraphOf(context);
  if (sg == nullptr || sg->shared() == nullptr || sg->shared()->subgraphs == nullptr) return 0;
  return static_cast<int>(sg->shared()->subgraphs->size());
}

const std::vector<int>& SubgraphInputs(const TfLiteContext* context) {
  return SubgraphOf(context)->inputs();
}

const std::vector<int>& SubgraphOutputs(const TfLiteContext* context) {
  return SubgraphOf(context)->outputs();
}

TfLiteStatus ResizeSubgraphInput(TfLiteContext* callee, int position, const TfLiteIntArray* dims) {
  Subgraph* sg = SubgraphOf(callee);
  if (sg == nullptr || dims == nullptr || position < 0 ||
      static_cast<size_t>(position) >= sg->inputs().size()) {
    return kTfLiteError;
  }
  return sg->ResizeInputTensor(sg->inputs()[position],
                               std::vector<int>(dims->data, dims->data + dims->size));
}

TfLiteStatus AllocateSubgraph(TfLiteContext* caller, TfLiteContext* callee) {
  Subgraph* sg = CalleeOf(caller, callee);
  if (sg == nullptr) return kTfLiteError;
  EnterSubgraph guard(caller, sg);
  if (!guard.ok) return kTfLiteError;
  return sg->AllocateTensors();
}

TfLiteStatus InvokeSubgraph(TfLiteContext* caller, TfLiteContext* callee) {
  Subgraph* sg = CalleeOf(caller, callee);
  if (sg == nullptr) return kTfLiteError;
  EnterSubgraph guard(caller, sg);
  if (!guard.ok) return kTfLiteError;
  const TfLiteStatus s = sg->Invoke();
  if (s != kTfLiteOk) return s;
  for (int t : sg->outputs()) {
    if (t >= 0) TF_LITE_ENSURE_STATUS(sg->EnsureTensorDataIsReadable(t));
  }
  return kTfLiteOk;
}

TfLiteStatus EnsureSubgraphTensorReadable(TfLiteContext* context, int tensor_index) {
  Subgraph* sg = SubgraphOf(context);
  if (sg == nullptr) return kTfLiteError;
  return sg->EnsureTensorDataIsReadable(tensor_index);
}

}  // namespace tflite_c

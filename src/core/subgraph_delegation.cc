// Subgraph: applying delegates (graph partitioning, delegate kernel nodes,
// undo/redo of delegation, buffer handles).
#include <cstdlib>
#include <cstring>

#include "src/core/exception_guard.h"
#include "src/core/operator_internal.h"
#include "src/core/partitioner.h"
#include "src/core/subgraph.h"
#include "src/core/tensor_util.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace {

bool IsOpaque(const TfLiteDelegate* d) { return d != nullptr && d->opaque_delegate_builder != nullptr; }

int64_t DelegateFlags(const TfLiteDelegate* d) {
  return IsOpaque(d) ? d->opaque_delegate_builder->flags : d->flags;
}

size_t Align8(size_t n) { return (n + 7) & ~static_cast<size_t>(7); }

TfLiteIntArray* PlaceArray(char** cursor, const std::vector<int>& v) {
  auto* a = reinterpret_cast<TfLiteIntArray*>(*cursor);
  a->size = static_cast<int>(v.size());
  for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
  *cursor += Align8(TfLiteIntArrayGetSizeInBytes(a->size));
  return a;
}

// One malloc'd block holding the params struct and its three arrays, so
// the node's free() of builtin_data releases everything.
template <typename Params>
Params* MakeParamsBlock(const NodeSubset& s, TfLiteIntArray** nodes, TfLiteIntArray** inputs,
                        TfLiteIntArray** outputs) {
  const size_t size = Align8(sizeof(Params)) +
                      Align8(TfLiteIntArrayGetSizeInBytes(static_cast<int>(s.nodes.size()))) +
                      Align8(TfLiteIntArrayGetSizeInBytes(static_cast<int>(s.input_tensors.size()))) +
                      Align8(TfLiteIntArrayGetSizeInBytes(static_cast<int>(s.output_tensors.size())));
  char* block = static_cast<char*>(std::calloc(1, size));
  if (block == nullptr) return nullptr;
  char* cursor = block + Align8(sizeof(Params));
  *nodes = PlaceArray(&cursor, s.nodes);
  *inputs = PlaceArray(&cursor, s.input_tensors);
  *outputs = PlaceArray(&cursor, s.output_tensors);
  return reinterpret_cast<Params*>(block);
}

}  // namespace

TfLiteStatus Subgraph::PartitionPlan(const TfLiteIntArray* nodes_to_replace,
                                     std::vector<NodeSubset>* subsets) {
  GraphView view;
  view.plan = execution_plan_;
  view.node = [this](int i) -> const TfLiteNode& { return nodes_[i].first; };
  view.num_tensors = tensors_.size();
  view.outputs = outputs_;
  if (nodes_to_replace != nullptr) {
    for (int i = 0; i < nodes_to_replace->size; ++i) {
      const int n = nodes_to_replace->data[i];
      if (n < 0 || static_cast<size_t>(n) >= nodes_.size()) {
        ReportError("Delegate asked to replace node %d, which does not exist", n);
        return kTfLiteError;
      }
    }
  }
  if (PartitionGraph(view, nodes_to_replace, subsets) != kTfLiteOk) {
    ReportError("Graph partitioning failed: the execution plan is not a valid DAG");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ReplaceNodeSubsets(TfLiteRegistration registration,
                                          const TfLiteIntArray* nodes_to_replace,
                                          TfLiteDelegate* delegate) {
  registration.builtin_code = kTfLiteBuiltinDelegate;
  if (IsOpaque(delegate)) {
    if (registration.registration_external == nullptr) {
      ReportError(
          "An opaque delegate (opaque_delegate_builder set) must describe its kernel with a "
          "TfLiteOperator (registration_external).");
      return kTfLiteDelegateError;
    }
    // The subgraph owns kernels that opaque delegates hand over.
    registration.registration_external->builtin_code = kTfLiteBuiltinDelegate;
    AdoptOperator(registration.registration_external);
  } else if (registration.registration_external != nullptr) {
    registration.registration_external->builtin_code = kTfLiteBuiltinDelegate;
  }
  if (nodes_to_replace == nullptr || nodes_to_replace->size == 0) return kTfLiteOk;

  std::vector<NodeSubset> subsets;
  TF_LITE_ENSURE_STATUS(PartitionPlan(nodes_to_replace, &subsets));

  execution_plan_.clear();
  for (const NodeSubset& subset : subsets) {
    if (subset.type != NodeSubset::kPartition) {
      execution_plan_.insert(execution_plan_.end(), subset.nodes.begin(), subset.nodes.end());
      continue;
    }
    void* params = nullptr;
    TfLiteIntArray *nodes = nullptr, *inputs = nullptr, *outputs = nullptr;
    if (IsOpaque(delegate)) {
      auto* p = MakeParamsBlock<TfLiteOpaqueDelegateParams>(subset, &nodes, &inputs, &outputs);
      if (p != nullptr) {
        p->delegate = reinterpret_cast<TfLiteOpaqueDelegate*>(delegate);
        p->delegate_data = delegate->opaque_delegate_builder->data;
        p->nodes_to_replace = nodes;
        p->input_tensors = inputs;
        p->output_tensors = outputs;
      }
      params = p;
    } else {
      auto* p = MakeParamsBlock<TfLiteDelegateParams>(subset, &nodes, &inputs, &outputs);
      if (p != nullptr) {
        p->delegate = delegate;
        p->nodes_to_replace = nodes;
        p->input_tensors = inputs;
        p->output_tensors = outputs;
      }
      params = p;
    }
    if (params == nullptr) {
      ReportError("Out of memory creating delegate parameters");
      return kTfLiteError;
    }
    for (int t : subset.output_tensors) {
      TfLiteTensor& tensor = tensors_[t];
      if (tensor.delegate != nullptr && tensor.delegate != delegate) {
        std::free(params);
        ReportError("Tensor %d is already owned by another delegate", t);
        return kTfLiteDelegateError;
      }
    }
    int node_index = -1;
    // AddNodeWithParameters appends the new node to the execution plan.
    TF_LITE_ENSURE_STATUS(AddNodeWithParameters(subset.input_tensors, subset.output_tensors, {},
                                                nullptr, 0, params, &registration, &node_index));
    for (int t : subset.output_tensors) tensors_[t].delegate = delegate;
    nodes_[node_index].first.delegate = delegate;
  }
  lifetimes_valid_ = false;
  return kTfLiteOk;
}

void Subgraph::ClearPreview() {
  for (TfLiteIntArray* a : preview_arrays_) TfLiteIntArrayFree(a);
  preview_arrays_.clear();
  preview_params_.clear();
}

TfLiteStatus Subgraph::PreviewPartitioning(const TfLiteIntArray* nodes_to_replace,
                                           TfLiteDelegateParams** params, int* num_partitions) {
  if (params == nullptr || num_partitions == nullptr) {
    ReportError("PreviewDelegatePartitioning: output arguments are NULL");
    return kTfLiteError;
  }
  ClearPreview();
  *params = nullptr;
  *num_partitions = 0;
  if (nodes_to_replace == nullptr || nodes_to_replace->size == 0) return kTfLiteOk;
  std::vector<NodeSubset> subsets;
  TF_LITE_ENSURE_STATUS(PartitionPlan(nodes_to_replace, &subsets));
  for (const NodeSubset& s : subsets) {
    if (s.type != NodeSubset::kPartition) continue;
    TfLiteDelegateParams p{};
    p.delegate = nullptr;
    p.nodes_to_replace = IntArrayFromVector(s.nodes);
    p.input_tensors = IntArrayFromVector(s.input_tensors);
    p.output_tensors = IntArrayFromVector(s.output_tensors);
    preview_arrays_.push_back(p.nodes_to_replace);
    preview_arrays_.push_back(p.input_tensors);
    preview_arrays_.push_back(p.output_tensors);
    preview_params_.push_back(p);
  }
  *params = preview_params_.empty() ? nullptr : preview_params_.data();
  *num_partitions = static_cast<int>(preview_params_.size());
  return kTfLiteOk;
}

TfLiteStatus Subgraph::PrepareDelegate(TfLiteDelegate* delegate) {
  ScopedMemoryAccount account(shared_->memory.get());
  delegate_preparing_ = true;
  // A delegate whose Prepare throws failed like one returning an error.
  const TfLiteStatus s = GuardC(shared_->reporter, "delegate Prepare", kTfLiteDelegateError, [&] {
    if (IsOpaque(delegate)) {
      const TfLiteOpaqueDelegateBuilder* b = delegate->opaque_delegate_builder;
      return b->Prepare != nullptr
                 ? b->Prepare(reinterpret_cast<TfLiteOpaqueContext*>(&context_),
                              reinterpret_cast<TfLiteOpaqueDelegate*>(delegate), b->data)
                 : kTfLiteOk;
    }
    return delegate->Prepare != nullptr ? delegate->Prepare(&context_, delegate) : kTfLiteOk;
  });
  delegate_preparing_ = false;
  ClearPreview();
  return s;
}

bool Subgraph::HasDynamicTensors() const {
  for (int pos = 0; pos < next_to_prepare_ && pos < static_cast<int>(execution_plan_.size());
       ++pos) {
    if (HasDynamicOutput(nodes_[execution_plan_[pos]].first)) return true;
  }
  return next_to_prepare_ < static_cast<int>(execution_plan_.size());
}

TfLiteStatus Subgraph::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  ScopedRuntimeEvent event(shared_, "ModifyGraphWithDelegate", index_);
  if (delegate == nullptr) {
    ReportError("Null delegate.");
    return kTfLiteDelegateError;
  }
  if (invoking_) {
    ReportError("ModifyGraphWithDelegate called during Invoke");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(RedoAllDelegates());
  const bool dynamic_ok = DelegateFlags(delegate) & kTfLiteDelegateFlagsAllowDynamicTensors;
  const State before = state_;
  if (!dynamic_ok) {
    // Shapes must be fully known before a static-shape delegate sees the graph.
    immutable_ = false;
    if (AllocateTensors() != kTfLiteOk) return kTfLiteError;
    if (HasDynamicTensors()) {
      ReportError(
          "Attempting to use a delegate that only supports static-sized tensors with a graph "
          "that has dynamic-sized tensors.");
      return kTfLiteApplicationError;
    }
  }
  if (delegates_applied_.empty()) pre_delegation_plan_ = execution_plan_;

  auto restore = [this]() {
    RemoveAllDelegates();
    ReportError("Restored original execution plan after delegate application failure.");
    return kTfLiteDelegateError;
  };
  if (PrepareDelegate(delegate) != kTfLiteOk) return restore();
  delegates_applied_.push_back(delegate);
  state_ = State::kUninvokable;
  lifetimes_valid_ = false;
  if (!dynamic_ok) {
    if (AllocateTensors() != kTfLiteOk) return restore();
    immutable_ = true;
  } else if (before == State::kInvokable) {
    if (AllocateTensors() != kTfLiteOk) return restore();
  }
  return kTfLiteOk;
}

void Subgraph::CleanupNode(int node_index, bool call_free) {
  auto& nr = nodes_[node_index];
  TfLiteNode& node = nr.first;
  if (call_free) OpFree(nr.second, node.user_data);
  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
  TfLiteIntArrayFree(node.intermediates);
  TfLiteIntArrayFree(node.temporaries);
  std::free(node.builtin_data);
  std::memset(&node, 0, sizeof(node));
}

TfLiteStatus Subgraph::UndoAllDelegates() {
  if (pre_delegation_plan_.empty()) return kTfLiteOk;
  for (int node_index : execution_plan_) {
    if (nodes_[node_index].first.delegate != nullptr) CleanupNode(node_index);
  }
  execution_plan_ = pre_delegation_plan_;
  pre_delegation_plan_.clear();
  int max_kept = -1;
  for (int n : execution_plan_) max_kept = std::max(max_kept, n);
  nodes_.resize(static_cast<size_t>(max_kept + 1));
  for (TfLiteTensor& t : tensors_) {
    if (t.buffer_handle == kTfLiteNullBufferHandle) t.delegate = nullptr;
  }
  state_ = State::kUninvokable;
  immutable_ = false;
  lifetimes_valid_ = false;
  next_to_prepare_ = 0;
  delegates_undone_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::RedoAllDelegates() {
  if (!delegates_undone_) return kTfLiteOk;
  delegates_undone_ = false;
  std::vector<TfLiteDelegate*> delegates;
  delegates.swap(delegates_applied_);
  for (TfLiteDelegate* d : delegates) TF_LITE_ENSURE_STATUS(ModifyGraphWithDelegate(d));
  return kTfLiteOk;
}

TfLiteStatus Subgraph::RemoveAllDelegates() {
  TF_LITE_ENSURE_STATUS(UndoAllDelegates());
  delegates_applied_.clear();
  delegates_undone_ = false;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::EnsureTensorDataIsReadable(int tensor_index) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("EnsureTensorDataIsReadable: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  if (!t->data_is_stale) return kTfLiteOk;
  if (t->delegate == nullptr || t->buffer_handle == kTfLiteNullBufferHandle) return kTfLiteOk;
  if (t->delegate->CopyFromBufferHandle == nullptr) {
    ReportError("Tensor %d is stale but its delegate cannot copy it back to the CPU",
                tensor_index);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(GuardC(shared_->reporter, "delegate CopyFromBufferHandle", kTfLiteError,
                               [&] {
                                 return t->delegate->CopyFromBufferHandle(
                                     &context_, t->delegate, t->buffer_handle, t);
                               }));
  t->data_is_stale = false;
  return kTfLiteOk;
}

}  // namespace tflite_c

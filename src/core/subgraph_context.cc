// Subgraph: the TfLiteContext callbacks kernels and delegates call. They are
// C entry points too (a C kernel or delegate calls them), so the ones that
// allocate run under GuardC and answer out-of-memory with an error.
#include <cstdarg>
#include <cstdlib>
#include <cstring>

#include "src/core/exception_guard.h"
#include "src/core/subgraph.h"
#include "src/core/tensor_util.h"

namespace tflite_c {
namespace {

Subgraph* Self(const TfLiteContext* ctx) { return static_cast<Subgraph*>(ctx->impl_); }

// The raw value of `type`: a C caller may pass any int, and loading one
// outside the enumerators' range as the C++ enum is undefined (UBSan).
int ExternalContextIndex(const TfLiteExternalContextType& type) {
  int value;
  static_assert(sizeof(value) == sizeof(type), "TfLiteExternalContextType is int-sized");
  std::memcpy(&value, &type, sizeof(value));
  return value;
}

}  // namespace

TfLiteStatus Subgraph::CtxResizeTensor(TfLiteContext* ctx, TfLiteTensor* tensor,
                                       TfLiteIntArray* new_size) {
  return GuardC(Self(ctx)->reporter(), "ResizeTensor", kTfLiteError, [&] {
    Subgraph* self = Self(ctx);
    if (tensor == nullptr || tensor < self->tensors_.data() ||
        tensor >= self->tensors_.data() + self->tensors_.size()) {
      TfLiteIntArrayFree(new_size);
      self->ReportError("ResizeTensor: tensor does not belong to this subgraph");
      return kTfLiteError;
    }
    if (self->preparing_in_place_ != nullptr && new_size != nullptr) {
      const int index = static_cast<int>(tensor - self->tensors_.data());
      for (const InPlaceTensor& b : *self->preparing_in_place_) {
        if (b.index != index ||
            TfLiteIntArrayEqualsArray(new_size, static_cast<int>(b.dims.size()), b.dims.data()))
          continue;
        TfLiteIntArrayFree(new_size);
        const int node_index = self->execution_plan_[self->preparing_pos_];
        self->ReportInPlaceChange(node_index, self->nodes_[node_index].second, index, false);
        return kTfLiteError;
      }
    }
    return self->ResizeTensorImpl(tensor, new_size);
  });
}

void Subgraph::CtxReportError(TfLiteContext* ctx, const char* format, ...) {
  Subgraph* self = Self(ctx);
  va_list args;
  va_start(args, format);
  self->shared_->reporter->Report(format, args);
  va_end(args);
}

TfLiteStatus Subgraph::CtxAddTensors(TfLiteContext* ctx, int count, int* first) {
  return GuardC(Self(ctx)->reporter(), "AddTensors", kTfLiteError, [&] {
    return Self(ctx)->AddTensors(count, first);
  });
}

TfLiteStatus Subgraph::CtxGetNodeAndRegistration(TfLiteContext* ctx, int node_index,
                                                 TfLiteNode** node,
                                                 TfLiteRegistration** registration) {
  Subgraph* self = Self(ctx);
  if (node == nullptr || registration == nullptr || node_index < 0 ||
      static_cast<size_t>(node_index) >= self->nodes_.size()) {
    self->ReportError("GetNodeAndRegistration: invalid node index %d", node_index);
    return kTfLiteError;
  }
  *node = &self->nodes_[node_index].first;
  *registration = &self->nodes_[node_index].second;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CtxReplaceNodeSubsets(TfLiteContext* ctx, TfLiteRegistration registration,
                                             const TfLiteIntArray* nodes_to_replace,
                                             TfLiteDelegate* delegate) {
  return GuardC(Self(ctx)->reporter(), "ReplaceNodeSubsetsWithDelegateKernels", kTfLiteError,
                [&] {
    Subgraph* self = Self(ctx);
    if (!self->delegate_preparing_) {
      self->ReportError(
          "ReplaceNodeSubsetsWithDelegateKernels may only be called from a delegate's Prepare");
      return kTfLiteError;
    }
    return self->ReplaceNodeSubsets(registration, nodes_to_replace, delegate);
  });
}

TfLiteStatus Subgraph::CtxGetExecutionPlan(TfLiteContext* ctx, TfLiteIntArray** plan) {
  Subgraph* self = Self(ctx);
  if (plan == nullptr) return kTfLiteError;
  TfLiteIntArrayFree(self->plan_array_);
  self->plan_array_ = IntArrayFromVector(self->execution_plan_);
  if (self->plan_array_ == nullptr) return kTfLiteError;
  *plan = self->plan_array_;
  return kTfLiteOk;
}

TfLiteExternalContext* Subgraph::CtxGetExternalContext(TfLiteContext* ctx,
                                                       TfLiteExternalContextType type) {
  const int t = ExternalContextIndex(type);
  if (t < 0 || t >= kTfLiteMaxExternalContexts) return nullptr;
  return Self(ctx)->shared_->external_contexts[t];
}

void Subgraph::CtxSetExternalContext(TfLiteContext* ctx, TfLiteExternalContextType type,
                                     TfLiteExternalContext* external) {
  const int t = ExternalContextIndex(type);
  if (t < 0 || t >= kTfLiteMaxExternalContexts) return;
  Self(ctx)->shared_->external_contexts[t] = external;
}

void* Subgraph::CtxAllocatePersistentBuffer(TfLiteContext* ctx, size_t bytes) {
  Subgraph* self = Self(ctx);
  return GuardC(self->reporter(), "AllocatePersistentBuffer", static_cast<void*>(nullptr),
                [&]() -> void* {
    const size_t rounded = (bytes + ArenaPlanner::kAlignment - 1) / ArenaPlanner::kAlignment *
                           ArenaPlanner::kAlignment;
    self->persistent_buffers_.push_back(nullptr);  // may throw: before allocating
    void*& p = self->persistent_buffers_.back();
    // Charged to the interpreter's account like the arenas.
    ScopedMemoryAccount account(self->shared_->memory.get());
    if (rounded >= bytes) {
      p = internal::CountedAllocate(rounded ? rounded : 64, ArenaPlanner::kAlignment);
    }
    if (p == nullptr) {
      self->persistent_buffers_.pop_back();
      self->ReportError("AllocatePersistentBuffer: cannot allocate %zu bytes (allocation limit "
                        "%zu bytes, %zu in use)",
                        bytes, self->shared_->memory->limit(), self->shared_->memory->used());
      return nullptr;
    }
    return p;
  });
}

TfLiteStatus Subgraph::CtxAllocateBufferForEval(TfLiteContext* ctx, size_t, void**) {
  Self(ctx)->ReportError(
      "AllocateBufferForEval is a TFLite Micro callback and is not supported; use "
      "RequestScratchBufferInArena");
  return kTfLiteError;
}

TfLiteStatus Subgraph::CtxRequestScratchBuffer(TfLiteContext* ctx, size_t bytes, int* index) {
  return GuardC(Self(ctx)->reporter(), "RequestScratchBufferInArena", kTfLiteError, [&] {
    Subgraph* self = Self(ctx);
    if (index == nullptr || self->preparing_pos_ < 0) {
      self->ReportError("RequestScratchBufferInArena may only be called from Prepare");
      return kTfLiteError;
    }
    self->scratch_.push_back({self->preparing_pos_, bytes});
    *index = static_cast<int>(self->scratch_.size() - 1);
    return kTfLiteOk;
  });
}

void* Subgraph::CtxGetScratchBuffer(TfLiteContext* ctx, int index) {
  Subgraph* self = Self(ctx);
  if (index < 0 || static_cast<size_t>(index) >= self->scratch_.size() ||
      self->scratch_[index].pos < 0) {
    self->ReportError("GetScratchBuffer: invalid scratch buffer index %d", index);
    return nullptr;
  }
  return self->arena_.Pointer({1, index});
}

TfLiteStatus Subgraph::CtxResizeTensorExplicit(TfLiteContext* ctx, TfLiteTensor* tensor, int dims,
                                               const int* shape) {
  if (dims < 0 || (dims > 0 && shape == nullptr)) {
    Self(ctx)->ReportError("ResizeTensorExplicit: invalid shape");
    return kTfLiteError;
  }
  TfLiteIntArray* a = TfLiteIntArrayCreate(dims);
  if (a == nullptr) return kTfLiteError;
  for (int i = 0; i < dims; ++i) a->data[i] = shape[i];
  return CtxResizeTensor(ctx, tensor, a);
}

TfLiteStatus Subgraph::CtxPreviewDelegatePartitioning(
    TfLiteContext* ctx, const TfLiteIntArray* nodes_to_replace,
    TfLiteDelegateParams** partition_params_array, int* num_partitions) {
  return GuardC(Self(ctx)->reporter(), "PreviewDelegatePartitioning", kTfLiteError,
                [&] {
    Subgraph* self = Self(ctx);
    if (!self->delegate_preparing_) {
      self->ReportError("PreviewDelegatePartitioning may only be called from a delegate's Prepare");
      return kTfLiteError;
    }
    return self->PreviewPartitioning(nodes_to_replace, partition_params_array, num_partitions);
  });
}

TfLiteTensor* Subgraph::CtxGetTensor(const TfLiteContext* ctx, int index) {
  return Self(ctx)->tensor(index);
}

TfLiteEvalTensor* Subgraph::CtxGetEvalTensor(const TfLiteContext* ctx, int index) {
  return GuardC(Self(ctx)->reporter(), "GetEvalTensor", static_cast<TfLiteEvalTensor*>(nullptr),
                [&]() -> TfLiteEvalTensor* {
    Subgraph* self = Self(ctx);
    TfLiteTensor* t = self->tensor(index);
    if (t == nullptr) return nullptr;
    if (self->eval_tensors_.size() < self->tensors_.size()) {
      self->eval_tensors_.resize(self->tensors_.size());
    }
    TfLiteEvalTensor& e = self->eval_tensors_[index];
    e.data = t->data;
    e.dims = t->dims;
    e.type = t->type;
    return &e;
  });
}

TfLiteStatus Subgraph::CtxGetModelMetadata(const TfLiteContext* ctx, const char* name,
                                           const char** ptr, size_t* bytes) {
  return GuardC(Self(ctx)->reporter(), "GetModelMetadata", kTfLiteError, [&] {
    Subgraph* self = Self(ctx);
    if (name == nullptr || ptr == nullptr || bytes == nullptr) return kTfLiteError;
    auto it = self->shared_->metadata.find(name);
    if (it == self->shared_->metadata.end()) return kTfLiteError;
    *ptr = it->second.first;
    *bytes = it->second.second;
    return kTfLiteOk;
  });
}

TfLiteStatus Subgraph::CtxAcquireSubgraphContext(TfLiteContext* ctx, int subgraph_index,
                                                 TfLiteContext** acquired) {
  Subgraph* self = Self(ctx);
  auto* all = self->shared_->subgraphs;
  if (acquired == nullptr || all == nullptr || subgraph_index < 0 ||
      static_cast<size_t>(subgraph_index) >= all->size()) {
    self->ReportError("AcquireSubgraphContext: invalid subgraph index %d", subgraph_index);
    return kTfLiteError;
  }
  *acquired = (*all)[subgraph_index]->context();
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CtxReleaseSubgraphContext(TfLiteContext* ctx, int subgraph_index) {
  Subgraph* self = Self(ctx);
  auto* all = self->shared_->subgraphs;
  if (all == nullptr || subgraph_index < 0 || static_cast<size_t>(subgraph_index) >= all->size()) {
    self->ReportError("ReleaseSubgraphContext: invalid subgraph index %d", subgraph_index);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace tflite_c

#include "src/core/subgraph.h"

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "src/core/model.h"
#include "src/core/op_resolver.h"
#include "src/core/operator_internal.h"
#include "src/core/tensor_util.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace {

// Room kept at the end of the tensor vector so that a kernel adding a few
// tensors does not invalidate TfLiteTensor pointers its caller still holds.
constexpr size_t kTensorHeadroom = 16;

bool IsArenaType(TfLiteAllocationType t) { return t == kTfLiteArenaRw; }

// The single-scale view in TfLiteTensor::params exists only for per-tensor
// quantization; per-channel tensors leave it zero, as upstream.
void SetLegacyQuantization(TfLiteTensor* t) {
  t->params = TfLiteQuantizationParams{0.0f, 0};
  if (t->quantization.type != kTfLiteAffineQuantization || t->quantization.params == nullptr) {
    return;
  }
  const auto* aq = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
  if (aq->scale != nullptr && aq->scale->size == 1 && aq->zero_point != nullptr &&
      aq->zero_point->size == 1) {
    t->params.scale = aq->scale->data[0];
    t->params.zero_point = aq->zero_point->data[0];
  }
}

}  // namespace

Subgraph::Subgraph(InterpreterShared* shared, int index)
    : shared_(shared), index_(index), context_profiler_(shared, index) {
  context_.impl_ = this;
  context_.ResizeTensor = CtxResizeTensor;
  context_.ReportError = CtxReportError;
  context_.AddTensors = CtxAddTensors;
  context_.GetNodeAndRegistration = CtxGetNodeAndRegistration;
  context_.ReplaceNodeSubsetsWithDelegateKernels = CtxReplaceNodeSubsets;
  context_.GetExecutionPlan = CtxGetExecutionPlan;
  context_.GetExternalContext = CtxGetExternalContext;
  context_.SetExternalContext = CtxSetExternalContext;
  context_.AllocatePersistentBuffer = CtxAllocatePersistentBuffer;
  context_.AllocateBufferForEval = CtxAllocateBufferForEval;
  context_.RequestScratchBufferInArena = CtxRequestScratchBuffer;
  context_.GetScratchBuffer = CtxGetScratchBuffer;
  context_.ResizeTensorExplicit = CtxResizeTensorExplicit;
  context_.PreviewDelegatePartitioning = CtxPreviewDelegatePartitioning;
  context_.GetTensor = CtxGetTensor;
  context_.GetEvalTensor = CtxGetEvalTensor;
  context_.GetModelMetadata = CtxGetModelMetadata;
  context_.AcquireSubgraphContext = CtxAcquireSubgraphContext;
  context_.ReleaseSubgraphContext = CtxReleaseSubgraphContext;
  context_.recommended_num_threads = -1;
  context_.allow_fp32_relax_to_fp16 = false;
  context_.tensors = nullptr;
  context_.tensors_size = 0;
  RefreshContextProfiler();
}

void Subgraph::RefreshContextProfiler() {
  context_.profiler = ActiveProfiler(shared_) != nullptr ? &context_profiler_ : nullptr;
}

Subgraph::~Subgraph() {
  ClearPreview();
  for (TfLiteTensor& t : tensors_) {
    if (t.buffer_handle != kTfLiteNullBufferHandle && t.delegate != nullptr &&
        t.delegate->FreeBufferHandle != nullptr) {
      t.delegate->FreeBufferHandle(&context_, t.delegate, &t.buffer_handle);
    }
  }
  for (auto& nr : nodes_) {
    TfLiteNode& node = nr.first;
    OpFree(nr.second, node.user_data);
    TfLiteIntArrayFree(node.inputs);
    TfLiteIntArrayFree(node.outputs);
    TfLiteIntArrayFree(node.intermediates);
    TfLiteIntArrayFree(node.temporaries);
    std::free(node.builtin_data);
  }
  for (TfLiteTensor& t : tensors_) {
    // Arena and read-only tensors do not own their data; TfLiteTensorFree
    // only releases heap data (dynamic / persistent read-only).
    if (t.allocation_type == kTfLiteArenaRw || t.allocation_type == kTfLiteArenaRwPersistent ||
        t.allocation_type == kTfLiteMmapRo) {
      t.data.raw = nullptr;
    }
    TfLiteTensorFree(&t);
  }
  for (void* p : persistent_buffers_) std::free(p);
  TfLiteIntArrayFree(plan_array_);
  for (TfLiteOperator* op : owned_operators_) delete op;
}

void Subgraph::ReportError(const char* format, ...) {
  va_list args;
  va_start(args, format);
  shared_->reporter->Report(format, args);
  va_end(args);
}

// ---------------------------------------------------------------------------
// Construction

void Subgraph::ReserveTensorHeadroom() {
  if (tensors_.capacity() < tensors_.size() + kTensorHeadroom) {
    tensors_.reserve(tensors_.size() + kTensorHeadroom * 4);
  }
  context_.tensors = tensors_.data();
  context_.tensors_size = tensors_.size();
}

TfLiteStatus Subgraph::AddTensors(int count, int* first_new_index) {
  if (count < 0 || static_cast<size_t>(count) > (1u << 28) - tensors_.size()) {
    ReportError("AddTensors: invalid tensor count %d", count);
    return kTfLiteError;
  }
  const size_t base = tensors_.size();
  tensors_.resize(base + count);
  for (size_t i = base; i < tensors_.size(); ++i) {
    TfLiteTensor& t = tensors_[i];
    std::memset(&t, 0, sizeof(t));
    t.buffer_handle = kTfLiteNullBufferHandle;
  }
  ReserveTensorHeadroom();
  lifetimes_valid_ = false;
  if (first_new_index != nullptr) *first_new_index = static_cast<int>(base);
  return kTfLiteOk;
}

TfLiteTensor* Subgraph::tensor(int index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const TfLiteTensor* Subgraph::tensor(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const std::pair<TfLiteNode, TfLiteRegistration>* Subgraph::node_and_registration(
    int node_index) const {
  if (node_index < 0 || static_cast<size_t>(node_index) >= nodes_.size()) return nullptr;
  return &nodes_[node_index];
}

TfLiteStatus Subgraph::SetTensorParametersReadOnly(int index, TfLiteType type, const char* name,
                                                   const std::vector<int>& dims,
                                                   TfLiteQuantization quantization,
                                                   const char* buffer, size_t bytes,
                                                   TfLiteSparsity* sparsity) {
  TfLiteTensor* t = tensor(index);
  if (t == nullptr) {
    TfLiteQuantizationFree(&quantization);
    TfLiteSparsityFree(sparsity);
    ReportError("SetTensorParametersReadOnly: tensor index %d out of range", index);
    return kTfLiteError;
  }
  // Sparse and variable-length tensors carry their own encoding, so the
  // dense size check only applies to plain fixed-size tensors.
  size_t required = 0;
  if (sparsity == nullptr && !IsHeapOnlyType(type) && type != kTfLiteInt4 &&
      BytesRequired(type, dims.data(), static_cast<int>(dims.size()), &required) &&
      bytes < required) {
    TfLiteQuantizationFree(&quantization);
    TfLiteSparsityFree(sparsity);
    ReportError("Tensor %d ('%s') has only %zu bytes of data but its shape needs %zu", index,
                name ? name : "", bytes, required);
    return kTfLiteError;
  }
  TfLiteTensorFree(t);
  t->type = type;
  t->name = name;
  t->dims = IntArrayFromVector(dims);
  t->dims_signature = nullptr;
  t->quantization = quantization;
  SetLegacyQuantization(t);
  t->sparsity = sparsity;
  t->data.raw = const_cast<char*>(buffer);
  t->bytes = bytes;
  t->allocation_type = kTfLiteMmapRo;
  t->is_variable = false;
  t->buffer_handle = kTfLiteNullBufferHandle;
  lifetimes_valid_ = false;
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetTensorParametersReadWrite(int index, TfLiteType type, const char* name,
                                                    const std::vector<int>& dims,
                                                    TfLiteQuantization quantization,
                                                    bool is_variable,
                                                    const std::vector<int>* dims_signature,
                                                    TfLiteSparsity* sparsity) {
  TfLiteTensor* t = tensor(index);
  if (t == nullptr) {
    TfLiteQuantizationFree(&quantization);
    TfLiteSparsityFree(sparsity);
    ReportError("SetTensorParametersReadWrite: tensor index %d out of range", index);
    return kTfLiteError;
  }
  size_t bytes = 0;
  if (!IsHeapOnlyType(type) &&
      !BytesRequired(type, dims.data(), static_cast<int>(dims.size()), &bytes)) {
    TfLiteQuantizationFree(&quantization);
    TfLiteSparsityFree(sparsity);
    ReportError("Tensor %d ('%s'): shape is invalid or its byte size overflows", index,
                name ? name : "");
    return kTfLiteError;
  }
  TfLiteTensorFree(t);
  t->type = type;
  t->name = name;
  t->dims = IntArrayFromVector(dims);
  t->dims_signature =
      (dims_signature != nullptr && !dims_signature->empty()) ? IntArrayFromVector(*dims_signature)
                                                               : nullptr;
  t->quantization = quantization;
  SetLegacyQuantization(t);
  t->sparsity = sparsity;
  t->data.raw = nullptr;
  t->bytes = bytes;
  t->is_variable = is_variable;
  t->buffer_handle = kTfLiteNullBufferHandle;
  if (IsHeapOnlyType(type)) {
    t->allocation_type = kTfLiteDynamic;
  } else if (is_variable) {
    t->allocation_type = kTfLiteArenaRwPersistent;
  } else {
    t->allocation_type = kTfLiteArenaRw;
  }
  lifetimes_valid_ = false;
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CheckTensorIndices(const char* what, const std::vector<int>& indices,
                                          bool allow_optional) {
  for (int i : indices) {
    if (allow_optional && i == kTfLiteOptionalTensor) continue;
    if (i < 0 || static_cast<size_t>(i) >= tensors_.size()) {
      ReportError("Invalid tensor index %d in %s (subgraph %d has %zu tensors)", i, what, index_,
                  tensors_.size());
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::AddNodeWithParameters(const std::vector<int>& inputs,
                                             const std::vector<int>& outputs,
                                             const std::vector<int>& intermediates,
                                             const char* init_data, size_t init_data_size,
                                             void* builtin_data,
                                             const TfLiteRegistration* registration,
                                             int* node_index) {
  if (registration == nullptr) {
    std::free(builtin_data);
    ReportError("AddNodeWithParameters: null registration");
    return kTfLiteError;
  }
  if (CheckTensorIndices("node inputs", inputs, true) != kTfLiteOk ||
      CheckTensorIndices("node outputs", outputs, true) != kTfLiteOk ||
      CheckTensorIndices("node intermediates", intermediates, false) != kTfLiteOk) {
    std::free(builtin_data);
    return kTfLiteError;
  }
  nodes_.emplace_back();
  const int new_index = static_cast<int>(nodes_.size() - 1);
  TfLiteNode& node = nodes_.back().first;
  std::memset(&node, 0, sizeof(node));
  node.inputs = IntArrayFromVector(inputs);
  node.outputs = IntArrayFromVector(outputs);
  node.intermediates = IntArrayFromVector(intermediates);
  node.temporaries = TfLiteIntArrayCreate(0);
  if (registration->builtin_code == kTfLiteBuiltinCustom) {
    node.custom_initial_data = init_data;
    node.custom_initial_data_size = static_cast<int>(init_data_size);
    node.builtin_data = nullptr;
    std::free(builtin_data);
    builtin_data = nullptr;
  } else {
    node.builtin_data = builtin_data;
  }
  nodes_.back().second = *registration;
  // Builtin kernels receive their parsed params through init's buffer, as upstream does.
  if (registration->builtin_code == kTfLiteBuiltinCustom) {
    node.user_data = OpInit(*registration, init_data, init_data_size);
  } else {
    node.user_data = OpInit(*registration, static_cast<const char*>(builtin_data), 0);
  }
  execution_plan_.push_back(new_index);
  lifetimes_valid_ = false;
  state_ = State::kUninvokable;
  next_to_prepare_ = 0;
  if (node_index != nullptr) *node_index = new_index;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetInputs(std::vector<int> inputs) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("subgraph inputs", inputs, true));
  inputs_ = std::move(inputs);
  lifetimes_valid_ = false;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetOutputs(std::vector<int> outputs) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("subgraph outputs", outputs, true));
  outputs_ = std::move(outputs);
  lifetimes_valid_ = false;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetVariables(std::vector<int> variables) {
  TF_LITE_ENSURE_OK(&context_, CheckTensorIndices("subgraph variables", variables, false));
  variables_ = std::move(variables);
  return kTfLiteOk;
}

// ---------------------------------------------------------------------------
// Memory planning

void Subgraph::ComputeLifetimes() {
  const int n = static_cast<int>(tensors_.size());
  const int end = static_cast<int>(execution_plan_.size());
  first_use_.assign(n, -1);
  last_use_.assign(n, -1);
  auto touch = [&](int t, int pos) {
    if (t < 0 || t >= n) return;
    if (first_use_[t] < 0 || pos < first_use_[t]) first_use_[t] = pos;
    if (pos > last_use_[t]) last_use_[t] = pos;
  };
  for (int t : inputs_) touch(t, 0);
  for (int t : variables_) touch(t, 0);
  for (int pos = 0; pos < end; ++pos) {
    const TfLiteNode& node = nodes_[execution_plan_[pos]].first;
    for (int i = 0; i < node.outputs->size; ++i) touch(node.outputs->data[i], pos);
    // An input nothing writes (not a graph input, variable or earlier
    // output) gets no memory, as upstream: Invoke then reports it as lacking
    // data instead of handing the kernel uninitialized bytes.
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t >= 0 && t < n && first_use_[t] >= 0) touch(t, pos);
    }
    for (int i = 0; i < node.intermediates->size; ++i) touch(node.intermediates->data[i], pos);
    // Temporaries are refreshed right before planning each batch.
    for (int i = 0; i < node.temporaries->size; ++i) touch(node.temporaries->data[i], pos);
  }
  // Inputs keep their values across Invoke (callers may run again on the
  // same input) and outputs stay readable after it returns: neither shares
  // memory with anything else.
  for (int t : inputs_) {
    if (t >= 0 && t < n) last_use_[t] = INT_MAX;
  }
  for (int t : outputs_) {
    if (t < 0 || t >= n) continue;
    if (first_use_[t] < 0) first_use_[t] = 0;
    last_use_[t] = INT_MAX;
  }
  lifetimes_valid_ = true;
}

void Subgraph::RefreshArenaPointers() {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    TfLiteTensor& t = tensors_[i];
    if (t.allocation_type == kTfLiteArenaRw) {
      t.data.raw = reinterpret_cast<char*>(arena_.Pointer({0, static_cast<int>(i)}));
    } else if (t.allocation_type == kTfLiteArenaRwPersistent) {
      t.data.raw = reinterpret_cast<char*>(persistent_arena_.Pointer({0, static_cast<int>(i)}));
    }
  }
}

TfLiteStatus Subgraph::PlanMemory(int first_pos, int last_pos) {
  // Temporaries may have changed in Prepare; lifetimes are cheap to redo.
  ComputeLifetimes();
  std::vector<ArenaPlanner::Request> requests;
  std::vector<ArenaPlanner::Request> persistent;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TfLiteTensor& t = tensors_[i];
    const ArenaPlanner::Key key{0, static_cast<int>(i)};
    if (t.allocation_type == kTfLiteArenaRwPersistent) {
      if (!persistent_arena_.IsPlaced(key)) persistent.push_back({key, t.bytes, 0, INT_MAX});
      continue;
    }
    if (!IsArenaType(t.allocation_type)) {
      arena_.Remove(key);
      continue;
    }
    const int first = first_use_[i];
    if (first < 0) continue;  // never used by this graph
    if (first < first_pos || first > last_pos) continue;
    requests.push_back({key, t.bytes, first, last_use_[i]});
  }
  for (size_t s = 0; s < scratch_.size(); ++s) {
    const Scratch& sc = scratch_[s];
    if (sc.pos < first_pos || sc.pos > last_pos) continue;
    requests.push_back({{1, static_cast<int>(s)}, sc.bytes, sc.pos, sc.pos});
  }
  arena_.Place(std::move(requests));
  bool moved = false;
  if (!arena_.Commit(&moved)) {
    ReportError("Failed to allocate %zu bytes of tensor arena", arena_.required_bytes());
    return kTfLiteError;
  }
  if (!persistent.empty()) {
    persistent_arena_.Place(std::move(persistent));
    bool pmoved = false;
    if (!persistent_arena_.Commit(&pmoved)) {
      ReportError("Failed to allocate %zu bytes for variable tensors",
                  persistent_arena_.required_bytes());
      return kTfLiteError;
    }
  }
  RefreshArenaPointers();
  return kTfLiteOk;
}

bool Subgraph::HasDynamicOutput(const TfLiteNode& node) const {
  for (int i = 0; i < node.outputs->size; ++i) {
    const int t = node.outputs->data[i];
    if (t < 0 || static_cast<size_t>(t) >= tensors_.size()) continue;
    if (tensors_[t].allocation_type == kTfLiteDynamic) return true;
  }
  return false;
}

TfLiteStatus Subgraph::PrepareFrom(int pos) {
  const int end = static_cast<int>(execution_plan_.size());
  arena_.ResetFrom(pos);
  // Scratch buffers of nodes about to be prepared again are requested anew.
  for (size_t s = 0; s < scratch_.size(); ++s) {
    if (scratch_[s].pos >= pos) {
      arena_.Remove({1, static_cast<int>(s)});
      scratch_[s].pos = -1;  // retired
    }
  }
  // Arena tensors first used from here on hold no valid data yet; clearing
  // their pointers keeps a kernel that switches one to dynamic from
  // reallocating arena memory.
  if (!lifetimes_valid_) ComputeLifetimes();
  for (size_t i = 0; i < tensors_.size() && i < first_use_.size(); ++i) {
    if (tensors_[i].allocation_type == kTfLiteArenaRw && first_use_[i] >= pos) {
      tensors_[i].data.raw = nullptr;
    }
  }
  int last = pos - 1;
  for (int p = pos; p < end; ++p) {
    const int node_index = execution_plan_[p];
    TfLiteNode& node = nodes_[node_index].first;
    const TfLiteRegistration& reg = nodes_[node_index].second;
    preparing_pos_ = p;
    const TfLiteStatus s = OpPrepare(reg, &node);
    preparing_pos_ = -1;
    if (s != kTfLiteOk) {
      ReportError("Node number %d (%s) failed to prepare.", node_index, OpName(reg));
      state_ = State::kUninvokable;
      return s == kTfLiteOutputShapeNotKnown ? kTfLiteError : s;
    }
    // A kernel may have added temporaries or tensors.
    if (CheckTensorIndices("node temporaries",
                           std::vector<int>(node.temporaries->data,
                                            node.temporaries->data + node.temporaries->size),
                           false) != kTfLiteOk) {
      state_ = State::kUninvokable;
      return kTfLiteError;
    }
    last = p;
    if (HasDynamicOutput(node)) break;
  }
  next_to_prepare_ = last + 1;
  if (last >= pos) return PlanMemory(pos, last);
  return kTfLiteOk;
}

TfLiteStatus Subgraph::AllocateTensors() {
  if (invoking_) {
    ReportError("AllocateTensors called during Invoke");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(RedoAllDelegates());
  // Nothing to re-plan when already invokable and no input is dynamic:
  // tensors (and variable values) stay as they are, as upstream.
  if (state_ == State::kInvokable) {
    bool dynamic_input = false;
    for (int t : inputs_) {
      if (t >= 0 && static_cast<size_t>(t) < tensors_.size() &&
          tensors_[t].allocation_type == kTfLiteDynamic) {
        dynamic_input = true;
      }
    }
    if (!dynamic_input) return kTfLiteOk;
  }
  // Profiled only when memory is planned, as upstream.
  ScopedRuntimeEvent event(shared_, "AllocateTensors", index_);
  state_ = State::kUninvokable;
  arena_.Clear();
  scratch_.clear();
  next_to_prepare_ = 0;
  // Non-persistent arena tensors lose their placement; give dynamic tensors
  // that were planned as arena tensors nothing special.
  for (TfLiteTensor& t : tensors_) {
    if (t.allocation_type == kTfLiteArenaRw) t.data.raw = nullptr;
  }
  TF_LITE_ENSURE_STATUS(PrepareFrom(0));
  if (execution_plan_.empty()) TF_LITE_ENSURE_STATUS(PlanMemory(0, 0));
  for (const auto& kv : custom_allocations_) {
    const TfLiteTensor& t = tensors_[kv.first];
    if (t.allocation_type == kTfLiteCustom && kv.second.bytes < t.bytes) {
      ReportError("Custom allocation is too small for tensor idx: %d (%zu < %zu bytes)", kv.first,
                  kv.second.bytes, t.bytes);
      return kTfLiteError;
    }
  }
  // Variables start from zero after every (re)allocation, as upstream does.
  TF_LITE_ENSURE_STATUS(ResetVariableTensors());
  state_ = State::kInvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ResetVariableTensors() {
  for (TfLiteTensor& t : tensors_) {
    if (!t.is_variable || t.data.raw == nullptr) continue;
    const int value = t.type == kTfLiteInt8 ? t.params.zero_point : 0;
    std::memset(t.data.raw, value, t.bytes);
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("ResizeInputTensor: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  for (int d : dims) {
    if (d < 0) {
      ReportError("ResizeInputTensor: negative dimension %d for tensor %d", d, tensor_index);
      return kTfLiteError;
    }
  }
  if (t->allocation_type == kTfLiteMmapRo) {
    ReportError("ResizeInputTensor: tensor %d is a constant", tensor_index);
    return kTfLiteError;
  }
  // Same shape and memory already there: nothing changes.
  if (t->data.raw != nullptr && t->dims != nullptr &&
      t->dims->size == static_cast<int>(dims.size()) &&
      std::equal(dims.begin(), dims.end(), t->dims->data)) {
    return kTfLiteOk;
  }
  TfLiteIntArray* new_size = IntArrayFromVector(dims);
  if (new_size == nullptr) return kTfLiteError;
  // A static-shape delegate planned for the old shapes: take it out; the next
  // AllocateTensors applies it again.
  if (immutable_) {
    const TfLiteStatus s = UndoAllDelegates();
    if (s != kTfLiteOk) {
      TfLiteIntArrayFree(new_size);
      return s;
    }
  }
  state_ = State::kUninvokable;
  return ResizeTensorImpl(t, new_size);
}

TfLiteStatus Subgraph::ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("ResizeInputTensorStrict: tensor index %d out of range", tensor_index);
    return kTfLiteError;
  }
  const TfLiteIntArray* sig = t->dims_signature ? t->dims_signature : t->dims;
  if (sig == nullptr || sig->size != static_cast<int>(dims.size())) {
    ReportError("ResizeInputTensorStrict: tensor %d has rank %d, got %zu dims", tensor_index,
                sig ? sig->size : 0, dims.size());
    return kTfLiteError;
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (sig->data[i] != -1 && sig->data[i] != dims[i]) {
      ReportError(
          "ResizeInputTensorStrict: dimension %zu of tensor %d is fixed at %d and cannot "
          "become %d (only -1 dimensions may change)",
          i, tensor_index, sig->data[i], dims[i]);
      return kTfLiteError;
    }
  }
  return ResizeInputTensor(tensor_index, dims);
}

TfLiteStatus Subgraph::SetCustomAllocationForTensor(int index,
                                                    const TfLiteCustomAllocation& allocation,
                                                    int64_t flags) {
  TfLiteTensor* t = tensor(index);
  if (t == nullptr) {
    ReportError("SetCustomAllocationForTensor: tensor index %d out of range", index);
    return kTfLiteError;
  }
  if (t->allocation_type != kTfLiteArenaRw && t->allocation_type != kTfLiteCustom &&
      t->allocation_type != kTfLitePersistentRo) {
    ReportError("SetCustomAllocationForTensor: tensor %d is not an arena tensor", index);
    return kTfLiteError;
  }
  if (allocation.data == nullptr) {
    ReportError("SetCustomAllocationForTensor: allocation data is NULL");
    return kTfLiteError;
  }
  if (!(flags & kTfLiteCustomAllocationFlagsSkipAlignCheck) &&
      reinterpret_cast<uintptr_t>(allocation.data) % ArenaPlanner::kAlignment != 0) {
    ReportError("Custom allocation is not aligned to %zu bytes for tensor %d",
                ArenaPlanner::kAlignment, index);
    return kTfLiteError;
  }
  if (t->allocation_type == kTfLitePersistentRo) TfLiteTensorDataFree(t);
  arena_.Remove({0, index});
  custom_allocations_[index] = allocation;
  t->allocation_type = kTfLiteCustom;
  t->data.raw = static_cast<char*>(allocation.data);
  state_ = State::kUninvokable;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ResizeTensorImpl(TfLiteTensor* t, TfLiteIntArray* new_size) {
  if (new_size == nullptr) return kTfLiteError;
  const TfLiteAllocationType at = t->allocation_type;
  if (at == kTfLiteMmapRo) {
    TfLiteIntArrayFree(new_size);
    ReportError("Cannot resize a read-only (constant) tensor");
    return kTfLiteError;
  }
  if (t->dims == nullptr || !TfLiteIntArrayEqual(t->dims, new_size)) {
    tensor_resized_since_op_invoke_ = true;
  }
  if (!IsHeapOnlyType(t->type)) {
    size_t bytes = 0;
    if (!BytesRequired(t->type, new_size->data, new_size->size, &bytes)) {
      TfLiteIntArrayFree(new_size);
      ReportError("ResizeTensor: invalid shape or byte size overflow for tensor '%s'",
                  t->name ? t->name : "");
      return kTfLiteError;
    }
    if (at == kTfLiteDynamic || at == kTfLitePersistentRo || at == kTfLiteCustom) {
      if (at != kTfLiteCustom) {
        if (TfLiteTensorResizeMaybeCopy(bytes, t, false) != kTfLiteOk && bytes > 0) {
          TfLiteIntArrayFree(new_size);
          ReportError("ResizeTensor: cannot allocate %zu bytes", bytes);
          return kTfLiteError;
        }
      } else {
        const int index = static_cast<int>(t - tensors_.data());
        auto it = custom_allocations_.find(index);
        if (it != custom_allocations_.end() && it->second.bytes < bytes) {
          TfLiteIntArrayFree(new_size);
          ReportError("Custom allocation is too small for tensor idx: %d (%zu < %zu bytes)",
                      index, it->second.bytes, bytes);
          return kTfLiteError;
        }
      }
    } else if (at == kTfLiteArenaRw || at == kTfLiteArenaRwPersistent) {
      if (invoking_ && preparing_pos_ < 0 && bytes != t->bytes) {
        TfLiteIntArrayFree(new_size);
        ReportError(
            "ResizeTensor: tensor '%s' lives in the arena and cannot change size during "
            "Invoke; a kernel must make it dynamic first",
            t->name ? t->name : "");
        return kTfLiteError;
      }
      if (bytes != t->bytes) {
        t->data.raw = nullptr;  // re-planned before use
        if (!invoking_) state_ = State::kUninvokable;
      }
    }
    t->bytes = bytes;
  }
  TfLiteIntArrayFree(t->dims);
  t->dims = new_size;
  return kTfLiteOk;
}

// ---------------------------------------------------------------------------
// Opaque API support

TfLiteStatus Subgraph::MarkSubgraphAsDelegationSkippable(int subgraph_index) {
  auto* all = shared_->subgraphs;
  if (all == nullptr || subgraph_index <= 0 ||
      static_cast<size_t>(subgraph_index) >= all->size()) {
    ReportError("MarkSubgraphAsDelegationSkippable: invalid subgraph index %d (the primary "
                "subgraph cannot be skipped)",
                subgraph_index);
    return kTfLiteError;
  }
  (*all)[subgraph_index]->MarkAsDelegationSkippable();
  return kTfLiteOk;
}

TfLiteStatus Subgraph::GetNodeInitDataMmapInfo(const TfLiteNode* node, int* fd,
                                               int64_t* custom_initial_data_offset_in_file,
                                               int64_t* custom_initial_data_size) const {
  const Model* model = shared_->model;
  if (model == nullptr || model->file_descriptor() < 0 || node == nullptr || fd == nullptr ||
      custom_initial_data_offset_in_file == nullptr || custom_initial_data_size == nullptr) {
    return kTfLiteError;
  }
  *fd = model->file_descriptor();
  const auto* data = static_cast<const uint8_t*>(node->custom_initial_data);
  if (data == nullptr) {
    *custom_initial_data_offset_in_file = -1;
    *custom_initial_data_size = -1;
    return kTfLiteOk;
  }
  // The whole file is mapped from offset 0, so a pointer into the mapping
  // gives the file offset directly.
  const uint8_t* begin = model->bytes();
  const size_t size = static_cast<size_t>(node->custom_initial_data_size);
  if (data < begin || static_cast<size_t>(data - begin) > model->size() ||
      size > model->size() - static_cast<size_t>(data - begin)) {
    return kTfLiteError;  // init data does not live in the model file
  }
  *custom_initial_data_offset_in_file = static_cast<int64_t>(data - begin);
  *custom_initial_data_size = static_cast<int64_t>(size);
  return kTfLiteOk;
}

void Subgraph::OperatorDeleter::operator()(TfLiteOperator* op) const { delete op; }

TfLiteOperator* Subgraph::OperatorForRegistration(const TfLiteRegistration& registration,
                                                  int node_index) {
  if (registration.registration_external != nullptr) return registration.registration_external;
  auto key = std::make_tuple(registration.builtin_code,
                             std::string(registration.custom_name ? registration.custom_name : ""),
                             registration.version);
  auto it = legacy_operators_.find(key);
  if (it != legacy_operators_.end()) return it->second.get();
  std::unique_ptr<TfLiteOperator, OperatorDeleter> op(new (std::nothrow) TfLiteOperator);
  if (op == nullptr) return nullptr;
  op->builtin_code = registration.builtin_code;
  if (registration.custom_name != nullptr) {
    op->custom_name_storage = registration.custom_name;
    op->custom_name = op->custom_name_storage.c_str();
  }
  op->version = registration.version;
  op->node_index = node_index;
  TfLiteOperator* raw = op.get();
  legacy_operators_.emplace(std::move(key), std::move(op));
  return raw;
}

void Subgraph::AdoptOperator(TfLiteOperator* op) {
  if (op == nullptr) return;
  for (const auto& entry : legacy_operators_) {
    if (entry.second.get() == op) return;  // already ours, cached separately
  }
  owned_operators_.insert(op);  // a set: adopting twice is harmless
}

}  // namespace tflite_c

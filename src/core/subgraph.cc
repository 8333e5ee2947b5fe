// Subgraph: construction and teardown (tensors, nodes, inputs/outputs) and
// the opaque API helpers. Memory planning and resizing live in
// subgraph_memory.cc, the node loop in subgraph_invoke.cc.
#include "src/core/subgraph.h"

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <new>

#include "src/core/exception_guard.h"
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
      GuardC(shared_->reporter, "delegate FreeBufferHandle",
             [&] { t.delegate->FreeBufferHandle(&context_, t.delegate, &t.buffer_handle); });
    }
  }
  for (size_t i = 0; i < nodes_.size(); ++i) CleanupNode(static_cast<int>(i));
  shared_->memory->Credit(arena_.committed_bytes() + persistent_arena_.committed_bytes());
  for (TfLiteTensor& t : tensors_) {
    // Arena and read-only tensors do not own their data; TfLiteTensorFree
    // only releases heap data (dynamic / persistent read-only).
    if (t.allocation_type == kTfLiteArenaRw || t.allocation_type == kTfLiteArenaRwPersistent ||
        t.allocation_type == kTfLiteMmapRo) {
      t.data.raw = nullptr;
    }
    TfLiteTensorFree(&t);
  }
  for (void* p : persistent_buffers_) internal::CountedFree(p);
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
  if (bytes > AllocationLimit()) {
    TfLiteQuantizationFree(&quantization);
    TfLiteSparsityFree(sparsity);
    ReportError("Tensor %d ('%s') would need %zu bytes, more than the allocation limit of %zu bytes",
                index, name ? name : "", bytes, AllocationLimit());
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
  // Ours from here on, also if something below throws (out of memory).
  std::unique_ptr<void, void (*)(void*)> owned_builtin_data(builtin_data, std::free);
  if (registration == nullptr) {
    ReportError("AddNodeWithParameters: null registration");
    return kTfLiteError;
  }
  if (CheckTensorIndices("node inputs", inputs, true) != kTfLiteOk ||
      CheckTensorIndices("node outputs", outputs, true) != kTfLiteOk ||
      CheckTensorIndices("node intermediates", intermediates, false) != kTfLiteOk) {
    return kTfLiteError;
  }
  nodes_.emplace_back();
  owned_builtin_data.release();  // the node (or the free below) owns it now
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
  const TfLiteStatus init_status =
      registration->builtin_code == kTfLiteBuiltinCustom
          ? OpInit(*registration, init_data, init_data_size, &node.user_data)
          : OpInit(*registration, static_cast<const char*>(builtin_data), 0, &node.user_data);
  if (init_status != kTfLiteOk) {  // init threw (reported): the node goes again
    CleanupNode(new_index, /*call_free=*/false);
    nodes_.pop_back();
    return init_status;
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
  // A set: adopting twice is harmless. Owned whatever happens, so an insert
  // that throws (out of memory) releases the operator before passing on.
  std::unique_ptr<TfLiteOperator, OperatorDeleter> pending(
      owned_operators_.count(op) != 0 ? nullptr : op);
  owned_operators_.insert(op);
  pending.release();
}

}  // namespace tflite_c

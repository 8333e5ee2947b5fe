// Subgraph: memory planning (tensor lifetimes, arena placement,
// PrepareFrom / AllocateTensors), input and tensor resizing, and custom
// allocations. Construction lives in subgraph.cc, the node loop in
// subgraph_invoke.cc.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>

#include "src/core/subgraph.h"
#include "src/core/tensor_util.h"

namespace tflite_c {
namespace {

bool IsArenaType(TfLiteAllocationType t) { return t == kTfLiteArenaRw; }

}  // namespace

size_t Subgraph::AllocationLimit() const { return shared_->memory->limit(); }

bool Subgraph::CommitArena(ArenaPlanner* arena, const char* what, bool* moved) {
  MemoryAccount& account = *shared_->memory.get();
  const size_t need = arena->required_bytes();
  const size_t have = arena->committed_bytes();
  if (need > have && !account.Fits(need - have)) {
    ReportError("The %s would need %zu bytes, more than the allocation limit of %zu bytes "
                "allows with the %zu bytes this interpreter already holds",
                what, need, account.limit(), account.used());
    return false;
  }
  const size_t room = account.limit() - std::min(account.limit(), account.used());
  if (!arena->Commit(moved, have + room)) {
    ReportError("Failed to allocate %zu bytes of %s", need, what);
    return false;
  }
  if (arena->committed_bytes() > have) account.Charge(arena->committed_bytes() - have);
  return true;
}

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
      // Placed once; again only when a resize made it larger than its slot.
      const auto& placed = persistent_arena_.placements();
      const auto it = placed.find(key);
      if (it == placed.end() || it->second.second.size < t.bytes) {
        persistent.push_back({key, t.bytes, 0, INT_MAX});
      }
      continue;
    }
    if (!IsArenaType(t.allocation_type)) {
      arena_.Remove(key);
      continue;
    }
    const int first = first_use_[i];
    if (first < 0) continue;  // never used by this graph
    if (first < first_pos) {
      // Placed with an earlier batch and possibly holding data already, so
      // it cannot move; a lazily prepared node must not have grown it
      // (structured_fuzzer: a subgraph input that is also a later node's
      // output grew from 192 to 65536 bytes and the node wrote past it).
      const auto& placed = arena_.placements();
      const auto it = placed.find(key);
      if (it != placed.end() && it->second.second.size < t.bytes) {
        ReportError("Tensor %zu (%s) grew to %zu bytes when node %d was prepared, but nodes "
                    "before it already use its %zu-byte buffer",
                    i, t.name != nullptr ? t.name : "unnamed", t.bytes,
                    first_pos < static_cast<int>(execution_plan_.size())
                        ? execution_plan_[first_pos]
                        : -1,
                    it->second.second.size);
        return kTfLiteError;
      }
      continue;
    }
    if (first > last_pos) continue;
    requests.push_back({key, t.bytes, first, last_use_[i]});
  }
  for (size_t s = 0; s < scratch_.size(); ++s) {
    const Scratch& sc = scratch_[s];
    if (sc.pos < first_pos || sc.pos > last_pos) continue;
    requests.push_back({{1, static_cast<int>(s)}, sc.bytes, sc.pos, sc.pos});
  }
  arena_.Place(std::move(requests));
  bool moved = false;
  if (!CommitArena(&arena_, "tensor arena", &moved)) return kTfLiteError;
  if (!persistent.empty()) {
    persistent_arena_.Place(std::move(persistent));
    bool pmoved = false;
    if (!CommitArena(&persistent_arena_, "arena for variable tensors", &pmoved)) {
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

std::vector<Subgraph::InPlaceTensor> Subgraph::InPlaceTensors(const TfLiteNode& node) const {
  std::vector<InPlaceTensor> found;
  if (node.inputs == nullptr || node.outputs == nullptr) return found;
  for (int o = 0; o < node.outputs->size; ++o) {
    const int t = node.outputs->data[o];
    if (t < 0 || static_cast<size_t>(t) >= tensors_.size()) continue;
    for (int i = 0; i < node.inputs->size; ++i) {
      if (node.inputs->data[i] != t) continue;
      const TfLiteTensor& tensor = tensors_[t];
      InPlaceTensor entry{t, {}, tensor.allocation_type};
      if (tensor.dims != nullptr) {
        entry.dims.assign(tensor.dims->data, tensor.dims->data + tensor.dims->size);
      }
      found.push_back(std::move(entry));
      break;
    }
  }
  return found;
}

TfLiteStatus Subgraph::CheckInPlaceShapes(int node_index, const TfLiteRegistration& reg,
                                          const std::vector<InPlaceTensor>& before) {
  for (const InPlaceTensor& b : before) {
    const TfLiteTensor& tensor = tensors_[b.index];
    const bool same_dims =
        tensor.dims != nullptr &&
        TfLiteIntArrayEqualsArray(tensor.dims, static_cast<int>(b.dims.size()), b.dims.data());
    const bool became_dynamic =
        tensor.allocation_type == kTfLiteDynamic && b.allocation_type != kTfLiteDynamic;
    if (!same_dims || became_dynamic) {
      ReportInPlaceChange(node_index, reg, b.index, became_dynamic);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

void Subgraph::ReportInPlaceChange(int node_index, const TfLiteRegistration& reg, int tensor,
                                   bool became_dynamic) {
  ReportError(
      "Node number %d (%s) reads and writes tensor %d in place, and its Prepare %s it; an "
      "operator may only update its input in place without changing its shape.",
      node_index, OpName(reg), tensor, became_dynamic ? "made dynamic" : "resized");
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
    const std::vector<InPlaceTensor> in_place = InPlaceTensors(node);
    if (!in_place.empty()) preparing_in_place_ = &in_place;
    TfLiteStatus s = OpPrepare(reg, &node);
    preparing_in_place_ = nullptr;
    preparing_pos_ = -1;
    if (s == kTfLiteOk && !in_place.empty()) s = CheckInPlaceShapes(node_index, reg, in_place);
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
  if (last < pos) return kTfLiteOk;
  const TfLiteStatus planned = PlanMemory(pos, last);
  // The tensors first used from `pos` on now hold no memory: no Invoke may
  // run them before AllocateTensors succeeds (signature_fuzzer: a second
  // runner invoked after a plan over the allocation limit failed mid-Invoke,
  // and MUL wrote through its output's null pointer).
  if (planned != kTfLiteOk) state_ = State::kUninvokable;
  return planned;
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
    if (!dynamic_input && !ConstantInputsChanged()) return kTfLiteOk;
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
  RecordPreparedConstants();
  state_ = State::kInvokable;
  return kTfLiteOk;
}

void Subgraph::PrivatizeConstants(const std::vector<int>& tensors) {
  constexpr size_t kAlign = 16;
  auto round_up = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  // A tensor listed twice (a subgraph input that is also a signature input)
  // gets one copy.
  std::vector<int> constants;
  size_t total = 0;
  for (int i : tensors) {
    const TfLiteTensor* t = tensor(i);
    if (t == nullptr || t->allocation_type != kTfLiteMmapRo ||
        std::find(constants.begin(), constants.end(), i) != constants.end()) {
      continue;
    }
    constants.push_back(i);
    total += round_up(t->bytes);
  }
  if (total == 0) return;
  constant_copies_.assign(2 * total, 0);
  size_t at = 0;
  for (int i : constants) {
    TfLiteTensor* t = tensor(i);
    char* copy = constant_copies_.data() + at;
    if (t->bytes > 0) std::memcpy(copy, t->data.raw, t->bytes);
    t->data.raw = copy;
    at += round_up(t->bytes);
  }
  RecordPreparedConstants();
}

void Subgraph::RecordPreparedConstants() {
  const size_t half = constant_copies_.size() / 2;
  if (half > 0) std::memcpy(constant_copies_.data() + half, constant_copies_.data(), half);
}

bool Subgraph::ConstantInputsChanged() const {
  const size_t half = constant_copies_.size() / 2;
  return half > 0 && std::memcmp(constant_copies_.data(), constant_copies_.data() + half, half) != 0;
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
      TfLiteIntArrayEqualsArray(t->dims, static_cast<int>(dims.size()), dims.data())) {
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
    if (bytes > AllocationLimit()) {
      TfLiteIntArrayFree(new_size);
      ReportError("ResizeTensor: tensor '%s' would need %zu bytes, more than the allocation limit "
                  "of %zu bytes", t->name ? t->name : "", bytes, AllocationLimit());
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

}  // namespace tflite_c

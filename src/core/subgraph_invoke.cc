// Subgraph execution: kernel callback dispatch (legacy registrations and
// TfLiteOperator callbacks) and the node loop of Invoke. Construction lives
// in subgraph.cc, memory planning and resizing in subgraph_memory.cc.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "src/core/exception_guard.h"
#include "src/core/op_resolver.h"
#include "src/core/operator_internal.h"
#include "src/core/subgraph.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace {

TfLiteOpaqueContext* Opaque(TfLiteContext* c) { return reinterpret_cast<TfLiteOpaqueContext*>(c); }
TfLiteOpaqueNode* Opaque(TfLiteNode* n) { return reinterpret_cast<TfLiteOpaqueNode*>(n); }

TfLiteStatus UnresolvedOpInvoke(TfLiteContext* ctx, TfLiteNode*) {
  ctx->ReportError(ctx, "Encountered unresolved custom op.");
  return kTfLiteError;
}

bool IsUnresolvedCustomOp(const TfLiteRegistration& r) {
  return r.builtin_code == kTfLiteBuiltinCustom && r.invoke == &UnresolvedOpInvoke;
}

}  // namespace

TfLiteRegistration Subgraph::UnresolvedCustomOpRegistration(const char* name) {
  TfLiteRegistration r{};
  r.invoke = &UnresolvedOpInvoke;
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = name;
  r.version = 1;
  return r;
}

// ---------------------------------------------------------------------------
// Kernel dispatch

// Every call into a kernel's (or TfLiteOperator's) callbacks goes through
// GuardC: an exception thrown by one (std::bad_alloc from a scratch buffer
// included) becomes an error naming the op and node, never an abort.
// Kernels run with the interpreter's memory account current, so their
// ScratchVector members count against its limit (src/core/memory_budget.h);
// at the limit they throw a std::bad_alloc whose what() names it.

const char* Subgraph::DescribeNode(const char* callback, const TfLiteRegistration& r,
                                   const TfLiteNode* node, char* buffer, size_t size) const {
  int index = -1;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (&nodes_[i].first == node) index = static_cast<int>(i);
  }
  if (index >= 0) {
    std::snprintf(buffer, size, "%s of node %d (%s)", callback, index, OpName(r));
  } else {
    std::snprintf(buffer, size, "%s of %s", callback, OpName(r));
  }
  return buffer;
}

TfLiteStatus Subgraph::OpInit(const TfLiteRegistration& r, const char* buffer, size_t length,
                              void** user_data) {
  ScopedMemoryAccount account(shared_->memory.get());
  *user_data = nullptr;
  auto where = [&](char* b, size_t n) { return DescribeNode("init", r, nullptr, b, n); };
  return GuardC(shared_->reporter, where, kTfLiteError, [&] {
    const TfLiteOperator* op = r.registration_external;
    if (op != nullptr && op->init_with_data != nullptr) {
      *user_data = op->init_with_data(op->user_data, Opaque(&context_), buffer, length);
    } else if (op != nullptr && op->init != nullptr) {
      *user_data = op->init(Opaque(&context_), buffer, length);
    } else if (r.init != nullptr) {
      *user_data = r.init(&context_, buffer, length);
    }
    return kTfLiteOk;
  });
}

void Subgraph::OpFree(const TfLiteRegistration& r, void* data) {
  ScopedMemoryAccount account(shared_->memory.get());
  auto where = [&](char* b, size_t n) { return DescribeNode("free", r, nullptr, b, n); };
  GuardC(shared_->reporter, where, [&] {
    const TfLiteOperator* op = r.registration_external;
    if (op != nullptr && (op->free != nullptr || op->free_with_data != nullptr)) {
      if (op->free_with_data) {
        op->free_with_data(op->user_data, Opaque(&context_), data);
      } else {
        op->free(Opaque(&context_), data);
      }
      return;
    }
    if (r.free) r.free(&context_, data);
  });
}

TfLiteStatus Subgraph::OpPrepare(const TfLiteRegistration& r, TfLiteNode* node) {
  if (IsUnresolvedCustomOp(r)) {
    const char* name = r.custom_name ? r.custom_name : "";
    if (std::strncmp(name, "Flex", 4) == 0) {
      ReportError(
          "Select TensorFlow op(s), included in the given model, is(are) not supported by "
          "this interpreter (custom op %s). tflite-c has no Flex delegate.",
          name);
    } else {
      ReportError(
          "Encountered unresolved custom op: %s. Register it with "
          "TfLiteInterpreterOptionsAddCustomOp or TfLiteInterpreterOptionsAddOperator.",
          name);
    }
    return kTfLiteUnresolvedOps;
  }
  ScopedMemoryAccount account(shared_->memory.get());
  auto where = [&](char* b, size_t n) { return DescribeNode("prepare", r, node, b, n); };
  return GuardC(shared_->reporter, where, kTfLiteError, [&] {
    const TfLiteOperator* op = r.registration_external;
    if (op != nullptr && (op->prepare != nullptr || op->prepare_with_data != nullptr)) {
      if (op->prepare_with_data) {
        return op->prepare_with_data(op->user_data, Opaque(&context_), Opaque(node));
      }
      return op->prepare(Opaque(&context_), Opaque(node));
    }
    if (r.prepare) return r.prepare(&context_, node);
    return kTfLiteOk;
  });
}

TfLiteStatus Subgraph::OpInvoke(const TfLiteRegistration& r, TfLiteNode* node) {
  ScopedMemoryAccount account(shared_->memory.get());
  ScopedWorkerPool workers(&shared_->workers);
  auto where = [&](char* b, size_t n) { return DescribeNode("invoke", r, node, b, n); };
  return GuardC(shared_->reporter, where, kTfLiteError, [&] {
    const TfLiteOperator* op = r.registration_external;
    if (op != nullptr && (op->invoke != nullptr || op->invoke_with_data != nullptr)) {
      if (op->invoke_with_data) {
        return op->invoke_with_data(op->user_data, Opaque(&context_), Opaque(node));
      }
      return op->invoke(Opaque(&context_), Opaque(node));
    }
    if (r.invoke) return r.invoke(&context_, node);
    ReportError("Node has no invoke function");
    return kTfLiteError;
  });
}

const char* Subgraph::OpName(const TfLiteRegistration& r) const {
  if (r.custom_name != nullptr) return r.custom_name;
  if (r.registration_external != nullptr && r.registration_external->custom_name != nullptr) {
    return r.registration_external->custom_name;
  }
  return BuiltinOperatorName(r.builtin_code);
}

// ---------------------------------------------------------------------------
// Running

TfLiteStatus Subgraph::Invoke() {
  TfLiteStatus status;
  {
    ScopedRuntimeEvent event(shared_, "Invoke", index_);
    status = InvokeNodes();
  }
  if (tflite::Profiler* profiler = ActiveProfiler(shared_)) {
    // Upstream's telemetry status code: the source (1 = the interpreter) in
    // the high 32 bits, the status in the low ones; metadata -1: no op.
    constexpr uint64_t kInterpreterSource = 1;
    profiler->AddEvent("Invoke", ProfileEventType::TELEMETRY_EVENT,
                       kInterpreterSource << 32 | static_cast<uint32_t>(status), -1, index_);
  }
  return status;
}

TfLiteStatus Subgraph::InvokeNodes() {
  if (state_ != State::kInvokable) {
    ReportError("Invoke called on model that is not ready.");
    return kTfLiteError;
  }
  if (invoking_) {
    ReportError("Invoke called recursively on subgraph %d", index_);
    return kTfLiteError;
  }
  if (ConstantInputsChanged()) {
    ReportError(
        "Subgraph %d: an input that is a constant of the model was changed after "
        "AllocateTensors; call AllocateTensors again before Invoke",
        index_);
    return kTfLiteError;
  }
  invoking_ = true;
  struct Guard {
    bool* flag;
    ~Guard() { *flag = false; }
  } guard{&invoking_};

  const int end = static_cast<int>(execution_plan_.size());
  for (int pos = 0; pos < end; ++pos) {
    if (pos >= next_to_prepare_) {
      const TfLiteStatus s = PrepareFrom(pos);
      if (s != kTfLiteOk) return s;
    }
    const int node_index = execution_plan_[pos];
    TfLiteNode& node = nodes_[node_index].first;
    const TfLiteRegistration& reg = nodes_[node_index].second;

    for (int i = 0; i < node.inputs->size; ++i) {
      const int ti = node.inputs->data[i];
      if (ti == kTfLiteOptionalTensor) continue;
      if (tensors_[ti].delegate != nullptr && tensors_[ti].delegate != node.delegate &&
          tensors_[ti].data_is_stale) {
        TF_LITE_ENSURE_STATUS(EnsureTensorDataIsReadable(ti));
      }
      const TfLiteTensor& t = tensors_[ti];
      if (t.data.raw == nullptr && t.bytes > 0 && t.allocation_type != kTfLiteNonCpu) {
        // RESHAPE's shape input may be a placeholder that carries no data.
        if (reg.builtin_code == kTfLiteBuiltinReshape && i == 1) continue;
        ReportError("Input tensor %d lacks data", ti);
        return kTfLiteError;
      }
    }

    if (shared_->cancellation_enabled && !shared_->continue_invocation.test_and_set()) {
      ReportError("Client requested cancel during Invoke()");
      return kTfLiteCancelled;
    }

    tensor_resized_since_op_invoke_ = false;
    // A delegate that profiles its own operators
    // (kTfLiteDelegateFlagsPerOperatorProfiling) reports them instead of its
    // node being timed as a whole.
    tflite::Profiler* profiler = ActiveProfiler(shared_);
    if (profiler != nullptr && node.delegate != nullptr &&
        (node.delegate->flags & kTfLiteDelegateFlagsPerOperatorProfiling) != 0) {
      profiler = nullptr;
    }
    const uint32_t event =
        profiler != nullptr
            ? profiler->BeginEvent(OpName(reg), ProfileEventType::OPERATOR_INVOKE_EVENT,
                                   node_index, index_)
            : 0;
    const TfLiteStatus s = OpInvoke(reg, &node);
    if (profiler != nullptr) profiler->EndEvent(event);
    if (s != kTfLiteOk) {
      ReportError("Node number %d (%s) failed to invoke.", node_index, OpName(reg));
      return s == kTfLiteCancelled ? s : kTfLiteError;
    }
    if (tensor_resized_since_op_invoke_ && HasDynamicOutput(node)) {
      // Downstream shapes may have changed: their Prepare and memory plan
      // are redone before they run.
      next_to_prepare_ = std::min(next_to_prepare_, pos + 1);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::Cancel() {
  if (!shared_->cancellation_enabled) return kTfLiteError;
  shared_->continue_invocation.clear();
  return kTfLiteOk;
}

}  // namespace tflite_c

// Semantic checks of a verified model; see model_checker.h.
//
// Upstream splits these between FlatBufferModel (flatbuffer structure only)
// and InterpreterBuilder (everything semantic). We reject a bad model at
// creation instead, so that the interpreter builder, kernels and C API may
// index the flatbuffer without re-checking. Messages follow upstream's
// wording where upstream has one.
#include "src/core/model_checker.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <vector>

#include "src/core/model.h"

namespace tflite_c {
namespace {

constexpr uint32_t kSupportedSchemaVersion = 3;

// Semantic validation of an already flatbuffer-verified model. Every check
// reports one message naming the offending subgraph/tensor/operator.
class ModelChecker {
 public:
  ModelChecker(const Model& model, ErrorReporter* reporter)
      : model_(model), fb_(*model.fb()), reporter_(reporter) {}

  bool Check() {
    if (fb_.version() != kSupportedSchemaVersion) {
      return Reject(reporter_,
                    "Model provided is schema version %u not equal to supported version %u.",
                    fb_.version(), kSupportedSchemaVersion);
    }
    if (fb_.subgraphs() == nullptr || fb_.subgraphs()->size() == 0) {
      return Reject(reporter_, "No subgraph in the model.");
    }
    if (fb_.buffers() == nullptr) return Reject(reporter_, "No buffers in the model.");
    num_subgraphs_ = fb_.subgraphs()->size();
    if (!CheckBuffers() || !CheckOperatorCodes()) return false;
    for (uint32_t i = 0; i < num_subgraphs_; ++i) {
      if (!CheckSubgraph(i)) return false;
    }
    return CheckSignatures();
  }

 private:
  bool CheckBuffers() {
    const auto& buffers = *fb_.buffers();
    for (uint32_t i = 0; i < buffers.size(); ++i) {
      const tflite::Buffer& buffer = *buffers.Get(i);
      if (HasExternalRange(buffer) && !RangeInside(buffer.offset(), buffer.size(), model_.size())) {
        return Reject(reporter_,
                      "Buffer %u specifies an out of range offset: %llu bytes at offset %llu, "
                      "but the model file has %zu bytes.",
                      i, static_cast<unsigned long long>(buffer.size()),
                      static_cast<unsigned long long>(buffer.offset()), model_.size());
      }
    }
    return true;
  }

  bool CheckOperatorCodes() {
    const auto* codes = fb_.operator_codes();
    if (codes == nullptr) return true;
    for (uint32_t i = 0; i < codes->size(); ++i) {
      const tflite::OperatorCode& code = *codes->Get(i);
      // Old models carry only the int8 field; newer ones set it to a
      // placeholder (127) and store the real code in builtin_code.
      const int32_t builtin =
          std::max<int32_t>(code.deprecated_builtin_code(), code.builtin_code());
      if (builtin < tflite::BuiltinOperator_MIN || builtin > tflite::BuiltinOperator_MAX) {
        return Reject(reporter_,
                      "Operator code %u has builtin code %d, which is out of range [%d, %d].", i,
                      builtin, static_cast<int>(tflite::BuiltinOperator_MIN),
                      static_cast<int>(tflite::BuiltinOperator_MAX));
      }
      if (builtin == tflite::BuiltinOperator_CUSTOM && code.custom_code() == nullptr) {
        return Reject(reporter_,
                      "Operator code %u: operator with CUSTOM builtin_code has no custom_code.", i);
      }
    }
    return true;
  }

  bool CheckSubgraph(uint32_t sg) {
    const tflite::SubGraph& subgraph = *fb_.subgraphs()->Get(sg);
    if (subgraph.tensors() == nullptr) {
      return Reject(reporter_, "Did not get tensors in subgraph %u.", sg);
    }
    const auto& tensors = *subgraph.tensors();
    const size_t num_tensors = tensors.size();
    for (uint32_t t = 0; t < num_tensors; ++t) {
      if (!CheckTensor(model_, sg, t, reporter_)) return false;
    }
    if (!CheckIndexList(sg, "input", subgraph.inputs(), num_tensors) ||
        !CheckIndexList(sg, "output", subgraph.outputs(), num_tensors)) {
      return false;
    }
    if (const auto* ops = subgraph.operators()) {
      std::vector<int64_t> producer(num_tensors, -1);
      for (uint32_t o = 0; o < ops->size(); ++o) {
        if (!CheckOperator(sg, o, *ops->Get(o), num_tensors) ||
            !CheckSingleProducer(sg, o, *ops->Get(o), &producer) ||
            !CheckOutputsWritable(sg, o, *ops->Get(o), tensors)) {
          return false;
        }
      }
      // Operators run in the order stored, so a valid graph is sorted: no
      // operator reads a tensor that a later operator writes (a use before
      // definition). With one producer per tensor this leaves no cycle of
      // two or more operators, since one of its edges would point backwards.
      // A cycle of one, an operator reading its own output, is allowed only
      // as an in-place update of a value that exists before the operator
      // runs: a subgraph input (upstream's add_shared_tensors test model
      // adds an input to itself in place) or a variable. The interpreter
      // then refuses any such operator whose Prepare changes that tensor's
      // shape (see Subgraph::PrepareFrom).
      std::vector<bool> holds_value(num_tensors, false);
      if (const auto* in = subgraph.inputs()) {
        for (uint32_t i = 0; i < in->size(); ++i) {
          holds_value[static_cast<size_t>(in->Get(i))] = true;
        }
      }
      for (uint32_t t = 0; t < num_tensors; ++t) {
        if (tensors.Get(t)->is_variable()) holds_value[t] = true;
      }
      for (uint32_t o = 0; o < ops->size(); ++o) {
        const auto* inputs = ops->Get(o)->inputs();
        if (inputs == nullptr) continue;
        for (uint32_t k = 0; k < inputs->size(); ++k) {
          const int32_t t = inputs->Get(k);
          if (t == kOptionalTensor) continue;
          const int64_t p = producer[static_cast<size_t>(t)];
          if (p == static_cast<int64_t>(o) && !holds_value[static_cast<size_t>(t)]) {
            return Reject(reporter_,
                          "Subgraph %u operator %u: input %u reads tensor %d, which is the "
                          "operator's own output (a graph cycle).",
                          sg, o, k, t);
          }
          if (p > static_cast<int64_t>(o)) {
            return Reject(reporter_,
                          "Subgraph %u operator %u: input %u reads tensor %d, which operator %lld "
                          "writes later (the operators are not in execution order).",
                          sg, o, k, t, static_cast<long long>(p));
          }
        }
      }
    }
    return true;
  }

  // A graph assigns each tensor once: no tensor is the output of two
  // operators. (Upstream does not check this; its delegates assume it, and
  // the XNNPACK delegate crashes on such graphs.) An operator may still write
  // one of its own inputs in place, as upstream's add_shared_tensors test
  // model does. Indices are already range-checked.
  bool CheckSingleProducer(uint32_t sg, uint32_t o, const tflite::Operator& op,
                           std::vector<int64_t>* producer) {
    if (op.outputs() == nullptr) return true;
    for (uint32_t i = 0; i < op.outputs()->size(); ++i) {
      const int32_t t = op.outputs()->Get(i);
      if (t == kOptionalTensor) continue;
      int64_t& p = (*producer)[static_cast<size_t>(t)];
      if (p >= 0) {
        return Reject(reporter_,
                      "Subgraph %u operator %u: output tensor %d is also an output of operator "
                      "%lld.",
                      sg, o, t, static_cast<long long>(p));
      }
      p = o;
    }
    return true;
  }

  // An operator writes its outputs, so none may be a constant: its data is
  // the model's (read-only when the file is mapped), and a kernel that folds
  // constants in Prepare would copy over its own input (a CONCATENATION
  // writing in place into a subgraph input that is also a constant; found by
  // structured_fuzzer as a memcpy overlap). Variables may carry an initial
  // value.
  bool CheckOutputsWritable(uint32_t sg, uint32_t o, const tflite::Operator& op,
                            const flatbuffers::Vector<flatbuffers::Offset<tflite::Tensor>>& tensors) {
    if (op.outputs() == nullptr) return true;
    for (uint32_t i = 0; i < op.outputs()->size(); ++i) {
      const int32_t t = op.outputs()->Get(i);
      if (t == kOptionalTensor) continue;
      const tflite::Tensor& tensor = *tensors.Get(static_cast<uint32_t>(t));
      const uint8_t* data = nullptr;
      size_t size = 0;
      if (!tensor.is_variable() && model_.GetTensorData(tensor, &data, &size) && size > 0) {
        return Reject(reporter_,
                      "Subgraph %u operator %u: output tensor %d is a constant (buffer %u holds "
                      "%zu bytes); an operator cannot write it.",
                      sg, o, t, tensor.buffer(), size);
      }
    }
    return true;
  }

  bool CheckIndexList(uint32_t sg, const char* what, const flatbuffers::Vector<int32_t>* list,
                      size_t num_tensors) {
    if (list == nullptr) return true;
    for (uint32_t i = 0; i < list->size(); ++i) {
      const int32_t index = list->Get(i);
      if (!IndexInRange(index, num_tensors)) {
        return Reject(reporter_,
                      "Subgraph %u %s %u refers to tensor %d; the subgraph has %zu tensors.", sg,
                      what, i, index, num_tensors);
      }
    }
    return true;
  }

  // ---- operators -------------------------------------------------------------

  bool CheckOperator(uint32_t sg, uint32_t o, const tflite::Operator& op, size_t num_tensors) {
    const uint32_t num_codes = fb_.operator_codes() ? fb_.operator_codes()->size() : 0;
    if (op.opcode_index() >= num_codes) {
      return Reject(reporter_,
                    "Subgraph %u operator %u: missing registration for opcode_index %u (the model "
                    "has %u operator codes).",
                    sg, o, op.opcode_index(), num_codes);
    }
    if (!CheckOperatorTensors(sg, o, "input", op.inputs(), num_tensors, true) ||
        !CheckOperatorTensors(sg, o, "output", op.outputs(), num_tensors, false) ||
        !CheckOperatorTensors(sg, o, "intermediate", op.intermediates(), num_tensors, false)) {
      return false;
    }
    if (op.custom_options() == nullptr && op.large_custom_options_offset() > 1 &&
        !RangeInside(op.large_custom_options_offset(), op.large_custom_options_size(),
                     model_.size())) {
      return Reject(reporter_,
                    "Subgraph %u operator %u: custom option offset for opcode_index %u is out of "
                    "bound.",
                    sg, o, op.opcode_index());
    }
    return CheckControlFlow(sg, o, op);
  }

  bool CheckOperatorTensors(uint32_t sg, uint32_t o, const char* what,
                            const flatbuffers::Vector<int32_t>* list, size_t num_tensors,
                            bool optional_allowed) {
    if (list == nullptr) return true;
    for (uint32_t i = 0; i < list->size(); ++i) {
      const int32_t index = list->Get(i);
      if (optional_allowed && index == kOptionalTensor) continue;
      if (!IndexInRange(index, num_tensors)) {
        return Reject(reporter_,
                      "Subgraph %u operator %u: invalid tensor index %d in %s %u. The subgraph has "
                      "%zu tensors.",
                      sg, o, index, what, i, num_tensors);
      }
    }
    return true;
  }

  // Subgraph indices stored in control-flow and StableHLO region options.
  bool CheckControlFlow(uint32_t sg, uint32_t o, const tflite::Operator& op) {
    if (const auto* w = op.builtin_options_as_WhileOptions()) {
      return CheckSubgraphRef(sg, o, "cond_subgraph_index", w->cond_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "body_subgraph_index", w->body_subgraph_index());
    }
    if (const auto* i = op.builtin_options_as_IfOptions()) {
      return CheckSubgraphRef(sg, o, "then_subgraph_index", i->then_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "else_subgraph_index", i->else_subgraph_index());
    }
    if (const auto* c = op.builtin_options_as_CallOnceOptions()) {
      return CheckSubgraphRef(sg, o, "init_subgraph_index", c->init_subgraph_index());
    }
    if (const auto* w = op.builtin_options_2_as_StablehloWhileOptions()) {
      return CheckSubgraphRef(sg, o, "cond_subgraph_index", w->cond_subgraph_index()) &&
             CheckSubgraphRef(sg, o, "body_subgraph_index", w->body_subgraph_index());
    }
    if (const auto* r = op.builtin_options_2_as_StablehloReduceOptions()) {
      return CheckSubgraphRef(sg, o, "body_subgraph_index", r->body_subgraph_index());
    }
    if (const auto* r = op.builtin_options_2_as_StablehloReduceWindowOptions()) {
      return CheckSubgraphRef(sg, o, "body_subgraph_index", r->body_subgraph_index());
    }
    if (const auto* s = op.builtin_options_2_as_StablehloSortOptions()) {
      return CheckSubgraphRef(sg, o, "comparator_subgraph_index", s->comparator_subgraph_index());
    }
    if (const auto* s = op.builtin_options_2_as_StablehloScatterOptions()) {
      return CheckSubgraphRef(sg, o, "update_computation_subgraph_index",
                              s->update_computation_subgraph_index());
    }
    if (const auto* c = op.builtin_options_2_as_StableHLOCompositeOptions()) {
      return CheckSubgraphRef(sg, o, "decomposition_subgraph_index",
                              c->decomposition_subgraph_index());
    }
    if (const auto* c = op.builtin_options_2_as_StablehloCaseOptions()) {
      if (const auto* branches = c->branch_subgraph_indices()) {
        for (uint32_t b = 0; b < branches->size(); ++b) {
          if (!CheckSubgraphRef(sg, o, "branch_subgraph_indices", branches->Get(b))) return false;
        }
      }
    }
    return true;
  }

  bool CheckSubgraphRef(uint32_t sg, uint32_t o, const char* field, int32_t index) {
    if (IndexInRange(index, num_subgraphs_)) return true;
    return Reject(reporter_,
                  "Subgraph %u operator %u: %s %d is out of range (the model has %u subgraphs).",
                  sg, o, field, index, num_subgraphs_);
  }

  // ---- signatures ------------------------------------------------------------

  bool CheckSignatures() {
    const auto* signatures = fb_.signature_defs();
    if (signatures == nullptr) return true;
    for (uint32_t s = 0; s < signatures->size(); ++s) {
      const tflite::SignatureDef& sig = *signatures->Get(s);
      if (sig.signature_key() == nullptr) {
        return Reject(reporter_, "SignatureDef %u: missing exported method name (signature_key).",
                      s);
      }
      if (sig.subgraph_index() >= num_subgraphs_) {
        return Reject(reporter_,
                      "SignatureDef %u ('%s'): subgraph_index %u is out of range (the model has %u "
                      "subgraphs).",
                      s, sig.signature_key()->c_str(), sig.subgraph_index(), num_subgraphs_);
      }
      const size_t num_tensors = fb_.subgraphs()->Get(sig.subgraph_index())->tensors()->size();
      if (!CheckTensorMap(s, sig, "input", sig.inputs(), num_tensors) ||
          !CheckTensorMap(s, sig, "output", sig.outputs(), num_tensors)) {
        return false;
      }
    }
    return true;
  }

  bool CheckTensorMap(uint32_t s, const tflite::SignatureDef& sig, const char* what,
                      const flatbuffers::Vector<flatbuffers::Offset<tflite::TensorMap>>* map,
                      size_t num_tensors) {
    if (map == nullptr) return true;
    for (uint32_t i = 0; i < map->size(); ++i) {
      const tflite::TensorMap& entry = *map->Get(i);
      if (entry.name() == nullptr) {
        return Reject(reporter_, "SignatureDef %u ('%s'): %s %u has no name.", s,
                      sig.signature_key()->c_str(), what, i);
      }
      if (entry.tensor_index() >= num_tensors) {
        return Reject(reporter_,
                      "SignatureDef %u ('%s'): %s '%s' refers to tensor %u; subgraph %u has %zu "
                      "tensors.",
                      s, sig.signature_key()->c_str(), what, entry.name()->c_str(),
                      entry.tensor_index(), sig.subgraph_index(), num_tensors);
      }
    }
    return true;
  }

  const Model& model_;
  const tflite::Model& fb_;
  ErrorReporter* reporter_;
  uint32_t num_subgraphs_ = 0;
};

}  // namespace

bool CheckModelSemantics(const Model& model, ErrorReporter* reporter) {
  return ModelChecker(model, reporter).Check();
}

bool Reject(ErrorReporter* reporter, const char* format, ...) {
  va_list args;
  va_start(args, format);
  reporter->Report(format, args);
  va_end(args);
  return false;
}

}  // namespace tflite_c

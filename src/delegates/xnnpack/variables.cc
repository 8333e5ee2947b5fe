// Resource variables of the XNNPACK delegate (variables.h).
#include "src/delegates/xnnpack/variables.h"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>

#include "src/core/subgraph_access.h"
#include "src/delegates/xnnpack/report.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace xnnpack {
namespace {

xnn_status DefineVariableValue(xnn_subgraph_t subgraph, const Delegate::Variable& v,
                               uint32_t external_id, uint32_t flags, uint32_t* id) {
  size_t dims[XNN_MAX_TENSOR_DIMS];
  for (size_t k = 0; k < v.dims.size(); ++k) dims[k] = static_cast<size_t>(v.dims[k]);
  if (v.type == kTfLiteFloat32) {
    return xnn_define_tensor_value(subgraph, xnn_datatype_fp32, v.dims.size(), dims, nullptr,
                                   external_id, flags, id);
  }
  return xnn_define_quantized_tensor_value(
      subgraph, v.type == kTfLiteInt8 ? xnn_datatype_qint8 : xnn_datatype_quint8, v.zero_point,
      v.scale, v.dims.size(), dims, nullptr, external_id, flags, id);
}

// The variable a READ_VARIABLE output / ASSIGN_VARIABLE value `t` implies:
// static shape, float32 or per-tensor QS8/QU8 (as the quantization flags allow).
bool VariableSpec(const TfLiteContext* context, const OpBuilder& checker, int t,
                  Delegate::Variable* v) {
  if (t < 0 || t >= static_cast<int>(context->tensors_size)) return false;
  const TfLiteTensor& x = context->tensors[t];
  // (Rank 0 may also mean "unknown shape" for a READ_VARIABLE output; such a
  // variable is taken only if every read and assign here says rank 0.)
  if (x.dims == nullptr || x.dims->size > XNN_MAX_TENSOR_DIMS) return false;
  if (x.type != kTfLiteFloat32 && x.type != kTfLiteInt8 && x.type != kTfLiteUInt8) return false;
  const xnn_datatype dt = checker.Datatype(t);
  if (dt != xnn_datatype_fp32 && dt != xnn_datatype_qint8 && dt != xnn_datatype_quint8)
    return false;
  if (x.allocation_type == kTfLiteDynamic) return false;
  size_t elements = 1;
  for (int k = 0; k < x.dims->size; ++k) {
    if (x.dims->data[k] <= 0) return false;
    if (x.dims_signature && x.dims_signature->size == x.dims->size &&
        x.dims_signature->data[k] < 0)
      return false;
    elements *= static_cast<size_t>(x.dims->data[k]);
  }
  v->type = x.type;
  v->dims.assign(x.dims->data, x.dims->data + x.dims->size);
  v->scale = x.type == kTfLiteFloat32 ? 0.0f : x.params.scale;
  v->zero_point = x.type == kTfLiteFloat32 ? 0 : x.params.zero_point;
  v->bytes = elements * (x.type == kTfLiteFloat32 ? sizeof(float) : 1);
  return true;
}

bool SameVariable(const Delegate::Variable& a, const Delegate::Variable& b) {
  return a.type == b.type && a.dims == b.dims && a.scale == b.scale &&
         a.zero_point == b.zero_point;
}

using VariableKey = std::pair<std::string, std::string>;  // (container, shared_name)

// How a subgraph uses the resource tensor of one of its VAR_HANDLE nodes:
// the READ_VARIABLE / ASSIGN_VARIABLE nodes reading it and the variable they
// agree on; `ok` is false if another node reads it or they disagree.
struct Use {
  VariableKey key;
  int handle = -1;
  std::vector<int> nodes;
  Delegate::Variable spec;
  bool has_spec = false;
  bool ok = true;
};

// The uses of `entries` (one subgraph), by resource tensor. `unpacked(t)`:
// tensor t becomes a static value of the delegate (fp16 / sparse weight),
// which a variable cannot be assigned from.
std::unordered_map<int, Use> FindUses(const TfLiteContext* context,
                                      const std::vector<Entry>& entries, const OpBuilder& checker,
                                      const std::function<bool(int)>& unpacked) {
  std::unordered_map<int, Use> uses;
  for (const Entry& e : entries) {
    if (e.reg->builtin_code != kTfLiteBuiltinVarHandle || e.node->outputs->size != 1 ||
        e.node->inputs->size != 0 || e.node->outputs->data[0] < 0)
      continue;
    const auto* p = static_cast<const TfLiteVarHandleParams*>(e.node->builtin_data);
    Use u;
    u.key.first = p && p->container ? p->container : "";
    u.key.second = p && p->shared_name ? p->shared_name : "";
    u.handle = e.index;
    uses[e.node->outputs->data[0]] = u;
  }
  if (uses.empty()) return uses;
  for (const Entry& e : entries) {
    for (int i = 0; i < e.node->inputs->size; ++i) {
      const int r = e.node->inputs->data[i];
      auto it = uses.find(r);
      if (it == uses.end()) continue;
      Use& u = it->second;
      const int code = e.reg->builtin_code;
      int value = -1;
      if (i == 0 && code == kTfLiteBuiltinReadVariable && e.node->inputs->size == 1 &&
          e.node->outputs->size == 1) {
        value = e.node->outputs->data[0];
      } else if (i == 0 && code == kTfLiteBuiltinAssignVariable && e.node->inputs->size == 2 &&
                 e.node->outputs->size == 0 && e.node->inputs->data[1] != r) {
        value = e.node->inputs->data[1];
      }
      Delegate::Variable spec;
      if (value < 0 || e.reg->registration_external != nullptr || unpacked(value) ||
          !VariableSpec(context, checker, value, &spec) ||
          (u.has_spec && !SameVariable(u.spec, spec))) {
        u.ok = false;
        continue;
      }
      u.spec = spec;
      u.has_spec = true;
      u.nodes.push_back(e.index);
    }
  }
  return uses;
}

// The nodes of `context`'s execution plan.
TfLiteStatus PlanEntries(TfLiteContext* context, std::vector<Entry>* entries) {
  TfLiteIntArray* plan = nullptr;
  TF_LITE_ENSURE_STATUS(context->GetExecutionPlan(context, &plan));
  for (int i = 0; i < plan->size; ++i) {
    Entry e{plan->data[i], nullptr, nullptr};
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, e.index, &e.node, &e.reg));
    entries->push_back(e);
  }
  return kTfLiteOk;
}

// Tensors another subgraph's DelegatePrepare may turn into static values: a
// superset of what it unpacks (every DENSIFY output, every DEQUANTIZE of a
// float16 tensor), so a variable is never taken here and refused there.
std::unordered_set<int> MaybeUnpacked(const TfLiteContext* context,
                                      const std::vector<Entry>& entries) {
  std::unordered_set<int> out;
  for (const Entry& e : entries) {
    const int code = e.reg->builtin_code;
    if (code != kTfLiteBuiltinDensify && code != kTfLiteBuiltinDequantize) continue;
    if (e.node->inputs->size < 1 || e.node->outputs->size < 1) continue;
    const int in = e.node->inputs->data[0];
    if (code == kTfLiteBuiltinDequantize &&
        (in < 0 || in >= static_cast<int>(context->tensors_size) ||
         context->tensors[in].type != kTfLiteFloat16))
      continue;
    for (int k = 0; k < e.node->outputs->size; ++k) out.insert(e.node->outputs->data[k]);
  }
  return out;
}

// Decides each variable `uses` (this subgraph's) names for the whole model:
// a variable some subgraph cannot delegate (a use refused, or subgraphs
// disagreeing on its type or shape) joins delegate->builtin_variables, so
// the builtin kernels run it in every subgraph, whichever is prepared first.
// Subgraphs already prepared by this delegate show only the variable nodes
// it left to the builtin kernels, which were refused then and are again.
TfLiteStatus RefuseModelWide(TfLiteContext* context, Delegate* delegate,
                             const std::unordered_map<int, Use>& uses) {
  struct ModelUse {
    bool ok = true;
    bool has_spec = false;
    Delegate::Variable spec;
  };
  std::map<VariableKey, ModelUse> model;
  auto merge = [&model](const Use& u) {
    auto it = model.find(u.key);
    if (it == model.end()) return;  // a variable this subgraph does not name
    ModelUse& m = it->second;
    if (!u.ok) {
      m.ok = false;
    } else if (u.has_spec) {
      if (m.has_spec && !SameVariable(m.spec, u.spec)) m.ok = false;
      m.spec = u.spec;
      m.has_spec = true;
    }
  };
  for (const auto& kv : uses) model[kv.second.key];
  for (const auto& kv : uses) merge(kv.second);
  const int self = SubgraphIndexOf(context);
  const int count =
      context->AcquireSubgraphContext != nullptr && context->ReleaseSubgraphContext != nullptr
          ? SubgraphCountOf(context)
          : 0;
  for (int i = 0; i < count; ++i) {
    if (i == self) continue;
    TfLiteContext* other = nullptr;
    TF_LITE_ENSURE_STATUS(context->AcquireSubgraphContext(context, i, &other));
    std::vector<Entry> entries;
    TfLiteStatus status = PlanEntries(other, &entries);
    if (status == kTfLiteOk) {
      const StaticMap no_statics;
      const OpBuilder checker(other, &no_statics, delegate->Quant(), nullptr, nullptr);
      const std::unordered_set<int> unpacked = MaybeUnpacked(other, entries);
      const auto other_uses = FindUses(other, entries, checker, [&unpacked](int t) {
        return unpacked.count(t) != 0;
      });
      for (const auto& kv : other_uses) merge(kv.second);
    }
    if (context->ReleaseSubgraphContext(context, i) != kTfLiteOk) status = kTfLiteError;
    TF_LITE_ENSURE_STATUS(status);
  }
  for (const auto& kv : model) {
    if (!kv.second.ok) delegate->builtin_variables.insert(kv.first);
  }
  return kTfLiteOk;
}

}  // namespace

bool IsVariableOp(int builtin_code) {
  return builtin_code == kTfLiteBuiltinVarHandle || builtin_code == kTfLiteBuiltinReadVariable ||
         builtin_code == kTfLiteBuiltinAssignVariable;
}

TfLiteStatus DefineVariableOp(TfLiteContext* context, const ResourceMap& resources, Kernel* kernel,
                              xnn_subgraph_t subgraph, int builtin_code, const TfLiteNode* node,
                              const std::vector<uint32_t>& ids, uint32_t* next_external,
                              std::unordered_map<const Delegate::Variable*, uint32_t>* current) {
  if (builtin_code == kTfLiteBuiltinVarHandle) return kTfLiteOk;
  const auto resource = resources.find(node->inputs->data[0]);
  if (resource == resources.end())
    return Report(context, "variable of tensor %d is unknown", node->inputs->data[0]);
  Delegate::Variable* v = resource->second;
  if (builtin_code == kTfLiteBuiltinReadVariable) {
    auto latest = current->find(v);
    uint32_t from;
    if (latest != current->end()) {
      from = latest->second;
    } else {
      const uint32_t ext = (*next_external)++;
      if (DefineVariableValue(subgraph, *v, ext, XNN_VALUE_FLAG_EXTERNAL_INPUT, &from) !=
          xnn_status_success)
        return Report(context, "cannot define a variable value");
      kernel->variable_reads.push_back({ext, v, {}});
      (*current)[v] = from;
    }
    if (xnn_define_copy(subgraph, from, ids[node->outputs->data[0]], 0) != xnn_status_success)
      return Report(context, "failed to define READ_VARIABLE");
    return kTfLiteOk;
  }
  const uint32_t ext = (*next_external)++;
  uint32_t to;
  if (DefineVariableValue(subgraph, *v, ext, XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &to) !=
          xnn_status_success ||
      xnn_define_copy(subgraph, ids[node->inputs->data[1]], to, 0) != xnn_status_success)
    return Report(context, "failed to define ASSIGN_VARIABLE");
  kernel->variable_writes.push_back({ext, v, std::vector<uint8_t>(v->data.size())});
  (*current)[v] = to;
  return kTfLiteOk;
}

TfLiteStatus ClaimVariables(TfLiteContext* context, Delegate* delegate,
                            const std::vector<Entry>& entries, const OpBuilder& checker,
                            const StaticMap& statics, std::vector<int>* claimed,
                            ResourceMap* resources) {
  std::unordered_map<int, Use> uses = FindUses(
      context, entries, checker, [&statics](int t) { return statics.count(t) != 0; });
  if (uses.empty()) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RefuseModelWide(context, delegate, uses));
  for (auto& kv : uses) {
    Use& u = kv.second;
    if (u.ok && !u.has_spec) continue;  // a handle nothing reads or assigns here
    auto known = delegate->variables.find(u.key);
    const bool good = u.ok && (known == delegate->variables.end() ||
                               SameVariable(known->second, u.spec));
    if (!good || delegate->builtin_variables.count(u.key)) {
      // RefuseModelWide makes this unreachable within one interpreter; a
      // delegate shared by interpreters may still get here.
      if (known != delegate->variables.end()) {
        Report(context,
               "variable '%s' is delegated in one subgraph but its operators in another are "
               "not supported",
               u.key.second.c_str());
        return kTfLiteDelegateError;
      }
      delegate->builtin_variables.insert(u.key);
      continue;
    }
    Delegate::Variable& v = delegate->variables[u.key];
    if (known == delegate->variables.end()) {
      v = u.spec;
      v.data.assign(v.bytes + XNN_EXTRA_BYTES, 0);
    }
    (*resources)[kv.first] = &v;
    claimed->push_back(u.handle);
    claimed->insert(claimed->end(), u.nodes.begin(), u.nodes.end());
  }
  return kTfLiteOk;
}

}  // namespace xnnpack
}  // namespace tflite_c

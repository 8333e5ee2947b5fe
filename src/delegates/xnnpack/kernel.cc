// The kernel of one XNNPACK partition (delegate_internal.h): Init builds an
// xnn_subgraph with one XNNPACK node per TFLite node (constant tensors become
// static values, so weights are packed once) and turns it into an
// xnn_runtime; Prepare reshapes the runtime when input shapes change and
// resizes the outputs; Invoke binds the tensors' memory and runs it.
#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xnnpack.h>

#include "src/delegates/xnnpack/delegate_internal.h"
#include "src/delegates/xnnpack/op_builder.h"
#include "src/delegates/xnnpack/pad_folding.h"
#include "src/delegates/xnnpack/profiling.h"
#include "src/delegates/xnnpack/variables.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {
namespace {

std::vector<int> DimsOf(const TfLiteTensor& t) {
  return t.dims ? std::vector<int>(t.dims->data, t.dims->data + t.dims->size) : std::vector<int>();
}

// Drops the nodes none of whose outputs is read by a later node of the
// partition or leaves it (a model can leave results unused, e.g. after an
// operator input was redirected). XNNPACK removes such a node itself but only
// one level deep: the producers of its inputs then name a removed node as
// their consumer and xnn_create_runtime aborts the process. Removing them here,
// repeatedly, keeps every remaining value consumed or external. Variable
// operators have side effects and are always kept.
void PruneDeadNodes(const std::vector<char>& is_output, std::vector<TfLiteNode*>* nodes,
                    std::vector<TfLiteRegistration*>* regs, std::vector<int>* node_ids) {
  std::unordered_map<int, int> readers;  // tensor -> nodes of the partition reading it
  for (const TfLiteNode* node : *nodes) {
    for (int k = 0; k < node->inputs->size; ++k) {
      if (node->inputs->data[k] >= 0) ++readers[node->inputs->data[k]];
    }
  }
  std::vector<char> dead(nodes->size(), 0);
  for (size_t i = nodes->size(); i-- > 0;) {  // readers come after producers
    const TfLiteNode* node = (*nodes)[i];
    if (IsVariableOp((*regs)[i]->builtin_code) || node->outputs->size == 0) continue;
    bool live = false;
    for (int k = 0; k < node->outputs->size && !live; ++k) {
      const int t = node->outputs->data[k];
      live = t >= 0 && (is_output[t] || readers[t] > 0);
    }
    if (live) continue;
    dead[i] = 1;
    for (int k = 0; k < node->inputs->size; ++k) {
      if (node->inputs->data[k] >= 0) --readers[node->inputs->data[k]];
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < nodes->size(); ++i) {
    if (dead[i]) continue;
    (*nodes)[kept] = (*nodes)[i];
    (*regs)[kept] = (*regs)[i];
    (*node_ids)[kept] = (*node_ids)[i];
    ++kept;
  }
  nodes->resize(kept);
  regs->resize(kept);
  node_ids->resize(kept);
}

}  // namespace

void* KernelInit(TfLiteContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  // Owned here until returned, so that nothing leaks if a step throws.
  auto kernel = std::make_unique<Kernel>();
  Delegate* delegate = FromTfLite(params->delegate);
  kernel->delegate = delegate;
  const StaticMap* pending = delegate->pending_static;

  // Which tensors become XNNPACK values, and in what role.
  std::vector<TfLiteNode*> nodes;
  std::vector<TfLiteRegistration*> regs;
  std::vector<int> node_ids;
  bool sparse_weights = false;  // a DENSIFY is among the nodes
  std::vector<char> used(context->tensors_size, 0);
  uint32_t variable_ops = 0;  // READ_VARIABLE / ASSIGN_VARIABLE nodes
  for (int i = 0; i < params->nodes_to_replace->size; ++i) {
    const int node_index = params->nodes_to_replace->data[i];
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk) {
      return kernel.release();
    }
    const bool unpacked_fp16 = reg->builtin_code == kTfLiteBuiltinDequantize && pending &&
                               node->outputs->size == 1 &&
                               pending->count(node->outputs->data[0]);
    if (unpacked_fp16) continue;  // its output is a static float32 value
    if (reg->builtin_code == kTfLiteBuiltinDensify) {  // done once (sparse_weights.cc)
      sparse_weights = true;
      continue;
    }
    nodes.push_back(node);
    regs.push_back(reg);
    node_ids.push_back(node_index);
    std::vector<int> ts;
    if (IsVariableOp(reg->builtin_code)) {
      // Only the value read or assigned; resource tensors are not values.
      if (reg->builtin_code == kTfLiteBuiltinReadVariable) ts.push_back(node->outputs->data[0]);
      if (reg->builtin_code == kTfLiteBuiltinAssignVariable) ts.push_back(node->inputs->data[1]);
      if (reg->builtin_code != kTfLiteBuiltinVarHandle) ++variable_ops;
    } else {
      OpBuilder::ValueTensors(reg->builtin_code, node, &ts);
    }
    for (int t : ts) used[t] = 1;
  }
  if (pending) {
    for (auto& kv : *pending) {
      if (used[kv.first]) kernel->statics.insert(kv);
    }
  }
  std::vector<char> is_input(context->tensors_size, 0), is_output(context->tensors_size, 0);
  for (int i = 0; i < params->input_tensors->size; ++i) {
    const int t = params->input_tensors->data[i];
    if (t >= 0) is_input[t] = 1;
  }
  for (int i = 0; i < params->output_tensors->size; ++i) {
    const int t = params->output_tensors->data[i];
    if (t < 0) continue;
    is_output[t] = 1;
    if (pending && pending->count(t)) kernel->static_outputs.emplace_back(t, pending->at(t));
  }

  PruneDeadNodes(is_output, &nodes, &regs, &node_ids);
  // Only what a node of the partition computes is an external output: a
  // graph output that is also a graph input (or a partition input) is not
  // written, and XNNPACK must not see a value external both ways.
  std::vector<char> produced(context->tensors_size, 0);
  for (const TfLiteNode* node : nodes) {
    for (int k = 0; k < node->outputs->size; ++k) {
      if (node->outputs->data[k] >= 0) produced[node->outputs->data[k]] = 1;
    }
  }
  for (size_t t = 0; t < context->tensors_size; ++t) {
    if (!produced[t]) is_output[t] = 0;
  }

  if (variable_ops == static_cast<uint32_t>(0) &&
      std::all_of(regs.begin(), regs.end(), [](const TfLiteRegistration* r) {
        return r->builtin_code == kTfLiteBuiltinVarHandle;
      }) && !regs.empty()) {
    kernel->ok = true;  // only VAR_HANDLE nodes: nothing to run
    return kernel.release();
  }
  // Spatial PADs whose only reader is a VALID CONV_2D / DEPTHWISE_CONV_2D of
  // this partition are folded into it (OpBuilder::FusedPad); the PAD node and
  // its output value are left out.
  std::unordered_map<int, OpBuilder::FusedPad> fused_pads;
  std::vector<char> folded(nodes.size(), 0);
  FoldPads(context, nodes, regs, is_output, &fused_pads, &folded);
  for (const auto& kv : fused_pads) used[kv.first] = 0;

  // External ids past the tensors' go to the variables' inputs and outputs.
  uint32_t next_external = static_cast<uint32_t>(context->tensors_size);
  xnn_subgraph_t subgraph = nullptr;
  if (xnn_create_subgraph(next_external + variable_ops, 0, &subgraph) !=
      xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_create_subgraph failed");
    return kernel.release();
  }
  std::unique_ptr<xnn_subgraph, xnn_status (*)(xnn_subgraph_t)> subgraph_owner(subgraph,
                                                                               xnn_delete_subgraph);
  std::vector<uint32_t> ids(context->tensors_size, XNN_INVALID_VALUE_ID);
  OpBuilder checker(context, &kernel->statics, delegate->Quant(), nullptr, nullptr);
  for (size_t t = 0; t < context->tensors_size; ++t) {
    if (!used[t]) continue;
    uint32_t external_id = XNN_INVALID_VALUE_ID, flags = 0;
    if (!checker.IsStatic(static_cast<int>(t))) {
      if (is_input[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_INPUT;
        kernel->external_inputs.push_back(static_cast<int>(t));
        kernel->input_ranks.push_back(context->tensors[t].dims ? context->tensors[t].dims->size : 0);
      }
      if (is_output[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        kernel->external_outputs.push_back(static_cast<int>(t));
      }
    }
    if (checker.DefineValue(subgraph, static_cast<int>(t), external_id, flags, &ids[t]) !=
        xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot define tensor %d", static_cast<int>(t));
      return kernel.release();
    }
  }
  OpBuilder builder(context, &kernel->statics, delegate->Quant(), subgraph, &ids);
  builder.SetPartition(params);
  builder.SetFusedPads(&fused_pads);
  builder.SetConstants(&kernel->constants);
  std::unordered_map<const Delegate::Variable*, uint32_t> current;  // its latest value id
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (IsVariableOp(regs[i]->builtin_code)) {
      if (DefineVariableOp(context, delegate, kernel.get(), subgraph, regs[i]->builtin_code,
                           nodes[i], ids, &next_external, &current) != kTfLiteOk)
        return kernel.release();
      continue;
    }
    if (folded[i]) continue;
    if (builder.Visit(node_ids[i], nodes[i], regs[i]) != kTfLiteOk) return kernel.release();
  }
  const xnn_status s =
      xnn_create_runtime_v4(subgraph, delegate->WeightsCache(), /*workspace=*/nullptr,
                            delegate->threadpool, delegate->RuntimeFlags(context) |
                                (sparse_weights ? XNN_FLAG_HINT_SPARSE_INFERENCE : 0),
                            &kernel->runtime);
  if (s != xnn_status_success) {
    if (delegate->ForceFp16() && s == xnn_status_unsupported_hardware) {
      context->ReportError(context,
                           "XNNPACK delegate: FORCE_FP16 is not supported on this CPU (it has "
                           "neither native nor emulated fp16 arithmetic)");
    } else if (delegate->ForceFp16() && s == xnn_status_unsupported_parameter) {
      context->ReportError(context,
                           "XNNPACK delegate: FORCE_FP16 is not supported for this partition "
                           "(XNNPACK cannot run all of its operators in fp16)");
    } else if (s == xnn_status_out_of_memory) {
      // Its allocations count against the interpreter's limit (allocator.h).
      context->ReportError(context,
                           "XNNPACK delegate: xnn_create_runtime ran out of memory (packed "
                           "weights past the allocation limit, or the system's memory)");
    } else {
      context->ReportError(context, "XNNPACK delegate: xnn_create_runtime failed (status %d)",
                           static_cast<int>(s));
    }
    kernel->runtime = nullptr;
    return kernel.release();
  }
  kernel->profiling = ProfilingRuntimeFlags(context) != 0;
  kernel->ok = true;
  return kernel.release();
}

void KernelFree(TfLiteContext*, void* buffer) { delete static_cast<Kernel*>(buffer); }

TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr || !kernel->ok) {
    context->ReportError(context, "XNNPACK delegate: the delegated subgraph could not be built");
    return kTfLiteError;
  }
  if (kernel->runtime == nullptr) return kTfLiteOk;  // VAR_HANDLE nodes only
  std::vector<std::vector<int>> dims;
  for (int t : kernel->external_inputs) dims.push_back(DimsOf(context->tensors[t]));
  if (kernel->reshaped && dims == kernel->input_dims) return kTfLiteOk;
  // From here until the end the runtime may be half reshaped (XNNPACK stops
  // at the first operator that refuses the shape): any early return must
  // leave `reshaped` false, so the next Prepare reshapes again even for the
  // last good shape.
  kernel->reshaped = false;

  for (size_t i = 0; i < kernel->external_inputs.size(); ++i) {
    // XNNPACK's reshape accepts another rank and its operators then read
    // out of bounds: the graph was defined for these ranks, a resize keeps them.
    // (Non-constant rank-0 inputs, whose shape may be unknown at definition,
    // are not delegated at all: OpBuilder::GoodShape.)
    if (static_cast<int>(dims[i].size()) != kernel->input_ranks[i]) {
      context->ReportError(context,
                           "XNNPACK delegate: input tensor %d was resized to rank %zu, the "
                           "delegated graph was built for rank %d",
                           kernel->external_inputs[i], dims[i].size(), kernel->input_ranks[i]);
      return kTfLiteError;
    }
    size_t d[XNN_MAX_TENSOR_DIMS];
    if (dims[i].size() > XNN_MAX_TENSOR_DIMS) return kTfLiteError;
    for (size_t k = 0; k < dims[i].size(); ++k) d[k] = static_cast<size_t>(dims[i][k]);
    if (xnn_reshape_external_value(kernel->runtime, kernel->external_inputs[i], dims[i].size(), d) !=
        xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot reshape input tensor %d",
                           kernel->external_inputs[i]);
      return kTfLiteError;
    }
  }
  if (const xnn_status s = xnn_reshape_runtime(kernel->runtime); s != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_reshape_runtime failed%s",
                         s == xnn_status_out_of_memory
                             ? " (out of memory: workspace past the allocation limit?)"
                             : "");
    return kTfLiteError;
  }
  for (int t : kernel->external_outputs) {
    size_t rank = 0, d[XNN_MAX_TENSOR_DIMS];
    if (xnn_get_external_value_shape(kernel->runtime, t, &rank, d) != xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: cannot get the shape of tensor %d", t);
      return kTfLiteError;
    }
    std::vector<int> shape(d, d + rank);
    if (shape == DimsOf(context->tensors[t])) continue;
    TfLiteIntArray* new_dims = TfLiteIntArrayCreate(static_cast<int>(rank));
    for (size_t k = 0; k < rank; ++k) new_dims->data[k] = static_cast<int>(d[k]);
    if (context->ResizeTensor(context, &context->tensors[t], new_dims) != kTfLiteOk)
      return kTfLiteError;
  }
  kernel->input_dims = std::move(dims);
  kernel->reshaped = true;
  xnn_weights_cache_t cache = ToXnn(kernel->delegate->options.weights_cache);
  kernel->reshaped_with_open_cache = cache != nullptr && !xnn_weights_cache_is_finalized(cache);
  return kTfLiteOk;
}

TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr || !kernel->ok) return kTfLiteError;
  if (kernel->runtime == nullptr) return kTfLiteOk;  // VAR_HANDLE nodes only
  xnn_weights_cache_t cache = ToXnn(kernel->delegate->options.weights_cache);
  if (cache != nullptr && !xnn_weights_cache_is_finalized(cache)) {
    context->ReportError(context,
                         "XNNPACK delegate: the weights cache must be finalized "
                         "(TfLiteXNNPackDelegateWeightsCacheFinalizeSoft/Hard) before inference");
    return kTfLiteError;
  }
  if (kernel->reshaped_with_open_cache) {
    if (xnn_reshape_runtime(kernel->runtime) != xnn_status_success) {
      kernel->reshaped = false;
      context->ReportError(context, "XNNPACK delegate: xnn_reshape_runtime failed");
      return kTfLiteError;
    }
    kernel->reshaped_with_open_cache = false;
  }
  std::vector<xnn_external_value>& values = kernel->values;  // reused: no allocation per run
  values.clear();
  for (int t : kernel->external_inputs)
    values.push_back({static_cast<uint32_t>(t), context->tensors[t].data.raw});
  for (int t : kernel->external_outputs)
    values.push_back({static_cast<uint32_t>(t), context->tensors[t].data.raw});
  for (auto& r : kernel->variable_reads) {
    if (!r.variable->assigned) {
      context->ReportError(context, "READ_VARIABLE: the variable has not been assigned");
      return kTfLiteError;
    }
    values.push_back({r.id, r.variable->data.data()});
  }
  for (auto& w : kernel->variable_writes) values.push_back({w.id, w.staging.data()});
  if (xnn_setup_runtime_v2(kernel->runtime, values.size(), values.data()) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_setup_runtime failed");
    return kTfLiteError;
  }
  if (xnn_invoke_runtime(kernel->runtime) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_invoke_runtime failed");
    return kTfLiteError;
  }
  if (kernel->profiling && ReportOperatorTimings(context, kernel->runtime) != kTfLiteOk) {
    context->ReportError(context, "XNNPACK delegate: failed to get XNNPACK profile information.");
  }
  for (auto& w : kernel->variable_writes) {  // in node order: the last assign wins
    std::memcpy(w.variable->data.data(), w.staging.data(), w.variable->bytes);
    w.variable->assigned = true;
  }
  for (auto& so : kernel->static_outputs) {
    TfLiteTensor& t = context->tensors[so.first];
    const size_t bytes = std::min(t.bytes, so.second->size() * sizeof(float));
    if (t.data.raw) std::memcpy(t.data.raw, so.second->data(), bytes);
  }
  return kTfLiteOk;
}

}  // namespace xnnpack
}  // namespace tflite_c

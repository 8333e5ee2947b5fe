// The kernel of one XNNPACK partition (delegate_internal.h): Init builds an
// xnn_subgraph with one XNNPACK node per TFLite node (constant tensors become
// static values, so weights are packed once) and turns it into an
// xnn_runtime; Prepare reshapes the runtime when input shapes change and
// resizes the outputs; Invoke binds the tensors' memory and runs it.
//
// Init (BuildKernel) in steps, each filling the PartitionPlan or the Kernel:
//   CollectNodes             the nodes to define, the tensors they use as values
//   KeepStatics              unpacked constants the kernel must keep alive
//   MarkInputsAndOutputs     the partition's boundary tensors
//   PruneDeadNodes           nodes whose results nothing reads
//   KeepOnlyComputedOutputs  outputs no node computes are not external
//   FoldPartitionPads        PADs folded into the convolution reading them
//   DefineValues             tensors -> XNNPACK values (external ones recorded)
//   DefineNodes              TFLite nodes -> XNNPACK nodes (OpBuilder, variables.h)
//   CreateRuntime            xnn_create_runtime, failures explained
//   DropPackedOnlyStatics    unpacked constants that only went into packed weights
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
#include "src/delegates/xnnpack/report.h"
#include "src/delegates/xnnpack/variables.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {
namespace {

std::vector<int> DimsOf(const TfLiteTensor& t) {
  return t.dims ? std::vector<int>(t.dims->data, t.dims->data + t.dims->size) : std::vector<int>();
}

// What a partition becomes in XNNPACK: the nodes it defines and the roles of
// their tensors. Filled step by step by the functions below.
struct PartitionPlan {
  std::vector<TfLiteNode*> nodes;  // in execution order
  std::vector<TfLiteRegistration*> regs;
  std::vector<int> node_ids;    // their node indices
  std::vector<char> used;       // tensor -> an XNNPACK value of some node
  std::vector<char> is_input;   // tensor -> read from before the partition
  std::vector<char> is_output;  // tensor -> computed here and read after the partition
  bool sparse_weights = false;  // a DENSIFY was among the nodes (sparse_weights.cc)
  uint32_t variable_ops = 0;    // READ_VARIABLE / ASSIGN_VARIABLE nodes
  // Spatial PADs folded into the VALID CONV_2D / DEPTHWISE_CONV_2D reading
  // them (OpBuilder::FusedPad): conv input -> PAD, and folded[i] for the PAD.
  std::unordered_map<int, OpBuilder::FusedPad> fused_pads;
  std::vector<char> folded;
};

// The tensors `node` reads or writes as XNNPACK values. Of a variable
// operator only the value read or assigned: resource tensors are not values.
std::vector<int> NodeValueTensors(const TfLiteNode& node, const TfLiteRegistration& reg) {
  std::vector<int> ts;
  if (reg.builtin_code == kTfLiteBuiltinReadVariable) {
    ts.push_back(node.outputs->data[0]);
  } else if (reg.builtin_code == kTfLiteBuiltinAssignVariable) {
    ts.push_back(node.inputs->data[1]);
  } else if (!IsVariableOp(reg.builtin_code)) {
    OpBuilder::ValueTensors(reg.builtin_code, &node, &ts);
  }
  return ts;
}

// The nodes of the partition XNNPACK defines, and the tensors they use as
// values. Left out: a DEQUANTIZE whose output is an unpacked constant
// (`statics`) and DENSIFY (done once at prepare, sparse_weights.cc).
TfLiteStatus CollectNodes(TfLiteContext* context, const TfLiteDelegateParams& params,
                          const StaticMap& statics, PartitionPlan* plan) {
  plan->used.assign(context->tensors_size, 0);
  for (int i = 0; i < params.nodes_to_replace->size; ++i) {
    const int node_index = params.nodes_to_replace->data[i];
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk)
      return kTfLiteError;
    const bool unpacked_fp16 = reg->builtin_code == kTfLiteBuiltinDequantize &&
                               node->outputs->size == 1 && statics.count(node->outputs->data[0]);
    if (unpacked_fp16) continue;  // its output is a static float32 value
    if (reg->builtin_code == kTfLiteBuiltinDensify) {
      plan->sparse_weights = true;
      continue;
    }
    plan->nodes.push_back(node);
    plan->regs.push_back(reg);
    plan->node_ids.push_back(node_index);
    if (reg->builtin_code == kTfLiteBuiltinReadVariable ||
        reg->builtin_code == kTfLiteBuiltinAssignVariable)
      ++plan->variable_ops;
    for (int t : NodeValueTensors(*node, *reg)) plan->used[t] = 1;
  }
  return kTfLiteOk;
}

// The unpacked constants the kernel keeps alive: those its values read, and
// those that are outputs of the partition (copied out at Invoke).
void KeepStatics(const TfLiteDelegateParams& params, const StaticMap& statics,
                 const PartitionPlan& plan, Kernel* kernel) {
  for (const auto& kv : statics) {
    if (plan.used[kv.first]) kernel->statics.insert(kv);
  }
  for (int i = 0; i < params.output_tensors->size; ++i) {
    const int t = params.output_tensors->data[i];
    const auto it = t >= 0 ? statics.find(t) : statics.end();
    if (it != statics.end()) kernel->static_outputs.emplace_back(t, it->second);
  }
}

// Whether XNNPACK copies input `k` of `reg` into packed weights when the
// runtime is created and never reads it again: the filters and biases of
// convolutions and fully connected layers.
bool PacksInput(const TfLiteRegistration& reg, int k) {
  switch (reg.builtin_code) {
    case kTfLiteBuiltinConv2d:
    case kTfLiteBuiltinDepthwiseConv2d:
    case kTfLiteBuiltinFullyConnected:
      return k == 1 || k == 2;
    case kTfLiteBuiltinTransposeConv:
      return k == 1 || k == 3;
    default:
      return false;
  }
}

// Once the runtime exists, the unpacked constants that only ever went into
// packed weights are dead weight: pose landmark lite kept 5.5 MB of fp16
// filters unpacked to float32 for the interpreter's lifetime. The kernel
// lets go of them (the delegate's own map goes when DelegatePrepare ends).
// Not with a shared XNNPACK in-memory weights cache: it names weights by
// address, and a freed buffer's address reused for another model's weights
// would find this model's packed ones.
void DropPackedOnlyStatics(const PartitionPlan& plan, Kernel* kernel) {
  if (kernel->delegate->options.weights_cache != nullptr || kernel->statics.empty()) return;
  std::unordered_map<int, bool> packed_only;  // static tensor -> every use packs it
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const TfLiteIntArray* inputs = plan.nodes[i]->inputs;
    for (int k = 0; k < inputs->size; ++k) {
      const int t = inputs->data[k];
      if (t < 0 || kernel->statics.count(t) == 0) continue;
      const bool packs = PacksInput(*plan.regs[i], k);
      auto it = packed_only.emplace(t, packs).first;
      it->second = it->second && packs;
    }
  }
  for (const auto& kv : packed_only) {
    if (kv.second) kernel->statics.erase(kv.first);
  }
}

// The partition's inputs, and its outputs as far as the partition's
// nodes compute them.
void MarkInputsAndOutputs(size_t tensor_count, const TfLiteDelegateParams& params,
                          PartitionPlan* plan) {
  plan->is_input.assign(tensor_count, 0);
  plan->is_output.assign(tensor_count, 0);
  for (int i = 0; i < params.input_tensors->size; ++i) {
    const int t = params.input_tensors->data[i];
    if (t >= 0) plan->is_input[t] = 1;
  }
  for (int i = 0; i < params.output_tensors->size; ++i) {
    const int t = params.output_tensors->data[i];
    if (t >= 0) plan->is_output[t] = 1;
  }
}

// Drops the nodes none of whose outputs is read by a later node of the
// partition or leaves it (a model can leave results unused, e.g. after an
// operator input was redirected). XNNPACK removes such a node itself but only
// one level deep: the producers of its inputs then name a removed node as
// their consumer and xnn_create_runtime aborts the process. Removing them here,
// repeatedly, keeps every remaining value consumed or external. Variable
// operators have side effects and are always kept.
void PruneDeadNodes(PartitionPlan* plan) {
  std::vector<TfLiteNode*>& nodes = plan->nodes;
  std::unordered_map<int, int> readers;  // tensor -> nodes of the partition reading it
  for (const TfLiteNode* node : nodes) {
    for (int k = 0; k < node->inputs->size; ++k) {
      if (node->inputs->data[k] >= 0) ++readers[node->inputs->data[k]];
    }
  }
  std::vector<char> dead(nodes.size(), 0);
  for (size_t i = nodes.size(); i-- > 0;) {  // readers come after producers
    const TfLiteNode* node = nodes[i];
    if (IsVariableOp(plan->regs[i]->builtin_code) || node->outputs->size == 0) continue;
    bool live = false;
    for (int k = 0; k < node->outputs->size && !live; ++k) {
      const int t = node->outputs->data[k];
      live = t >= 0 && (plan->is_output[t] || readers[t] > 0);
    }
    if (live) continue;
    dead[i] = 1;
    for (int k = 0; k < node->inputs->size; ++k) {
      if (node->inputs->data[k] >= 0) --readers[node->inputs->data[k]];
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (dead[i]) continue;
    nodes[kept] = nodes[i];
    plan->regs[kept] = plan->regs[i];
    plan->node_ids[kept] = plan->node_ids[i];
    ++kept;
  }
  nodes.resize(kept);
  plan->regs.resize(kept);
  plan->node_ids.resize(kept);
}

// Only what a node of the partition computes is an external output: a graph
// output that is also a graph input (or a partition input) is not written,
// and XNNPACK must not see a value external both ways.
void KeepOnlyComputedOutputs(PartitionPlan* plan) {
  std::vector<char> produced(plan->is_output.size(), 0);
  for (const TfLiteNode* node : plan->nodes) {
    for (int k = 0; k < node->outputs->size; ++k) {
      if (node->outputs->data[k] >= 0) produced[node->outputs->data[k]] = 1;
    }
  }
  for (size_t t = 0; t < produced.size(); ++t) {
    if (!produced[t]) plan->is_output[t] = 0;
  }
}

// A partition of VAR_HANDLE nodes only: nothing to run.
bool OnlyVariableHandles(const PartitionPlan& plan) {
  return plan.variable_ops == 0 && !plan.regs.empty() &&
         std::all_of(plan.regs.begin(), plan.regs.end(), [](const TfLiteRegistration* r) {
           return r->builtin_code == kTfLiteBuiltinVarHandle;
         });
}

// PADs folded into the convolution reading them (pad_folding.h): the PAD
// node and its output value are left out.
void FoldPartitionPads(const TfLiteContext* context, PartitionPlan* plan) {
  plan->folded.assign(plan->nodes.size(), 0);
  FoldPads(context, plan->nodes, plan->regs, plan->is_output, &plan->fused_pads, &plan->folded);
  for (const auto& kv : plan->fused_pads) plan->used[kv.first] = 0;
}

// The innermost dimension of partition input `t` that a resize must keep,
// or -1 when it is not checked: only a model input whose shape signature
// fixes it (a caller's ResizeInputTensor is where an inconsistent channel
// count comes from; a tensor computed by builtin kernels gets its shape from
// their shape inference, and a dimension the signature leaves open (-1) may
// legitimately change).
int CheckedInnermost(TfLiteContext* context, int t) {
  const TfLiteTensor& tensor = context->tensors[t];
  if (tensor.dims == nullptr || tensor.dims->size == 0) return -1;
  const int* inputs = nullptr;
  int count = 0;
  if (TfLiteOpaqueContextGetInputs(reinterpret_cast<TfLiteOpaqueContext*>(context), &inputs,
                                   &count) != kTfLiteOk ||
      std::find(inputs, inputs + count, t) == inputs + count) {
    return -1;
  }
  const TfLiteIntArray* sig = tensor.dims_signature;
  if (sig != nullptr && sig->size == tensor.dims->size && sig->data[sig->size - 1] < 0) return -1;
  return tensor.dims->data[tensor.dims->size - 1];
}

// Every used tensor becomes a value of `subgraph` (its id in `ids`, by
// tensor). Non-constant inputs and outputs of the partition are external
// values whose id is the tensor index; the kernel records them.
TfLiteStatus DefineValues(TfLiteContext* context, xnn_subgraph_t subgraph,
                          const PartitionPlan& plan, const OpBuilder& builder, Kernel* kernel,
                          std::vector<uint32_t>* ids) {
  ids->assign(context->tensors_size, XNN_INVALID_VALUE_ID);
  for (size_t t = 0; t < context->tensors_size; ++t) {
    if (!plan.used[t]) continue;
    uint32_t external_id = XNN_INVALID_VALUE_ID, flags = 0;
    if (!builder.IsStatic(static_cast<int>(t))) {
      if (plan.is_input[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_INPUT;
        kernel->external_inputs.push_back(static_cast<int>(t));
        const TfLiteIntArray* d = context->tensors[t].dims;
        kernel->input_ranks.push_back(d ? d->size : 0);
        kernel->input_innermost.push_back(CheckedInnermost(context, static_cast<int>(t)));
      }
      if (plan.is_output[t]) {
        external_id = static_cast<uint32_t>(t);
        flags |= XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        kernel->external_outputs.push_back(static_cast<int>(t));
      }
    }
    if (builder.DefineValue(subgraph, static_cast<int>(t), external_id, flags, &(*ids)[t]) !=
        xnn_status_success)
      return Report(context, "cannot define tensor %d", static_cast<int>(t));
  }
  return kTfLiteOk;
}

// One XNNPACK node per node of the plan (none for a folded PAD). Variables'
// values get the external ids after the tensors'.
TfLiteStatus DefineNodes(TfLiteContext* context, const PartitionPlan& plan,
                         const ResourceMap& resources, const std::vector<uint32_t>& ids,
                         xnn_subgraph_t subgraph, OpBuilder* builder, Kernel* kernel) {
  builder->SetFusedPads(&plan.fused_pads);
  uint32_t next_external = static_cast<uint32_t>(context->tensors_size);
  std::unordered_map<const Delegate::Variable*, uint32_t> current;  // its latest value id
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const int code = plan.regs[i]->builtin_code;
    if (IsVariableOp(code)) {
      TF_LITE_ENSURE_STATUS(DefineVariableOp(context, resources, kernel, subgraph, code,
                                             plan.nodes[i], ids, &next_external, &current));
    } else if (!plan.folded[i]) {
      TF_LITE_ENSURE_STATUS(builder->Visit(plan.node_ids[i], plan.nodes[i], plan.regs[i]));
    }
  }
  return kTfLiteOk;
}

// Why xnn_create_runtime refused, in the user's terms.
TfLiteStatus ReportRuntimeFailure(TfLiteContext* context, const Delegate& delegate, xnn_status s) {
  if (delegate.ForceFp16() && s == xnn_status_unsupported_hardware) {
    return Report(context,
                  "FORCE_FP16 is not supported on this CPU (it has neither native nor emulated "
                  "fp16 arithmetic)");
  }
  if (delegate.ForceFp16() && s == xnn_status_unsupported_parameter) {
    return Report(context,
                  "FORCE_FP16 is not supported for this partition (XNNPACK cannot run all of "
                  "its operators in fp16)");
  }
  if (s == xnn_status_out_of_memory) {
    // Its allocations count against the interpreter's limit (allocator.h).
    return Report(context,
                  "xnn_create_runtime ran out of memory (packed weights past the allocation "
                  "limit, or the system's memory)");
  }
  return Report(context, "xnn_create_runtime failed (status %d)", static_cast<int>(s));
}

// The runtime of `subgraph`: XNNPACK packs the static weights here (into the
// delegate's weights cache, if any).
TfLiteStatus CreateRuntime(TfLiteContext* context, xnn_subgraph_t subgraph, bool sparse_weights,
                           Kernel* kernel) {
  Delegate& delegate = *kernel->delegate;
  const uint32_t flags =
      delegate.RuntimeFlags(context) | (sparse_weights ? XNN_FLAG_HINT_SPARSE_INFERENCE : 0);
  const xnn_status s = xnn_create_runtime_v4(
      subgraph, delegate.WeightsCache(), delegate.building ? delegate.building->workspace : nullptr,
      delegate.threadpool, flags, &kernel->runtime);
  if (s != xnn_status_success) {
    kernel->runtime = nullptr;
    return ReportRuntimeFailure(context, delegate, s);
  }
  kernel->profiling = ProfilingRuntimeFlags(context) != 0;
  return kTfLiteOk;
}

// Our XNNPACK build (third_party/xnnpack/patches/0002) refuses, in the
// reshape of each operator, input shapes the operator would read past:
// channel counts of convolutions and fully connected layers, concatenated
// inputs that differ off the axis. Built against another XNNPACK, the kernel
// falls back to a coarser rule of its own (innermost_fixed).
#ifdef XNN_TFLITE_C_RESHAPE_CHECKS
constexpr bool kXnnpackChecksShapes = true;
#else
constexpr bool kXnnpackChecksShapes = false;
#endif

// True when every operator of the partition is element-wise between
// non-constant tensors, so any input shape XNNPACK's reshape accepts is
// consistent (its reshape checks broadcasting, not channel counts).
bool KeepsChannelsFree(const PartitionPlan& plan, const OpBuilder& builder) {
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    if (!plan.folded.empty() && plan.folded[i]) return false;
    switch (plan.regs[i]->builtin_code) {
      case kTfLiteBuiltinAbs: case kTfLiteBuiltinCeil: case kTfLiteBuiltinCos:
      case kTfLiteBuiltinElu: case kTfLiteBuiltinExp: case kTfLiteBuiltinFloor:
      case kTfLiteBuiltinGelu: case kTfLiteBuiltinHardSwish: case kTfLiteBuiltinLeakyRelu:
      case kTfLiteBuiltinLog: case kTfLiteBuiltinLogistic: case kTfLiteBuiltinNeg:
      case kTfLiteBuiltinRelu: case kTfLiteBuiltinRelu6: case kTfLiteBuiltinReluN1To1:
      case kTfLiteBuiltinRelu0To1: case kTfLiteBuiltinRound: case kTfLiteBuiltinRsqrt:
      case kTfLiteBuiltinSin: case kTfLiteBuiltinSqrt: case kTfLiteBuiltinSquare:
      case kTfLiteBuiltinTanh: case kTfLiteBuiltinAdd: case kTfLiteBuiltinSub:
      case kTfLiteBuiltinMul: case kTfLiteBuiltinDiv: case kTfLiteBuiltinMaximum:
      case kTfLiteBuiltinMinimum: case kTfLiteBuiltinSquaredDifference: {
        const TfLiteIntArray* in = plan.nodes[i]->inputs;
        for (int k = 0; k < in->size; ++k) {
          if (in->data[k] >= 0 && builder.IsStatic(in->data[k])) return false;
        }
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

std::unique_ptr<Kernel> BuildKernel(TfLiteContext* context, const TfLiteDelegateParams& params,
                                    const StaticMap& statics, const ResourceMap& resources) {
  auto kernel = std::make_unique<Kernel>();
  kernel->delegate = FromTfLite(params.delegate);
  PartitionPlan plan;
  if (CollectNodes(context, params, statics, &plan) != kTfLiteOk) return nullptr;
  KeepStatics(params, statics, plan, kernel.get());
  MarkInputsAndOutputs(context->tensors_size, params, &plan);
  PruneDeadNodes(&plan);
  KeepOnlyComputedOutputs(&plan);
  if (OnlyVariableHandles(plan)) return kernel;  // no runtime
  FoldPartitionPads(context, &plan);

  // External ids past the tensors' go to the variables' inputs and outputs.
  xnn_subgraph_t subgraph = nullptr;
  if (xnn_create_subgraph(static_cast<uint32_t>(context->tensors_size) + plan.variable_ops, 0,
                          &subgraph) != xnn_status_success) {
    Report(context, "xnn_create_subgraph failed");
    return nullptr;
  }
  std::unique_ptr<xnn_subgraph, xnn_status (*)(xnn_subgraph_t)> subgraph_owner(subgraph,
                                                                               xnn_delete_subgraph);
  std::vector<uint32_t> ids;  // tensor -> value id
  // Alive until the runtime is created: it owns scale arrays XNNPACK reads then.
  OpBuilder builder(context, &kernel->statics, kernel->delegate->Quant(), subgraph, &ids);
  builder.SetPartition(&params);
  builder.SetConstants(&kernel->constants);
  kernel->innermost_fixed = !kXnnpackChecksShapes && !KeepsChannelsFree(plan, builder);
  if (DefineValues(context, subgraph, plan, builder, kernel.get(), &ids) != kTfLiteOk ||
      DefineNodes(context, plan, resources, ids, subgraph, &builder, kernel.get()) != kTfLiteOk ||
      CreateRuntime(context, subgraph, plan.sparse_weights, kernel.get()) != kTfLiteOk)
    return nullptr;
  DropPackedOnlyStatics(plan, kernel.get());
  return kernel;
}

}  // namespace

void* KernelInit(TfLiteContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  PartitionBuild* build = FromTfLite(params->delegate)->building;
  static const StaticMap kNoStatics;
  static const ResourceMap kNoResources;
  std::unique_ptr<Kernel> kernel =
      BuildKernel(context, *params, build && build->statics ? *build->statics : kNoStatics,
                  build && build->resources ? *build->resources : kNoResources);
  if (kernel == nullptr && build != nullptr) ++build->failed;
  return kernel.release();
}

void KernelFree(TfLiteContext*, void* buffer) { delete static_cast<Kernel*>(buffer); }

TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr) return Report(context, "the delegated subgraph could not be built");
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
      return Report(context,
                    "input tensor %d was resized to rank %zu, the delegated graph was built "
                    "for rank %d",
                    kernel->external_inputs[i], dims[i].size(), kernel->input_ranks[i]);
    }
    // Nor does it check channel counts: a convolution defined for 3 input
    // channels reads 3 per pixel from a tensor resized to 1 (out of bounds).
    if (kernel->innermost_fixed && kernel->input_innermost[i] >= 0 && !dims[i].empty() &&
        dims[i].back() != kernel->input_innermost[i]) {
      return Report(context,
                    "input tensor %d was resized to innermost dimension %d, the delegated graph "
                    "was built for %d",
                    kernel->external_inputs[i], dims[i].back(), kernel->input_innermost[i]);
    }
    size_t d[XNN_MAX_TENSOR_DIMS];
    if (dims[i].size() > XNN_MAX_TENSOR_DIMS) return kTfLiteError;
    for (size_t k = 0; k < dims[i].size(); ++k) d[k] = static_cast<size_t>(dims[i][k]);
    if (xnn_reshape_external_value(kernel->runtime, kernel->external_inputs[i], dims[i].size(),
                                   d) != xnn_status_success)
      return Report(context, "cannot reshape input tensor %d", kernel->external_inputs[i]);
  }
  if (const xnn_status s = xnn_reshape_runtime(kernel->runtime); s != xnn_status_success) {
    return Report(context, "xnn_reshape_runtime failed%s",
                  s == xnn_status_out_of_memory
                      ? " (out of memory: workspace past the allocation limit?)"
                  : s == xnn_status_invalid_parameter
                      ? ": an operator refused the new input shapes (input channels of a "
                        "convolution or fully connected layer, inputs that do not broadcast "
                        "or concatenate, a reshape whose element count differs)"
                      : "");
  }
  for (int t : kernel->external_outputs) {
    size_t rank = 0, d[XNN_MAX_TENSOR_DIMS];
    if (xnn_get_external_value_shape(kernel->runtime, t, &rank, d) != xnn_status_success)
      return Report(context, "cannot get the shape of tensor %d", t);
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
  if (kernel == nullptr) return kTfLiteError;
  if (kernel->runtime == nullptr) return kTfLiteOk;  // VAR_HANDLE nodes only
  xnn_weights_cache_t cache = ToXnn(kernel->delegate->options.weights_cache);
  if (cache != nullptr && !xnn_weights_cache_is_finalized(cache)) {
    return Report(context,
                  "the weights cache must be finalized "
                  "(TfLiteXNNPackDelegateWeightsCacheFinalizeSoft/Hard) before inference");
  }
  if (kernel->reshaped_with_open_cache) {
    if (xnn_reshape_runtime(kernel->runtime) != xnn_status_success) {
      kernel->reshaped = false;
      return Report(context, "xnn_reshape_runtime failed");
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
    if (!r.variable->assigned)
      return Report(context, "READ_VARIABLE: the variable has not been assigned");
    values.push_back({r.id, r.variable->data.data()});
  }
  for (auto& w : kernel->variable_writes) values.push_back({w.id, w.staging.data()});
  if (xnn_setup_runtime_v2(kernel->runtime, values.size(), values.data()) != xnn_status_success)
    return Report(context, "xnn_setup_runtime failed");
  if (xnn_invoke_runtime(kernel->runtime) != xnn_status_success)
    return Report(context, "xnn_invoke_runtime failed");
  if (kernel->profiling && ReportOperatorTimings(context, kernel->runtime) != kTfLiteOk)
    Report(context, "failed to get XNNPACK profile information.");
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

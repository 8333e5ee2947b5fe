// The XNNPACK delegate. A client of the public delegate ABI only:
//
//   DelegatePrepare   walks the execution plan (GetExecutionPlan /
//                     GetNodeAndRegistration), asks OpBuilder whether XNNPACK
//                     can run each node, and hands the supported ones to
//                     ReplaceNodeSubsetsWithDelegateKernels.
//   Kernel            one per partition: an xnn_subgraph with one XNNPACK node
//                     per TFLite node (constant tensors become static values,
//                     so weights are packed once), turned into an xnn_runtime.
//                     Prepare reshapes the runtime when input shapes change
//                     and resizes the outputs; Invoke binds the tensors'
//                     memory and runs it.
//
// fp16 weights: DEQUANTIZE nodes that turn a constant float16 tensor into
// float32 are claimed too when every consumer is claimed; their outputs become
// static float32 values (unpacked once), so no DEQUANTIZE runs at inference.
//
// Which nodes XNNPACK can run, and how they are defined, is in op_builder.h
// (support checks in op_builder.cc, op definitions in ops_*.cc).
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include <pthreadpool.h>
#include <xnnpack.h>

#include "src/delegates/xnnpack/default_delegate.h"
#include "src/delegates/xnnpack/op_builder.h"
#include "src/delegates/xnnpack/pad_folding.h"
#include "src/delegates/xnnpack/precision.h"
#include "src/delegates/xnnpack/profiling.h"
#include "src/delegates/xnnpack/weight_cache.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/core/c/common.h"

struct TfLiteXNNPackDelegateWeightsCache;  // is an xnn_weights_cache

namespace tflite_c {
namespace xnnpack {
namespace {

void Log(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("XNNPACK delegate: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

bool InitializeXnnpack() {
  static const bool ok = xnn_initialize(/*allocator=*/nullptr) == xnn_status_success;
  return ok;
}

xnn_weights_cache_t ToXnn(TfLiteXNNPackDelegateWeightsCache* cache) {
  return reinterpret_cast<xnn_weights_cache_t>(cache);
}

// ---- the delegate object ------------------------------------------------------------

struct Delegate {
  TfLiteDelegate base;  // first: TfLiteDelegate* <-> Delegate*
  TfLiteXNNPackDelegateOptions options;
  pthreadpool_t threadpool = nullptr;
  // weight_cache_file_path / _descriptor (when no weights_cache is given).
  std::unique_ptr<FileWeightCache> file_cache;
  // Set during DelegatePrepare for the kernels' Init (which runs inside
  // ReplaceNodeSubsetsWithDelegateKernels).
  const StaticMap* pending_static = nullptr;

  // Resource variables (TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS), by
  // (container, shared_name): one buffer each, shared by every partition of
  // every subgraph this delegate runs. The type and shape are those the
  // claimed READ_VARIABLE / ASSIGN_VARIABLE nodes all agree on.
  struct Variable {
    TfLiteType type = kTfLiteNoType;
    std::vector<int> dims;
    float scale = 0.0f;
    int32_t zero_point = 0;
    size_t bytes = 0;
    std::vector<uint8_t> data;  // bytes + XNN_EXTRA_BYTES
    bool assigned = false;
  };
  std::map<std::pair<std::string, std::string>, Variable> variables;
  // Variables some subgraph could not delegate: they stay builtin everywhere.
  std::set<std::pair<std::string, std::string>> builtin_variables;
  // Set during DelegatePrepare for KernelInit: resource tensor -> variable.
  const std::unordered_map<int, Variable*>* pending_resources = nullptr;

  bool VariableOps() const {
    return (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS) != 0;
  }

  QuantFlags Quant() const {
    QuantFlags q;
    q.qs8 = (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_QS8) != 0;
    q.qu8 = (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_QU8) != 0;
    return q;
  }

  xnn_weights_cache_t WeightsCache() const {
    if (options.weights_cache) return ToXnn(options.weights_cache);
    return file_cache ? file_cache->provider() : nullptr;
  }

  bool ForceFp16() const { return (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16) != 0; }

  // Flags of a partition's runtime; the precision bits depend on the model.
  uint32_t RuntimeFlags(TfLiteContext* context) const {
    uint32_t f = options.runtime_flags | PrecisionRuntimeFlags(context, ForceFp16()) |
                 ProfilingRuntimeFlags(context);
    if (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER)
      f |= XNN_FLAG_TRANSIENT_INDIRECTION_BUFFER;
    return f;
  }
};

Delegate* FromTfLite(TfLiteDelegate* d) { return reinterpret_cast<Delegate*>(d); }

// ---- the kernel of one partition -------------------------------------------------------

struct Kernel {
  Delegate* delegate = nullptr;
  xnn_runtime_t runtime = nullptr;
  std::vector<int> external_inputs;   // tensor indices (= external ids)
  std::vector<int> external_outputs;  // computed by XNNPACK
  std::vector<std::pair<int, StaticData>> static_outputs;  // copied at Invoke
  StaticMap statics;                  // keeps unpacked fp16 weights alive
  std::vector<std::vector<int>> input_dims;  // at the last reshape
  std::vector<xnn_external_value> values;    // Invoke's scratch
  bool reshaped = false;
  bool profiling = false;  // runtime created with XNN_FLAG_BASIC_PROFILING (profiling.h)
  bool ok = false;
  // Resource variables: a read-before-assign is an external input bound to
  // the variable's buffer; each ASSIGN_VARIABLE an external output written
  // to its own staging buffer, copied into the variable after the run.
  struct VariableBinding {
    uint32_t id;
    Delegate::Variable* variable;
    std::vector<uint8_t> staging;
  };
  std::vector<VariableBinding> variable_reads, variable_writes;

  ~Kernel() {
    if (runtime) xnn_delete_runtime(runtime);
  }
};

std::vector<int> DimsOf(const TfLiteTensor& t) {
  return t.dims ? std::vector<int>(t.dims->data, t.dims->data + t.dims->size) : std::vector<int>();
}

bool IsVariableOp(int builtin_code) {
  return builtin_code == kTfLiteBuiltinVarHandle || builtin_code == kTfLiteBuiltinReadVariable ||
         builtin_code == kTfLiteBuiltinAssignVariable;
}

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

// Defines a claimed VAR_HANDLE (nothing), READ_VARIABLE (a copy from the
// variable's latest value in this partition, else from its buffer) or
// ASSIGN_VARIABLE (a copy into a new value that becomes the latest).
TfLiteStatus DefineVariableOp(TfLiteContext* context, Delegate* delegate, Kernel* kernel,
                              xnn_subgraph_t subgraph, int builtin_code, const TfLiteNode* node,
                              const std::vector<uint32_t>& ids, uint32_t* next_external,
                              std::unordered_map<const Delegate::Variable*, uint32_t>* current) {
  if (builtin_code == kTfLiteBuiltinVarHandle) return kTfLiteOk;
  const auto* resources = delegate->pending_resources;
  if (resources == nullptr || resources->count(node->inputs->data[0]) == 0) {
    context->ReportError(context, "XNNPACK delegate: variable of tensor %d is unknown",
                         node->inputs->data[0]);
    return kTfLiteError;
  }
  Delegate::Variable* v = resources->at(node->inputs->data[0]);
  if (builtin_code == kTfLiteBuiltinReadVariable) {
    auto latest = current->find(v);
    uint32_t from;
    if (latest != current->end()) {
      from = latest->second;
    } else {
      const uint32_t ext = (*next_external)++;
      if (DefineVariableValue(subgraph, *v, ext, XNN_VALUE_FLAG_EXTERNAL_INPUT, &from) !=
          xnn_status_success) {
        context->ReportError(context, "XNNPACK delegate: cannot define a variable value");
        return kTfLiteError;
      }
      kernel->variable_reads.push_back({ext, v, {}});
      (*current)[v] = from;
    }
    if (xnn_define_copy(subgraph, from, ids[node->outputs->data[0]], 0) != xnn_status_success) {
      context->ReportError(context, "XNNPACK delegate: failed to define READ_VARIABLE");
      return kTfLiteError;
    }
    return kTfLiteOk;
  }
  const uint32_t ext = (*next_external)++;
  uint32_t to;
  if (DefineVariableValue(subgraph, *v, ext, XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &to) !=
          xnn_status_success ||
      xnn_define_copy(subgraph, ids[node->inputs->data[1]], to, 0) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: failed to define ASSIGN_VARIABLE");
    return kTfLiteError;
  }
  kernel->variable_writes.push_back({ext, v, std::vector<uint8_t>(v->data.size())});
  (*current)[v] = to;
  return kTfLiteOk;
}

void* KernelInit(TfLiteContext* context, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  auto* kernel = new Kernel;
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
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk) return kernel;
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

  if (variable_ops == static_cast<uint32_t>(0) &&
      std::all_of(regs.begin(), regs.end(), [](const TfLiteRegistration* r) {
        return r->builtin_code == kTfLiteBuiltinVarHandle;
      }) && !regs.empty()) {
    kernel->ok = true;  // only VAR_HANDLE nodes: nothing to run
    return kernel;
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
    return kernel;
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
      return kernel;
    }
  }
  OpBuilder builder(context, &kernel->statics, delegate->Quant(), subgraph, &ids);
  builder.SetPartition(params);
  builder.SetFusedPads(&fused_pads);
  std::unordered_map<const Delegate::Variable*, uint32_t> current;  // its latest value id
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (IsVariableOp(regs[i]->builtin_code)) {
      if (DefineVariableOp(context, delegate, kernel, subgraph, regs[i]->builtin_code, nodes[i],
                           ids, &next_external, &current) != kTfLiteOk)
        return kernel;
      continue;
    }
    if (folded[i]) continue;
    if (builder.Visit(node_ids[i], nodes[i], regs[i]) != kTfLiteOk) return kernel;
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
    } else {
      context->ReportError(context, "XNNPACK delegate: xnn_create_runtime failed (status %d)",
                           static_cast<int>(s));
    }
    kernel->runtime = nullptr;
    return kernel;
  }
  kernel->profiling = ProfilingRuntimeFlags(context) != 0;
  kernel->ok = true;
  return kernel;
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

  for (size_t i = 0; i < kernel->external_inputs.size(); ++i) {
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
  if (xnn_reshape_runtime(kernel->runtime) != xnn_status_success) {
    context->ReportError(context, "XNNPACK delegate: xnn_reshape_runtime failed");
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

// ---- DelegatePrepare: choose the nodes --------------------------------------------

struct Entry {
  int index;
  TfLiteNode* node;
  TfLiteRegistration* reg;
};

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

// With FLAG_VARIABLE_OPERATORS: the VAR_HANDLE / READ_VARIABLE /
// ASSIGN_VARIABLE nodes the delegate takes. A handle is taken with all its
// reads and assigns or not at all: its resource tensor must be read by
// those nodes only, and they must agree on one static type and shape (the
// one this delegate already holds for the variable, if any). A variable
// refused in one subgraph is refused in those prepared after it (the
// builtin kernels keep it); one refused after another subgraph delegated it
// fails the delegate. Fills `claimed` and `resources` (resource tensor ->
// the delegate's variable).
TfLiteStatus ClaimVariables(TfLiteContext* context, Delegate* delegate,
                            const std::vector<Entry>& entries, const OpBuilder& checker,
                            const StaticMap& statics, std::vector<int>* claimed,
                            std::unordered_map<int, Delegate::Variable*>* resources) {
  struct Use {
    std::pair<std::string, std::string> key;
    int handle = -1;
    std::vector<int> nodes;
    Delegate::Variable spec;
    bool has_spec = false;
    bool ok = true;
  };
  std::unordered_map<int, Use> uses;  // by resource tensor
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
  if (uses.empty()) return kTfLiteOk;
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
      if (value < 0 || e.reg->registration_external != nullptr || statics.count(value) ||
          !VariableSpec(context, checker, value, &spec) || (u.has_spec && !SameVariable(u.spec, spec))) {
        u.ok = false;
        continue;
      }
      u.spec = spec;
      u.has_spec = true;
      u.nodes.push_back(e.index);
    }
  }
  for (auto& kv : uses) {
    Use& u = kv.second;
    if (u.ok && !u.has_spec) continue;  // a handle nothing reads or assigns here
    auto known = delegate->variables.find(u.key);
    const bool good = u.ok && (known == delegate->variables.end() ||
                               SameVariable(known->second, u.spec));
    if (!good || delegate->builtin_variables.count(u.key)) {
      if (known != delegate->variables.end()) {
        context->ReportError(context,
                             "XNNPACK delegate: variable '%s' is delegated in one subgraph but "
                             "its operators in another are not supported",
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

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* base) {
  Delegate* delegate = FromTfLite(base);
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;

  std::vector<Entry> entries;
  for (int i = 0; i < plan->size; ++i) {
    Entry e{plan->data[i], nullptr, nullptr};
    if (context->GetNodeAndRegistration(context, e.index, &e.node, &e.reg) != kTfLiteOk)
      return kTfLiteError;
    entries.push_back(e);
  }

  // fp16 constant -> DEQUANTIZE -> float32: the output becomes a static value.
  StaticMap statics;
  std::unordered_map<int, int> dequant_node_of;  // output tensor -> node index
  for (const Entry& e : entries) {
    if (e.reg->builtin_code != kTfLiteBuiltinDequantize || e.node->inputs->size != 1 ||
        e.node->outputs->size != 1)
      continue;
    const int in = e.node->inputs->data[0], out = e.node->outputs->data[0];
    if (in < 0 || out < 0) continue;
    const TfLiteTensor& ti = context->tensors[in];
    const TfLiteTensor& to = context->tensors[out];
    if (ti.type != kTfLiteFloat16 || ti.allocation_type != kTfLiteMmapRo || ti.data.raw == nullptr ||
        to.type != kTfLiteFloat32)
      continue;
    const size_t n = ti.bytes / 2;
    auto data = std::make_shared<std::vector<float>>(n + XNN_EXTRA_BYTES / sizeof(float));
    const auto* half = reinterpret_cast<const uint16_t*>(ti.data.raw);
    for (size_t k = 0; k < n; ++k) (*data)[k] = HalfToFloat(half[k]);
    statics[out] = data;
    dequant_node_of[out] = e.index;
  }
  // Sparse constants -> DENSIFY [-> DEQUANTIZE]: densified once, likewise.
  std::vector<std::pair<int, int>> follows;  // (DENSIFY, DEQUANTIZE) node pairs
  UnpackSparseWeights(context, &statics, &dequant_node_of, &follows);

  OpBuilder checker(context, &statics, delegate->Quant(), nullptr, nullptr);
  std::unordered_map<int, bool> claimed;
  std::unordered_map<int, Delegate::Variable*> resources;
  if (delegate->VariableOps()) {
    std::vector<int> nodes;
    TF_LITE_ENSURE_STATUS(
        ClaimVariables(context, delegate, entries, checker, statics, &nodes, &resources));
    for (int n : nodes) claimed[n] = true;
  }
  for (const Entry& e : entries) {
    if (IsVariableOp(e.reg->builtin_code)) continue;  // decided above
    if (e.reg->builtin_code == kTfLiteBuiltinDequantize && e.node->outputs->size == 1 &&
        dequant_node_of.count(e.node->outputs->data[0]))
      continue;  // decided below, with its consumers
    // Custom ops: only the MediaPipe ones OpBuilder knows by name (as upstream).
    if (e.reg->builtin_code == kTfLiteBuiltinCustom) {
      if (!OpBuilder::KnownCustomOp(e.reg->custom_name)) continue;
    } else if (e.reg->registration_external != nullptr) {
      continue;  // a kernel the user registered (TfLiteOperator) for a builtin op is theirs to run
    }
    claimed[e.index] = checker.Visit(e.index, e.node, e.reg) == kTfLiteOk;
  }
  // A DEQUANTIZE goes with its consumers only if all of them are delegated.
  std::unordered_map<int, int> consumers, unclaimed_consumers;
  for (const Entry& e : entries) {
    for (int i = 0; i < e.node->inputs->size; ++i) {
      const int t = e.node->inputs->data[i];
      if (t < 0 || !dequant_node_of.count(t)) continue;
      ++consumers[t];
      if (!claimed[e.index]) ++unclaimed_consumers[t];
    }
  }
  for (auto& kv : dequant_node_of) {
    claimed[kv.second] = consumers[kv.first] > 0 && unclaimed_consumers[kv.first] == 0;
  }
  for (const auto& f : follows) claimed[f.first] = claimed[f.second];

  std::vector<int> supported;
  for (const Entry& e : entries)
    if (claimed[e.index]) supported.push_back(e.index);
  if (supported.empty()) return kTfLiteOk;

  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(supported.size()));
  std::copy(supported.begin(), supported.end(), nodes->data);

  TfLiteRegistration reg = {};
  reg.init = KernelInit;
  reg.free = KernelFree;
  reg.prepare = KernelPrepare;
  reg.invoke = KernelInvoke;
  reg.builtin_code = kTfLiteBuiltinDelegate;
  reg.custom_name = "TfLiteXNNPackDelegate";
  reg.version = 1;

  delegate->pending_static = &statics;
  delegate->pending_resources = &resources;
  if (delegate->file_cache) delegate->file_cache->BeginPrepare(context, statics);
  const TfLiteStatus status =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, nodes, base);
  delegate->pending_static = nullptr;
  delegate->pending_resources = nullptr;
  // A cache file that cannot be written is not fatal: the weights are packed.
  if (delegate->file_cache) delegate->file_cache->EndPrepare();
  TfLiteIntArrayFree(nodes);
  if (status != kTfLiteOk) return status;
  // A partition XNNPACK refused to build fails the delegate now (the caller
  // restores the original plan) rather than at AllocateTensors.
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* r;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &r) != kTfLiteOk)
      return kTfLiteError;
    if (r->invoke != KernelInvoke) continue;
    const auto* kernel = static_cast<const Kernel*>(node->user_data);
    if (kernel == nullptr || !kernel->ok) return kTfLiteDelegateError;
  }
  return kTfLiteOk;
}

TfLiteDelegate* CreateDelegate(const TfLiteXNNPackDelegateOptions* options) {
  if (!InitializeXnnpack()) {
    Log("XNNPACK cannot run on this CPU (xnn_initialize failed)");
    return nullptr;
  }
  auto* d = new Delegate;
  d->base = TfLiteDelegateCreate();
  d->options = options ? *options : TfLiteXNNPackDelegateOptionsDefault();
  if (d->options.handle_variable_ops)
    d->options.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS;
  if (d->options.weights_cache == nullptr) {
    const char* path = d->options.weight_cache_file_path;
    const int fd = d->options.weight_cache_file_descriptor;
    if (d->options.weight_cache_provider != nullptr) {
      Log("weight_cache_provider is not supported (use weight_cache_file_path or "
          "weight_cache_file_descriptor)");
    }
    if ((path && path[0]) || fd > 0) {
      d->file_cache = FileWeightCache::Open(path, fd, d->options.weight_cache_lock_memory);
      if (!d->file_cache) {
        Log("the weight cache could neither be loaded from nor saved to '%s'; check that this "
            "location is readable and writable (weights are packed in memory)",
            path ? path : "");
      }
    }
    // Our copy of the path: the caller's string need not outlive the call.
    d->options.weight_cache_file_path = d->file_cache ? d->file_cache->path().c_str() : nullptr;
  } else if (d->options.weight_cache_file_descriptor > 0) {
    close(d->options.weight_cache_file_descriptor);  // owned, but unused
  }
  if (d->options.num_threads > 1) {
    d->threadpool = pthreadpool_create(static_cast<size_t>(d->options.num_threads));
    if (d->threadpool == nullptr) {
      Log("cannot create a thread pool of %d threads", static_cast<int>(d->options.num_threads));
      delete d;
      return nullptr;
    }
  }
  d->base.data_ = d;
  d->base.Prepare = DelegatePrepare;
  // Each kernel reshapes its runtime in Prepare from the current input
  // shapes, so graphs with dynamic tensors elsewhere are fine.
  d->base.flags = (d->options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_SUBGRAPH_RESHAPING)
                      ? kTfLiteDelegateFlagsNone
                      : kTfLiteDelegateFlagsAllowDynamicTensors;
  // Its operators replace its nodes in profiles (src/delegates/xnnpack/profiling.h).
  d->base.flags |= kTfLiteDelegateFlagsPerOperatorProfiling;
  return &d->base;
}

}  // namespace
}  // namespace xnnpack

namespace xnnpack {
bool GetWeightCacheStats(TfLiteDelegate* delegate, WeightCacheStats* out) {
  if (delegate == nullptr || out == nullptr) return false;
  const Delegate* d = FromTfLite(delegate);
  if (!d->file_cache) return false;
  *out = d->file_cache->stats();
  return true;
}
}  // namespace xnnpack

TfLiteDelegate* MaybeCreateDefaultXnnpackDelegate(int num_threads) {
  TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
  options.num_threads = num_threads > 1 ? num_threads : 1;
  return xnnpack::CreateDelegate(&options);
}

}  // namespace tflite_c

// ---- C API (the weights cache functions are in weights_cache_api.cc) ------------------

extern "C" {

TfLiteXNNPackDelegateOptions TfLiteXNNPackDelegateOptionsDefault(void) {
  TfLiteXNNPackDelegateOptions o;
  std::memset(&o, 0, sizeof(o));
  o.num_threads = 0;  // no thread pool
  o.weight_cache_file_descriptor = -1;  // none
  // Quantized (QS8/QU8) paths are on by default, as upstream; clearing the
  // flags keeps such nodes on the builtin kernels.
  o.flags = TFLITE_XNNPACK_DELEGATE_FLAG_QS8 | TFLITE_XNNPACK_DELEGATE_FLAG_QU8;
  return o;
}

TfLiteDelegate* TfLiteXNNPackDelegateCreate(const TfLiteXNNPackDelegateOptions* options) {
  return tflite_c::xnnpack::CreateDelegate(options);
}

TfLiteDelegate* TfLiteXNNPackDelegateCreateWithThreadpool(
    const TfLiteXNNPackDelegateOptions* options, TfLiteContext*) {
  return tflite_c::xnnpack::CreateDelegate(options);
}

void* TfLiteXNNPackDelegateGetThreadPool(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return nullptr;
  return tflite_c::xnnpack::FromTfLite(delegate)->threadpool;
}

const TfLiteXNNPackDelegateOptions* TfLiteXNNPackDelegateGetOptions(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return nullptr;
  return &tflite_c::xnnpack::FromTfLite(delegate)->options;
}

int TfLiteXNNPackDelegateGetFlags(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return 0;
  return static_cast<int>(tflite_c::xnnpack::FromTfLite(delegate)->options.flags);
}

void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  auto* d = tflite_c::xnnpack::FromTfLite(delegate);
  if (d->threadpool) pthreadpool_destroy(d->threadpool);
  delete d;
}

}  // extern "C"

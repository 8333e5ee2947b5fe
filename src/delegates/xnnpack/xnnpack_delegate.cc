// The XNNPACK delegate. A client of the public delegate ABI (and of
// src/core/subgraph_access.h for the number of subgraphs, variables.cc):
//
//   DelegatePrepare   walks the execution plan (GetExecutionPlan /
//                     GetNodeAndRegistration), asks OpBuilder whether XNNPACK
//                     can run each node, and hands the supported ones to
//                     ReplaceNodeSubsetsWithDelegateKernels.
//   Kernel            one per partition (kernel.cc): an xnn_subgraph with one
//                     XNNPACK node per TFLite node, turned into an
//                     xnn_runtime.
//
// fp16 weights: DEQUANTIZE nodes that turn a constant float16 tensor into
// float32 are claimed too when every consumer is claimed; their outputs become
// static float32 values (unpacked once), so no DEQUANTIZE runs at inference.
//
// Which nodes XNNPACK can run, and how they are defined, is in op_builder.h
// (support checks in op_builder.cc, op definitions in ops_*.cc); resource
// variables are in variables.h; the delegate and kernel objects in
// delegate_internal.h.
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include <unistd.h>

#include <pthreadpool.h>
#include <xnnpack.h>

#include "src/delegates/xnnpack/allocator.h"
#include "src/core/exception_guard.h"
#include "src/delegates/xnnpack/default_delegate.h"
#include "src/delegates/xnnpack/delegate_internal.h"
#include "src/delegates/xnnpack/op_builder.h"
#include "src/delegates/xnnpack/report.h"
#include "src/delegates/xnnpack/variables.h"
#include "src/delegates/xnnpack/weight_cache.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {
namespace {

bool InitializeXnnpack() {
  static const bool ok = xnn_initialize(CountingAllocator()) == xnn_status_success;
  return ok;
}

// ---- DelegatePrepare: choose the nodes --------------------------------------------

// A non-constant rank-0 input may be a shape not known when the graph is
// defined (a READ_VARIABLE output, say) that takes another rank at run time,
// and the delegated graph keeps the ranks it was defined with (XNNPACK's
// reshape accepts another rank and its operators then misbehave: fuzz/README.md).
// Such nodes stay on the builtin kernels, which take any rank.
bool HasRankZeroRuntimeInput(TfLiteContext* context, const TfLiteNode* node,
                             const StaticMap& statics) {
  for (int i = 0; i < node->inputs->size; ++i) {
    const int t = node->inputs->data[i];
    if (t < 0 || t >= static_cast<int>(context->tensors_size)) continue;
    const TfLiteTensor& x = context->tensors[t];
    if (x.allocation_type == kTfLiteMmapRo || statics.count(t)) continue;
    if (x.dims != nullptr && x.dims->size == 0) return true;
  }
  return false;
}

// The nodes of the execution plan.
TfLiteStatus CollectEntries(TfLiteContext* context, std::vector<Entry>* entries) {
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;
  for (int i = 0; i < plan->size; ++i) {
    Entry e{plan->data[i], nullptr, nullptr};
    if (context->GetNodeAndRegistration(context, e.index, &e.node, &e.reg) != kTfLiteOk)
      return kTfLiteError;
    entries->push_back(e);
  }
  return kTfLiteOk;
}

// The float32 contents of a constant float16 tensor a DEQUANTIZE `e` turns
// into float32 of the same shape, or nullptr if `e` is no such node.
StaticData UnpackFp16Constant(const TfLiteContext* context, const Entry& e) {
  if (e.reg->builtin_code != kTfLiteBuiltinDequantize || e.node->inputs->size != 1 ||
      e.node->outputs->size != 1)
    return nullptr;
  const int in = e.node->inputs->data[0], out = e.node->outputs->data[0];
  if (in < 0 || out < 0) return nullptr;
  const TfLiteTensor& ti = context->tensors[in];
  const TfLiteTensor& to = context->tensors[out];
  if (ti.type != kTfLiteFloat16 || ti.allocation_type != kTfLiteMmapRo || ti.data.raw == nullptr ||
      to.type != kTfLiteFloat32)
    return nullptr;
  // DEQUANTIZE keeps the shape: an output declared otherwise (which the
  // builtin kernel would resize) is not taken as a weight of that shape.
  if (ti.dims == nullptr || to.dims == nullptr || !TfLiteIntArrayEqual(ti.dims, to.dims))
    return nullptr;
  const size_t n = ti.bytes / 2;
  auto data = std::make_shared<std::vector<float>>(n + XNN_EXTRA_BYTES / sizeof(float));
  const auto* half = reinterpret_cast<const uint16_t*>(ti.data.raw);
  // XNNPACK's vectorized conversion (F16C / NEON where the CPU has them) for
  // whole blocks of 64: its kernels may load a full vector at a ragged end,
  // and the model's bytes end where the tensor does. The rest one by one.
  size_t k = n / 64 * 64;
  if (k != 0 && xnn_run_unary_elementwise_nc(xnn_unary_convert, xnn_datatype_fp16,
                                             xnn_datatype_fp32, nullptr, nullptr, nullptr, 0,
                                             /*batch_size=*/1, k, k, k, nullptr, half,
                                             data->data()) != xnn_status_success) {
    k = 0;
  }
  for (; k < n; ++k) (*data)[k] = HalfToFloat(half[k]);
  return data;
}

// Constants unpacked once, before any partition is built: what a
// DEQUANTIZE of an fp16 constant or a DENSIFY [-> DEQUANTIZE] of a sparse
// one would compute. Their outputs become static values.
struct UnpackedConstants {
  StaticMap statics;                         // output tensor -> contents
  std::unordered_map<int, int> producer;     // output tensor -> its DEQUANTIZE / DENSIFY node
  std::vector<std::pair<int, int>> follows;  // (DENSIFY, DEQUANTIZE) node pairs
};

UnpackedConstants UnpackConstants(TfLiteContext* context, const std::vector<Entry>& entries) {
  UnpackedConstants u;
  for (const Entry& e : entries) {
    if (StaticData data = UnpackFp16Constant(context, e)) {
      const int out = e.node->outputs->data[0];
      u.statics[out] = std::move(data);
      u.producer[out] = e.index;
    }
  }
  UnpackSparseWeights(context, &u.statics, &u.producer, &u.follows);
  return u;
}

// Whether the delegate may take node `e` at all (before asking OpBuilder).
bool Eligible(TfLiteContext* context, const Entry& e, const UnpackedConstants& unpacked) {
  if (IsVariableOp(e.reg->builtin_code)) return false;  // ClaimVariables decides
  if (e.reg->builtin_code == kTfLiteBuiltinDequantize && e.node->outputs->size == 1 &&
      unpacked.producer.count(e.node->outputs->data[0]))
    return false;  // decided with its consumers (ClaimUnpackingNodes)
  // Custom ops: only the MediaPipe ones OpBuilder knows by name (as upstream).
  if (e.reg->builtin_code == kTfLiteBuiltinCustom) {
    if (!OpBuilder::KnownCustomOp(e.reg->custom_name)) return false;
  } else if (e.reg->registration_external != nullptr) {
    return false;  // a kernel the user registered (TfLiteOperator) for a builtin op is theirs to
                   // run
  }
  return !HasRankZeroRuntimeInput(context, e.node, unpacked.statics);
}

// A DEQUANTIZE of an unpacked constant goes with its consumers only if all
// of them are delegated; a DENSIFY followed by one goes with it.
void ClaimUnpackingNodes(const std::vector<Entry>& entries, const UnpackedConstants& unpacked,
                         std::unordered_map<int, bool>* claimed) {
  std::unordered_map<int, int> consumers, unclaimed_consumers;
  for (const Entry& e : entries) {
    for (int i = 0; i < e.node->inputs->size; ++i) {
      const int t = e.node->inputs->data[i];
      if (t < 0 || !unpacked.producer.count(t)) continue;
      ++consumers[t];
      if (!(*claimed)[e.index]) ++unclaimed_consumers[t];
    }
  }
  for (const auto& kv : unpacked.producer) {
    (*claimed)[kv.second] = consumers[kv.first] > 0 && unclaimed_consumers[kv.first] == 0;
  }
  for (const auto& f : unpacked.follows) (*claimed)[f.first] = (*claimed)[f.second];
}

// The nodes XNNPACK takes, in plan order; `resources` gets the claimed
// variables' resource tensors.
TfLiteStatus ChooseNodes(TfLiteContext* context, Delegate* delegate,
                         const std::vector<Entry>& entries, const UnpackedConstants& unpacked,
                         std::vector<int>* supported, ResourceMap* resources) {
  OpBuilder checker(context, &unpacked.statics, delegate->Quant(), nullptr, nullptr);
  std::unordered_map<int, bool> claimed;
  if (delegate->VariableOps()) {
    std::vector<int> nodes;
    TF_LITE_ENSURE_STATUS(
        ClaimVariables(context, delegate, entries, checker, unpacked.statics, &nodes, resources));
    for (int n : nodes) claimed[n] = true;
  }
  for (const Entry& e : entries) {
    if (Eligible(context, e, unpacked))
      claimed[e.index] = checker.Visit(e.index, e.node, e.reg) == kTfLiteOk;
  }
  ClaimUnpackingNodes(entries, unpacked, &claimed);
  for (const Entry& e : entries)
    if (claimed[e.index]) supported->push_back(e.index);
  return kTfLiteOk;
}

// Hands `supported` to ReplaceNodeSubsetsWithDelegateKernels, which builds a
// kernel per partition (KernelInit). A partition XNNPACK refused to build
// fails the delegate now (the caller restores the original plan) rather than
// at AllocateTensors.
TfLiteStatus ReplaceWithKernels(TfLiteContext* context, Delegate* delegate,
                                const std::vector<int>& supported, const StaticMap& statics,
                                const ResourceMap& resources) {
  TfLiteRegistration reg = {};
  reg.init = KernelInit;
  reg.free = KernelFree;
  reg.prepare = KernelPrepare;
  reg.invoke = KernelInvoke;
  reg.builtin_code = kTfLiteBuiltinDelegate;
  reg.custom_name = "TfLiteXNNPackDelegate";
  reg.version = 1;

  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(supported.size()));
  std::copy(supported.begin(), supported.end(), nodes->data);
  PartitionBuild build;
  build.statics = &statics;
  build.resources = &resources;
  if (xnn_create_workspace(&build.workspace) != xnn_status_success) build.workspace = nullptr;
  delegate->building = &build;
  if (delegate->file_cache) delegate->file_cache->BeginPrepare(context, statics);
  const TfLiteStatus status =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, reg, nodes, &delegate->base);
  delegate->building = nullptr;
  if (build.workspace != nullptr) xnn_release_workspace(build.workspace);
  // A cache file that cannot be written is not fatal: the weights are packed.
  if (delegate->file_cache) delegate->file_cache->EndPrepare();
  TfLiteIntArrayFree(nodes);
  if (status != kTfLiteOk) return status;
  return build.failed > 0 ? kTfLiteDelegateError : kTfLiteOk;
}

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* base) {
  Delegate* delegate = FromTfLite(base);
  std::vector<Entry> entries;
  TF_LITE_ENSURE_STATUS(CollectEntries(context, &entries));
  const UnpackedConstants unpacked = UnpackConstants(context, entries);
  std::vector<int> supported;
  ResourceMap resources;
  TF_LITE_ENSURE_STATUS(ChooseNodes(context, delegate, entries, unpacked, &supported, &resources));
  if (supported.empty()) return kTfLiteOk;
  return ReplaceWithKernels(context, delegate, supported, unpacked.statics, resources);
}

TfLiteDelegate* CreateDelegate(const TfLiteXNNPackDelegateOptions* options) {
  if (!InitializeXnnpack()) {
    Report(nullptr, "XNNPACK cannot run on this CPU (xnn_initialize failed)");
    return nullptr;
  }
  // Owned here until returned, so that nothing leaks if a step throws.
  auto d = std::make_unique<Delegate>();
  d->base = TfLiteDelegateCreate();
  d->options = options ? *options : TfLiteXNNPackDelegateOptionsDefault();
  if (d->options.handle_variable_ops)
    d->options.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS;
  if (d->options.weights_cache == nullptr) {
    const char* path = d->options.weight_cache_file_path;
    const int fd = d->options.weight_cache_file_descriptor;
    if (d->options.weight_cache_provider != nullptr) {
      Report(nullptr,
             "weight_cache_provider is not supported (use weight_cache_file_path or "
             "weight_cache_file_descriptor)");
    }
    if ((path && path[0]) || fd > 0) {
      d->file_cache = FileWeightCache::Open(path, fd, d->options.weight_cache_lock_memory);
      if (!d->file_cache) {
        Report(nullptr,
               "the weight cache could neither be loaded from nor saved to '%s'; check that this "
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
      Report(nullptr, "cannot create a thread pool of %d threads",
             static_cast<int>(d->options.num_threads));
      return nullptr;
    }
  }
  d->base.data_ = d.get();
  d->base.Prepare = DelegatePrepare;
  // Each kernel reshapes its runtime in Prepare from the current input
  // shapes, so graphs with dynamic tensors elsewhere are fine.
  d->base.flags = (d->options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_SUBGRAPH_RESHAPING)
                      ? kTfLiteDelegateFlagsNone
                      : kTfLiteDelegateFlagsAllowDynamicTensors;
  // Its operators replace its nodes in profiles (src/delegates/xnnpack/profiling.h).
  d->base.flags |= kTfLiteDelegateFlagsPerOperatorProfiling;
  return &d.release()->base;
}

}  // namespace

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
  return tflite_c::GuardC(nullptr, __func__, static_cast<TfLiteDelegate*>(nullptr),
                          [&] { return tflite_c::xnnpack::CreateDelegate(options); });
}

TfLiteDelegate* TfLiteXNNPackDelegateCreateWithThreadpool(
    const TfLiteXNNPackDelegateOptions* options, TfLiteContext*) {
  return tflite_c::GuardC(nullptr, __func__, static_cast<TfLiteDelegate*>(nullptr),
                          [&] { return tflite_c::xnnpack::CreateDelegate(options); });
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

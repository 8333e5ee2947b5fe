// Internal to the XNNPACK delegate: the delegate object and the kernel of one
// partition, shared by xnnpack_delegate.cc (node selection, C API),
// kernel.cc (a partition's init / prepare / invoke) and variables.cc
// (resource variables).
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_DELEGATE_INTERNAL_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_DELEGATE_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pthreadpool.h>
#include <xnnpack.h>

#include "src/delegates/xnnpack/op_builder.h"
#include "src/delegates/xnnpack/precision.h"
#include "src/delegates/xnnpack/profiling.h"
#include "src/delegates/xnnpack/weight_cache.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

struct TfLiteXNNPackDelegateWeightsCache;  // is an xnn_weights_cache

namespace tflite_c {
namespace xnnpack {

inline xnn_weights_cache_t ToXnn(TfLiteXNNPackDelegateWeightsCache* cache) {
  return reinterpret_cast<xnn_weights_cache_t>(cache);
}

// ---- the delegate object ------------------------------------------------------------

struct PartitionBuild;

struct Delegate {
  TfLiteDelegate base;  // first: TfLiteDelegate* <-> Delegate*
  TfLiteXNNPackDelegateOptions options;
  pthreadpool_t threadpool = nullptr;
  // weight_cache_file_path / _descriptor (when no weights_cache is given).
  std::unique_ptr<FileWeightCache> file_cache;
  // Set by DelegatePrepare while ReplaceNodeSubsetsWithDelegateKernels runs
  // the partitions' KernelInit (below).
  PartitionBuild* building = nullptr;

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

  bool VariableOps() const {
    return (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS) != 0;
  }

  QuantFlags Quant() const {
    QuantFlags q;
    q.qs8 = (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_QS8) != 0;
    q.qu8 = (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_QU8) != 0;
    q.dynamic =
        (options.flags & TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_DYNAMICALLY_QUANTIZED_OPS) == 0;
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

inline Delegate* FromTfLite(TfLiteDelegate* d) { return reinterpret_cast<Delegate*>(d); }

// Resource tensor -> the delegate's variable (variables.h).
using ResourceMap = std::unordered_map<int, Delegate::Variable*>;

// What DelegatePrepare gives the kernels of its partitions and gets back from
// them. ReplaceNodeSubsetsWithDelegateKernels creates the kernels through
// KernelInit, whose signature has no room for either, so DelegatePrepare
// points Delegate::building at this for the duration of that call.
struct PartitionBuild {
  const StaticMap* statics = nullptr;      // tensor -> unpacked constant (fp16, sparse)
  const ResourceMap* resources = nullptr;  // resource tensor -> variable
  int failed = 0;                          // partitions XNNPACK could not build (each one reported)
  // One XNNPACK workspace (the memory of values internal to a runtime) for
  // the runtimes of all partitions of this graph: they run one after another,
  // so one workspace sized for the largest serves them all (separate ones
  // summed; the conformer has six partitions). Each runtime holds a
  // reference; DelegatePrepare drops its own when the partitions are built,
  // so the workspace lives exactly as long as the graph's runtimes (nullptr:
  // XNNPACK gives each runtime its own).
  xnn_workspace_t workspace = nullptr;
};

// ---- the kernel of one partition -------------------------------------------------------

struct Kernel {
  Delegate* delegate = nullptr;
  xnn_runtime_t runtime = nullptr;
  std::vector<int> external_inputs;   // tensor indices (= external ids)
  std::vector<int> input_ranks;       // theirs when the graph was defined
  std::vector<int> input_innermost;   // their innermost dimension then (-1: not checked)
  // Only with an XNNPACK that lacks our reshape checks (patch 0002): the
  // graph has operators whose channel count is baked in at definition
  // (convolutions, fully connected, constants broadcast along channels...),
  // which that XNNPACK's reshape does not check, so an input's innermost
  // dimension may not change (KernelPrepare). False when every operator is
  // element-wise between non-constant tensors (KeepsChannelsFree), or when
  // XNNPACK checks the shapes itself.
  bool innermost_fixed = true;
  std::vector<int> external_outputs;  // computed by XNNPACK
  std::vector<std::pair<int, StaticData>> static_outputs;  // copied at Invoke
  StaticMap statics;                  // unpacked constants XNNPACK still reads
                                      // (DropPackedOnlyStatics lets go of the rest)
  std::vector<StaticData> constants;  // scalars OpBuilder made up (SetConstants)
  std::vector<std::vector<int>> input_dims;  // at the last reshape
  std::vector<xnn_external_value> values;    // Invoke's scratch
  bool reshaped = false;
  // Reshaped while the shared weights cache was still open: operators were
  // handed addresses inside the cache's buffer, which moves as later
  // delegates pack into it. The first Invoke after finalization reshapes
  // again so they point into the final buffer.
  bool reshaped_with_open_cache = false;
  bool profiling = false;  // runtime created with XNN_FLAG_BASIC_PROFILING (profiling.h)
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

// A node of the execution plan DelegatePrepare looks at.
struct Entry {
  int index;
  TfLiteNode* node;
  TfLiteRegistration* reg;
};

// The partition kernel (kernel.cc): TfLiteRegistration callbacks. KernelInit
// returns nullptr, and counts the failure in Delegate::building, when the
// partition cannot be built.
void* KernelInit(TfLiteContext* context, const char* buffer, size_t length);
void KernelFree(TfLiteContext* context, void* buffer);
TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node);
TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode* node);

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_DELEGATE_INTERNAL_H_

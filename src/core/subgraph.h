// One executable graph: tensors, nodes, an execution plan and the
// TfLiteContext that kernels and delegates see.
//
// Kernels reach the subgraph only through the TfLiteContext callbacks
// (context->impl_ points back here), exactly as a third-party op would.
#ifndef TFLITE_C_SRC_CORE_SUBGRAPH_H_
#define TFLITE_C_SRC_CORE_SUBGRAPH_H_

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "src/core/arena_planner.h"
#include "src/core/error_reporter.h"
#include "src/core/memory_budget.h"
#include "src/core/partitioner.h"
#include "src/core/profiler.h"
#include "src/core/worker_pool.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

class Model;
class Subgraph;
struct ControlFlowState;  // src/core/subgraph_access.h

// State every subgraph of one interpreter shares.
struct InterpreterShared {
  ErrorReporter* reporter = nullptr;
  std::vector<std::unique_ptr<Subgraph>>* subgraphs = nullptr;
  TfLiteExternalContext* external_contexts[kTfLiteMaxExternalContexts] = {};
  // Model metadata by name (pointers into the model's bytes).
  std::map<std::string, std::pair<const char*, size_t>> metadata;
  // Set while an Invoke may continue; cleared by Cancel(). Only consulted
  // when cancellation is enabled.
  std::atomic_flag continue_invocation = ATOMIC_FLAG_INIT;
  bool cancellation_enabled = false;
  // The model the interpreter was built from (nullptr if none); used to
  // locate custom init data in the model file.
  const Model* model = nullptr;
  // Resource variables, CALL_ONCE status and the control-flow call stack,
  // created on first use by src/core/subgraph_access.cc.
  std::shared_ptr<ControlFlowState> control_flow;
  // Profilers receiving Invoke, node and delegate events (src/core/profiler.h).
  ProfilerState profilers;
  // What the interpreter holds (arenas of every subgraph, kernels' scratch
  // vectors) against its limit: TfLiteInterpreterOptionsSetMaxAllocationBytes,
  // else the process's budget when the interpreter was created
  // (DefaultMaxAllocationBytes(), src/core/memory_budget.h).
  MemoryAccountHandle memory{DefaultMaxAllocationBytes()};
  // The builtin kernels' threads (none until a kernel splits its work),
  // current on the thread that runs a kernel's invoke.
  WorkerPool workers;
};

class Subgraph {
 public:
  Subgraph(InterpreterShared* shared, int index);
  ~Subgraph();
  Subgraph(const Subgraph&) = delete;
  Subgraph& operator=(const Subgraph&) = delete;

  TfLiteContext* context() { return &context_; }
  int index() const { return index_; }
  InterpreterShared* shared() const { return shared_; }
  void SetName(std::string name) { name_ = std::move(name); }
  const std::string& name() const { return name_; }

  // A kernel standing in for a custom op no resolver knows. A delegate may
  // still claim the node; otherwise Prepare fails with kTfLiteUnresolvedOps.
  static TfLiteRegistration UnresolvedCustomOpRegistration(const char* name);

  // ---- construction --------------------------------------------------------
  TfLiteStatus AddTensors(int count, int* first_new_index = nullptr);
  // The tensor refers to `buffer` (not copied; it must outlive the subgraph).
  // Takes ownership of `quantization` and `sparsity` in every case.
  TfLiteStatus SetTensorParametersReadOnly(int index, TfLiteType type, const char* name,
                                           const std::vector<int>& dims,
                                           TfLiteQuantization quantization, const char* buffer,
                                           size_t bytes, TfLiteSparsity* sparsity = nullptr);
  TfLiteStatus SetTensorParametersReadWrite(int index, TfLiteType type, const char* name,
                                            const std::vector<int>& dims,
                                            TfLiteQuantization quantization, bool is_variable,
                                            const std::vector<int>* dims_signature = nullptr,
                                            TfLiteSparsity* sparsity = nullptr);
  // Takes ownership of `builtin_data` (released with free()) even on error.
  TfLiteStatus AddNodeWithParameters(const std::vector<int>& inputs,
                                     const std::vector<int>& outputs,
                                     const std::vector<int>& intermediates, const char* init_data,
                                     size_t init_data_size, void* builtin_data,
                                     const TfLiteRegistration* registration,
                                     int* node_index = nullptr);
  TfLiteStatus SetInputs(std::vector<int> inputs);
  TfLiteStatus SetOutputs(std::vector<int> outputs);
  TfLiteStatus SetVariables(std::vector<int> variables);
  // Gives the constants among `tensors` (the ones the public API hands
  // callers for writing: subgraph and signature inputs) private copies of
  // their model data. A write into one never reaches the model's (possibly
  // shared or read-only) bytes, and Invoke refuses to run on values changed
  // after AllocateTensors, since kernels sized their outputs from the old
  // ones. Call once, after the subgraph is built.
  void PrivatizeConstants(const std::vector<int>& tensors);

  // ---- running ---------------------------------------------------------------
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus ResetVariableTensors();
  TfLiteStatus Cancel();
  // Makes tensor `index` use caller-owned memory (kTfLiteCustom). The size is
  // checked against the tensor at AllocateTensors and on every resize.
  TfLiteStatus SetCustomAllocationForTensor(int index, const TfLiteCustomAllocation& allocation,
                                            int64_t flags);
  bool IsInvokable() const { return state_ == State::kInvokable; }
  // Points context()->profiler at this subgraph's SubgraphProfiler while the
  // interpreter has a profiler installed, at nullptr otherwise.
  void RefreshContextProfiler();
  void SetNumThreads(int n) { context_.recommended_num_threads = n; }

  // ---- delegates -------------------------------------------------------------
  // Runs the delegate's Prepare, which may replace node subsets with its own
  // kernels. On failure the original plan is restored and
  // kTfLiteDelegateError is returned (kTfLiteApplicationError when a
  // static-shape delegate meets a graph with dynamic tensors).
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);
  // Restores the pre-delegation plan and forgets every applied delegate.
  TfLiteStatus RemoveAllDelegates();
  bool HasDelegates() const { return !delegates_applied_.empty(); }
  // Copies delegate-held data back into the CPU buffer of `tensor_index` if
  // it is stale.
  TfLiteStatus EnsureTensorDataIsReadable(int tensor_index);

  // ---- inspection ------------------------------------------------------------
  const std::vector<int>& inputs() const { return inputs_; }
  const std::vector<int>& outputs() const { return outputs_; }
  const std::vector<int>& variables() const { return variables_; }
  const std::vector<int>& execution_plan() const { return execution_plan_; }
  size_t tensors_size() const { return tensors_.size(); }
  // nullptr when out of range.
  TfLiteTensor* tensor(int index);
  const TfLiteTensor* tensor(int index) const;
  size_t nodes_size() const { return nodes_.size(); }
  // nullptr when out of range.
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const;
  size_t arena_bytes() const { return arena_.committed_bytes(); }

  // ---- opaque API support (c_api_opaque_context.cc) ----------------------------------
  // A delegate handles subgraph `subgraph_index` itself (e.g. a WHILE body),
  // so delegates need not be offered it. Index 0 (primary) is rejected.
  TfLiteStatus MarkSubgraphAsDelegationSkippable(int subgraph_index);
  void MarkAsDelegationSkippable() { delegation_skippable_ = true; }
  bool IsDelegationSkippable() const { return delegation_skippable_; }
  // File descriptor of the mmapped model file and the byte range of `node`'s
  // custom options in it (-1/-1 when the node has none). kTfLiteError when
  // the model was not loaded from a file.
  TfLiteStatus GetNodeInitDataMmapInfo(const TfLiteNode* node, int* fd,
                                       int64_t* custom_initial_data_offset_in_file,
                                       int64_t* custom_initial_data_size) const;
  // A TfLiteOperator describing a node whose registration is not backed by
  // one (legacy TfLiteRegistration kernels). Cached per (code, name,
  // version) and owned by the subgraph.
  TfLiteOperator* OperatorForRegistration(const TfLiteRegistration& registration,
                                          int node_index);
  // Takes ownership of an operator handed to the runtime (the opaque
  // ReplaceNodeSubsetsWithDelegateKernels does this before calling the
  // context callback, whatever the outcome); deleted with the subgraph.
  // Adopting an operator the subgraph already owns is a no-op.
  void AdoptOperator(TfLiteOperator* op);

  void ReportError(const char* format, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
      ;
  ErrorReporter* reporter() const { return shared_->reporter; }

 private:
  enum class State { kUninvokable, kInvokable };

  // Kernel callbacks, dispatching to TfLiteOperator callbacks when the
  // registration came from the opaque API.
  // OpInit stores init's result in *user_data; kTfLiteError (reported) when
  // init threw. Every Op* call is guarded (src/core/exception_guard.h).
  TfLiteStatus OpInit(const TfLiteRegistration& r, const char* buffer, size_t length,
                      void** user_data);
  void OpFree(const TfLiteRegistration& r, void* data);
  TfLiteStatus OpPrepare(const TfLiteRegistration& r, TfLiteNode* node);
  TfLiteStatus OpInvoke(const TfLiteRegistration& r, TfLiteNode* node);
  // "<callback> of node <index> (<op name>)" into `buffer`, for messages
  // about an exception thrown by a node's callback.
  const char* DescribeNode(const char* callback, const TfLiteRegistration& r,
                           const TfLiteNode* node, char* buffer, size_t size) const;
  // Invoke without the profiler's end-of-Invoke event.
  TfLiteStatus InvokeNodes();

  TfLiteStatus ReplaceNodeSubsets(TfLiteRegistration registration,
                                  const TfLiteIntArray* nodes_to_replace,
                                  TfLiteDelegate* delegate);
  TfLiteStatus PreviewPartitioning(const TfLiteIntArray* nodes_to_replace,
                                   TfLiteDelegateParams** params, int* num_partitions);
  TfLiteStatus PartitionPlan(const TfLiteIntArray* nodes_to_replace,
                             std::vector<NodeSubset>* subsets);
  TfLiteStatus PrepareDelegate(TfLiteDelegate* delegate);
  TfLiteStatus UndoAllDelegates();
  TfLiteStatus RedoAllDelegates();
  // Releases what node `node_index` holds; its kernel's free runs unless
  // `call_free` is false (after an init that threw).
  void CleanupNode(int node_index, bool call_free = true);
  void ClearPreview();
  bool HasDynamicTensors() const;

  // Prepares nodes from plan position `pos` until (and including) the first
  // one whose output is dynamic, then plans and commits their memory.
  TfLiteStatus PrepareFrom(int pos);
  TfLiteStatus PlanMemory(int first_pos, int last_pos);
  // The interpreter's limit (shared_->memory->limit()).
  size_t AllocationLimit() const;
  // Grows `arena` to its plan, charging the growth to the interpreter's
  // account; fails with a message naming `what` when the growth would pass
  // the limit or memory cannot be had.
  bool CommitArena(ArenaPlanner* arena, const char* what, bool* moved);
  void ComputeLifetimes();
  void RefreshArenaPointers();
  bool HasDynamicOutput(const TfLiteNode& node) const;
  // Shapes of the tensors `node` both reads and writes (in place), taken
  // before its Prepare; CheckInPlaceShapes refuses a Prepare that resized
  // one of them or made it dynamic (the kernel would read the input with
  // the shape it had and the buffer of the new one).
  struct InPlaceTensor {
    int index;
    std::vector<int> dims;
    TfLiteAllocationType allocation_type;
  };
  std::vector<InPlaceTensor> InPlaceTensors(const TfLiteNode& node) const;
  TfLiteStatus CheckInPlaceShapes(int node_index, const TfLiteRegistration& reg,
                                  const std::vector<InPlaceTensor>& before);
  // The in-place tensors of the node being prepared (the one at
  // preparing_pos_; null outside its Prepare): ResizeTensor refuses to
  // change their shape at once, since the kernel may go on reading the
  // input's old dimensions (UNPACK over its own input read past the new,
  // shorter dims array).
  const std::vector<InPlaceTensor>* preparing_in_place_ = nullptr;
  void ReportInPlaceChange(int node_index, const TfLiteRegistration& reg, int tensor,
                           bool became_dynamic);
  const char* OpName(const TfLiteRegistration& r) const;
  TfLiteStatus ResizeTensorImpl(TfLiteTensor* tensor, TfLiteIntArray* new_size);
  TfLiteStatus CheckTensorIndices(const char* what, const std::vector<int>& indices,
                                  bool allow_optional);
  void ReserveTensorHeadroom();

  // TfLiteContext entry points.
  static TfLiteStatus CtxResizeTensor(TfLiteContext* ctx, TfLiteTensor* tensor,
                                      TfLiteIntArray* new_size);
  static void CtxReportError(TfLiteContext* ctx, const char* format, ...);
  static TfLiteStatus CtxAddTensors(TfLiteContext* ctx, int count, int* first);
  static TfLiteStatus CtxGetNodeAndRegistration(TfLiteContext* ctx, int node_index,
                                                TfLiteNode** node,
                                                TfLiteRegistration** registration);
  static TfLiteStatus CtxReplaceNodeSubsets(TfLiteContext* ctx,
                                            TfLiteRegistration registration,
                                            const TfLiteIntArray* nodes_to_replace,
                                            TfLiteDelegate* delegate);
  static TfLiteStatus CtxGetExecutionPlan(TfLiteContext* ctx, TfLiteIntArray** plan);
  static TfLiteExternalContext* CtxGetExternalContext(TfLiteContext* ctx,
                                                      TfLiteExternalContextType type);
  static void CtxSetExternalContext(TfLiteContext* ctx, TfLiteExternalContextType type,
                                    TfLiteExternalContext* external);
  static void* CtxAllocatePersistentBuffer(TfLiteContext* ctx, size_t bytes);
  static TfLiteStatus CtxAllocateBufferForEval(TfLiteContext* ctx, size_t bytes, void** ptr);
  static TfLiteStatus CtxRequestScratchBuffer(TfLiteContext* ctx, size_t bytes, int* index);
  static void* CtxGetScratchBuffer(TfLiteContext* ctx, int index);
  static TfLiteStatus CtxResizeTensorExplicit(TfLiteContext* ctx, TfLiteTensor* tensor,
                                              int dims, const int* shape);
  static TfLiteStatus CtxPreviewDelegatePartitioning(
      TfLiteContext* ctx, const TfLiteIntArray* nodes_to_replace,
      TfLiteDelegateParams** partition_params_array, int* num_partitions);
  static TfLiteTensor* CtxGetTensor(const TfLiteContext* ctx, int index);
  static TfLiteEvalTensor* CtxGetEvalTensor(const TfLiteContext* ctx, int index);
  static TfLiteStatus CtxGetModelMetadata(const TfLiteContext* ctx, const char* name,
                                          const char** ptr, size_t* bytes);
  static TfLiteStatus CtxAcquireSubgraphContext(TfLiteContext* ctx, int subgraph_index,
                                                TfLiteContext** acquired);
  static TfLiteStatus CtxReleaseSubgraphContext(TfLiteContext* ctx, int subgraph_index);

  InterpreterShared* shared_;
  int index_;
  std::string name_;
  TfLiteContext context_{};
  SubgraphProfiler context_profiler_;
  std::vector<TfLiteTensor> tensors_;
  std::vector<TfLiteEvalTensor> eval_tensors_;
  std::vector<std::pair<TfLiteNode, TfLiteRegistration>> nodes_;
  std::vector<int> inputs_, outputs_, variables_;
  std::vector<int> execution_plan_;
  TfLiteIntArray* plan_array_ = nullptr;  // handed out by GetExecutionPlan

  // Memory.
  ArenaPlanner arena_;
  ArenaPlanner persistent_arena_;  // variable tensors
  std::vector<void*> persistent_buffers_;
  std::map<int, TfLiteCustomAllocation> custom_allocations_;
  struct Scratch {
    int pos;  // plan position of the requesting node
    size_t bytes;
  };
  std::vector<Scratch> scratch_;
  // Per tensor: plan positions of first and last use (-1 = unused).
  std::vector<int> first_use_, last_use_;
  bool lifetimes_valid_ = false;
  // PrivatizeConstants: the copies the tensors point at (first half) and
  // their bytes as the last full Prepare saw them (second half).
  std::vector<char> constant_copies_;
  bool ConstantInputsChanged() const;
  // Copies the first half of constant_copies_ to the second (after Prepare).
  void RecordPreparedConstants();

  // Delegation.
  std::vector<TfLiteDelegate*> delegates_applied_;
  std::vector<int> pre_delegation_plan_;
  bool delegates_undone_ = false;
  bool delegate_preparing_ = false;  // inside a delegate's Prepare
  bool immutable_ = false;           // a static-shape delegate is applied
  std::vector<TfLiteDelegateParams> preview_params_;
  std::vector<TfLiteIntArray*> preview_arrays_;
  std::set<TfLiteOperator*> owned_operators_;  // opaque delegate kernels

  State state_ = State::kUninvokable;
  int next_to_prepare_ = 0;   // plan position from which nodes need Prepare
  int preparing_pos_ = -1;    // plan position being prepared (scratch requests)
  bool invoking_ = false;
  bool tensor_resized_since_op_invoke_ = false;

  // Opaque API support.
  bool delegation_skippable_ = false;
  struct OperatorDeleter {
    void operator()(TfLiteOperator* op) const;
  };
  std::map<std::tuple<int, std::string, int>, std::unique_ptr<TfLiteOperator, OperatorDeleter>>
      legacy_operators_;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_SUBGRAPH_H_

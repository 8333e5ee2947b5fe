// WHILE, IF, STABLEHLO_CASE and CALL_ONCE: ops that run other subgraphs of
// the interpreter.
//
// The other subgraph is reached through context->AcquireSubgraphContext; it
// is sized, allocated and run through src/core/subgraph_access.h, which also
// refuses recursion (a body that contains its own WHILE) with an error.
//
// Data always moves by copy: values enter a subgraph by resizing its inputs
// to the shapes at hand, allocating it and copying the bytes in; results come
// back by copying its outputs into the node's outputs. When shapes may change
// from one iteration or branch to the next (a dynamic tensor in the callee,
// or a loop body whose output shape differs from its input shape) the node's
// outputs are dynamic tensors, resized on every copy.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "src/core/subgraph_access.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

// ---- helpers shared by the three ops ---------------------------------------

// A resource id may travel as INT32 or RESOURCE; everything else must match.
bool CompatibleTypes(TfLiteType a, TfLiteType b) {
  auto id_like = [](TfLiteType t) { return t == kTfLiteInt32 || t == kTfLiteResource; };
  return a == b || (id_like(a) && id_like(b));
}

TfLiteStatus AcquireSubgraph(TfLiteContext* context, const char* op, const char* role, int index,
                             TfLiteContext** out) {
  if (context->AcquireSubgraphContext == nullptr ||
      context->AcquireSubgraphContext(context, index, out) != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context, "%s: invalid %s subgraph index %d", op, role, index);
    return kTfLiteError;
  }
  if (context->ReleaseSubgraphContext != nullptr) context->ReleaseSubgraphContext(context, index);
  if (index == SubgraphIndexOf(context)) {
    TF_LITE_KERNEL_LOG(context, "%s: %s subgraph %d is the subgraph the op is in", op, role, index);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckCount(TfLiteContext* context, const char* op, const char* what, size_t actual,
                        size_t expected) {
  if (actual != expected) {
    TF_LITE_KERNEL_LOG(context, "%s: %s: expected %zu, got %zu", op, what, expected, actual);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// True when any tensor of the subgraph behind `sub` is dynamic: its output
// shapes may then change at Invoke time.
bool HasDynamicTensors(const TfLiteContext* sub) {
  for (size_t i = 0; i < sub->tensors_size; ++i) {
    if (sub->tensors[i].allocation_type == kTfLiteDynamic) return true;
  }
  return false;
}

// Copies the bytes of `src` into `dst` (whose shape already matches). A
// dynamic `dst` is first (re)allocated to fit.
TfLiteStatus CopyBytes(TfLiteContext* context, const char* op, const TfLiteTensor* src,
                       TfLiteTensor* dst) {
  if (dst->allocation_type == kTfLiteDynamic &&
      (dst->bytes != src->bytes || dst->data.raw == nullptr)) {
    TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(src->bytes, dst));
    dst->bytes = src->bytes;
  }
  if (dst->bytes != src->bytes) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot copy %zu bytes into a tensor of %zu bytes", op,
                       src->bytes, dst->bytes);
    return kTfLiteError;
  }
  if (src->bytes == 0 || src->data.raw_const == dst->data.raw) return kTfLiteOk;
  if (src->data.raw_const == nullptr || dst->data.raw == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: tensor without data", op);
    return kTfLiteError;
  }
  std::memcpy(dst->data.raw, src->data.raw_const, src->bytes);
  return kTfLiteOk;
}

// Copies `src` into `dst`, a tensor of `context`'s own subgraph; when `resize`
// is set, `dst` first takes `src`'s shape.
TfLiteStatus CopyToOwnTensor(TfLiteContext* context, const char* op, const TfLiteTensor* src,
                             TfLiteTensor* dst, bool resize) {
  if (resize && !internal::SameShape(src->dims, dst->dims)) {
    TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, dst, TfLiteIntArrayCopy(src->dims)));
  }
  return CopyBytes(context, op, src, dst);
}

// Gives the inputs of the subgraph behind `callee` the types and shapes of
// `values` and allocates it; with `copy_data`, also copies the values in.
TfLiteStatus FeedSubgraph(TfLiteContext* context, const char* op, TfLiteContext* callee,
                          const std::vector<const TfLiteTensor*>& values, bool copy_data) {
  const std::vector<int>& inputs = SubgraphInputs(callee);
  TF_LITE_ENSURE_OK(context,
                    CheckCount(context, op, "subgraph inputs", inputs.size(), values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (inputs[i] == kTfLiteOptionalTensor) continue;
    const TfLiteTensor* dst = &callee->tensors[inputs[i]];
    if (!CompatibleTypes(dst->type, values[i]->type)) {
      TF_LITE_KERNEL_LOG(context, "%s: input %zu of subgraph %d is %s but the op passes %s", op, i,
                         SubgraphIndexOf(callee), TfLiteTypeGetName(dst->type),
                         TfLiteTypeGetName(values[i]->type));
      return kTfLiteError;
    }
    if (ResizeSubgraphInput(callee, static_cast<int>(i), values[i]->dims) != kTfLiteOk) {
      TF_LITE_KERNEL_LOG(context, "%s: cannot resize input %zu of subgraph %d", op, i,
                         SubgraphIndexOf(callee));
      return kTfLiteError;
    }
  }
  TF_LITE_ENSURE_OK(context, AllocateSubgraph(context, callee));
  if (!copy_data) return kTfLiteOk;
  for (size_t i = 0; i < values.size(); ++i) {
    if (inputs[i] == kTfLiteOptionalTensor) continue;
    TfLiteTensor* dst = &callee->tensors[inputs[i]];
    // An input the subgraph never reads gets no memory: nothing to copy.
    if (dst->data.raw == nullptr && dst->allocation_type == kTfLiteArenaRw) continue;
    TF_LITE_ENSURE_OK(context, CopyBytes(context, op, values[i], dst));
  }
  return kTfLiteOk;
}

std::vector<const TfLiteTensor*> Tensors(const TfLiteContext* context, const int* indices,
                                         int count) {
  std::vector<const TfLiteTensor*> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(&context->tensors[indices[i]]);
  return out;
}

TfLiteStatus CheckNodeTensors(TfLiteContext* context, const char* op, const TfLiteNode* node) {
  for (const TfLiteIntArray* list : {node->inputs, node->outputs}) {
    for (int i = 0; i < list->size; ++i) {
      const int t = list->data[i];
      if (t < 0 || static_cast<size_t>(t) >= context->tensors_size) {
        TF_LITE_KERNEL_LOG(context, "%s: inputs and outputs must all be present tensors", op);
        return kTfLiteError;
      }
    }
  }
  return kTfLiteOk;
}

// Makes the node's outputs dynamic, or sizes them like `shapes`.
TfLiteStatus SetNodeOutputs(TfLiteContext* context, TfLiteNode* node, bool dynamic,
                            const std::vector<const TfLiteTensor*>& shapes) {
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* output = internal::OutputAt(context, node, i);
    if (dynamic) {
      internal::SetTensorToDynamic(output);
    } else {
      TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, shapes[i]->dims));
    }
  }
  return kTfLiteOk;
}

// ---- WHILE ------------------------------------------------------------------

constexpr char kWhile[] = "WHILE";

struct WhileData {
  int cond_index = -1;
  int body_index = -1;
  bool cond_dynamic = false;  // the condition's output is only known at Eval
  bool body_dynamic = false;  // loop-carried shapes may change
};

void* WhileInit(TfLiteContext*, const char* buffer, size_t) {
  auto* data = new WhileData;
  if (const auto* params = reinterpret_cast<const TfLiteWhileParams*>(buffer)) {
    data->cond_index = params->cond_subgraph_index;
    data->body_index = params->body_subgraph_index;
  }
  return data;
}

void WhileFree(TfLiteContext*, void* data) { delete static_cast<WhileData*>(data); }

// TFLITE_C_MAX_WHILE_ITERATIONS: the budget of interpreters whose options set
// none (see tflite_c_experimental.h), read each time a WHILE node runs.
// Anything but a positive decimal number means no limit.
int64_t EnvWhileBudget() {
  const char* text = std::getenv("TFLITE_C_MAX_WHILE_ITERATIONS");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || value <= 0) return 0;
  return static_cast<int64_t>(value);
}

// The condition must yield one BOOL: a scalar or shape [1].
TfLiteStatus CheckCondOutput(TfLiteContext* context, const TfLiteTensor* out) {
  if (out->type != kTfLiteBool) {
    TF_LITE_KERNEL_LOG(context, "%s: condition subgraph output is %s, expected BOOL", kWhile,
                       TfLiteTypeGetName(out->type));
    return kTfLiteError;
  }
  if (out->dims == nullptr || internal::NumElements(out->dims) != 1 || out->dims->size > 1) {
    TF_LITE_KERNEL_LOG(context, "%s: condition subgraph output must be a scalar or shape [1]",
                       kWhile);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// Shapes count as equal when both hold a single element (scalar vs [1]).
bool LoopShapeKept(const TfLiteIntArray* in, const TfLiteIntArray* out) {
  if (internal::SameShape(in, out)) return true;
  return in->size <= 1 && out->size <= 1 && internal::NumElements(in) == 1 &&
         internal::NumElements(out) == 1;
}

TfLiteStatus WhilePrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<WhileData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, CheckNodeTensors(context, kWhile, node));
  const int n = node->inputs->size;
  TF_LITE_ENSURE_OK(context,
                    CheckCount(context, kWhile, "outputs (one per input)", node->outputs->size, n));
  TfLiteContext* cond;
  TfLiteContext* body;
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kWhile, "cond", data->cond_index, &cond));
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kWhile, "body", data->body_index, &body));
  if (data->cond_index == data->body_index) {
    TF_LITE_KERNEL_LOG(context, "%s: cond and body are the same subgraph %d", kWhile,
                       data->cond_index);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context,
                    CheckCount(context, kWhile, "cond outputs", SubgraphOutputs(cond).size(), 1));
  TF_LITE_ENSURE_OK(context,
                    CheckCount(context, kWhile, "body outputs", SubgraphOutputs(body).size(), n));
  const std::vector<const TfLiteTensor*> inputs = Tensors(context, node->inputs->data, n);
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* out = internal::OutputAt(context, node, i);
    if (!CompatibleTypes(inputs[i]->type, out->type)) {
      return internal::TypeMismatch(context, kWhile, "input", inputs[i]->type, "output", out->type);
    }
  }

  TF_LITE_ENSURE_OK(context, FeedSubgraph(context, kWhile, cond, inputs, false));
  const int cond_out = SubgraphOutputs(cond)[0];
  if (cond_out < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: condition subgraph has no output tensor", kWhile);
    return kTfLiteError;
  }
  data->cond_dynamic = cond->tensors[cond_out].allocation_type == kTfLiteDynamic;
  if (!data->cond_dynamic)
    TF_LITE_ENSURE_OK(context, CheckCondOutput(context, &cond->tensors[cond_out]));

  TF_LITE_ENSURE_OK(context, FeedSubgraph(context, kWhile, body, inputs, false));
  const std::vector<int>& body_outputs = SubgraphOutputs(body);
  std::vector<const TfLiteTensor*> results;
  data->body_dynamic = HasDynamicTensors(body);
  for (int i = 0; i < n; ++i) {
    if (body_outputs[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: body output %d is missing", kWhile, i);
      return kTfLiteError;
    }
    const TfLiteTensor* result = &body->tensors[body_outputs[i]];
    if (!CompatibleTypes(result->type, inputs[i]->type)) {
      return internal::TypeMismatch(context, kWhile, "loop variable", inputs[i]->type,
                                    "body output", result->type);
    }
    // A body whose output shape differs from its input shape changes the
    // shape every iteration (e.g. appending a row): only Eval knows the end.
    if (!LoopShapeKept(inputs[i]->dims, result->dims)) data->body_dynamic = true;
    results.push_back(result);
  }
  return SetNodeOutputs(context, node, data->body_dynamic, results);
}

TfLiteStatus WhileEval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const WhileData*>(node->user_data);
  const int n = node->inputs->size;
  TfLiteContext* cond;
  TfLiteContext* body;
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kWhile, "cond", data->cond_index, &cond));
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kWhile, "body", data->body_index, &body));
  // The node's outputs carry the loop variables from one step to the next.
  const std::vector<const TfLiteTensor*> state = Tensors(context, node->outputs->data, n);
  for (int i = 0; i < n; ++i) {
    TfLiteTensor* out = internal::OutputAt(context, node, i);
    TF_LITE_ENSURE_OK(context, CopyToOwnTensor(context, kWhile, internal::InputAt(context, node, i),
                                               out, internal::IsDynamic(out)));
  }
  const ControlFlowState* cf = ControlFlowStateOf(context);
  int64_t budget = cf != nullptr ? cf->max_while_iterations : 0;
  if (budget <= 0) budget = EnvWhileBudget();
  for (int64_t iteration = 0;; ++iteration) {
    TF_LITE_ENSURE_OK(context, FeedSubgraph(context, kWhile, cond, state, true));
    TF_LITE_ENSURE_OK(context, InvokeSubgraph(context, cond));
    const TfLiteTensor* flag = &cond->tensors[SubgraphOutputs(cond)[0]];
    if (data->cond_dynamic) TF_LITE_ENSURE_OK(context, CheckCondOutput(context, flag));
    if (flag->data.b == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: condition subgraph produced no value", kWhile);
      return kTfLiteError;
    }
    if (internal::BoolAt(flag, 0) == false) break;
    if (budget > 0 && iteration >= budget) {
      TF_LITE_KERNEL_LOG(context, "%s: loop exceeded its budget of %lld iterations", kWhile,
                         static_cast<long long>(budget));
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, FeedSubgraph(context, kWhile, body, state, true));
    TF_LITE_ENSURE_OK(context, InvokeSubgraph(context, body));
    const std::vector<int>& body_outputs = SubgraphOutputs(body);
    for (int i = 0; i < n; ++i) {
      TfLiteTensor* out = internal::OutputAt(context, node, i);
      const TfLiteTensor* result = &body->tensors[body_outputs[i]];
      if (!internal::IsDynamic(out) && !LoopShapeKept(out->dims, result->dims)) {
        TF_LITE_KERNEL_LOG(context, "%s: body output %d changed shape during the loop", kWhile, i);
        return kTfLiteError;
      }
      TF_LITE_ENSURE_OK(context,
                        CopyToOwnTensor(context, kWhile, result, out, internal::IsDynamic(out)));
    }
  }
  return kTfLiteOk;
}

// ---- IF and STABLEHLO_CASE -------------------------------------------------
//
// Both run one of several branch subgraphs on inputs 1..n of the node; input
// 0 picks the branch. Prepare sizes and allocates every branch; when the
// branches' output shapes differ (or may change) the outputs are dynamic.

constexpr char kIf[] = "IF";
constexpr char kCase[] = "STABLEHLO_CASE";

struct BranchData {
  std::vector<int> branches;  // subgraph indices; IF: {then, else}
  bool is_if = false;
  bool dynamic = false;  // output shapes depend on the branch taken
};

// The name of branch `b` in messages: "then branch"/"else branch", or
// "branch <b>".
const char* BranchName(const BranchData& data, size_t b, char (&buffer)[32]) {
  if (data.is_if) return b == 0 ? "then branch" : "else branch";
  std::snprintf(buffer, sizeof(buffer), "branch %zu", b);
  return buffer;
}

TfLiteStatus PrepareBranches(TfLiteContext* context, TfLiteNode* node, const char* op,
                             BranchData* data) {
  std::vector<TfLiteContext*> branches(data->branches.size());
  char name[32];
  for (size_t b = 0; b < branches.size(); ++b) {
    TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, op, BranchName(*data, b, name),
                                               data->branches[b], &branches[b]));
  }
  const std::vector<const TfLiteTensor*> args =
      Tensors(context, node->inputs->data + 1, node->inputs->size - 1);
  const int num_outputs = node->outputs->size;
  data->dynamic = false;
  for (TfLiteContext* branch : branches) {
    TF_LITE_ENSURE_OK(context, CheckCount(context, op, "branch outputs",
                                          SubgraphOutputs(branch).size(), num_outputs));
    TF_LITE_ENSURE_OK(context, FeedSubgraph(context, op, branch, args, false));
    data->dynamic |= HasDynamicTensors(branch);
  }
  std::vector<const TfLiteTensor*> results;
  for (int i = 0; i < num_outputs; ++i) {
    const TfLiteTensor* out = internal::OutputAt(context, node, i);
    const TfLiteTensor* first = nullptr;
    for (size_t b = 0; b < branches.size(); ++b) {
      const int t = SubgraphOutputs(branches[b])[i];
      if (t < 0) {
        TF_LITE_KERNEL_LOG(context, "%s: branch output %d is missing", op, i);
        return kTfLiteError;
      }
      const TfLiteTensor* result = &branches[b]->tensors[t];
      if (!CompatibleTypes(result->type, out->type)) {
        TF_LITE_KERNEL_LOG(context, "%s: output %d is %s but the %s yields %s", op, i,
                           TfLiteTypeGetName(out->type), BranchName(*data, b, name),
                           TfLiteTypeGetName(result->type));
        return kTfLiteError;
      }
      if (first == nullptr) {
        first = result;
      } else if (!internal::SameShape(first->dims, result->dims)) {
        data->dynamic = true;
      }
    }
    results.push_back(first);
  }
  return SetNodeOutputs(context, node, data->dynamic, results);
}

// Runs branch `b` on the node's inputs 1..n and copies its results out.
TfLiteStatus RunBranch(TfLiteContext* context, TfLiteNode* node, const char* op,
                       const BranchData& data, size_t b) {
  TfLiteContext* branch;
  char name[32];
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, op, BranchName(data, b, name),
                                             data.branches[b], &branch));
  const std::vector<const TfLiteTensor*> args =
      Tensors(context, node->inputs->data + 1, node->inputs->size - 1);
  TF_LITE_ENSURE_OK(context, FeedSubgraph(context, op, branch, args, true));
  TF_LITE_ENSURE_OK(context, InvokeSubgraph(context, branch));
  const std::vector<int>& results = SubgraphOutputs(branch);
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* out = internal::OutputAt(context, node, i);
    const TfLiteTensor* result = &branch->tensors[results[i]];
    if (!internal::IsDynamic(out) && !internal::SameShape(out->dims, result->dims)) {
      TF_LITE_KERNEL_LOG(context, "%s: branch output %d has an unexpected shape", op, i);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context,
                      CopyToOwnTensor(context, op, result, out, internal::IsDynamic(out)));
  }
  return kTfLiteOk;
}

// Checks that input 0, the selector, is one element of `type`.
TfLiteStatus CheckSelector(TfLiteContext* context, const TfLiteNode* node, const char* op,
                           const char* what, TfLiteType type) {
  TF_LITE_ENSURE_OK(context, CheckNodeTensors(context, op, node));
  if (node->inputs->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: needs %s input", op, what);
    return kTfLiteError;
  }
  const TfLiteTensor* selector = internal::InputAt(context, node, 0);
  if (selector->type != type || internal::NumElements(selector) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s must be a single %s, got %s with %lld elements", op, what,
                       TfLiteTypeGetName(type), TfLiteTypeGetName(selector->type),
                       static_cast<long long>(internal::NumElements(selector)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

void* IfInit(TfLiteContext*, const char* buffer, size_t) {
  auto* data = new BranchData;
  data->is_if = true;
  data->branches = {-1, -1};
  if (const auto* params = reinterpret_cast<const TfLiteIfParams*>(buffer)) {
    data->branches = {params->then_subgraph_index, params->else_subgraph_index};
  }
  return data;
}

void BranchFree(TfLiteContext*, void* data) { delete static_cast<BranchData*>(data); }

TfLiteStatus IfPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckSelector(context, node, kIf, "condition", kTfLiteBool));
  return PrepareBranches(context, node, kIf, static_cast<BranchData*>(node->user_data));
}

TfLiteStatus IfEval(TfLiteContext* context, TfLiteNode* node) {
  const bool cond = internal::BoolAt(internal::InputAt(context, node, 0), 0);
  return RunBranch(context, node, kIf, *static_cast<const BranchData*>(node->user_data),
                   cond ? 0 : 1);
}

void* CaseInit(TfLiteContext*, const char* buffer, size_t) {
  auto* data = new BranchData;
  if (const auto* params = reinterpret_cast<const TfLiteStablehloCaseParams*>(buffer)) {
    const uint32_t n =
        std::min<uint32_t>(params->num_branches, TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT);
    data->branches.assign(params->branch_subgraph_indices, params->branch_subgraph_indices + n);
  }
  return data;
}

TfLiteStatus CasePrepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<BranchData*>(node->user_data);
  if (data->branches.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s: needs at least one branch", kCase);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, CheckSelector(context, node, kCase, "index", kTfLiteInt32));
  return PrepareBranches(context, node, kCase, data);
}

TfLiteStatus CaseEval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const BranchData*>(node->user_data);
  const int32_t index = internal::InputAt(context, node, 0)->data.i32[0];
  // An index outside [0, n) selects the last branch (StableHLO's rule).
  const size_t n = data.branches.size();
  const size_t b = index < 0 || static_cast<size_t>(index) >= n ? n - 1 : index;
  return RunBranch(context, node, kCase, data, b);
}

// ---- CALL_ONCE
// ----------------------------------------------------------------
//
// Runs its init subgraph (no inputs, no outputs; typically assigning
// resource variables) the first time it is evaluated in the interpreter's
// life; later evaluations, and ResetVariableTensors, leave it done.

constexpr char kCallOnce[] = "CALL_ONCE";

struct CallOnceData {
  int init_index = -1;
};

void* CallOnceInit(TfLiteContext*, const char* buffer, size_t) {
  auto* data = new CallOnceData;
  if (const auto* params = reinterpret_cast<const TfLiteCallOnceParams*>(buffer)) {
    data->init_index = params->init_subgraph_index;
  }
  return data;
}

void CallOnceFree(TfLiteContext*, void* data) { delete static_cast<CallOnceData*>(data); }

bool AlreadyRan(TfLiteContext* context, int init_index) {
  const ControlFlowState* state = ControlFlowStateOf(context);
  return state != nullptr && state->initialized_subgraphs.count(init_index) != 0;
}

TfLiteStatus CallOncePrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const CallOnceData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kCallOnce, 0, 0, 0));
  TfLiteContext* init;
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kCallOnce, "init", data->init_index, &init));
  if (AlreadyRan(context, data->init_index)) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckCount(context, kCallOnce, "init subgraph inputs",
                                        SubgraphInputs(init).size(), 0));
  return CheckCount(context, kCallOnce, "init subgraph outputs", SubgraphOutputs(init).size(), 0);
}

TfLiteStatus CallOnceEval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const CallOnceData*>(node->user_data);
  if (AlreadyRan(context, data->init_index)) return kTfLiteOk;
  TfLiteContext* init;
  TF_LITE_ENSURE_OK(context, AcquireSubgraph(context, kCallOnce, "init", data->init_index, &init));
  TF_LITE_ENSURE_OK(context, AllocateSubgraph(context, init));
  TF_LITE_ENSURE_OK(context, InvokeSubgraph(context, init));
  ControlFlowState* state = ControlFlowStateOf(context);
  if (state == nullptr) return kTfLiteError;
  state->initialized_subgraphs.insert(data->init_index);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_WHILE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(WhileInit, WhileFree, WhilePrepare, WhileEval);
  return &r;
}

const TfLiteRegistration* Register_IF() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(IfInit, BranchFree, IfPrepare, IfEval);
  return &r;
}

const TfLiteRegistration* Register_STABLEHLO_CASE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(CaseInit, BranchFree, CasePrepare, CaseEval);
  return &r;
}

const TfLiteRegistration* Register_CALL_ONCE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(CallOnceInit, CallOnceFree, CallOncePrepare, CallOnceEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

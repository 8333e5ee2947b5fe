// The node and context accessors of core/c/c_api_opaque.h (tensors and the
// tensor builder: c_api_opaque.cc, whose header comment describes the
// conventions both follow).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "src/c_api/c_api_opaque_internal.h"
#include "src/core/error_reporter.h"
#include "src/core/exception_guard.h"
#include "src/core/operator_internal.h"
#include "src/core/subgraph.h"
#include "src/core/tensor_util.h"
#include "tensorflow/lite/builtin_ops.h"

namespace {

using tflite_c::GuardC;
using tflite_c::Subgraph;
using tflite_c::opaque_internal::Unwrap;
using tflite_c::opaque_internal::Wrap;

// The subgraph behind a context, or nullptr for a NULL / foreign context.
Subgraph* SubgraphOf(const TfLiteOpaqueContext* c) {
  const TfLiteContext* ctx = Unwrap(c);
  return ctx == nullptr ? nullptr : static_cast<Subgraph*>(ctx->impl_);
}

// The reporter behind a context (for GuardC), the default one without.
tflite_c::ErrorReporter* ReporterOf(const TfLiteOpaqueContext* c) {
  const Subgraph* sg = SubgraphOf(c);
  return sg != nullptr ? sg->reporter() : tflite_c::DefaultErrorReporter();
}

// Reports through the context when there is one (the context's callback
// reaches the interpreter's error reporter); silently drops otherwise.
void Complain(const TfLiteOpaqueContext* c, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void Complain(const TfLiteOpaqueContext* c, const char* format, ...) {
  TfLiteContext* ctx = const_cast<TfLiteContext*>(Unwrap(c));
  if (ctx == nullptr || ctx->ReportError == nullptr) return;
  char message[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  ctx->ReportError(ctx, "%s", message);
}

// Tensor `index` of the context's graph, nullptr if out of range.
TfLiteTensor* TensorAt(const TfLiteContext* ctx, int index) {
  if (ctx == nullptr || index < 0) return nullptr;
  if (ctx->tensors != nullptr) {
    if (static_cast<size_t>(index) >= ctx->tensors_size) return nullptr;
    return &ctx->tensors[index];
  }
  return ctx->GetTensor != nullptr ? ctx->GetTensor(ctx, index) : nullptr;
}

// Entry `position` of one of a node's index lists, as a tensor; nullptr for
// out-of-range positions and absent optional tensors.
TfLiteTensor* NodeTensor(const TfLiteContext* ctx, const TfLiteIntArray* list, int position) {
  if (list == nullptr || position < 0 || position >= list->size) return nullptr;
  const int tensor_index = list->data[position];
  if (tensor_index == kTfLiteOptionalTensor) return nullptr;
  return TensorAt(ctx, tensor_index);
}

TfLiteStatus ExposeIndexList(const TfLiteIntArray* list, const int** data, int* size) {
  if (data == nullptr || size == nullptr) return kTfLiteError;
  if (list == nullptr) {
    *data = nullptr;
    *size = 0;
  } else {
    *data = list->data;
    *size = list->size;
  }
  return kTfLiteOk;
}

TfLiteStatus ExposeIndexVector(const TfLiteOpaqueContext* c, const char* fn,
                               const std::vector<int>& (Subgraph::*getter)() const,
                               const int** data, int* size) {
  Subgraph* sg = SubgraphOf(c);
  if (sg == nullptr) return kTfLiteError;
  if (data == nullptr || size == nullptr) {
    Complain(c, "%s: output arguments must not be NULL", fn);
    return kTfLiteError;
  }
  const std::vector<int>& v = (sg->*getter)();
  *data = v.data();
  *size = static_cast<int>(v.size());
  return kTfLiteOk;
}

}  // namespace

extern "C" {

// ===== TfLiteOpaqueNode ==========================================================

const TfLiteOpaqueTensor* TfLiteOpaqueNodeGetInput(const TfLiteOpaqueContext* opaque_context,
                                                   const TfLiteOpaqueNode* opaque_node,
                                                   int index) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return nullptr;
  return Wrap(NodeTensor(Unwrap(opaque_context), node->inputs, index));
}

TfLiteOpaqueTensor* TfLiteOpaqueNodeGetOutput(TfLiteOpaqueContext* opaque_context,
                                              const TfLiteOpaqueNode* opaque_node, int index) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return nullptr;
  return Wrap(NodeTensor(Unwrap(opaque_context), node->outputs, index));
}

int TfLiteOpaqueNodeNumberOfInputs(const TfLiteOpaqueNode* opaque_node) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return -1;
  return node->inputs != nullptr ? node->inputs->size : 0;
}

int TfLiteOpaqueNodeNumberOfOutputs(const TfLiteOpaqueNode* opaque_node) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return -1;
  return node->outputs != nullptr ? node->outputs->size : 0;
}

void* TfLiteOpaqueNodeGetUserData(const TfLiteOpaqueNode* opaque_node) {
  const TfLiteNode* node = Unwrap(opaque_node);
  return node != nullptr ? node->user_data : nullptr;
}

void* TfLiteOpaqueNodeGetBuiltinData(const TfLiteOpaqueNode* opaque_node) {
  const TfLiteNode* node = Unwrap(opaque_node);
  return node != nullptr ? node->builtin_data : nullptr;
}

TfLiteStatus TfLiteOpaqueNodeGetCustomInitialData(const TfLiteOpaqueNode* opaque_node,
                                                  const void** init_data, int* size) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr || init_data == nullptr || size == nullptr) return kTfLiteError;
  *init_data = node->custom_initial_data;
  *size = node->custom_initial_data_size;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueNodeInputs(const TfLiteOpaqueNode* opaque_node, const int** inputs,
                                    int* num_inputs) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return kTfLiteError;
  return ExposeIndexList(node->inputs, inputs, num_inputs);
}

TfLiteStatus TfLiteOpaqueNodeOutputs(const TfLiteOpaqueNode* opaque_node, const int** outputs,
                                     int* num_outputs) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return kTfLiteError;
  return ExposeIndexList(node->outputs, outputs, num_outputs);
}

TfLiteStatus TfLiteOpaqueNodeSetTemporaries(TfLiteOpaqueNode* opaque_node, const int* temporaries,
                                            int num_temporaries) {
  TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr || num_temporaries < 0 ||
      (num_temporaries > 0 && temporaries == nullptr)) {
    return kTfLiteError;
  }
  TfLiteIntArray* fresh = TfLiteIntArrayCreate(num_temporaries);
  if (fresh == nullptr) return kTfLiteError;
  for (int i = 0; i < num_temporaries; ++i) fresh->data[i] = temporaries[i];
  TfLiteIntArrayFree(node->temporaries);
  node->temporaries = fresh;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueNodeTemporaries(const TfLiteOpaqueNode* opaque_node,
                                         const int** temporaries, int* num_temporaries) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr) return kTfLiteError;
  return ExposeIndexList(node->temporaries, temporaries, num_temporaries);
}

int TfLiteOpaqueNodeGetInputTensorIndex(const TfLiteOpaqueNode* opaque_node, int index_of_input) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr || node->inputs == nullptr || index_of_input < 0 ||
      index_of_input >= node->inputs->size) {
    return -1;
  }
  return node->inputs->data[index_of_input];
}

int TfLiteOpaqueNodeGetOutputTensorIndex(const TfLiteOpaqueNode* opaque_node,
                                         int index_of_output) {
  const TfLiteNode* node = Unwrap(opaque_node);
  if (node == nullptr || node->outputs == nullptr || index_of_output < 0 ||
      index_of_output >= node->outputs->size) {
    return -1;
  }
  return node->outputs->data[index_of_output];
}

// ===== TfLiteOpaqueContext =======================================================

TfLiteStatus TfLiteOpaqueContextGetExecutionPlan(TfLiteOpaqueContext* opaque_context,
                                                 TfLiteIntArray** execution_plan) {
  TfLiteContext* ctx = Unwrap(opaque_context);
  if (ctx == nullptr || ctx->GetExecutionPlan == nullptr) return kTfLiteError;
  if (execution_plan == nullptr) {
    Complain(opaque_context, "TfLiteOpaqueContextGetExecutionPlan: execution_plan is NULL");
    return kTfLiteError;
  }
  return ctx->GetExecutionPlan(ctx, execution_plan);
}

TfLiteStatus TfLiteOpaqueContextGetExternalContext(TfLiteOpaqueContext* opaque_context,
                                                   void** external_context,
                                                   TfLiteExternalContextType type) {
  TfLiteContext* ctx = Unwrap(opaque_context);
  if (ctx == nullptr || ctx->GetExternalContext == nullptr) return kTfLiteError;
  if (external_context == nullptr) {
    Complain(opaque_context, "TfLiteOpaqueContextGetExternalContext: external_context is NULL");
    return kTfLiteError;
  }
  *external_context = ctx->GetExternalContext(ctx, type);
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueContextGetNodeAndRegistration(struct TfLiteOpaqueContext* opaque_context,
                                                       int node_index, TfLiteOpaqueNode** node,
                                                       TfLiteOperator** registration_external) {
  return GuardC(ReporterOf(opaque_context), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    TfLiteContext* ctx = Unwrap(opaque_context);
    Subgraph* sg = SubgraphOf(opaque_context);
    if (sg == nullptr || ctx->GetNodeAndRegistration == nullptr) return kTfLiteError;
    if (node == nullptr || registration_external == nullptr) {
      Complain(opaque_context,
               "TfLiteOpaqueContextGetNodeAndRegistration: output arguments must not be NULL");
      return kTfLiteError;
    }
    TfLiteNode* found_node = nullptr;
    TfLiteRegistration* found_registration = nullptr;
    const TfLiteStatus status =
        ctx->GetNodeAndRegistration(ctx, node_index, &found_node, &found_registration);
    if (status != kTfLiteOk) return status;
    // Kernels registered through the legacy struct get a describing operator
    // (code, name, version) that the subgraph owns.
    TfLiteOperator* op = sg->OperatorForRegistration(*found_registration, node_index);
    if (op == nullptr) {
      Complain(opaque_context, "TfLiteOpaqueContextGetNodeAndRegistration: out of memory");
      return kTfLiteError;
    }
    *node = Wrap(found_node);
    *registration_external = op;
    return kTfLiteOk;
  });
}

TfLiteStatus TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(
    struct TfLiteOpaqueContext* opaque_context, TfLiteOperator* registration_external,
    const TfLiteIntArray* nodes_to_replace, TfLiteOpaqueDelegate* opaque_delegate) {
  return GuardC(ReporterOf(opaque_context), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    TfLiteContext* ctx = Unwrap(opaque_context);
    Subgraph* sg = SubgraphOf(opaque_context);
    if (sg == nullptr || ctx->ReplaceNodeSubsetsWithDelegateKernels == nullptr) {
      return kTfLiteError;
    }
    if (registration_external == nullptr) {
      Complain(opaque_context,
               "TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels: registration_external "
               "is NULL");
      return kTfLiteError;
    }
    // The runtime owns the operator from here on, whatever the outcome.
    sg->AdoptOperator(registration_external);
    if (nodes_to_replace == nullptr) {
      Complain(opaque_context,
               "TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels: nodes_to_replace is "
               "NULL");
      return kTfLiteError;
    }
    TfLiteRegistration registration = tflite_c::RegistrationFromOperator(registration_external);
    return ctx->ReplaceNodeSubsetsWithDelegateKernels(
        ctx, registration, nodes_to_replace, reinterpret_cast<TfLiteDelegate*>(opaque_delegate));
  });
}

TfLiteOpaqueTensor* TfLiteOpaqueContextGetOpaqueTensor(const TfLiteOpaqueContext* opaque_context,
                                                       int index) {
  const TfLiteContext* ctx = Unwrap(opaque_context);
  if (ctx == nullptr) return nullptr;
  TfLiteTensor* t = TensorAt(ctx, index);
  if (t == nullptr) {
    Complain(opaque_context, "TfLiteOpaqueContextGetOpaqueTensor: tensor index %d out of range",
             index);
  }
  return Wrap(t);
}

TfLiteStatus TfLiteOpaqueContextGetInputs(const struct TfLiteOpaqueContext* opaque_context,
                                          const int** inputs, int* num_inputs) {
  return ExposeIndexVector(opaque_context, "TfLiteOpaqueContextGetInputs", &Subgraph::inputs,
                           inputs, num_inputs);
}

TfLiteStatus TfLiteOpaqueContextGetOutputs(const struct TfLiteOpaqueContext* opaque_context,
                                           const int** outputs, int* num_outputs) {
  return ExposeIndexVector(opaque_context, "TfLiteOpaqueContextGetOutputs", &Subgraph::outputs,
                           outputs, num_outputs);
}

TfLiteStatus TfLiteOpaqueContextGetVariables(const struct TfLiteOpaqueContext* opaque_context,
                                             const int** variables, int* num_variables) {
  return ExposeIndexVector(opaque_context, "TfLiteOpaqueContextGetVariables",
                           &Subgraph::variables, variables, num_variables);
}

size_t TfLiteOpaqueContextGetNumNodes(const struct TfLiteOpaqueContext* opaque_context) {
  Subgraph* sg = SubgraphOf(opaque_context);
  return sg != nullptr ? sg->nodes_size() : 0;
}

size_t TfLiteOpaqueContextGetNumTensors(const struct TfLiteOpaqueContext* opaque_context) {
  Subgraph* sg = SubgraphOf(opaque_context);
  return sg != nullptr ? sg->tensors_size() : 0;
}

const char* TfLiteOpaqueContextGetName(const struct TfLiteOpaqueContext* opaque_context) {
  Subgraph* sg = SubgraphOf(opaque_context);
  return sg != nullptr ? sg->name().c_str() : nullptr;
}

TfLiteStatus TfLiteOpaqueContextResizeTensor(TfLiteOpaqueContext* context,
                                             TfLiteOpaqueTensor* tensor,
                                             TfLiteIntArray* new_size) {
  TfLiteContext* ctx = Unwrap(context);
  if (ctx == nullptr || ctx->ResizeTensor == nullptr) {
    TfLiteIntArrayFree(new_size);  // ours in every case
    return kTfLiteError;
  }
  if (new_size == nullptr) {
    Complain(context, "TfLiteOpaqueContextResizeTensor: new_size is NULL");
    return kTfLiteError;
  }
  return ctx->ResizeTensor(ctx, Unwrap(tensor), new_size);
}

TfLiteStatus TfLiteOpaqueContextAcquireSubgraphContext(
    struct TfLiteOpaqueContext* opaque_context, int subgraph_index,
    TfLiteOpaqueContext** acquired_opaque_context) {
  TfLiteContext* ctx = Unwrap(opaque_context);
  if (ctx == nullptr || ctx->AcquireSubgraphContext == nullptr) return kTfLiteError;
  if (acquired_opaque_context == nullptr) {
    Complain(opaque_context,
             "TfLiteOpaqueContextAcquireSubgraphContext: acquired_opaque_context is NULL");
    return kTfLiteError;
  }
  TfLiteContext* acquired = nullptr;
  const TfLiteStatus status = ctx->AcquireSubgraphContext(ctx, subgraph_index, &acquired);
  if (status != kTfLiteOk) return status;
  *acquired_opaque_context = Wrap(acquired);
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueContextReleaseSubgraphContext(struct TfLiteOpaqueContext* opaque_context,
                                                       int subgraph_index) {
  TfLiteContext* ctx = Unwrap(opaque_context);
  if (ctx == nullptr || ctx->ReleaseSubgraphContext == nullptr) return kTfLiteError;
  return ctx->ReleaseSubgraphContext(ctx, subgraph_index);
}

TfLiteStatus TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(
    TfLiteOpaqueContext* opaque_context, int subgraph_index) {
  Subgraph* sg = SubgraphOf(opaque_context);
  if (sg == nullptr) return kTfLiteError;
  return sg->MarkSubgraphAsDelegationSkippable(subgraph_index);
}

TfLiteStatus TfLiteOpaqueContextGetNodeInitDataMmapInfo(
    const TfLiteOpaqueContext* context, const TfLiteOpaqueNode* node, int* fd,
    int64_t* custom_initial_data_offset_in_file, int64_t* custom_initial_data_size) {
  Subgraph* sg = SubgraphOf(context);
  if (sg == nullptr) return kTfLiteError;
  if (node == nullptr || fd == nullptr || custom_initial_data_offset_in_file == nullptr ||
      custom_initial_data_size == nullptr) {
    Complain(context, "TfLiteOpaqueContextGetNodeInitDataMmapInfo: NULL argument");
    return kTfLiteError;
  }
  // No message on failure: "no file behind this model" is an expected answer.
  return sg->GetNodeInitDataMmapInfo(Unwrap(node), fd, custom_initial_data_offset_in_file,
                                     custom_initial_data_size);
}

TfLiteStatus TfLiteOpaqueContextAddTensor(TfLiteOpaqueContext* context,
                                          TfLiteOpaqueTensorBuilder* builder,
                                          int* new_tensor_index) {
  TfLiteContext* ctx = Unwrap(context);
  if (ctx == nullptr || ctx->AddTensors == nullptr) return kTfLiteError;
  if (builder == nullptr) {
    Complain(context, "TfLiteOpaqueContextAddTensor: builder is NULL");
    return kTfLiteError;
  }
  const TfLiteAllocationType at = builder->allocation_type;
  if (at != kTfLiteDynamic && at != kTfLiteArenaRw && at != kTfLiteArenaRwPersistent) {
    Complain(context,
             "TfLiteOpaqueContextAddTensor: allocation type %d is not allowed; use "
             "kTfLiteDynamic, kTfLiteArenaRw or kTfLiteArenaRwPersistent",
             static_cast<int>(at));
    return kTfLiteError;
  }
  if (at == kTfLiteDynamic && builder->data == nullptr) {
    Complain(context,
             "TfLiteOpaqueContextAddTensor: a kTfLiteDynamic tensor needs its data set on the "
             "builder");
    return kTfLiteError;
  }
  if (at != kTfLiteDynamic && builder->data != nullptr) {
    Complain(context,
             "TfLiteOpaqueContextAddTensor: arena tensors (kTfLiteArenaRw, "
             "kTfLiteArenaRwPersistent) must not have data set on the builder");
    return kTfLiteError;
  }
  int index = -1;
  const TfLiteStatus status = ctx->AddTensors(ctx, 1, &index);
  if (status != kTfLiteOk) return status;
  TfLiteTensor* t = TensorAt(ctx, index);
  if (t == nullptr) return kTfLiteError;
  t->type = builder->type;
  t->data.data = builder->data;
  t->allocation_type = at;
  t->params = builder->quantization_params;
  t->quantization = builder->quantization;
  if (new_tensor_index != nullptr) *new_tensor_index = index;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueContextGetSizeOfType(TfLiteOpaqueContext* context, const TfLiteType type,
                                              size_t* bytes) {
  if (bytes == nullptr) {
    Complain(context, "TfLiteOpaqueContextGetSizeOfType: bytes is NULL");
    return kTfLiteError;
  }
  size_t size = 0;
  if (!tflite_c::TypeElementSize(type, &size)) {
    Complain(context,
             "Type %s (%d) is unsupported. Only fixed-size numeric and boolean types have an "
             "element size.",
             TfLiteTypeGetName(type), static_cast<int>(type));
    return kTfLiteError;
  }
  *bytes = size;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueContextGetMetadata(TfLiteOpaqueContext* context, const char* name,
                                            const char** ptr, size_t* bytes) {
  TfLiteContext* ctx = Unwrap(context);
  if (ctx == nullptr || ctx->GetModelMetadata == nullptr) return kTfLiteError;
  if (name == nullptr || ptr == nullptr || bytes == nullptr) {
    Complain(context, "TfLiteOpaqueContextGetMetadata: NULL argument");
    return kTfLiteError;
  }
  return ctx->GetModelMetadata(ctx, name, ptr, bytes);
}

void TfLiteOpaqueContextReportErrorVa(struct TfLiteOpaqueContext* opaque_context,
                                      const char* format, va_list vlist) {
  GuardC(ReporterOf(opaque_context), __func__, [&] {
    if (format == nullptr) return;
    va_list measure;
    va_copy(measure, vlist);
    const int n = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (n < 0) return;
    std::string message(static_cast<size_t>(n) + 1, '\0');
    if (std::vsnprintf(&message[0], message.size(), format, vlist) < 0) return;
    message.resize(static_cast<size_t>(n));
    TfLiteContext* ctx = Unwrap(opaque_context);
    if (ctx != nullptr && ctx->ReportError != nullptr) {
      ctx->ReportError(ctx, "%s", message.c_str());
    } else {
      tflite_c::DefaultErrorReporter()->Reportf("%s", message.c_str());
    }
  });
}

void TfLiteOpaqueContextReportError(struct TfLiteOpaqueContext* opaque_context, const char* format,
                                    ...) {
  va_list args;
  va_start(args, format);
  TfLiteOpaqueContextReportErrorVa(opaque_context, format, args);
  va_end(args);
}

}  // extern "C"

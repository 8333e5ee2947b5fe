// VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE: variables shared by every
// subgraph of one interpreter (src/core/subgraph_access.h keeps them).
//
// VAR_HANDLE turns its (container, shared_name) pair into a resource id,
// the same id for the same pair anywhere in the interpreter, and outputs it
// as a one-element tensor. ASSIGN_VARIABLE stores a copy of a value under an
// id (creating the variable on first assignment); READ_VARIABLE copies it
// out. Variables persist across Invoke and ResetVariableTensors, as upstream.
#include <cstring>
#include <string>

#include "src/core/subgraph_access.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

// ---- VAR_HANDLE
// ---------------------------------------------------------------

constexpr char kVarHandle[] = "VAR_HANDLE";

struct VarHandleData {
  int resource_id = -1;
};

void* VarHandleInit(TfLiteContext* context, const char* buffer, size_t) {
  auto* data = new VarHandleData;
  const auto* params = reinterpret_cast<const TfLiteVarHandleParams*>(buffer);
  ControlFlowState* state = ControlFlowStateOf(context);
  if (state == nullptr) return data;
  std::string container, shared_name;
  if (params != nullptr && params->container != nullptr) container = params->container;
  if (params != nullptr && params->shared_name != nullptr) shared_name = params->shared_name;
  const int next_id = static_cast<int>(state->resource_ids.size());
  data->resource_id =
      state->resource_ids.emplace(std::make_pair(container, shared_name), next_id).first->second;
  return data;
}

void VarHandleFree(TfLiteContext*, void* data) { delete static_cast<VarHandleData*>(data); }

TfLiteStatus VarHandlePrepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const VarHandleData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kVarHandle, 0, 0, 1));
  if (data->resource_id < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: no resource id (not created by an interpreter)", kVarHandle);
    return kTfLiteError;
  }
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kVarHandle, &output));
  if (output->type != kTfLiteResource && output->type != kTfLiteInt32) {
    return internal::UnsupportedType(context, kVarHandle, "output", output->type);
  }
  // The id is known now: hold it in memory of the output's own, so that
  // kernels preparing later (READ_VARIABLE) may already look at it.
  internal::SetTensorToDynamic(output);
  TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(sizeof(int32_t), output));
  output->bytes = sizeof(int32_t);
  std::memcpy(output->data.raw, &data->resource_id, sizeof(int32_t));
  return kTfLiteOk;
}

TfLiteStatus VarHandleEval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const VarHandleData*>(node->user_data);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::memcpy(output->data.raw, &data->resource_id, sizeof(int32_t));
  return kTfLiteOk;
}

// ---- READ_VARIABLE / ASSIGN_VARIABLE
// -----------------------------------------------

TfLiteStatus CheckResourceId(TfLiteContext* context, const char* op, const TfLiteTensor* id) {
  if ((id->type != kTfLiteResource && id->type != kTfLiteInt32) || id->dims == nullptr ||
      internal::NumElements(id) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input 0 must be one resource id (RESOURCE or INT32)", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ResourceIdOf(TfLiteContext* context, const char* op, const TfLiteTensor* id,
                          int* out) {
  if (id->data.raw_const == nullptr || id->bytes < sizeof(int32_t)) {
    TF_LITE_KERNEL_LOG(context, "%s: resource id tensor has no value", op);
    return kTfLiteError;
  }
  std::memcpy(out, id->data.raw_const, sizeof(int32_t));
  return kTfLiteOk;
}

constexpr char kRead[] = "READ_VARIABLE";

TfLiteStatus ReadPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kRead, 1, 1, 1));
  const TfLiteTensor* id;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kRead, &id));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kRead, &output));
  TF_LITE_ENSURE_OK(context, CheckResourceId(context, kRead, id));
  // A rank-0 output may be a true scalar or a tensor of unknown rank: only
  // the variable knows, at Eval.
  if (output->dims == nullptr || output->dims->size == 0) internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus ReadEval(TfLiteContext* context, TfLiteNode* node) {
  int id;
  TF_LITE_ENSURE_OK(context,
                    ResourceIdOf(context, kRead, internal::InputAt(context, node, 0), &id));
  const ResourceVariable* variable = GetResourceVariable(context, id, /*create=*/false);
  if (variable == nullptr || variable->value()->dims == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: variable %d has not been assigned", kRead, id);
    return kTfLiteError;
  }
  const TfLiteTensor* value = variable->value();
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (value->type != output->type) {
    return internal::TypeMismatch(context, kRead, "variable", value->type, "output", output->type);
  }
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, value->dims));
  }
  if (output->bytes != value->bytes) {
    char want[64], got[64];
    TF_LITE_KERNEL_LOG(context, "%s: variable %d has shape %s but the output has shape %s", kRead,
                       id, internal::ShapeToString(value->dims, got, sizeof(got)),
                       internal::ShapeToString(output->dims, want, sizeof(want)));
    return kTfLiteError;
  }
  if (value->bytes > 0) std::memcpy(output->data.raw, value->data.raw_const, value->bytes);
  return kTfLiteOk;
}

constexpr char kAssign[] = "ASSIGN_VARIABLE";

TfLiteStatus AssignPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kAssign, 2, 2, 0));
  const TfLiteTensor* id;
  const TfLiteTensor* value;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kAssign, &id));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kAssign, &value));
  TF_LITE_ENSURE_OK(context, CheckResourceId(context, kAssign, id));
  if (value->type == kTfLiteString || value->type == kTfLiteResource ||
      value->type == kTfLiteVariant) {
    return internal::UnsupportedType(context, kAssign, "value", value->type);
  }
  return kTfLiteOk;
}

TfLiteStatus AssignEval(TfLiteContext* context, TfLiteNode* node) {
  int id;
  TF_LITE_ENSURE_OK(context,
                    ResourceIdOf(context, kAssign, internal::InputAt(context, node, 0), &id));
  ResourceVariable* variable = GetResourceVariable(context, id, /*create=*/true);
  if (variable == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: resource %d is not a variable", kAssign, id);
    return kTfLiteError;
  }
  if (variable->Assign(internal::InputAt(context, node, 1)) != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot store the value of variable %d", kAssign, id);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_VAR_HANDLE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(VarHandleInit, VarHandleFree, VarHandlePrepare, VarHandleEval);
  return &r;
}

const TfLiteRegistration* Register_READ_VARIABLE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, ReadPrepare, ReadEval);
  return &r;
}

const TfLiteRegistration* Register_ASSIGN_VARIABLE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, AssignPrepare, AssignEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

#include "src/kernels/internal/stablehlo_util.h"

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus ReadBodyOperator(TfLiteContext* context, const char* op, int index,
                              int32_t* builtin_code) {
  TfLiteContext* sub = nullptr;
  if (context->AcquireSubgraphContext == nullptr ||
      context->AcquireSubgraphContext(context, index, &sub) != kTfLiteOk) {
    TF_LITE_KERNEL_LOG(context, "%s: invalid body subgraph index %d", op, index);
    return kTfLiteError;
  }
  TfLiteIntArray* plan = nullptr;
  TfLiteNode* node = nullptr;
  TfLiteRegistration* reg = nullptr;
  TfLiteStatus status = sub->GetExecutionPlan(sub, &plan);
  int nodes = status == kTfLiteOk ? plan->size : 0;
  if (status == kTfLiteOk && nodes == 1) {
    status = sub->GetNodeAndRegistration(sub, plan->data[0], &node, &reg);
  }
  if (context->ReleaseSubgraphContext != nullptr) context->ReleaseSubgraphContext(context, index);
  if (status != kTfLiteOk || nodes > 1) {
    TF_LITE_KERNEL_LOG(context, "%s: body subgraph %d must hold at most one operator, has %d", op,
                       index, nodes);
    return kTfLiteError;
  }
  *builtin_code = nodes == 0 ? -1 : reg->builtin_code;
  return kTfLiteOk;
}

TfLiteStatus CheckIndexedTypes(TfLiteContext* context, const char* op, const TfLiteTensor* operand,
                               const TfLiteTensor* indices, const char* indices_name,
                               const TfLiteTensor* output) {
  if (!TypeIn(operand->type, {kTfLiteFloat16, kTfLiteFloat32, kTfLiteFloat64, kTfLiteInt8,
                              kTfLiteInt16, kTfLiteInt32, kTfLiteInt64, kTfLiteUInt8,
                              kTfLiteUInt16, kTfLiteUInt32, kTfLiteUInt64})) {
    return UnsupportedType(context, op, "operand", operand->type);
  }
  if (output->type != operand->type) {
    return TypeMismatch(context, op, "operand", operand->type, "output", output->type);
  }
  if (indices->type != kTfLiteInt32 && indices->type != kTfLiteInt64) {
    return UnsupportedType(context, op, indices_name, indices->type);
  }
  return kTfLiteOk;
}

bool Contains(const int64_t* values, int count, int64_t v) {
  for (int i = 0; i < count; ++i) {
    if (values[i] == v) return true;
  }
  return false;
}

bool SortedInRange(const int64_t* values, int count, int64_t limit) {
  for (int i = 0; i < count; ++i) {
    if (values[i] < 0 || values[i] >= limit || (i > 0 && values[i] <= values[i - 1])) return false;
  }
  return true;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// The plan probe of benchmark_model (op profile node names, delegate kernel
// count) and model_inspector (partition preview): a delegate that delegates
// nothing. Applied after the real delegates, its Prepare reads each
// subgraph's execution plan through the public TfLiteContext.
#ifndef TFLITE_C_TOOLS_COMMON_PLAN_PROBE_H_
#define TFLITE_C_TOOLS_COMMON_PLAN_PROBE_H_

#include "tensorflow/lite/c/c_api_opaque.h"
#include "tensorflow/lite/c/common.h"

namespace tflite_c_tools {

// Calls visit(node_index, node, registration) for each node of the plan of
// `context`, in plan order; false when the plan cannot be read.
template <typename Visit>
bool ForEachPlanNode(TfLiteContext* context, Visit&& visit) {
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return false;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) continue;
    visit(plan->data[i], node, reg);
  }
  return true;
}

// A probe whose Prepare is `prepare` (reading the plan with ForEachPlanNode)
// and whose data_ is `data`; it accepts graphs with dynamic tensors.
inline TfLiteDelegate MakePlanProbe(void* data,
                                    TfLiteStatus (*prepare)(TfLiteContext*, TfLiteDelegate*)) {
  TfLiteDelegate probe = TfLiteDelegateCreate();
  probe.data_ = data;
  probe.Prepare = prepare;
  probe.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  return probe;
}

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_PLAN_PROBE_H_

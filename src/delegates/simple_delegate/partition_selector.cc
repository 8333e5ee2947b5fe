#include "src/delegates/simple_delegate/partition_selector.h"

#include <algorithm>
#include <climits>
#include <memory>

namespace tflite_c {
namespace delegates {
namespace {

struct IntArrayDeleter {
  void operator()(TfLiteIntArray* a) const { TfLiteIntArrayFree(a); }
};
using IntArrayPtr = std::unique_ptr<TfLiteIntArray, IntArrayDeleter>;

IntArrayPtr ToArray(const std::vector<int>& v) {
  IntArrayPtr a(TfLiteIntArrayCreate(static_cast<int>(v.size())));
  if (a) std::copy(v.begin(), v.end(), a->data);
  return a;
}

}  // namespace

TfLiteStatus SelectPartitions(TfLiteContext* context, const NodePredicate& is_supported,
                              const PartitionLimits& limits, PartitionSelection* selection) {
  *selection = PartitionSelection();
  TfLiteIntArray* plan_view = nullptr;
  if (context->GetExecutionPlan(context, &plan_view) != kTfLiteOk || plan_view == nullptr) {
    context->ReportError(context, "Delegate: cannot read the execution plan");
    return kTfLiteError;
  }
  // The plan array is owned by the context and may be replaced by the next
  // GetExecutionPlan call (a predicate might make one): keep a copy.
  const std::vector<int> plan(plan_view->data, plan_view->data + plan_view->size);
  selection->num_plan_nodes = static_cast<int>(plan.size());

  std::vector<int> supported;
  for (int node_index : plan) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (context->GetNodeAndRegistration(context, node_index, &node, &reg) != kTfLiteOk) {
      context->ReportError(context, "Delegate: cannot read node %d", node_index);
      return kTfLiteError;
    }
    if (is_supported(context, node, reg)) supported.push_back(node_index);
  }
  selection->num_supported_nodes = static_cast<int>(supported.size());
  if (supported.empty()) return kTfLiteOk;

  IntArrayPtr supported_array = ToArray(supported);
  if (!supported_array) return kTfLiteError;
  TfLiteDelegateParams* params = nullptr;
  int num_partitions = 0;
  if (context->PreviewDelegatePartitioning(context, supported_array.get(), &params,
                                           &num_partitions) != kTfLiteOk) {
    context->ReportError(context, "Delegate: previewing the partitioning failed");
    return kTfLiteError;
  }
  selection->num_partitions = num_partitions;

  std::vector<const TfLiteDelegateParams*> ranked;
  for (int i = 0; i < num_partitions; ++i) ranked.push_back(&params[i]);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const TfLiteDelegateParams* a, const TfLiteDelegateParams* b) {
                     return a->nodes_to_replace->size > b->nodes_to_replace->size;
                   });
  const size_t max_partitions =
      limits.max_partitions > 0 ? static_cast<size_t>(limits.max_partitions) : ranked.size();
  for (size_t i = 0; i < ranked.size() && i < max_partitions; ++i) {
    const TfLiteIntArray* nodes = ranked[i]->nodes_to_replace;
    if (nodes->size < limits.min_nodes) break;
    selection->nodes.insert(selection->nodes.end(), nodes->data, nodes->data + nodes->size);
    selection->partition_sizes.push_back(nodes->size);
  }
  return kTfLiteOk;
}

}  // namespace delegates
}  // namespace tflite_c

// Chooses which of a delegate's supported nodes to hand over, honouring the
// SimpleDelegateInterface::Options limits.
//
// The supported nodes are grouped into the partitions the runtime would
// build (context->PreviewDelegatePartitioning, so the grouping is exactly
// the one ReplaceNodeSubsetsWithDelegateKernels will use). Partitions are
// then ranked by node count, largest first (ties keep execution order), and
// taken while the limit on their number allows and each has at least the
// minimum node count; the first too-small one ends the selection, since all
// after it are smaller still.
#ifndef TFLITE_C_SRC_DELEGATES_SIMPLE_DELEGATE_PARTITION_SELECTOR_H_
#define TFLITE_C_SRC_DELEGATES_SIMPLE_DELEGATE_PARTITION_SELECTOR_H_

#include <functional>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace delegates {

struct PartitionLimits {
  int max_partitions = 0;  // <= 0: no limit
  int min_nodes = 0;       // <= 0: no limit
};

struct PartitionSelection {
  int num_plan_nodes = 0;       // nodes in the execution plan
  int num_supported_nodes = 0;  // nodes the predicate accepted
  int num_partitions = 0;       // partitions before the limits were applied
  std::vector<int> nodes;       // chosen nodes, partition by partition
  std::vector<int> partition_sizes;  // node count of each chosen partition
};

using NodePredicate =
    std::function<bool(TfLiteContext* context, TfLiteNode* node, TfLiteRegistration* reg)>;

// Must run inside a delegate's Prepare (PreviewDelegatePartitioning is only
// available there).
TfLiteStatus SelectPartitions(TfLiteContext* context, const NodePredicate& is_supported,
                              const PartitionLimits& limits, PartitionSelection* selection);

}  // namespace delegates
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_SIMPLE_DELEGATE_PARTITION_SELECTOR_H_

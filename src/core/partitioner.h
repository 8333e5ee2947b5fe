// Splits an execution plan into node subsets that a delegate can replace.
//
// Given the set of nodes a delegate supports, the plan is cut into subsets
// of only-supported or only-unsupported nodes. Subsets are built greedily in
// topological "epochs": each epoch takes every node that has become
// runnable and has the epoch's type, repeatedly, so supported nodes that do
// not depend on one another end up in one subset even when unsupported
// nodes sit between them in the plan. Replacing each supported subset by a
// single node therefore never creates a cycle, and subsets come out as large
// as upstream TensorFlow Lite makes them (same algorithm class).
#ifndef TFLITE_C_SRC_CORE_PARTITIONER_H_
#define TFLITE_C_SRC_CORE_PARTITIONER_H_

#include <functional>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

struct NodeSubset {
  enum Type { kUnexplored, kPartition, kNonPartition };
  Type type = kUnexplored;
  std::vector<int> nodes;           // node indices, in the order they run
  std::vector<int> input_tensors;   // sorted, unique; include constants
  std::vector<int> output_tensors;  // sorted, unique
};

struct GraphView {
  std::vector<int> plan;  // node indices in execution order
  std::function<const TfLiteNode&(int node_index)> node;
  size_t num_tensors = 0;
  std::vector<int> outputs;  // graph outputs
};

// Returns kTfLiteError when the plan is not a DAG over its tensors (a node
// reads a tensor only produced later / in a cycle) or indices are invalid.
TfLiteStatus PartitionGraph(const GraphView& graph, const TfLiteIntArray* nodes_to_replace,
                            std::vector<NodeSubset>* subsets);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_PARTITIONER_H_

#include "src/core/partitioner.h"

#include <algorithm>

namespace tflite_c {
namespace {

constexpr int kNotReady = -1;
constexpr int kAlwaysReady = -2;

void SortUnique(std::vector<int>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

class Partitioner {
 public:
  Partitioner(const GraphView& g, std::vector<NodeSubset>* out) : g_(g), out_(out) {}

  TfLiteStatus Run(const TfLiteIntArray* nodes_to_replace) {
    const int n = static_cast<int>(g_.plan.size());
    int max_node = -1;
    for (int node_index : g_.plan) max_node = std::max(max_node, node_index);
    supported_.assign(max_node + 1, false);
    if (nodes_to_replace != nullptr) {
      for (int i = 0; i < nodes_to_replace->size; ++i) {
        const int idx = nodes_to_replace->data[i];
        if (idx >= 0 && idx <= max_node) supported_[idx] = true;
      }
    }
    tensor_epoch_.assign(g_.num_tensors, kAlwaysReady);
    node_epoch_.assign(n, kNotReady);
    for (int pos = 0; pos < n; ++pos) {
      const TfLiteNode& node = g_.node(g_.plan[pos]);
      for (int i = 0; i < node.outputs->size; ++i) {
        const int t = node.outputs->data[i];
        if (t == kTfLiteOptionalTensor) continue;
        if (t < 0 || static_cast<size_t>(t) >= g_.num_tensors) return kTfLiteError;
        tensor_epoch_[t] = kNotReady;
      }
      for (int i = 0; i < node.inputs->size; ++i) {
        const int t = node.inputs->data[i];
        if (t != kTfLiteOptionalTensor && (t < 0 || static_cast<size_t>(t) >= g_.num_tensors)) {
          return kTfLiteError;
        }
      }
    }
    // Nodes with side effects keep their relative order: each depends on the
    // previous one.
    pending_order_deps_.assign(n, 0);
    order_successor_.assign(n, -1);
    for (int pos = 0, last = -1; pos < n; ++pos) {
      if (!g_.node(g_.plan[pos]).might_have_side_effect) continue;
      if (last >= 0) {
        order_successor_[last] = pos;
        pending_order_deps_[pos] = 1;
      }
      last = pos;
    }

    for (;;) {
      out_->emplace_back();
      BuildEpoch();
      if (out_->back().nodes.empty()) {
        out_->pop_back();
        break;
      }
    }
    if (std::find(node_epoch_.begin(), node_epoch_.end(), kNotReady) != node_epoch_.end()) {
      return kTfLiteError;
    }
    for (int t : g_.outputs) {
      if (t < 0 || static_cast<size_t>(t) >= g_.num_tensors) continue;
      const int e = tensor_epoch_[t];
      if (e == kAlwaysReady) continue;  // a graph input passed straight through
      if (e < 0 || e >= static_cast<int>(out_->size())) return kTfLiteError;
      (*out_)[e].output_tensors.push_back(t);
    }
    for (NodeSubset& s : *out_) {
      SortUnique(&s.input_tensors);
      SortUnique(&s.output_tensors);
    }
    return kTfLiteOk;
  }

 private:
  void BuildEpoch() {
    bool progress = true;
    while (progress) {
      progress = false;
      for (int pos = 0; pos < static_cast<int>(g_.plan.size()); ++pos) {
        if (TryAssign(pos)) progress = true;
      }
    }
  }

  bool TryAssign(int pos) {
    if (node_epoch_[pos] != kNotReady || pending_order_deps_[pos] != 0) return false;
    const int node_index = g_.plan[pos];
    const TfLiteNode& node = g_.node(node_index);
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t != kTfLiteOptionalTensor && tensor_epoch_[t] == kNotReady) return false;
    }
    NodeSubset& current = out_->back();
    const NodeSubset::Type type =
        supported_[node_index] ? NodeSubset::kPartition : NodeSubset::kNonPartition;
    // The first runnable node of an epoch decides the epoch's type.
    if (current.type == NodeSubset::kUnexplored) current.type = type;
    if (current.type != type) return false;

    const int epoch = static_cast<int>(out_->size()) - 1;
    node_epoch_[pos] = epoch;
    current.nodes.push_back(node_index);
    for (int i = 0; i < node.outputs->size; ++i) {
      const int t = node.outputs->data[i];
      if (t != kTfLiteOptionalTensor) tensor_epoch_[t] = epoch;
    }
    for (int i = 0; i < node.inputs->size; ++i) {
      const int t = node.inputs->data[i];
      if (t == kTfLiteOptionalTensor) continue;
      const int from = tensor_epoch_[t];
      if (from == epoch) continue;
      current.input_tensors.push_back(t);
      if (from >= 0) (*out_)[from].output_tensors.push_back(t);
    }
    if (order_successor_[pos] >= 0) --pending_order_deps_[order_successor_[pos]];
    return true;
  }

  const GraphView& g_;
  std::vector<NodeSubset>* out_;
  std::vector<bool> supported_;
  std::vector<int> tensor_epoch_;
  std::vector<int> node_epoch_;
  std::vector<int> pending_order_deps_;
  std::vector<int> order_successor_;
};

}  // namespace

TfLiteStatus PartitionGraph(const GraphView& graph, const TfLiteIntArray* nodes_to_replace,
                            std::vector<NodeSubset>* subsets) {
  subsets->clear();
  return Partitioner(graph, subsets).Run(nodes_to_replace);
}

}  // namespace tflite_c

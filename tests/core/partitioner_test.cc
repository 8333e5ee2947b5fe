// Table test of the graph partitioner: each case is a small graph written
// as nodes (inputs -> outputs), a supported set, and the subsets expected.
#include "src/core/partitioner.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tflite_c {
namespace {

struct TestNode {
  std::vector<int> in, out;
  bool side_effect = false;
};

struct ExpectedSubset {
  NodeSubset::Type type;
  std::vector<int> nodes, inputs, outputs;
};

struct Case {
  std::string name;
  int num_tensors;
  std::vector<TestNode> nodes;
  std::vector<int> graph_outputs;
  std::vector<int> supported;
  std::vector<ExpectedSubset> expected;
};

constexpr auto P = NodeSubset::kPartition;
constexpr auto N = NodeSubset::kNonPartition;

class Graph {
 public:
  explicit Graph(const Case& c) {
    for (const TestNode& tn : c.nodes) {
      TfLiteNode n{};
      n.inputs = Make(tn.in);
      n.outputs = Make(tn.out);
      n.might_have_side_effect = tn.side_effect;
      nodes_.push_back(n);
    }
    view_.num_tensors = c.num_tensors;
    view_.outputs = c.graph_outputs;
    for (size_t i = 0; i < nodes_.size(); ++i) view_.plan.push_back(static_cast<int>(i));
    view_.node = [this](int i) -> const TfLiteNode& { return nodes_[i]; };
  }
  ~Graph() {
    for (TfLiteNode& n : nodes_) {
      TfLiteIntArrayFree(n.inputs);
      TfLiteIntArrayFree(n.outputs);
    }
  }
  const GraphView& view() const { return view_; }

 private:
  static TfLiteIntArray* Make(const std::vector<int>& v) {
    TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(v.size()));
    for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
    return a;
  }
  std::vector<TfLiteNode> nodes_;
  GraphView view_;
};

class PartitionerTest : public ::testing::TestWithParam<Case> {};

TEST_P(PartitionerTest, Subsets) {
  const Case& c = GetParam();
  Graph g(c);
  TfLiteIntArray* supported = TfLiteIntArrayCreate(static_cast<int>(c.supported.size()));
  for (size_t i = 0; i < c.supported.size(); ++i) supported->data[i] = c.supported[i];
  std::vector<NodeSubset> subsets;
  ASSERT_EQ(PartitionGraph(g.view(), supported, &subsets), kTfLiteOk);
  TfLiteIntArrayFree(supported);
  ASSERT_EQ(subsets.size(), c.expected.size());
  for (size_t i = 0; i < subsets.size(); ++i) {
    SCOPED_TRACE("subset " + std::to_string(i));
    EXPECT_EQ(subsets[i].type, c.expected[i].type);
    EXPECT_EQ(subsets[i].nodes, c.expected[i].nodes);
    EXPECT_EQ(subsets[i].input_tensors, c.expected[i].inputs);
    EXPECT_EQ(subsets[i].output_tensors, c.expected[i].outputs);
  }
}

// Tensor numbering: graph inputs and constants have no producer.
INSTANTIATE_TEST_SUITE_P(
    Cases, PartitionerTest,
    ::testing::Values(
        // 0 -> [n0] -> 1 -> [n1] -> 2 -> [n2] -> 3, all supported.
        Case{"chain_all", 4, {{{0}, {1}}, {{1}, {2}}, {{2}, {3}}}, {3}, {0, 1, 2},
             {{P, {0, 1, 2}, {0}, {3}}}},
        // Chain with the middle node unsupported: three subsets.
        Case{"chain_middle_unsupported", 4, {{{0}, {1}}, {{1}, {2}}, {{2}, {3}}}, {3}, {0, 2},
             {{P, {0}, {0}, {1}}, {N, {1}, {1}, {2}}, {P, {2}, {2}, {3}}}},
        // Nothing supported: a single CPU subset.
        Case{"none", 3, {{{0}, {1}}, {{1}, {2}}}, {2}, {}, {{N, {0, 1}, {0}, {2}}}},
        // Diamond: 0 -> n0 -> 1; 1 -> n1 -> 2; 1 -> n2 -> 3; (2,3) -> n3 -> 4.
        Case{"diamond_all",
             5,
             {{{0}, {1}}, {{1}, {2}}, {{1}, {3}}, {{2, 3}, {4}}},
             {4},
             {0, 1, 2, 3},
             {{P, {0, 1, 2, 3}, {0}, {4}}}},
        // Diamond with one branch on the CPU: the join cannot merge with the
        // top without a cycle, so it forms its own partition.
        Case{"diamond_branch_unsupported",
             5,
             {{{0}, {1}}, {{1}, {2}}, {{1}, {3}}, {{2, 3}, {4}}},
             {4},
             {0, 1, 3},
             {{P, {0, 1}, {0}, {1, 2}}, {N, {2}, {1}, {3}}, {P, {3}, {2, 3}, {4}}}},
        // Independent supported nodes interleaved with unsupported ones are
        // gathered greedily into one partition.
        Case{"interleaved_independent",
             6,
             {{{0}, {1}}, {{0}, {2}}, {{0}, {3}}, {{0}, {4}}},
             {1, 2, 3, 4},
             {0, 2},
             {{P, {0, 2}, {0}, {1, 3}}, {N, {1, 3}, {0}, {2, 4}}}},
        // Constant input (tensor 5) is listed among the partition inputs.
        Case{"constant_input", 6, {{{0, 5}, {1}}, {{1, 5}, {2}}}, {2}, {0, 1},
             {{P, {0, 1}, {0, 5}, {2}}}},
        // Multiple outputs: an intermediate also read by a CPU node is a
        // partition output.
        Case{"multiple_outputs",
             4,
             {{{0}, {1}}, {{1}, {2}}, {{1}, {3}}},
             {2, 3},
             {0, 1},
             {{P, {0, 1}, {0}, {1, 2}}, {N, {2}, {1}, {3}}}},
        // Side-effecting nodes keep their order even though independent.
        Case{"side_effects_keep_order",
             4,
             {{{0}, {1}, true}, {{0}, {2}, true}, {{0}, {3}, true}},
             {1, 2, 3},
             {0, 2},
             {{P, {0}, {0}, {1}}, {N, {1}, {0}, {2}}, {P, {2}, {0}, {3}}}},
        // An optional (-1) input is ignored.
        Case{"optional_input", 3, {{{0, -1}, {1}}, {{1}, {2}}}, {2}, {0, 1},
             {{P, {0, 1}, {0}, {2}}}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(PartitionerErrorTest, OutOfRangeTensorIsAnError) {
  Case c{"bad", 2, {{{0}, {5}}}, {1}, {0}, {}};
  Graph g(c);
  std::vector<NodeSubset> subsets;
  EXPECT_EQ(PartitionGraph(g.view(), nullptr, &subsets), kTfLiteError);
}

TEST(PartitionerErrorTest, CycleIsAnError) {
  // n0 reads tensor 2, which only n1 (reading n0's output) produces.
  Case c{"cycle", 3, {{{2}, {1}}, {{1}, {2}}}, {2}, {}, {}};
  Graph g(c);
  std::vector<NodeSubset> subsets;
  EXPECT_EQ(PartitionGraph(g.view(), nullptr, &subsets), kTfLiteError);
}

}  // namespace
}  // namespace tflite_c

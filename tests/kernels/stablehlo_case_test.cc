// Tests of STABLEHLO_CASE: the index picks one of the branch subgraphs, an
// index outside [0, n) picks the last one (StableHLO's rule, as upstream),
// branches of different output shapes make the outputs dynamic, and bad
// index tensors, branch signatures and branch lists are refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ExpectAllocateError;
using testing::ModelBuilder;
using testing::ModelRunner;
using tflite::BuiltinOperator;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;

tflite::StablehloCaseOptionsT CaseOpts(std::vector<int32_t> branches) {
  tflite::StablehloCaseOptionsT o;
  o.branch_subgraph_indices = std::move(branches);
  return o;
}

// main: y = CASE(index, x) over subgraphs 1: x + x, 2: x * x, 3: the last
// branch, x + x + x, or (with `concat_last`) concat(x, x) of shape [4].
ModelBuilder ThreeBranches(bool concat_last = false, tflite::TensorType mul_type = F32) {
  ModelBuilder b;
  const int index = b.AddInput(I32, {}, "index");
  const int x = b.AddInput(F32, {2}, "x");
  const int y = b.AddOutput(F32, {2}, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_STABLEHLO_CASE, {index, x}, {y},
                CaseOpts({1, 2, 3}));
  for (int s = 0; s < 3; ++s) b.AddSubgraph();
  b.SetCurrentSubgraph(1);
  {
    const int bx = b.AddInput(F32, {2});
    const int by = b.AddOutput(F32, {2});
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {bx, bx}, {by}, tflite::AddOptionsT{});
  }
  b.SetCurrentSubgraph(2);
  {
    const int bx = b.AddInput(F32, {2});
    if (mul_type == F32) {
      const int by = b.AddOutput(F32, {2});
      b.AddOperator(BuiltinOperator::BuiltinOperator_MUL, {bx, bx}, {by}, tflite::MulOptionsT{});
    } else {
      const int by = b.AddOutput(mul_type, {2});
      b.AddOperator(BuiltinOperator::BuiltinOperator_CAST, {bx}, {by});
    }
  }
  b.SetCurrentSubgraph(3);
  {
    const int bx = b.AddInput(F32, {2});
    if (concat_last) {
      const int by = b.AddOutput(F32, {4});
      b.AddOperator(BuiltinOperator::BuiltinOperator_CONCATENATION, {bx, bx}, {by},
                    tflite::ConcatenationOptionsT{});
    } else {
      const int twice = b.AddTensor(F32, {2});
      const int by = b.AddOutput(F32, {2});
      b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {bx, bx}, {twice},
                    tflite::AddOptionsT{});
      b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {twice, bx}, {by},
                    tflite::AddOptionsT{});
    }
  }
  b.SetCurrentSubgraph(0);
  return b;
}

TEST(StablehloCaseTest, IndexPicksTheBranch) {
  ModelRunner r(ThreeBranches());
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(1, {3, -4});
  const std::vector<std::pair<int32_t, std::vector<float>>> cases = {
      {0, {6, -8}}, {1, {9, 16}}, {2, {9, -12}},
      // Outside [0, 3): the last branch.
      {3, {9, -12}}, {-1, {9, -12}}, {1 << 30, {9, -12}}, {1, {9, 16}}};
  for (const auto& [index, want] : cases) {
    r.Set<int32_t>(0, {index});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Get<float>(), want) << "index " << index;
  }
}

TEST(StablehloCaseTest, BranchesWithDifferentShapesMakeOutputsDynamic) {
  ModelRunner r(ThreeBranches(/*concat_last=*/true));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(1, {1, 2});
  r.Set<int32_t>(0, {2});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(), (std::vector<int>{4}));
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{1, 2, 1, 2}));
  r.Set<int32_t>(0, {0});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(), (std::vector<int>{2}));
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{2, 4}));
}

TEST(StablehloCaseTest, RejectsBadIndexBranchesAndSignatures) {
  ExpectAllocateError(ThreeBranches(false, I32), "STABLEHLO_CASE: output 0 is FLOAT32 but the "
                                                 "branch 1 yields INT32");
  {
    ModelBuilder b = ThreeBranches();
    b.tensor(0).type = F32;
    ExpectAllocateError(b, "STABLEHLO_CASE: index must be a single INT32, got FLOAT32");
  }
  {
    ModelBuilder b = ThreeBranches();
    b.tensor(0).shape = {2};
    ExpectAllocateError(b, "STABLEHLO_CASE: index must be a single INT32, got INT32 with 2");
  }
  {
    ModelBuilder b = ThreeBranches();
    b.op(0).builtin_options_2.AsStablehloCaseOptions()->branch_subgraph_indices = {1, 9};
    ExpectAllocateError(b, "branch_subgraph_indices 9 is out of range");
  }
  {
    ModelBuilder b = ThreeBranches();
    b.op(0).builtin_options_2.AsStablehloCaseOptions()->branch_subgraph_indices = {};
    // The builder stores no empty vector: the parser finds the option missing.
    ExpectAllocateError(b, "STABLEHLO_CASE: option 'branch_subgraph_indices' is required");
  }
  {
    ModelBuilder b = ThreeBranches();
    b.op(0).builtin_options_2.AsStablehloCaseOptions()->branch_subgraph_indices = {1, 0};
    ExpectAllocateError(b, "STABLEHLO_CASE: branch 1 subgraph 0 is the subgraph the op is in");
  }
}

}  // namespace
}  // namespace tflite_c

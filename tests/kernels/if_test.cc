// Tests of IF (register_control_flow.cc): branch choice, dynamic outputs and
// the refused graphs. Each test builds a multi-subgraph model with ModelBuilder
// and runs it through the public C API.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"
#include "tests/util/tensor_type_names.h"
#include "tests/kernels/control_flow_test_util.h"

namespace tflite_c {
namespace {

using testing::ExpectAllocateError;
using testing::ModelBuilder;
using tflite::BuiltinOperator;

using Runner = testing::ControlFlowRunner;
using namespace testing::names;  // NOLINT(build/namespaces)

tflite::IfOptionsT IfOpts(int then_branch, int else_branch) {
  tflite::IfOptionsT o;
  o.then_subgraph_index = then_branch;
  o.else_subgraph_index = else_branch;
  return o;
}

// ---- IF
// ---------------------------------------------------------------------------

// main: y = IF(c) { x + x } else { x * x }; `else_type` lets a test break
// the else branch's signature.
ModelBuilder AddOrMul(tflite::TensorType else_type = F32) {
  ModelBuilder b;
  const int c = b.AddInput(BOOL, {1}, "c");
  const int x = b.AddInput(F32, {2}, "x");
  const int y = b.AddOutput(F32, {2}, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_IF, {c, x}, {y}, IfOpts(1, 2));
  b.AddSubgraph("then");
  b.AddSubgraph("else");
  b.SetCurrentSubgraph(1);
  {
    const int tx = b.AddInput(F32, {2});
    const int ty = b.AddOutput(F32, {2});
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {tx, tx}, {ty}, tflite::AddOptionsT{});
  }
  b.SetCurrentSubgraph(2);
  {
    const int ex = b.AddInput(F32, {2});
    if (else_type == F32) {
      const int ey = b.AddOutput(F32, {2});
      b.AddOperator(BuiltinOperator::BuiltinOperator_MUL, {ex, ex}, {ey}, tflite::MulOptionsT{});
    } else {
      const int ey = b.AddOutput(else_type, {2});
      b.AddOperator(BuiltinOperator::BuiltinOperator_CAST, {ex}, {ey});
    }
  }
  b.SetCurrentSubgraph(0);
  return b;
}

TEST(IfTest, PicksTheBranchByTheCondition) {
  Runner r(AddOrMul());
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(1, {3, -4});
  r.SetBool(0, true);
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{6, -8}));
  r.SetBool(0, false);
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{9, 16}));
}

TEST(IfTest, BranchesWithDifferentShapesMakeOutputsDynamic) {
  // then: x + x (shape [2]); else: concat(x, x) (shape [4]).
  ModelBuilder b;
  const int c = b.AddInput(BOOL, {1}, "c");
  const int x = b.AddInput(F32, {2}, "x");
  const int y = b.AddOutput(F32, {2}, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_IF, {c, x}, {y}, IfOpts(1, 2));
  b.AddSubgraph("then");
  b.AddSubgraph("else");
  b.SetCurrentSubgraph(1);
  {
    const int tx = b.AddInput(F32, {2});
    const int ty = b.AddOutput(F32, {2});
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {tx, tx}, {ty}, tflite::AddOptionsT{});
  }
  b.SetCurrentSubgraph(2);
  {
    const int ex = b.AddInput(F32, {2});
    const int ey = b.AddOutput(F32, {4});
    tflite::ConcatenationOptionsT concat;
    b.AddOperator(BuiltinOperator::BuiltinOperator_CONCATENATION, {ex, ex}, {ey}, concat);
  }
  b.SetCurrentSubgraph(0);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(1, {1, 2});
  r.SetBool(0, false);
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(), (std::vector<int>{4}));
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{1, 2, 1, 2}));
  r.SetBool(0, true);
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Shape(), (std::vector<int>{2}));
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{2, 4}));
}

TEST(IfTest, RejectsMismatchedBranchSignatures) {
  ExpectAllocateError(AddOrMul(I32), "else branch yields INT32");
}

TEST(IfTest, RejectsNonBoolConditionAndBadIndex) {
  {
    ModelBuilder b = AddOrMul();
    b.tensor(0).type = F32;
    ExpectAllocateError(b, "condition must be a single BOOL");
  }
  {
    ModelBuilder b = AddOrMul();
    b.op(0).builtin_options.AsIfOptions()->else_subgraph_index = 5;
    ExpectAllocateError(b, "else_subgraph_index 5 is out of range");
  }
}

}  // namespace
}  // namespace tflite_c

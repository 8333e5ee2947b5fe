// Tests of WHILE (register_control_flow.cc): loops, nesting, cancellation, the
// step budget and the refused graphs. Each test builds a multi-subgraph model
// with ModelBuilder and runs it through the public C API.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
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

tflite::WhileOptionsT WhileOpts(int cond, int body) {
  tflite::WhileOptionsT o;
  o.cond_subgraph_index = cond;
  o.body_subgraph_index = body;
  return o;
}

// Subgraph `index`: (x: INT32[1]) -> x < limit.
void BuildLessThan(ModelBuilder& b, int index, int limit) {
  b.SetCurrentSubgraph(index);
  const int x = b.AddInput(I32, {1}, "x");
  const int c = b.AddConstant<int32_t>({1}, {limit});
  const int y = b.AddOutput(BOOL, {1}, "less");
  b.AddOperator(BuiltinOperator::BuiltinOperator_LESS, {x, c}, {y});
}

// Subgraph `index`: (x: INT32[1]) -> x + step.
void BuildIncrement(ModelBuilder& b, int index, int step = 1) {
  b.SetCurrentSubgraph(index);
  const int x = b.AddInput(I32, {1}, "x");
  const int one = b.AddConstant<int32_t>({1}, {step});
  const int y = b.AddOutput(I32, {1}, "next");
  b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {x, one}, {y}, tflite::AddOptionsT{});
}

// main: y = WHILE(x < limit) { x + 1 }.
// `step` 0 makes a loop that never ends.
ModelBuilder CountingWhile(int cond, int body, int limit = 10, int step = 1) {
  ModelBuilder b;
  const int x = b.AddInput(I32, {1}, "x");
  const int y = b.AddOutput(I32, {1}, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x}, {y}, WhileOpts(cond, body));
  b.AddSubgraph("cond");
  b.AddSubgraph("body");
  BuildLessThan(b, 1, limit);
  BuildIncrement(b, 2, step);
  b.SetCurrentSubgraph(0);
  return b;
}
// ---- WHILE
// ------------------------------------------------------------------------

TEST(WhileTest, CountsUpToTheLimit) {
  Runner r(CountingWhile(1, 2));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int32_t>(0, {3});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{10}));
  // A condition false from the start leaves the value alone.
  r.Set<int32_t>(0, {42});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{42}));
}

TEST(WhileTest, BodyThatGrowsATensorMakesOutputsDynamic) {
  // Loop variables: (i: INT32[1], v: FLOAT32[n]); body appends 7 to v.
  ModelBuilder b;
  const int i = b.AddInput(I32, {1}, "i");
  const int v = b.AddInput(F32, {1}, "v");
  const int i_out = b.AddOutput(I32, {1}, "i_out");
  const int v_out = b.AddOutput(F32, {1}, "v_out");
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {i, v}, {i_out, v_out}, WhileOpts(1, 2));
  b.AddSubgraph("cond");
  b.AddSubgraph("body");
  b.SetCurrentSubgraph(1);
  {
    const int ci = b.AddInput(I32, {1});
    b.AddInput(F32, {1});
    const int limit = b.AddConstant<int32_t>({1}, {3});
    const int flag = b.AddOutput(BOOL, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_LESS, {ci, limit}, {flag});
  }
  b.SetCurrentSubgraph(2);
  {
    const int bi = b.AddInput(I32, {1});
    const int bv = b.AddInput(F32, {1});
    const int one = b.AddConstant<int32_t>({1}, {1});
    const int seven = b.AddConstant<float>({1}, {7.f});
    const int bi_out = b.AddOutput(I32, {1});
    const int bv_out = b.AddOutput(F32, {2});
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {bi, one}, {bi_out}, tflite::AddOptionsT{});
    tflite::ConcatenationOptionsT concat;
    concat.axis = 0;
    b.AddOperator(BuiltinOperator::BuiltinOperator_CONCATENATION, {bv, seven}, {bv_out}, concat);
  }
  b.SetCurrentSubgraph(0);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int32_t>(0, {0});
  r.Set<float>(1, {1.5f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(0), (std::vector<int32_t>{3}));
  EXPECT_EQ(r.Shape(1), (std::vector<int>{4}));
  EXPECT_EQ(r.Get<float>(1), (std::vector<float>{1.5f, 7, 7, 7}));
}

TEST(WhileTest, NestedLoops) {
  // Outer: while x < 20 { x = inner(x) + 1 } with inner: while x < 5 { x + 1 }.
  ModelBuilder b;
  const int x = b.AddInput(I32, {1});
  const int y = b.AddOutput(I32, {1});
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x}, {y}, WhileOpts(1, 2));
  for (int s = 0; s < 4; ++s) b.AddSubgraph();
  BuildLessThan(b, 1, 20);
  b.SetCurrentSubgraph(2);
  {
    const int bx = b.AddInput(I32, {1});
    const int mid = b.AddTensor(I32, {1});
    const int one = b.AddConstant<int32_t>({1}, {1});
    const int out = b.AddOutput(I32, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {bx}, {mid}, WhileOpts(3, 4));
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {mid, one}, {out}, tflite::AddOptionsT{});
  }
  BuildLessThan(b, 3, 5);
  BuildIncrement(b, 4);
  b.SetCurrentSubgraph(0);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int32_t>(0, {0});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{20}));
}

TEST(WhileTest, EndlessLoopCanBeCancelled) {
  // 2^31 iterations: far longer than the test waits.
  Runner r(CountingWhile(1, 2, 0x7fffffff));
  ASSERT_TRUE(r.Allocate(/*cancellable=*/true)) << r.log();
  r.Set<int32_t>(0, {0});
  std::thread canceller([&r] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    TfLiteInterpreterCancel(r.interpreter());
  });
  const TfLiteStatus status = TfLiteInterpreterInvoke(r.interpreter());
  canceller.join();
  EXPECT_EQ(status, kTfLiteCancelled) << r.log();
}

TEST(WhileTest, StepBudgetStopsANeverEndingLoop) {
  Runner r(CountingWhile(1, 2, 10, /*step=*/0));
  ASSERT_TRUE(r.Allocate(false, /*max_while_iterations=*/1000)) << r.log();
  r.Set<int32_t>(0, {0});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("WHILE: loop exceeded its budget of 1000 iterations"), std::string::npos)
      << r.log();
  // The interpreter stays usable: a loop that ends right away still runs.
  r.Set<int32_t>(0, {10});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{10}));
}

TEST(WhileTest, StepBudgetCountsBodyRuns) {
  // From 3 to 10 takes exactly 7 iterations.
  for (const int64_t budget : {7, 8, 100}) {
    Runner r(CountingWhile(1, 2));
    ASSERT_TRUE(r.Allocate(false, budget)) << r.log();
    r.Set<int32_t>(0, {3});
    ASSERT_TRUE(r.Invoke()) << "budget " << budget << ": " << r.log();
    EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{10}));
    // The budget is per Invoke, not per interpreter.
    r.Set<int32_t>(0, {3});
    ASSERT_TRUE(r.Invoke()) << "budget " << budget << ": " << r.log();
  }
  Runner r(CountingWhile(1, 2));
  ASSERT_TRUE(r.Allocate(false, 6)) << r.log();
  r.Set<int32_t>(0, {3});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("budget of 6 iterations"), std::string::npos) << r.log();
}

TEST(WhileTest, StepBudgetFromTheEnvironment) {
  ASSERT_EQ(setenv("TFLITE_C_MAX_WHILE_ITERATIONS", "50", 1), 0);
  {
    Runner r(CountingWhile(1, 2, 10, /*step=*/0));
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.Set<int32_t>(0, {0});
    EXPECT_FALSE(r.Invoke());
    EXPECT_NE(r.log().find("budget of 50 iterations"), std::string::npos) << r.log();
  }
  {
    // The options win over the environment.
    Runner r(CountingWhile(1, 2, 10, /*step=*/0));
    ASSERT_TRUE(r.Allocate(false, 20)) << r.log();
    r.Set<int32_t>(0, {0});
    EXPECT_FALSE(r.Invoke());
    EXPECT_NE(r.log().find("budget of 20 iterations"), std::string::npos) << r.log();
  }
  {
    // Garbage in the variable means no limit.
    ASSERT_EQ(setenv("TFLITE_C_MAX_WHILE_ITERATIONS", "12abc", 1), 0);
    Runner r(CountingWhile(1, 2, 100));
    ASSERT_TRUE(r.Allocate()) << r.log();
    r.Set<int32_t>(0, {0});
    EXPECT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{100}));
  }
  unsetenv("TFLITE_C_MAX_WHILE_ITERATIONS");
}

TEST(WhileTest, StepBudgetSetterRejectsBadArguments) {
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  EXPECT_EQ(TfLiteInterpreterOptionsSetMaxWhileIterations(options, -1), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterOptionsSetMaxWhileIterations(nullptr, 5), kTfLiteError);
  EXPECT_EQ(TfLiteInterpreterOptionsSetMaxWhileIterations(options, 0), kTfLiteOk);
  TfLiteInterpreterOptionsDelete(options);
}

TEST(WhileTest, BudgetAppliesToEachNestedLoop) {
  // Outer loop runs 2 iterations, the inner one 5 per outer iteration: a
  // budget of 5 is enough, because it counts per WHILE node and run.
  ModelBuilder b;
  const int x = b.AddInput(I32, {1});
  const int y = b.AddOutput(I32, {1});
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x}, {y}, WhileOpts(1, 2));
  for (int s = 0; s < 4; ++s) b.AddSubgraph();
  BuildLessThan(b, 1, 2);
  b.SetCurrentSubgraph(2);
  {
    // x -> (WHILE y < 5 { y + 1 } from 0) - 4 + x, i.e. x + 1.
    const int bx = b.AddInput(I32, {1});
    const int zero = b.AddConstant<int32_t>({1}, {0});
    const int five = b.AddTensor(I32, {1});
    const int minus4 = b.AddConstant<int32_t>({1}, {-4});
    const int t = b.AddTensor(I32, {1});
    const int out = b.AddOutput(I32, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {zero}, {five}, WhileOpts(3, 4));
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {five, minus4}, {t}, tflite::AddOptionsT{});
    b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {t, bx}, {out}, tflite::AddOptionsT{});
  }
  BuildLessThan(b, 3, 5);
  BuildIncrement(b, 4);
  b.SetCurrentSubgraph(0);
  {
    Runner r(b);
    ASSERT_TRUE(r.Allocate(false, 5)) << r.log();
    r.Set<int32_t>(0, {0});
    ASSERT_TRUE(r.Invoke()) << r.log();
    EXPECT_EQ(r.Get<int32_t>(), (std::vector<int32_t>{2}));
  }
  Runner r(b);
  ASSERT_TRUE(r.Allocate(false, 4)) << r.log();
  r.Set<int32_t>(0, {0});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("budget of 4 iterations"), std::string::npos) << r.log();
}

TEST(WhileTest, RejectsBodyThatRunsItself) {
  // Body 2 holds a WHILE whose body is subgraph 2 again.
  ModelBuilder b;
  const int x = b.AddInput(I32, {1});
  const int y = b.AddOutput(I32, {1});
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x}, {y}, WhileOpts(1, 2));
  b.AddSubgraph("cond");
  b.AddSubgraph("body");
  BuildLessThan(b, 1, 10);
  b.SetCurrentSubgraph(2);
  {
    const int bx = b.AddInput(I32, {1});
    const int out = b.AddOutput(I32, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {bx}, {out}, WhileOpts(1, 2));
  }
  b.SetCurrentSubgraph(0);
  ExpectAllocateError(b, "body subgraph 2 is the subgraph the op is in");
  // A condition subgraph that loops over the outer condition.
  ModelBuilder c = CountingWhile(1, 2);
  c.AddSubgraph("self_cond");  // 3: WHILE(3, 2) inside the condition subgraph 3
  c.SetCurrentSubgraph(3);
  {
    const int cx = c.AddInput(I32, {1});
    const int looped = c.AddTensor(I32, {1});
    const int limit = c.AddConstant<int32_t>({1}, {10});
    const int flag = c.AddOutput(BOOL, {1});
    c.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {cx}, {looped}, WhileOpts(3, 2));
    c.AddOperator(BuiltinOperator::BuiltinOperator_LESS, {looped, limit}, {flag});
  }
  c.SetCurrentSubgraph(0);
  c.op(0).builtin_options.AsWhileOptions()->cond_subgraph_index = 3;
  ExpectAllocateError(c, "cond subgraph 3 is the subgraph the op is in");
}

TEST(WhileTest, RejectsBadSubgraphIndex) {
  // The model checker already refuses these at load time.
  ExpectAllocateError(CountingWhile(1, 9), "body_subgraph_index 9 is out of range");
  ExpectAllocateError(CountingWhile(-1, 2), "cond_subgraph_index -1 is out of range");
}

TEST(WhileTest, RejectsNonBoolCondition) {
  ModelBuilder b = CountingWhile(1, 2);
  b.AddSubgraph("cond_i32");  // 3: yields x + 1, an INT32
  BuildIncrement(b, 3);
  b.SetCurrentSubgraph(0);
  b.op(0).builtin_options.AsWhileOptions()->cond_subgraph_index = 3;
  ExpectAllocateError(b, "condition subgraph output is INT32, expected BOOL");
}

TEST(WhileTest, RejectsBodiesThatContainEachOther) {
  // main loops over body 2; body 2 loops over body 3; body 3 loops over
  // body 2 again: preparing it would never end.
  ModelBuilder b;
  const int x = b.AddInput(I32, {1});
  const int y = b.AddOutput(I32, {1});
  b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {x}, {y}, WhileOpts(1, 2));
  for (int s = 0; s < 3; ++s) b.AddSubgraph();
  BuildLessThan(b, 1, 10);
  for (int body : {2, 3}) {
    b.SetCurrentSubgraph(body);
    const int bx = b.AddInput(I32, {1});
    const int out = b.AddOutput(I32, {1});
    b.AddOperator(BuiltinOperator::BuiltinOperator_WHILE, {bx}, {out},
                  WhileOpts(1, body == 2 ? 3 : 2));
  }
  b.SetCurrentSubgraph(0);
  ExpectAllocateError(b, "would run inside itself");
}

TEST(WhileTest, RejectsLoopInItsOwnSubgraph) {
  ExpectAllocateError(CountingWhile(1, 0), "is the subgraph the op is in");
}

}  // namespace
}  // namespace tflite_c

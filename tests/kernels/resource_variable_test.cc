// Tests of CALL_ONCE and the resource-variable ops VAR_HANDLE, READ_VARIABLE
// and ASSIGN_VARIABLE (register_control_flow.cc). Each test builds a
// multi-subgraph model with ModelBuilder and runs it through the public C API.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
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
constexpr auto RES = tflite::TensorType_RESOURCE;

// ---- CALL_ONCE and resource variables
// ------------------------------------------------

tflite::VarHandleOptionsT Var(const std::string& name) {
  tflite::VarHandleOptionsT o;
  o.shared_name = name;
  return o;
}

// main: CALL_ONCE(init); v = READ(var); y = v + x; ASSIGN(var, y); return y.
// init: ASSIGN(var, {1, 2}).
ModelBuilder Accumulator() {
  ModelBuilder b;
  const int x = b.AddInput(F32, {2}, "x");
  const int h = b.AddTensor(RES, {}, "handle");
  const int v = b.AddTensor(F32, {2}, "value");
  const int y = b.AddOutput(F32, {2}, "y");
  tflite::CallOnceOptionsT once;
  once.init_subgraph_index = 1;
  b.AddOperator(BuiltinOperator::BuiltinOperator_CALL_ONCE, {}, {}, once);
  b.AddOperator(BuiltinOperator::BuiltinOperator_VAR_HANDLE, {}, {h}, Var("acc"));
  b.AddOperator(BuiltinOperator::BuiltinOperator_READ_VARIABLE, {h}, {v});
  b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {v, x}, {y}, tflite::AddOptionsT{});
  b.AddOperator(BuiltinOperator::BuiltinOperator_ASSIGN_VARIABLE, {h, y}, {});
  b.AddSubgraph("init");
  b.SetCurrentSubgraph(1);
  {
    const int ih = b.AddTensor(RES, {});
    const int c = b.AddConstant<float>({2}, {1, 2});
    b.AddOperator(BuiltinOperator::BuiltinOperator_VAR_HANDLE, {}, {ih}, Var("acc"));
    b.AddOperator(BuiltinOperator::BuiltinOperator_ASSIGN_VARIABLE, {ih, c}, {});
  }
  b.SetCurrentSubgraph(0);
  return b;
}

TEST(ResourceVariableTest, CallOnceInitializesAndValuesPersistAcrossInvokes) {
  Runner r(Accumulator());
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {1, 1});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{2, 3}));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{3, 4}));
  // As upstream: resource variables and CALL_ONCE survive both.
  ASSERT_EQ(TfLiteInterpreterResetVariableTensors(r.interpreter()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.interpreter()), kTfLiteOk);
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{4, 5}));
}

TEST(ResourceVariableTest, EachInterpreterHasItsOwnVariables) {
  ModelBuilder b = Accumulator();
  Runner first(b), second(b);
  ASSERT_TRUE(first.Allocate()) << first.log();
  ASSERT_TRUE(second.Allocate()) << second.log();
  first.Set<float>(0, {10, 10});
  second.Set<float>(0, {0, 0});
  ASSERT_TRUE(first.Invoke()) << first.log();
  ASSERT_TRUE(second.Invoke()) << second.log();
  EXPECT_EQ(first.Get<float>(), (std::vector<float>{11, 12}));
  EXPECT_EQ(second.Get<float>(), (std::vector<float>{1, 2}));
}

TEST(ResourceVariableTest, ReadingAnUnassignedVariableFails) {
  ModelBuilder b = Accumulator();
  b.op(0).builtin_options.AsCallOnceOptions()->init_subgraph_index = 1;
  // Point main's handle at another name: the init never assigns it.
  b.op(1).builtin_options.AsVarHandleOptions()->shared_name = "other";
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {1, 1});
  EXPECT_FALSE(r.Invoke());
  EXPECT_NE(r.log().find("has not been assigned"), std::string::npos) << r.log();
}

TEST(CallOnceTest, RejectsItsOwnSubgraphAndBadIndex) {
  {
    ModelBuilder b = Accumulator();
    b.op(0).builtin_options.AsCallOnceOptions()->init_subgraph_index = 0;
    ExpectAllocateError(b, "is the subgraph the op is in");
  }
  {
    ModelBuilder b = Accumulator();
    b.op(0).builtin_options.AsCallOnceOptions()->init_subgraph_index = 4;
    ExpectAllocateError(b, "init_subgraph_index 4 is out of range");
  }
}

}  // namespace
}  // namespace tflite_c

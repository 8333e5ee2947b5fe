// XNNPACK delegate, resource variables across subgraphs: with
// TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS the delegate decides per
// variable for the whole model. When a subgraph prepared after the primary
// one (here the CALL_ONCE init subgraph) cannot delegate a variable the
// primary subgraph could, the variable stays on the builtin kernels in both
// and the model still runs, with the builtin kernels' outputs. Skipped in
// builds without XNNPACK.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_variables_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto RES = tflite::TensorType_RESOURCE;

// How the init subgraph sets the variable.
enum class Init {
  kConstant,        // ASSIGN(acc, constant): delegable, agrees with the primary subgraph
  kFp16Weight,      // ASSIGN(acc, DEQUANTIZE(fp16 constant)): a static value, refused
};

// Float accumulator: v = READ(acc); y = v + x; ASSIGN(acc, y); output y.
// The init subgraph sets acc to {1, 2, 3, 4}.
std::vector<uint8_t> FloatAccumulator(Init init) {
  ModelBuilder b;
  AddAccumulator(&b, F32, "acc");
  b.AddSubgraph("init");
  b.SetCurrentSubgraph(1);
  const int ih = b.AddTensor(RES, {});
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {ih}, Var("acc"));
  if (init == Init::kFp16Weight) {
    // IEEE half 1, 2, 3, 4.
    const int c16 = b.AddConstant<uint16_t>(tflite::TensorType_FLOAT16, {4},
                                            {0x3C00, 0x4000, 0x4200, 0x4400});
    const int c = b.AddTensor(F32, {4});
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {c16}, {c}, /*version=*/3);
    b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ih, c}, {});
  } else {
    const int c = b.AddConstant<float>({4}, {1, 2, 3, 4});
    b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ih, c}, {});
  }
  b.SetCurrentSubgraph(0);
  return b.Finish();
}

// FloatAccumulator(kConstant) plus subgraph 2, "reset", which nothing calls
// (as a signature's subgraph would be): ASSIGN(acc, DEQUANTIZE(fp16 zeros)).
std::vector<uint8_t> FloatAccumulatorWithFp16Reset() {
  ModelBuilder b;
  AddAccumulator(&b, F32, "acc");
  b.AddSubgraph("init");
  b.SetCurrentSubgraph(1);
  const int ih = b.AddTensor(RES, {});
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4});
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {ih}, Var("acc"));
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ih, c}, {});
  b.AddSubgraph("reset");
  b.SetCurrentSubgraph(2);
  const int rh = b.AddTensor(RES, {});
  const int z16 = b.AddConstant<uint16_t>(tflite::TensorType_FLOAT16, {4}, {0, 0, 0, 0});
  const int z = b.AddTensor(F32, {4});
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {rh}, Var("acc"));
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {z16}, {z}, /*version=*/3);
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {rh, z}, {});
  b.SetCurrentSubgraph(0);
  return b.Finish();
}

// Number of nodes of `code` left (not delegated) in subgraph `index`'s plan.
int Remaining(Session* s, int index, int code) {
  Subgraph* sg = s->interpreter->impl->subgraph(index);
  if (sg == nullptr) return -1;
  int n = 0;
  for (int i : sg->execution_plan()) {
    if (sg->node_and_registration(i)->second.builtin_code == code) ++n;
  }
  return n;
}

// Variable nodes (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) left in subgraph `index`.
int VariableNodes(Session* s, int index) {
  return Remaining(s, index, kTfLiteBuiltinVarHandle) +
         Remaining(s, index, kTfLiteBuiltinReadVariable) +
         Remaining(s, index, kTfLiteBuiltinAssignVariable);
}

// Output 0 of `invokes` runs, as raw bytes; input k is f(k) as float or int8.
std::vector<std::vector<uint8_t>> RunSeveral(Session* s, bool int8, int invokes) {
  if (int8) return RunOutput0(s, invokes, SetInt8Input);
  return RunOutput0(s, invokes, [](TfLiteTensor* in, int k) {
    const std::vector<float> x = {0.75f * (k + 1), -0.5f, 0.25f * k, 2.0f};
    EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, x.data(), x.size() * sizeof(float)), kTfLiteOk);
  });
}

TEST(XnnpackVariablesSubgraphs, AgreeingInitIsDelegatedToo) {
  SKIP_WITHOUT_XNNPACK();
  // The model-wide check refuses nothing here: both subgraphs' variable
  // nodes are taken.
  const std::vector<uint8_t> bytes = FloatAccumulator(Init::kConstant);
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok() && on.ok()) << on.errors;
  EXPECT_EQ(VariableNodes(&on, 0), 0);
  EXPECT_EQ(VariableNodes(&on, 1), 0);
  EXPECT_EQ(RunSeveral(&on, false, 4), RunSeveral(&builtin, false, 4));
}

TEST(XnnpackVariablesSubgraphs, Fp16WeightInInitKeepsVariableBuiltinEverywhere) {
  SKIP_WITHOUT_XNNPACK();
  // The init subgraph (prepared second) assigns from an fp16 weight the
  // delegate would unpack, which it cannot take; the primary subgraph's
  // variable nodes must then stay builtin as well (formerly: the delegate
  // failed on the init subgraph and the interpreter was not created).
  const std::vector<uint8_t> bytes = FloatAccumulator(Init::kFp16Weight);
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(on.ok()) << on.errors;
  EXPECT_EQ(on.errors.find("delegated in one subgraph"), std::string::npos) << on.errors;
  EXPECT_EQ(VariableNodes(&on, 0), 3);  // VAR_HANDLE, READ, ASSIGN
  EXPECT_EQ(VariableNodes(&on, 1), 2);  // VAR_HANDLE, ASSIGN
  EXPECT_EQ(Remaining(&on, 0, kTfLiteBuiltinAdd), 0);  // the ADD is still delegated
  const auto want = RunSeveral(&builtin, false, 4);
  EXPECT_EQ(RunSeveral(&on, false, 4), want);
  // The state accumulates from the init value: y_0 = {1,2,3,4} + x_0.
  ASSERT_FALSE(want.empty());
  ASSERT_EQ(want[0].size(), 4 * sizeof(float));
  float y0[4];
  std::memcpy(y0, want[0].data(), sizeof(y0));
  EXPECT_FLOAT_EQ(y0[0], 1 + 0.75f);
  EXPECT_FLOAT_EQ(y0[3], 4 + 2.0f);
}

TEST(XnnpackVariablesSubgraphs, RefusalInTheLastSubgraphKeepsVariableBuiltinEverywhere) {
  SKIP_WITHOUT_XNNPACK();
  // Subgraphs 0 and 1 could delegate `acc`; subgraph 2, prepared last and
  // never run here, cannot: all three keep it on the builtin kernels.
  const std::vector<uint8_t> bytes = FloatAccumulatorWithFp16Reset();
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(on.ok()) << on.errors;
  EXPECT_EQ(VariableNodes(&on, 0), 3);
  EXPECT_EQ(VariableNodes(&on, 1), 2);
  EXPECT_EQ(VariableNodes(&on, 2), 2);
  EXPECT_EQ(RunSeveral(&on, false, 3), RunSeveral(&builtin, false, 3));
}

TEST(XnnpackVariablesSubgraphs, InitWithOtherQuantizationKeepsVariableBuiltinEverywhere) {
  SKIP_WITHOUT_XNNPACK();
  // Each subgraph agrees with itself, but the init subgraph's value has
  // another zero point than the primary subgraph's reads and assigns.
  const std::vector<uint8_t> bytes = Int8Accumulator(/*assign_zero_point=*/-3, /*init_zero_point=*/0);
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(on.ok()) << on.errors;
  EXPECT_EQ(VariableNodes(&on, 0), 3);
  EXPECT_EQ(VariableNodes(&on, 1), 2);
  EXPECT_EQ(RunSeveral(&on, true, 4), RunSeveral(&builtin, true, 4));
}

TEST(XnnpackVariablesSubgraphs, AgreeingInt8InitIsDelegated) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = Int8Accumulator();
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok() && on.ok()) << on.errors;
  EXPECT_EQ(VariableNodes(&on, 0), 0);
  EXPECT_EQ(VariableNodes(&on, 1), 0);
  EXPECT_EQ(RunSeveral(&on, true, 4), RunSeveral(&builtin, true, 4));
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

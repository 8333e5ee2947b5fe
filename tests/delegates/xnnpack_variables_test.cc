// XNNPACK delegate: resource variables. With
// TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS the delegate takes
// VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE (state kept by the delegate,
// shared by its partitions and subgraphs); without it they stay on the
// builtin kernels. Several invokes where the state accumulates must give the
// builtin kernels' outputs every time. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_variables_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto RES = tflite::TensorType_RESOURCE;

// Adds subgraph 1, "init": ASSIGN(name_i, constant_i) for each variable.
void AddInit(ModelBuilder* b, const std::vector<std::string>& names,
             const std::vector<std::vector<float>>& values) {
  b->AddSubgraph("init");
  b->SetCurrentSubgraph(1);
  for (size_t i = 0; i < names.size(); ++i) {
    const int h = b->AddTensor(RES, {});
    const int c = b->AddConstant<float>({static_cast<int>(values[i].size())}, values[i]);
    b->AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {h}, Var(names[i]));
    b->AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {h, c}, {});
  }
  b->SetCurrentSubgraph(0);
}

// v = READ(acc); y = v + x; ASSIGN(acc, y); output y. acc starts at {1,2,3,4}.
// `read_shape` is the READ_VARIABLE output's declared shape.
std::vector<uint8_t> Accumulator(const std::vector<int>& read_shape = {4}) {
  ModelBuilder b;
  AddAccumulator(&b, F32, "acc", read_shape);
  AddInit(&b, {"acc"}, {{1, 2, 3, 4}});
  return b.Finish();
}

// Two variables a, b; SIGN (not an XNNPACK op) splits the graph, so `a` is
// read in the first partition and assigned in the second:
//   ra = READ(a); t = ra + x; s = SIGN(t); w = s + ra; ASSIGN(a, w);
//   rb = READ(b); z = rb * w; ASSIGN(b, t); outputs w, z.
std::vector<uint8_t> TwoVariables() {
  ModelBuilder b;
  const int x = b.AddInput(F32, {3}, "x");
  const int ha = b.AddTensor(RES, {}, "a");
  const int hb = b.AddTensor(RES, {}, "b");
  const int ra = b.AddTensor(F32, {3});
  const int rb = b.AddTensor(F32, {3});
  const int t = b.AddTensor(F32, {3});
  const int s = b.AddTensor(F32, {3});
  const int w = b.AddOutput(F32, {3}, "w");
  const int z = b.AddOutput(F32, {3}, "z");
  CallOnce(&b);
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {ha}, Var("a"));
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {hb}, Var("b"));
  b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {ha}, {ra});
  b.AddOperator(tflite::BuiltinOperator_ADD, {ra, x}, {t}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SIGN, {t}, {s});
  b.AddOperator(tflite::BuiltinOperator_ADD, {s, ra}, {w}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {ha, w}, {});
  b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {hb}, {rb});
  b.AddOperator(tflite::BuiltinOperator_MUL, {rb, w}, {z}, tflite::MulOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ASSIGN_VARIABLE, {hb, t}, {});
  AddInit(&b, {"a", "b"}, {{0.5f, -1, 2}, {1, 1, -1}});
  return b.Finish();
}

// Number of nodes of `code` left in the primary plan (not delegated).
int Remaining(Session* s, int code) {
  int n = 0;
  for (int i : s->plan()) {
    if (s->primary().node_and_registration(i)->second.builtin_code == code) ++n;
  }
  return n;
}

// Runs `invokes` times with input k+1 scaled, returning every output of every run.
std::vector<std::vector<float>> RunSeveral(Session* s, int inputs, int invokes) {
  std::vector<std::vector<float>> all;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
  for (int k = 0; k < invokes; ++k) {
    std::vector<float> in(inputs);
    for (int i = 0; i < inputs; ++i) in[i] = 0.75f * static_cast<float>(k + 1) - 0.5f * i;
    EXPECT_TRUE(s->SetInput(0, in));
    EXPECT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
    const int n = TfLiteInterpreterGetOutputTensorCount(s->interpreter.get());
    for (int o = 0; o < n; ++o) all.push_back(s->Output(o));
  }
  return all;
}

TEST(XnnpackVariables, AccumulatorMatchesBuiltinOnEveryInvoke) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = Accumulator();
  Session builtin, off, on;
  builtin.Create(bytes, {});
  XnnPtr d_off = VariablesDelegate(false), d_on = VariablesDelegate(true);
  off.Create(bytes, {d_off.get()});
  on.Create(bytes, {d_on.get()});
  ASSERT_TRUE(builtin.ok() && off.ok() && on.ok()) << off.errors << on.errors;
  // Flag off: CALL_ONCE, VAR_HANDLE, READ, [ADD], ASSIGN.
  EXPECT_EQ(off.plan().size(), 5u);
  EXPECT_EQ(Remaining(&off, kTfLiteBuiltinReadVariable), 1);
  EXPECT_EQ(Remaining(&off, kTfLiteBuiltinAssignVariable), 1);
  // Flag on: CALL_ONCE, [VAR_HANDLE, READ, ADD, ASSIGN].
  EXPECT_EQ(on.plan().size(), 2u);
  EXPECT_EQ(on.DelegateNodes(), 1);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinVarHandle), 0);
  const auto want = RunSeveral(&builtin, 4, 4);
  EXPECT_EQ(RunSeveral(&off, 4, 4), want);
  EXPECT_EQ(RunSeveral(&on, 4, 4), want);
  // The state really accumulates: y_k = init + sum of inputs so far.
  ASSERT_EQ(want.size(), 4u);
  EXPECT_FLOAT_EQ(want[0][0], 1 + 0.75f);
  EXPECT_FLOAT_EQ(want[3][0], 1 + 0.75f * (1 + 2 + 3 + 4));
}

TEST(XnnpackVariables, TwoVariablesAcrossPartitions) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = TwoVariables();
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok() && on.ok()) << on.errors;
  // All variable ops taken; SIGN (and CALL_ONCE) stay, between two partitions.
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinReadVariable), 0);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinAssignVariable), 0);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinVarHandle), 0);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinSign), 1);
  EXPECT_EQ(on.DelegateNodes(), 2);
  const auto want = RunSeveral(&builtin, 3, 5);
  const auto got = RunSeveral(&on, 3, 5);
  EXPECT_EQ(got, want);
}

TEST(XnnpackVariables, DisagreeingShapesStayOnBuiltinKernels) {
  SKIP_WITHOUT_XNNPACK();
  // The READ_VARIABLE output has an unknown (rank-0) shape while the assigned
  // value is [4]: the variable is not taken; the builtin kernels run it.
  const std::vector<uint8_t> bytes = Accumulator({});
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok() && on.ok()) << on.errors;
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinVarHandle), 1);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinReadVariable), 1);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinAssignVariable), 1);
  EXPECT_EQ(RunSeveral(&on, 4, 3), RunSeveral(&builtin, 4, 3));
}

std::vector<std::vector<uint8_t>> RunInt8(Session* s, int invokes) {
  return RunOutput0(s, invokes, SetInt8Input);
}

TEST(XnnpackVariables, Int8VariableMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = Int8Accumulator();
  BuiltinAndDelegated both(bytes);
  Session& builtin = both.builtin;
  Session& on = both.on;
  ASSERT_TRUE(builtin.ok() && on.ok()) << on.errors;
  EXPECT_EQ(on.plan().size(), 2u);  // CALL_ONCE, [VAR_HANDLE, READ, ADD, ASSIGN]
  EXPECT_EQ(RunInt8(&on, 4), RunInt8(&builtin, 4));
}

TEST(XnnpackVariables, DisagreeingQuantizationStaysOnBuiltinKernels) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = Int8Accumulator(/*assign_zero_point=*/0);
  Session on;
  XnnPtr d = VariablesDelegate(true);
  on.Create(bytes, {d.get()});
  ASSERT_TRUE(on.ok()) << on.errors;
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinVarHandle), 1);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinReadVariable), 1);
  EXPECT_EQ(Remaining(&on, kTfLiteBuiltinAssignVariable), 1);
}

TEST(XnnpackVariables, ReadBeforeAnyAssignFails) {
  SKIP_WITHOUT_XNNPACK();
  // No CALL_ONCE: the first READ finds nothing, as with the builtin kernel.
  ModelBuilder b;
  const int x = b.AddInput(F32, {2}, "x");
  const int h = b.AddTensor(RES, {});
  const int v = b.AddTensor(F32, {2});
  const int y = b.AddOutput(F32, {2}, "y");
  b.AddOperator(tflite::BuiltinOperator_VAR_HANDLE, {}, {h}, Var("never"));
  b.AddOperator(tflite::BuiltinOperator_READ_VARIABLE, {h}, {v});
  b.AddOperator(tflite::BuiltinOperator_ADD, {v, x}, {y}, tflite::AddOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();
  Session on;
  XnnPtr d = VariablesDelegate(true);
  on.Create(bytes, {d.get()});
  ASSERT_TRUE(on.ok()) << on.errors;
  EXPECT_EQ(on.plan().size(), 1u);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(on.interpreter.get()), kTfLiteOk) << on.errors;
  ASSERT_TRUE(on.SetInput(0, {1, 2}));
  EXPECT_NE(TfLiteInterpreterInvoke(on.interpreter.get()), kTfLiteOk);
  EXPECT_NE(on.errors.find("has not been assigned"), std::string::npos) << on.errors;
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

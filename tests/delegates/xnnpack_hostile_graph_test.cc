// Graphs that are legal (or only wrong in declared shapes the builtin kernels
// correct) but once made the XNNPACK delegate hand XNNPACK a subgraph it
// aborted or over-read on (found by tests/core/hostile_model_fuzz_test.cc).
// The delegated run must match the builtin one.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

#ifdef TFLITE_C_WITH_XNNPACK

// Runs `bytes` builtin and with a single-threaded XNNPACK delegate on input
// `x`; both must succeed with the same output 0.
void ExpectSameAsBuiltin(const std::vector<uint8_t>& bytes, const std::vector<float>& x,
                         int expected_delegate_nodes) {
  XnnPtr delegate = SingleThreadXnnpack();
  const FloatRun ref = RunFloatModel(bytes, nullptr, x);
  const FloatRun xnn = RunFloatModel(bytes, delegate.get(), x);
  ASSERT_FALSE(ref.out.empty()) << ref.errors;
  ASSERT_FALSE(xnn.out.empty()) << xnn.errors;
  EXPECT_EQ(xnn.delegate_nodes, expected_delegate_nodes) << xnn.errors;
  ASSERT_EQ(ref.out.size(), xnn.out.size());
  for (size_t i = 0; i < ref.out.size(); ++i) EXPECT_NEAR(ref.out[i], xnn.out[i], 1e-5f) << i;
}

// x -> ADD c -> t1 -> MUL c -> t2 (read by nobody, not an output); the
// output y = SUB(x, c). XNNPACK dropped the dead MUL but left t1 naming it as
// its consumer, and xnn_create_runtime aborted the process.
TEST(XnnpackHostileGraph, DeadChainAfterARedirectedInputRuns) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4}, "c");
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  const int t2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t1}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_MUL, {t1, c}, {t2}, tflite::MulOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {x, c}, {y}, tflite::SubOptionsT());
  ExpectSameAsBuiltin(b.Finish(), {0.5f, -1.5f, 2.0f, 7.0f}, 1);
}

// The graph output is the graph input (as upstream allows); every operator's
// result is dead. Same abort as above.
TEST(XnnpackHostileGraph, GraphOutputIsTheGraphInputRuns) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4}, "c");
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  const int t2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t1}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_MUL, {t1, c}, {t2}, tflite::MulOptionsT());
  b.SetOutputs({x});
  const std::vector<float> in = {0.5f, -1.5f, 2.0f, 7.0f};
  ExpectSameAsBuiltin(b.Finish(), in, 1);
  XnnPtr delegate = SingleThreadXnnpack();
  EXPECT_EQ(RunFloatModel(b.Finish(), delegate.get(), in).out, in);
}

// An fp16 filter [2,1,1,4] through DEQUANTIZE whose output is declared
// [8,1,1,4]: the builtin DEQUANTIZE keeps the source shape (the CONV_2D then
// has 2 output channels). The delegate took the declared shape as the
// weight's and XNNPACK packed 32 floats out of 8.
TEST(XnnpackHostileGraph, Fp16WeightDeclaredLargerThanItsDataIsNotUnpacked) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 3, 3, 4}, "x");
  const std::vector<uint16_t> half = {0x3C00, 0x4000, 0xBC00, 0x3800,   // 1, 2, -1, 0.5
                                      0x3400, 0xC000, 0x4200, 0x0000};  // 0.25, -2, 3, 0
  const int w16 = b.AddConstant<uint16_t>(tflite::TensorType_FLOAT16, {2, 1, 1, 4}, half);
  const int w = b.AddTensor(tflite::TensorType_FLOAT32, {8, 1, 1, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 3, 3, 8}, "y");
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {w16}, {w});
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w}, {y}, o);
  const std::vector<uint8_t> bytes = b.Finish();
  XnnPtr delegate = SingleThreadXnnpack();
  const std::vector<float> in = Random(36, 5);
  const FloatRun ref = RunFloatModel(bytes, nullptr, in);
  const FloatRun xnn = RunFloatModel(bytes, delegate.get(), in);
  ASSERT_EQ(ref.out.size(), 18u) << ref.errors;
  ASSERT_EQ(xnn.out.size(), ref.out.size()) << xnn.errors;
  for (size_t i = 0; i < ref.out.size(); ++i) EXPECT_NEAR(ref.out[i], xnn.out[i], 1e-5f) << i;
}

#endif  // TFLITE_C_WITH_XNNPACK

}  // namespace
}  // namespace testing
}  // namespace tflite_c

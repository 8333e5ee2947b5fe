// Two changes of our XNNPACK build to element-wise work, each checked against
// plain loops (not either kernel) with 1, 2 and 3 threads:
// - patch 0007: a clamp after an f32 binary operator (a fused RELU / RELU6 /
//   RELU_N1_TO_1, or a RELU node of its own) runs inside the binary operator,
//   block by block; the operator profile shows that no separate clamp is left;
// - patch 0009: a PRELU after an f32 binary operator (slope constant along
//   the channels) runs inside it too, block by block of whole rows, or as a
//   second pass of the same operator when the binary operator broadcasts;
// - patch 0008: constant padding hands runs of rows to the pad microkernel
//   (rows inside the input) and to the fill microkernel (padding rows).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

struct Ran {
  std::vector<std::vector<float>> outputs;
  std::vector<std::string> operators;  // XNNPACK's, in order
  int clamps = 0;                      // separate clamp (unary) operators among them
  std::string errors;
};

// Runs `bytes` (float input 0 = `input`) through the XNNPACK delegate with
// `threads` threads and the operator profile on.
Ran RunOnXnnpack(const std::vector<uint8_t>& bytes, int threads, const std::vector<float>& input) {
  Ran r;
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = threads;
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&o));
  if (!delegate) return r;
  OperatorNames profile;
  Session s;
  s.Create(bytes, {delegate.get()}, /*fallback=*/false, &profile);
  bool ran = s.ok() && TfLiteInterpreterAllocateTensors(s.interpreter.get()) == kTfLiteOk &&
             s.SetInput(0, input);
  const int outputs = ran ? TfLiteInterpreterGetOutputTensorCount(s.interpreter.get()) : 0;
  // Outputs start as NaN, so that an element no kernel wrote shows.
  for (int i = 0; i < outputs; ++i) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(s.interpreter.get(), i);
    std::fill(t->data.f, t->data.f + t->bytes / sizeof(float), std::nanf(""));
  }
  profile.names.clear();
  ran = ran && TfLiteInterpreterInvoke(s.interpreter.get()) == kTfLiteOk;
  r.errors = s.errors;
  if (!ran) return r;
  for (int i = 0; i < outputs; ++i) r.outputs.push_back(s.Output(i));
  r.operators = profile.names;
  r.clamps = profile.Count("Unary Elementwise") + profile.Count("Clamp");
  return r;
}

void ExpectOutput(const Ran& r, size_t index, const std::vector<float>& want) {
  ASSERT_GT(r.outputs.size(), index) << r.errors;
  const std::vector<float>& got = r.outputs[index];
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < 5; ++i) {
    // x + y and a clamp are single roundings: the same float either way.
    if (got[i] != want[i]) {
      ++bad;
      ADD_FAILURE() << "output " << index << " element " << i << ": " << got[i]
                    << " != " << want[i];
    }
  }
}

float Activate(float v, tflite::ActivationFunctionType act) {
  switch (act) {
    case tflite::ActivationFunctionType_RELU: return std::max(v, 0.0f);
    case tflite::ActivationFunctionType_RELU6: return std::min(std::max(v, 0.0f), 6.0f);
    case tflite::ActivationFunctionType_RELU_N1_TO_1: return std::min(std::max(v, -1.0f), 1.0f);
    default: return v;
  }
}

// Which element of `other` (shape `other_shape`, broadcast against `shape`)
// pairs with flat index `i` of the output.
size_t Broadcast(size_t i, const std::vector<int>& shape, const std::vector<int>& other_shape) {
  size_t at = 0, stride = 1, rest = i;
  std::vector<size_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = rest % shape[d];
    rest /= shape[d];
  }
  const size_t offset = shape.size() - other_shape.size();
  for (size_t d = other_shape.size(); d-- > 0;) {
    if (other_shape[d] != 1) at += index[d + offset] * stride;
    stride *= other_shape[d];
  }
  return at;
}

enum class Op { kAdd, kSub, kMul };

// x (shape `shape`) OP constant c (shape `c_shape`, or first operand when
// `c_first`), with `act` fused into the operator's options.
void CheckFusedActivation(Op op, const std::vector<int>& shape, const std::vector<int>& c_shape,
                          bool c_first, tflite::ActivationFunctionType act, int threads) {
  size_t n = 1, cn = 1;
  for (int d : shape) n *= d;
  for (int d : c_shape) cn *= d;
  SCOPED_TRACE(std::to_string(n) + " elements against " + std::to_string(cn) + ", activation " +
               std::to_string(act) + ", " + std::to_string(threads) + " threads");
  const std::vector<float> x = Random(n, 51, -8.0f, 8.0f);
  const std::vector<float> c = Random(cn, 52, -3.0f, 3.0f);
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int ct = b.AddConstant<float>(c_shape, c);
  const int yt = b.AddOutput(tflite::TensorType_FLOAT32, shape, "y");
  const std::vector<int> ins = c_first ? std::vector<int>{ct, xt} : std::vector<int>{xt, ct};
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) {
    const float cv = c[Broadcast(i, shape, c_shape)];
    const float l = c_first ? cv : x[i], r = c_first ? x[i] : cv;
    const float v = op == Op::kAdd ? l + r : op == Op::kSub ? l - r : l * r;
    want[i] = Activate(v, act);
  }
  if (op == Op::kAdd) {
    tflite::AddOptionsT o;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_ADD, ins, {yt}, o);
  } else if (op == Op::kSub) {
    tflite::SubOptionsT o;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_SUB, ins, {yt}, o);
  } else {
    tflite::MulOptionsT o;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_MUL, ins, {yt}, o);
  }
  const Ran r = RunOnXnnpack(b.Finish(), threads, x);
  ExpectOutput(r, 0, want);
  EXPECT_EQ(r.operators.size(), 1u) << ::testing::PrintToString(r.operators);
  EXPECT_EQ(r.clamps, 0) << "the clamp was not fused: " << ::testing::PrintToString(r.operators);
}

TEST(XnnpackElementwiseFusion, SameShapeBinaryWithActivationAcrossBlocks) {
  SKIP_WITHOUT_XNNPACK();
  // 1024 floats is one 4 KB block of the fused path.
  for (int threads : {1, 2, 3}) {
    for (int n : {1, 5, 1024, 1025, 4099}) {
      CheckFusedActivation(Op::kAdd, {1, n}, {1, n}, false, tflite::ActivationFunctionType_RELU,
                           threads);
    }
    CheckFusedActivation(Op::kAdd, {1, 37, 41, 6}, {1, 37, 41, 6}, false,
                         tflite::ActivationFunctionType_RELU6, threads);
    CheckFusedActivation(Op::kSub, {1, 50, 50, 3}, {1, 50, 50, 3}, false,
                         tflite::ActivationFunctionType_RELU_N1_TO_1, threads);
    CheckFusedActivation(Op::kMul, {2, 33, 70}, {2, 33, 70}, false,
                         tflite::ActivationFunctionType_RELU, threads);
  }
}

TEST(XnnpackElementwiseFusion, BroadcastBinaryWithActivation) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    // A scalar operand on either side (the operator's constant-operand and
    // reversed constant-operand kernels), past several blocks.
    CheckFusedActivation(Op::kAdd, {1, 45, 45, 3}, {1}, false,
                         tflite::ActivationFunctionType_RELU, threads);
    CheckFusedActivation(Op::kSub, {1, 45, 45, 3}, {1}, true,
                         tflite::ActivationFunctionType_RELU6, threads);
    // Rows against a row; blocks of rows against a row per block.
    CheckFusedActivation(Op::kAdd, {1, 29, 31, 24}, {24}, false,
                         tflite::ActivationFunctionType_RELU6, threads);
    CheckFusedActivation(Op::kMul, {1, 7, 53, 16}, {1, 7, 1, 16}, false,
                         tflite::ActivationFunctionType_RELU_N1_TO_1, threads);
    CheckFusedActivation(Op::kAdd, {2, 5, 6, 7, 8}, {2, 1, 6, 1, 8}, true,
                         tflite::ActivationFunctionType_RELU, threads);
  }
}

// What follows the binary operator in CheckPreluAfter.
enum class Tail { kPrelu, kPreluThenRelu, kReluThenPrelu };

// x (shape `shape`) ADD / MUL constant c (shape `c_shape`), then PRELU with a
// constant slope of shape `slope_shape` (and a RELU before or after it).
void CheckPreluAfter(Op op, const std::vector<int>& shape, const std::vector<int>& c_shape,
                     const std::vector<int>& slope_shape, Tail tail, int threads) {
  size_t n = 1, cn = 1, sn = 1;
  for (int d : shape) n *= d;
  for (int d : c_shape) cn *= d;
  for (int d : slope_shape) sn *= d;
  SCOPED_TRACE(::testing::PrintToString(shape) + " with " + ::testing::PrintToString(c_shape) +
               ", slope " + ::testing::PrintToString(slope_shape) + ", tail " +
               std::to_string(static_cast<int>(tail)) + ", " + std::to_string(threads) +
               " threads");
  const std::vector<float> x = Random(n, 81, -4.0f, 4.0f);
  const std::vector<float> c = Random(cn, 82, -2.0f, 2.0f);
  const std::vector<float> slope = Random(sn, 83, -1.5f, 1.5f);
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int ct = b.AddConstant<float>(c_shape, c);
  const int st = b.AddConstant<float>(slope_shape, slope);
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, shape, "t1");
  const int yt = b.AddOutput(tflite::TensorType_FLOAT32, shape, "y");
  const int t2 = tail == Tail::kPrelu ? yt : b.AddTensor(tflite::TensorType_FLOAT32, shape, "t2");
  if (op == Op::kAdd) {
    b.AddOperator(tflite::BuiltinOperator_ADD, {xt, ct}, {t1}, tflite::AddOptionsT{});
  } else {
    b.AddOperator(tflite::BuiltinOperator_MUL, {xt, ct}, {t1}, tflite::MulOptionsT{});
  }
  if (tail == Tail::kReluThenPrelu) {
    b.AddOperator(tflite::BuiltinOperator_RELU, {t1}, {t2});
    b.AddOperator(tflite::BuiltinOperator_PRELU, {t2, st}, {yt});
  } else {
    b.AddOperator(tflite::BuiltinOperator_PRELU, {t1, st}, {t2});
    if (tail == Tail::kPreluThenRelu) b.AddOperator(tflite::BuiltinOperator_RELU, {t2}, {yt});
  }
  const size_t channels = static_cast<size_t>(shape.back());
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) {
    const float cv = c[Broadcast(i, shape, c_shape)];
    float v = op == Op::kAdd ? x[i] + cv : x[i] * cv;
    if (tail == Tail::kReluThenPrelu) v = std::max(v, 0.0f);
    const float s = slope[sn == 1 ? 0 : i % channels];
    v = v >= 0.0f ? v : v * s;
    if (tail == Tail::kPreluThenRelu) v = std::max(v, 0.0f);
    want[i] = v;
  }
  const Ran r = RunOnXnnpack(b.Finish(), threads, x);
  ExpectOutput(r, 0, want);
  // A RELU before the PReLU is fused into the binary operator, and then the
  // PReLU is not (it would have to run after the clamp).
  const size_t operators = tail == Tail::kReluThenPrelu ? 2 : 1;
  EXPECT_EQ(r.operators.size(), operators) << ::testing::PrintToString(r.operators);
  EXPECT_EQ(r.clamps, 0) << ::testing::PrintToString(r.operators);
}

TEST(XnnpackElementwiseFusion, PreluAfterSameShapeBinaryRunsBlockByBlock) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    // Rows of 3, 32, 200 and 1500 channels (the slope repeated over about
    // 4 KB: 341, 32, 5 and 1 rows), row counts that do not divide into tasks.
    CheckPreluAfter(Op::kAdd, {1, 47, 45, 3}, {1, 47, 45, 3}, {3}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kAdd, {1, 96, 96, 32}, {1, 96, 96, 32}, {1, 1, 32}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kAdd, {1, 13, 11, 200}, {1, 13, 11, 200}, {200}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kMul, {3, 7, 1500}, {3, 7, 1500}, {1, 1, 1500}, Tail::kPrelu, threads);
    // One slope for all channels; a scalar operand.
    CheckPreluAfter(Op::kAdd, {1, 33, 35, 8}, {1, 33, 35, 8}, {1}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kMul, {1, 33, 35, 8}, {1}, {8}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kAdd, {1, 20, 20, 24}, {1, 20, 20, 24}, {24}, Tail::kPreluThenRelu,
                    threads);
    CheckPreluAfter(Op::kAdd, {1, 20, 20, 24}, {1, 20, 20, 24}, {24}, Tail::kReluThenPrelu,
                    threads);
  }
}

TEST(XnnpackElementwiseFusion, PreluAfterBroadcastBinaryRunsAsASecondPass) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    CheckPreluAfter(Op::kAdd, {1, 29, 31, 24}, {24}, {24}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kMul, {1, 7, 53, 16}, {1, 7, 1, 16}, {1, 1, 16}, Tail::kPreluThenRelu,
                    threads);
    CheckPreluAfter(Op::kAdd, {2, 5, 6, 7, 9}, {2, 1, 6, 1, 9}, {9}, Tail::kPrelu, threads);
    CheckPreluAfter(Op::kAdd, {1, 9, 9, 1100}, {1, 1, 1, 1100}, {1100}, Tail::kPrelu, threads);
  }
}

// ADD, then RELU or PRELU as a node of its own: XNNPACK fuses the two into
// one operator, except when the ADD's result is also a model output.
TEST(XnnpackElementwiseFusion, SeparateNodeIsFusedUnlessTheSumIsAlsoAnOutput) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<int> shape = {1, 40, 40, 8};
  const size_t n = 40 * 40 * 8;
  const std::vector<float> x = Random(n, 61, -4.0f, 4.0f);
  const std::vector<float> c = Random(n, 62, -4.0f, 4.0f);
  const std::vector<float> slope = Random(8, 63);
  std::vector<float> sum(n), relu(n), prelu(n);
  for (size_t i = 0; i < n; ++i) {
    sum[i] = x[i] + c[i];
    relu[i] = std::max(sum[i], 0.0f);
    prelu[i] = sum[i] >= 0.0f ? sum[i] : sum[i] * slope[i % 8];
  }
  for (bool with_prelu : {false, true}) {
    for (bool sum_is_output : {false, true}) {
      for (int threads : {1, 2}) {
        SCOPED_TRACE(std::string(with_prelu ? "PRELU, " : "RELU, ") +
                     (sum_is_output ? "sum is an output, " : "") + std::to_string(threads) +
                     " threads");
        ModelBuilder b;
        const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
        const int ct = b.AddConstant<float>(shape, c);
        const int yt = b.AddOutput(tflite::TensorType_FLOAT32, shape, "y");
        const int st = sum_is_output ? b.AddOutput(tflite::TensorType_FLOAT32, shape, "sum")
                                     : b.AddTensor(tflite::TensorType_FLOAT32, shape, "sum");
        b.AddOperator(tflite::BuiltinOperator_ADD, {xt, ct}, {st}, tflite::AddOptionsT{});
        if (with_prelu) {
          b.AddOperator(tflite::BuiltinOperator_PRELU, {st, b.AddConstant<float>({8}, slope)},
                        {yt});
        } else {
          b.AddOperator(tflite::BuiltinOperator_RELU, {st}, {yt});
        }
        const Ran r = RunOnXnnpack(b.Finish(), threads, x);
        ExpectOutput(r, 0, with_prelu ? prelu : relu);
        if (sum_is_output) ExpectOutput(r, 1, sum);
        EXPECT_EQ(r.operators.size(), sum_is_output ? 2u : 1u)
            << ::testing::PrintToString(r.operators);
        EXPECT_EQ(r.clamps, sum_is_output && !with_prelu ? 1 : 0)
            << ::testing::PrintToString(r.operators);
      }
    }
  }
}

// ADD of two inputs, then PRELU with 8 slope values; the inputs are then
// resized to 16 channels. The unfused PReLU would refuse the slope; the
// fused one must too, not apply 8 slopes to 16 channels.
TEST(XnnpackElementwiseFusion, FusedPreluRefusesAResizeToOtherChannels) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<int> shape = {1, 4, 4, 8};
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int yt = b.AddInput(tflite::TensorType_FLOAT32, shape, "y");
  const int st = b.AddConstant<float>({8}, Random(8, 95));
  const int at = b.AddTensor(tflite::TensorType_FLOAT32, shape, "sum");
  const int ot = b.AddOutput(tflite::TensorType_FLOAT32, shape, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {xt, yt}, {at}, tflite::AddOptionsT{});
  b.AddOperator(tflite::BuiltinOperator_PRELU, {at, st}, {ot});
  const std::vector<uint8_t> bytes = b.Finish();
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(nullptr));
  ASSERT_NE(delegate, nullptr);
  Session session;
  session.Create(bytes, {delegate.get()});
  ASSERT_TRUE(session.ok()) << session.errors;
  TfLiteInterpreter* const interpreter = session.interpreter.get();
  const std::string& errors = session.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << errors;
  const int wider[4] = {1, 4, 4, 16};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, wider, 4), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 1, wider, 4), kTfLiteOk);
  // Refused when the tensors are allocated or, at the latest, when run.
  const bool refused = TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk ||
                       TfLiteInterpreterInvoke(interpreter) != kTfLiteOk;
  EXPECT_TRUE(refused) << "8 slope values were applied to 16 channels; " << errors;
}

// With TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16, XNNPACK rewrites the graph
// for fp16 after its fusion pass; the clamp and the PReLU must still apply
// (the binary operators' fused epilogues are f32 only, so they stay apart).
TEST(XnnpackElementwiseFusion, ForcedFp16KeepsTheClampAndThePrelu) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<int> shape = {1, 16, 16, 8};
  const size_t n = 16 * 16 * 8;
  const std::vector<float> x = Random(n, 101, -10.0f, 10.0f);
  const std::vector<float> c = Random(n, 102, -4.0f, 4.0f);
  const std::vector<float> slope = Random(8, 103, 0.1f, 0.5f);
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int ct = b.AddConstant<float>(shape, c);
  const int st = b.AddConstant<float>({8}, slope);
  const int r6 = b.AddOutput(tflite::TensorType_FLOAT32, shape, "relu6");
  const int sum = b.AddTensor(tflite::TensorType_FLOAT32, shape, "sum");
  const int pr = b.AddOutput(tflite::TensorType_FLOAT32, shape, "prelu");
  tflite::AddOptionsT relu6;
  relu6.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_ADD, {xt, ct}, {r6}, relu6);
  b.AddOperator(tflite::BuiltinOperator_ADD, {xt, ct}, {sum}, tflite::AddOptionsT{});
  b.AddOperator(tflite::BuiltinOperator_PRELU, {sum, st}, {pr});
  const std::vector<uint8_t> bytes = b.Finish();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  o.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16;
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(delegate, nullptr);
  Session s;
  s.Create(bytes, {delegate.get()});
  if (s.errors.find("FORCE_FP16 is not supported") != std::string::npos) {
    GTEST_SKIP() << "this CPU cannot run XNNPACK in fp16: " << s.errors;
  }
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  ASSERT_TRUE(s.SetInput(0, x));
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  const std::vector<float> got_relu6 = s.Output(0), got_prelu = s.Output(1);
  ASSERT_EQ(got_relu6.size(), n);
  ASSERT_EQ(got_prelu.size(), n);
  int bad = 0;
  for (size_t i = 0; i < n && bad < 5; ++i) {
    const float v = x[i] + c[i];
    const float want6 = std::min(std::max(v, 0.0f), 6.0f);
    const float wantp = v >= 0.0f ? v : v * slope[i % 8];
    // Half precision: about 3 decimal digits.
    if (std::fabs(got_relu6[i] - want6) > 0.01f + 0.002f * std::fabs(want6) ||
        std::fabs(got_prelu[i] - wantp) > 0.01f + 0.002f * std::fabs(wantp)) {
      ++bad;
      ADD_FAILURE() << "element " << i << ": relu6 " << got_relu6[i] << " (want " << want6
                    << "), prelu " << got_prelu[i] << " (want " << wantp << ")";
    }
  }
}

// PAD of `shape` by `pads` ({before, after} per dimension) through XNNPACK,
// against an index-mapping loop. (PADV2 stays on the builtin kernel, as with
// upstream's delegate.)
void CheckPad(const std::vector<int>& shape, const std::vector<std::pair<int, int>>& pads,
              int threads) {
  std::vector<int> out_shape;
  size_t n = 1, out_n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    out_shape.push_back(pads[d].first + shape[d] + pads[d].second);
    n *= shape[d];
    out_n *= out_shape.back();
  }
  SCOPED_TRACE(::testing::PrintToString(shape) + " -> " + ::testing::PrintToString(out_shape) +
               ", " + std::to_string(threads) + " threads");
  // Inputs away from 0, so that a missed row shows.
  const std::vector<float> x = Random(n, 71, 1.0f, 2.0f);
  std::vector<float> want(out_n, 0.0f);
  for (size_t o = 0; o < out_n; ++o) {
    size_t rest = o, in = 0, stride = 1;
    bool inside = true;
    for (size_t d = shape.size(); d-- > 0;) {
      const int i = static_cast<int>(rest % out_shape[d]) - pads[d].first;
      rest /= out_shape[d];
      if (i < 0 || i >= shape[d]) inside = false;
      in += static_cast<size_t>(std::max(i, 0)) * stride;
      stride *= shape[d];
    }
    if (inside) want[o] = x[in];
  }
  std::vector<int32_t> flat;
  for (const auto& p : pads) {
    flat.push_back(p.first);
    flat.push_back(p.second);
  }
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int pt = b.AddConstant<int32_t>({static_cast<int>(shape.size()), 2}, flat);
  const int yt = b.AddOutput(tflite::TensorType_FLOAT32, out_shape, "y");
  b.AddOperator(tflite::BuiltinOperator_PAD, {xt, pt}, {yt});
  const Ran r = RunOnXnnpack(b.Finish(), threads, x);
  ExpectOutput(r, 0, want);
  EXPECT_EQ(r.operators.size(), 1u) << "the pad runs on XNNPACK: "
                                    << ::testing::PrintToString(r.operators) << r.errors;
}

TEST(XnnpackElementwiseFusion, ChannelPadOverManyRows) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    CheckPad({1, 64, 64, 24}, {{0, 0}, {0, 0}, {0, 0}, {0, 4}}, threads);   // BlazeFace's
    CheckPad({1, 61, 59, 3}, {{0, 0}, {0, 0}, {0, 0}, {2, 3}}, threads);
    CheckPad({1, 13, 17, 96}, {{0, 0}, {0, 0}, {0, 0}, {0, 32}}, threads);
    CheckPad({3, 5}, {{0, 0}, {1, 0}}, threads);
  }
}

TEST(XnnpackElementwiseFusion, SpatialAndOuterPadsFillWholeRows) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    // Rows of padding before and after the input's rows, in one task or split.
    CheckPad({1, 40, 37, 8}, {{0, 0}, {3, 2}, {0, 0}, {0, 0}}, threads);
    CheckPad({1, 40, 37, 8}, {{0, 0}, {1, 4}, {2, 5}, {0, 0}}, threads);
    CheckPad({1, 300, 4}, {{0, 0}, {200, 117}, {1, 1}}, threads);
    // Padding of outer dimensions: whole blocks of fill.
    CheckPad({2, 9, 10, 4}, {{1, 2}, {0, 1}, {3, 0}, {1, 1}}, threads);
    CheckPad({2, 3, 4, 5, 6}, {{1, 0}, {0, 2}, {1, 1}, {0, 0}, {2, 0}}, threads);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

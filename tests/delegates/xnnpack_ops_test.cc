// XNNPACK delegate, operator coverage: every op added on top of the
// first increment (float32 unary/binary ops, TRANSPOSE, SLICE, STRIDED_SLICE,
// SPLIT, DEPTH_TO_SPACE/SPACE_TO_DEPTH, BATCH_MATMUL, TRANSPOSE_CONV) and the
// QS8/QU8 paths is run through the delegate and compared with the builtin
// kernels; nodes outside the documented constraints must stay on the builtin
// kernels. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/sparsity.h"
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace testing {
namespace {

XnnPtr MakeDelegate(uint32_t clear_flags = 0) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  o.flags &= ~clear_flags;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

template <typename T>
std::vector<T> RandomInts(size_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

std::vector<double> OutputValues(TfLiteInterpreter* it, int i) {
  const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, i);
  std::vector<double> v;
  if (t == nullptr || t->data.raw == nullptr) return v;
  switch (t->type) {
    case kTfLiteFloat32:
      for (size_t k = 0; k < t->bytes / 4; ++k) v.push_back(t->data.f[k]);
      break;
    case kTfLiteInt8:
      for (size_t k = 0; k < t->bytes; ++k) v.push_back(t->data.int8[k]);
      break;
    case kTfLiteUInt8:
      for (size_t k = 0; k < t->bytes; ++k) v.push_back(t->data.uint8[k]);
      break;
    default:
      break;
  }
  return v;
}

struct Expect {
  int plan_size = 1;        // execution plan length with the delegate
  int delegate_nodes = 1;   // of which delegate kernels
  double atol = 1e-5, rtol = 1e-5;
  uint32_t clear_flags = 0;
};

// Runs `bytes` with and without the delegate on the same random inputs
// (float inputs in [lo, hi], integer inputs over their whole range) and
// compares every output.
void CompareWithBuiltin(const std::vector<uint8_t>& bytes, const Expect& e, float lo = -2.0f,
                        float hi = 2.0f) {
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate(e.clear_flags);
  ASSERT_NE(d, nullptr);
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_EQ(static_cast<int>(xnn.plan().size()), e.plan_size);
  EXPECT_EQ(xnn.DelegateNodes(), e.delegate_nodes);
  TfLiteInterpreter* a = builtin.interpreter.get();
  TfLiteInterpreter* b = xnn.interpreter.get();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(a), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(b), kTfLiteOk) << xnn.errors;
  for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(a); ++i) {
    TfLiteTensor* ta = TfLiteInterpreterGetInputTensor(a, i);
    TfLiteTensor* tb = TfLiteInterpreterGetInputTensor(b, i);
    std::vector<uint8_t> raw(ta->bytes);
    if (ta->type == kTfLiteFloat32) {
      const std::vector<float> v = Random(ta->bytes / 4, 100 + i, lo, hi);
      std::memcpy(raw.data(), v.data(), raw.size());
    } else {
      raw = RandomInts<uint8_t>(ta->bytes, 100 + i, 0, 255);
    }
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(ta, raw.data(), raw.size()), kTfLiteOk);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(tb, raw.data(), raw.size()), kTfLiteOk);
  }
  ASSERT_EQ(TfLiteInterpreterInvoke(a), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterInvoke(b), kTfLiteOk) << xnn.errors;
  double worst = 0;
  for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(a); ++i) {
    const std::vector<double> x = OutputValues(a, i), y = OutputValues(b, i);
    ASSERT_EQ(x.size(), y.size()) << "output " << i;
    ASSERT_FALSE(x.empty());
    for (size_t k = 0; k < x.size(); ++k) {
      worst = std::max(worst, std::fabs(x[k] - y[k]));
      ASSERT_LE(std::fabs(x[k] - y[k]), e.atol + e.rtol * std::fabs(x[k]))
          << "output " << i << " element " << k << ": builtin " << x[k] << ", xnnpack " << y[k];
    }
  }
  // The largest difference seen (in quantization steps for int8/uint8).
  ::testing::Test::RecordProperty("max_abs_diff", std::to_string(worst));
  if (std::getenv("XNNPACK_TEST_VERBOSE")) std::printf("[ max |diff| ] %g\n", worst);
}

using tflite::BuiltinOperator;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

// ---- float32 unary ops -------------------------------------------------------------------

struct UnaryCase {
  std::string name;
  BuiltinOperator op;
  float lo, hi;
};
void PrintTo(const UnaryCase& c, std::ostream* os) { *os << c.name; }

class XnnpackUnaryTest : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(XnnpackUnaryTest, MatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  const UnaryCase& c = GetParam();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 3, 4, 5}, "x");
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 3, 4, 5}, "y");
  if (c.op == tflite::BuiltinOperator_LEAKY_RELU) {
    tflite::LeakyReluOptionsT o;
    o.alpha = 0.2f;
    b.AddOperator(c.op, {x}, {y}, o);
  } else if (c.op == tflite::BuiltinOperator_GELU) {
    b.AddOperator(c.op, {x}, {y}, tflite::GeluOptionsT());
  } else {
    b.AddOperator(c.op, {x}, {y});
  }
  Expect e;
  e.atol = 1e-5;
  e.rtol = 1e-4;
  CompareWithBuiltin(b.Finish(), e, c.lo, c.hi);
}

INSTANTIATE_TEST_SUITE_P(
    Ops, XnnpackUnaryTest,
    ::testing::Values(UnaryCase{"ABS", tflite::BuiltinOperator_ABS, -2, 2},
                      UnaryCase{"CEIL", tflite::BuiltinOperator_CEIL, -3, 3},
                      UnaryCase{"FLOOR", tflite::BuiltinOperator_FLOOR, -3, 3},
                      UnaryCase{"NEG", tflite::BuiltinOperator_NEG, -2, 2},
                      UnaryCase{"ROUND", tflite::BuiltinOperator_ROUND, -4, 4},
                      UnaryCase{"SQRT", tflite::BuiltinOperator_SQRT, 0.1f, 4},
                      UnaryCase{"SQUARE", tflite::BuiltinOperator_SQUARE, -2, 2},
                      UnaryCase{"TANH", tflite::BuiltinOperator_TANH, -3, 3},
                      UnaryCase{"ELU", tflite::BuiltinOperator_ELU, -3, 3},
                      UnaryCase{"LEAKY_RELU", tflite::BuiltinOperator_LEAKY_RELU, -3, 3},
                      UnaryCase{"GELU", tflite::BuiltinOperator_GELU, -3, 3},
                      UnaryCase{"EXP", tflite::BuiltinOperator_EXP, -3, 3},
                      UnaryCase{"LOG", tflite::BuiltinOperator_LOG, 0.1f, 4},
                      UnaryCase{"COS", tflite::BuiltinOperator_COS, -6, 6},
                      UnaryCase{"SIN", tflite::BuiltinOperator_SIN, -6, 6}),
    [](const ::testing::TestParamInfo<UnaryCase>& i) { return i.param.name; });

// ---- float32 binary ops -----------------------------------------------------------------

TEST(XnnpackOps, BinaryOpsWithBroadcastMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  // y = sqdiff(min(max(x / c, x), c), x), c a [5] constant (broadcast).
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {2, 3, 5}, "x");
  const int c = b.AddConstant<float>({5}, {0.5f, 1.5f, -2.0f, 0.75f, 3.0f});
  const int q = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  tflite::DivOptionsT div;
  div.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_DIV, {x, c}, {q}, div);
  const int mx = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_MAXIMUM, {q, x}, {mx});
  const int mn = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_MINIMUM, {mx, c}, {mn});
  const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 5}, "y");
  b.AddOperator(tflite::BuiltinOperator_SQUARED_DIFFERENCE, {mn, x}, {y});
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

// ---- layout ops ---------------------------------------------------------------------------

TEST(XnnpackOps, TransposeSliceStridedSliceMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 4, 5, 6}, "x");
  const int perm = b.AddConstant<int32_t>({4}, {0, 3, 1, 2});
  const int t = b.AddTensor(TensorType_FLOAT32, {1, 6, 4, 5});
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE, {x, perm}, {t}, tflite::TransposeOptionsT());
  const int begin = b.AddConstant<int32_t>({4}, {0, 1, 0, 2});
  const int size = b.AddConstant<int32_t>({4}, {1, -1, 3, 2});
  const int s = b.AddTensor(TensorType_FLOAT32, {1, 5, 3, 2});
  b.AddOperator(tflite::BuiltinOperator_SLICE, {t, begin, size}, {s}, tflite::SliceOptionsT());
  // begin_mask on dim 1, end_mask on dim 3, a negative begin on dim 2.
  const int sb = b.AddConstant<int32_t>({4}, {0, 3, -2, 1});
  const int se = b.AddConstant<int32_t>({4}, {1, 4, 3, 0});
  const int ss = b.AddConstant<int32_t>({4}, {1, 1, 1, 1});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 4, 2, 1}, "y");
  tflite::StridedSliceOptionsT o;
  o.begin_mask = 1 << 1;
  o.end_mask = 1 << 3;
  b.AddOperator(tflite::BuiltinOperator_STRIDED_SLICE, {s, sb, se, ss}, {y}, o);
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, StridedSliceWithStrideTwoStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 8}, "x");
  const int r = b.AddTensor(TensorType_FLOAT32, {1, 8});
  b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {r});
  const int sb = b.AddConstant<int32_t>({2}, {0, 0});
  const int se = b.AddConstant<int32_t>({2}, {1, 8});
  const int ss = b.AddConstant<int32_t>({2}, {1, 2});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_STRIDED_SLICE, {r, sb, se, ss}, {y},
                tflite::StridedSliceOptionsT());
  Expect e;
  e.plan_size = 2;  // [RELU] STRIDED_SLICE
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, SplitDepthToSpaceSpaceToDepthMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 4, 6, 12}, "x");
  const int axis = b.AddConstant<int32_t>({}, {-1});
  const int p0 = b.AddTensor(TensorType_FLOAT32, {1, 4, 6, 4});
  const int p1 = b.AddTensor(TensorType_FLOAT32, {1, 4, 6, 4});
  const int p2 = b.AddOutput(TensorType_FLOAT32, {1, 4, 6, 4}, "p2");
  tflite::SplitOptionsT split;
  split.num_splits = 3;
  b.AddOperator(tflite::BuiltinOperator_SPLIT, {axis, x}, {p0, p1, p2}, split);
  const int d = b.AddOutput(TensorType_FLOAT32, {1, 8, 12, 1}, "d2s");
  tflite::DepthToSpaceOptionsT d2s;
  d2s.block_size = 2;
  b.AddOperator(tflite::BuiltinOperator_DEPTH_TO_SPACE, {p0}, {d}, d2s);
  const int s = b.AddOutput(TensorType_FLOAT32, {1, 2, 3, 16}, "s2d");
  tflite::SpaceToDepthOptionsT s2d;
  s2d.block_size = 2;
  b.AddOperator(tflite::BuiltinOperator_SPACE_TO_DEPTH, {p1}, {s}, s2d);
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

// ---- batch matmul, transpose conv -------------------------------------------------------------

TEST(XnnpackOps, BatchMatMulMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int a = b.AddInput(TensorType_FLOAT32, {2, 3, 4}, "a");
  const int m = b.AddInput(TensorType_FLOAT32, {2, 4, 5}, "b");
  const int t = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, m}, {t}, tflite::BatchMatMulOptionsT());
  // Then by a constant, transposed ([2, 6, 5] with adj_y).
  const int w = b.AddConstant<float>({2, 6, 5}, Random(60, 9, -1, 1));
  const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 6}, "y");
  tflite::BatchMatMulOptionsT adj;
  adj.adj_y = true;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {t, w}, {y}, adj);
  Expect e;
  e.atol = 1e-4;
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, BatchMatMulAdjXMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (bool adj_y : {false, true}) {
    SCOPED_TRACE(adj_y ? "adj_x, adj_y" : "adj_x");
    ModelBuilder b;
    const int a = b.AddInput(TensorType_FLOAT32, {2, 4, 3}, "a");  // [k, m] per batch
    const int m = adj_y ? b.AddInput(TensorType_FLOAT32, {2, 5, 4}, "b")
                        : b.AddInput(TensorType_FLOAT32, {2, 4, 5}, "b");
    const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 5}, "y");
    tflite::BatchMatMulOptionsT o;
    o.adj_x = true;
    o.adj_y = adj_y;
    b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, m}, {y}, o);
    Expect e;
    e.atol = 1e-5;
    CompareWithBuiltin(b.Finish(), e);
  }
}

TEST(XnnpackOps, TransposeConvMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (tflite::Padding padding : {tflite::Padding_SAME, tflite::Padding_VALID}) {
    ModelBuilder b;
    const int oh = padding == tflite::Padding_SAME ? 10 : 11;
    const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, 3}, "x");
    const int shape = b.AddConstant<int32_t>({4}, {1, oh, oh, 4});
    const int w = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 3, -1, 1));
    const int bias = b.AddConstant<float>({4}, {0.1f, -0.2f, 0.3f, 0.0f});
    const int y = b.AddOutput(TensorType_FLOAT32, {1, oh, oh, 4}, "y");
    tflite::TransposeConvOptionsT o;
    o.padding = padding;
    o.stride_w = o.stride_h = 2;
    b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, w, x, bias}, {y}, o, 3);
    Expect e;
    e.atol = 1e-4;
    SCOPED_TRACE(padding == tflite::Padding_SAME ? "SAME" : "VALID");
    CompareWithBuiltin(b.Finish(), e);
  }
}

// ---- quantized --------------------------------------------------------------------------

// int8: CONV_2D (per-channel) -> DEPTHWISE (per-channel) -> ADD -> MAX_POOL ->
// RESHAPE -> FULLY_CONNECTED (per-tensor) -> y; plus a PAD+CONCATENATION branch.
std::vector<uint8_t> Int8Net() {
  ModelBuilder b;
  const float in_scale = 0.02f;
  const int x = b.AddInput(TensorType_INT8, {1, 6, 6, 3}, "x");
  b.SetQuantization(x, {{in_scale}, {-3}});
  const std::vector<float> w1_scales = {0.01f, 0.015f, 0.02f, 0.012f};
  const int w1 = b.AddConstant<int8_t>({4, 3, 3, 3}, RandomInts<int8_t>(108, 1, -127, 127));
  b.SetQuantization(w1, {w1_scales, {0, 0, 0, 0}, 0});
  std::vector<float> b1_scales;
  for (float s : w1_scales) b1_scales.push_back(in_scale * s);
  const int b1 = b.AddConstant<int32_t>({4}, {100, -200, 50, 0});
  b.SetQuantization(b1, {b1_scales, {0, 0, 0, 0}, 0});
  const int c1 = b.AddTensor(TensorType_INT8, {1, 6, 6, 4});
  b.SetQuantization(c1, {{0.05f}, {-128}});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, b1}, {c1}, conv, 3);

  const std::vector<float> w2_scales = {0.02f, 0.01f, 0.03f, 0.015f};
  const int w2 = b.AddConstant<int8_t>({1, 3, 3, 4}, RandomInts<int8_t>(36, 2, -127, 127));
  b.SetQuantization(w2, {w2_scales, {0, 0, 0, 0}, 3});
  std::vector<float> b2_scales;
  for (float s : w2_scales) b2_scales.push_back(0.05f * s);
  const int b2 = b.AddConstant<int32_t>({4}, {10, 20, -30, 40});
  b.SetQuantization(b2, {b2_scales, {0, 0, 0, 0}, 0});
  const int c2 = b.AddTensor(TensorType_INT8, {1, 6, 6, 4});
  b.SetQuantization(c2, {{0.04f}, {5}});
  tflite::DepthwiseConv2DOptionsT dw;
  dw.padding = tflite::Padding_SAME;
  dw.stride_w = dw.stride_h = 1;
  dw.depth_multiplier = 1;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {c1, w2, b2}, {c2}, dw, 3);

  const int s = b.AddTensor(TensorType_INT8, {1, 6, 6, 4});
  b.SetQuantization(s, {{0.06f}, {0}});
  b.AddOperator(tflite::BuiltinOperator_ADD, {c1, c2}, {s}, tflite::AddOptionsT(), 2);
  const int p = b.AddTensor(TensorType_INT8, {1, 3, 3, 4});
  b.SetQuantization(p, {{0.06f}, {0}});
  tflite::Pool2DOptionsT pool;
  pool.padding = tflite::Padding_VALID;
  pool.stride_w = pool.stride_h = 2;
  pool.filter_width = pool.filter_height = 2;
  b.AddOperator(tflite::BuiltinOperator_MAX_POOL_2D, {s}, {p}, pool, 2);
  const int r = b.AddTensor(TensorType_INT8, {1, 36});
  b.SetQuantization(r, {{0.06f}, {0}});
  const int shape = b.AddConstant<int32_t>({2}, {1, 36});
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {p, shape}, {r}, tflite::ReshapeOptionsT());
  const int w3 = b.AddConstant<int8_t>({5, 36}, RandomInts<int8_t>(180, 3, -127, 127));
  b.SetQuantization(w3, {{0.01f}, {0}});
  const int b3 = b.AddConstant<int32_t>({5}, {1, 2, 3, 4, 5});
  b.SetQuantization(b3, {{0.06f * 0.01f}, {0}});
  const int y = b.AddOutput(TensorType_INT8, {1, 5}, "y");
  b.SetQuantization(y, {{0.1f}, {2}});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {r, w3, b3}, {y},
                tflite::FullyConnectedOptionsT(), 4);

  // Second output: CONCATENATION(PAD(x), PAD(x)) with x's quantization.
  const int pads = b.AddConstant<int32_t>({4, 2}, {0, 0, 1, 1, 0, 2, 0, 0});
  const int px = b.AddTensor(TensorType_INT8, {1, 8, 8, 3});
  b.SetQuantization(px, {{in_scale}, {-3}});
  b.AddOperator(tflite::BuiltinOperator_PAD, {x, pads}, {px}, 2);
  const int cat = b.AddOutput(TensorType_INT8, {1, 8, 8, 6}, "cat");
  b.SetQuantization(cat, {{in_scale}, {-3}});
  tflite::ConcatenationOptionsT co;
  co.axis = 3;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {px, px}, {cat}, co, 2);
  return b.Finish();
}

TEST(XnnpackQuantized, Int8NetMatchesBuiltinWithinOneStep) {
  SKIP_WITHOUT_XNNPACK();
  Expect e;
  e.atol = 1;  // one quantization step
  e.rtol = 0;
  CompareWithBuiltin(Int8Net(), e);
}

TEST(XnnpackQuantized, Qs8FlagOffKeepsInt8OnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Expect e;
  e.clear_flags = TFLITE_XNNPACK_DELEGATE_FLAG_QS8;
  e.plan_size = 8;  // nothing delegated
  e.delegate_nodes = 0;
  e.atol = 0;
  e.rtol = 0;
  CompareWithBuiltin(Int8Net(), e);
}

// uint8: CONV_2D (per-tensor, nonzero filter zero point) -> MUL by a constant.
std::vector<uint8_t> Uint8Net() {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_UINT8, {1, 5, 5, 2}, "x");
  b.SetQuantization(x, {{0.03f}, {128}});
  const int w = b.AddConstant<uint8_t>({3, 3, 3, 2}, RandomInts<uint8_t>(54, 4, 0, 255));
  b.SetQuantization(w, {{0.01f}, {120}});
  const int bias = b.AddConstant<int32_t>({3}, {50, -50, 0});
  b.SetQuantization(bias, {{0.03f * 0.01f}, {0}});
  const int c = b.AddTensor(TensorType_UINT8, {1, 3, 3, 3});
  b.SetQuantization(c, {{0.05f}, {100}});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w, bias}, {c}, conv);
  const int k = b.AddConstant<uint8_t>({3}, {10, 200, 130});
  b.SetQuantization(k, {{0.02f}, {128}});
  const int y = b.AddOutput(TensorType_UINT8, {1, 3, 3, 3}, "y");
  b.SetQuantization(y, {{0.04f}, {128}});
  b.AddOperator(tflite::BuiltinOperator_MUL, {c, k}, {y}, tflite::MulOptionsT());
  return b.Finish();
}

TEST(XnnpackQuantized, Uint8NetMatchesBuiltinWithinOneStep) {
  SKIP_WITHOUT_XNNPACK();
  Expect e;
  e.atol = 1;
  e.rtol = 0;
  CompareWithBuiltin(Uint8Net(), e);
}

TEST(XnnpackQuantized, QuantizeDequantizeMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {2, 7}, "x");
  const int q = b.AddTensor(TensorType_INT8, {2, 7});
  b.SetQuantization(q, {{0.05f}, {3}});
  b.AddOperator(tflite::BuiltinOperator_QUANTIZE, {x}, {q});
  const int y = b.AddOutput(TensorType_FLOAT32, {2, 7}, "y");
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {q}, {y}, 2);
  Expect e;
  e.atol = 0.05 + 1e-6;  // one step (round-half differences)
  CompareWithBuiltin(b.Finish(), e);
}

// ---- quantized unary ops, MEAN, requantization -------------------------------------------

struct QuantCase {
  std::string name;
  BuiltinOperator op;
  tflite::TensorType type;
  float in_scale;
  int in_zp;
  float out_scale;
  int out_zp;
  int version;
  bool delegated;  // upstream's delegate takes it
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

class XnnpackQuantizedUnaryTest : public ::testing::TestWithParam<QuantCase> {};

// Random inputs over the whole int8/uint8 range; XNNPACK within one step of
// the builtin kernel.
TEST_P(XnnpackQuantizedUnaryTest, MatchesBuiltinWithinOneStep) {
  SKIP_WITHOUT_XNNPACK();
  const QuantCase& c = GetParam();
  ModelBuilder b;
  const int x = b.AddInput(c.type, {2, 16, 16}, "x");
  b.SetQuantization(x, {{c.in_scale}, {c.in_zp}});
  const int r = b.AddTensor(c.type, {2, 16, 16});  // a delegated op in front
  b.SetQuantization(r, {{c.in_scale}, {c.in_zp}});
  const int shape = b.AddConstant<int32_t>({3}, {2, 16, 16});
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {x, shape}, {r}, tflite::ReshapeOptionsT());
  const int y = b.AddOutput(c.type, {2, 16, 16}, "y");
  b.SetQuantization(y, {{c.out_scale}, {c.out_zp}});
  if (c.op == tflite::BuiltinOperator_LEAKY_RELU) {
    tflite::LeakyReluOptionsT o;
    o.alpha = 0.3f;
    b.AddOperator(c.op, {r}, {y}, o, c.version);
  } else {
    b.AddOperator(c.op, {r}, {y}, c.version);
  }
  Expect e;
  e.plan_size = c.delegated ? 1 : 2;
  e.atol = 1;
  e.rtol = 0;
  CompareWithBuiltin(b.Finish(), e);
}

constexpr auto kI8 = tflite::TensorType_INT8;
constexpr auto kU8 = tflite::TensorType_UINT8;
INSTANTIATE_TEST_SUITE_P(
    Ops, XnnpackQuantizedUnaryTest,
    ::testing::Values(
        QuantCase{"LOGISTIC_int8", tflite::BuiltinOperator_LOGISTIC, kI8, 0.06f, 5, 1.0f / 256, -128, 2, true},
        QuantCase{"LOGISTIC_uint8", tflite::BuiltinOperator_LOGISTIC, kU8, 0.05f, 120, 1.0f / 256, 0, 1, true},
        QuantCase{"TANH_int8", tflite::BuiltinOperator_TANH, kI8, 0.03f, -7, 1.0f / 128, 0, 2, true},
        QuantCase{"TANH_uint8", tflite::BuiltinOperator_TANH, kU8, 0.04f, 128, 1.0f / 128, 128, 1, true},
        QuantCase{"ELU_int8", tflite::BuiltinOperator_ELU, kI8, 0.04f, 10, 0.03f, -60, 1, true},
        QuantCase{"LEAKY_RELU_int8", tflite::BuiltinOperator_LEAKY_RELU, kI8, 0.05f, 3, 0.04f, -20, 2, true},
        QuantCase{"LEAKY_RELU_uint8", tflite::BuiltinOperator_LEAKY_RELU, kU8, 0.05f, 130, 0.03f, 100, 1, true},
        QuantCase{"QUANTIZE_int8_requantize", tflite::BuiltinOperator_QUANTIZE, kI8, 0.05f, 3, 0.08f, -10, 2, true},
        QuantCase{"QUANTIZE_uint8_requantize", tflite::BuiltinOperator_QUANTIZE, kU8, 0.05f, 128, 0.02f, 100, 2, true},
        // Upstream takes these in float32 only.
        QuantCase{"ELU_uint8_builtin", tflite::BuiltinOperator_ELU, kU8, 0.04f, 128, 0.03f, 100, 1, false},
        QuantCase{"HARD_SWISH_int8_builtin", tflite::BuiltinOperator_HARD_SWISH, kI8, 0.05f, 0, 0.04f, 0, 1, false}),
    [](const ::testing::TestParamInfo<QuantCase>& i) { return i.param.name; });

// MEAN and SUM, float32 (relative 1e-5) and int8/uint8 (one step).
TEST(XnnpackQuantized, MeanAndSumMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (BuiltinOperator op : {tflite::BuiltinOperator_MEAN, tflite::BuiltinOperator_SUM})
  for (tflite::TensorType type : {kI8, kU8, TensorType_FLOAT32}) {
    for (bool keep_dims : {true, false}) {
      for (const std::vector<int32_t>& axes :
           std::vector<std::vector<int32_t>>{{1, 2}, {2}, {-2, -3}}) {
        SCOPED_TRACE(std::string(op == tflite::BuiltinOperator_SUM ? "SUM " : "MEAN ") +
                     (type == kI8 ? "int8" : type == kU8 ? "uint8" : "float32") +
                     (keep_dims ? " keep" : "") +
                     " axes " + std::to_string(axes.size()) + "/" + std::to_string(axes[0]));
        const int zp = type == kI8 ? -3 : 130;
        ModelBuilder b;
        const bool quantized = type != TensorType_FLOAT32;
        const int x = b.AddInput(type, {2, 5, 7, 6}, "x");
        if (quantized) b.SetQuantization(x, {{0.05f}, {zp}});
        const int a = b.AddConstant<int32_t>({static_cast<int>(axes.size())}, axes);
        std::vector<int> out_shape = {2, 5, 7, 6};
        if (axes.size() == 2) out_shape[1] = out_shape[2] = keep_dims ? 1 : 0;
        else out_shape[2] = keep_dims ? 1 : 0;
        std::vector<int> shape;
        for (int d : out_shape)
          if (d != 0) shape.push_back(d);
        const int y = b.AddOutput(type, shape, "y");
        // A sum of up to 35 values needs a coarser output scale.
        const float out_scale = op == tflite::BuiltinOperator_SUM ? 0.4f : 0.02f;
        if (quantized) b.SetQuantization(y, {{out_scale}, {type == kI8 ? 7 : 120}});
        tflite::ReducerOptionsT o;
        o.keep_dims = keep_dims;
        b.AddOperator(op, {x, a}, {y}, o, quantized ? 2 : 1);
        Expect e;
        e.atol = quantized ? 1 : 1e-5;
        e.rtol = quantized ? 0 : 1e-5;
        CompareWithBuiltin(b.Finish(), e);
      }
    }
  }
}

// ---- sparse weights (DENSIFY) ------------------------------------------------------------

// Sparse encoding of a [oc, 1, 1, ic] filter: rows dense, input channels CSR
// (in blocks of `block` along ic when block > 1). Returns the stored values.
std::vector<float> EncodeFilter(const std::vector<float>& dense, int oc, int ic, int block,
                                tflite::SparsityParametersT* s) {
  std::vector<float> values;
  std::vector<int32_t> segments = {0}, indices;
  for (int o = 0; o < oc; ++o) {
    for (int c = 0; c < ic / block; ++c) {
      bool any = false;
      for (int t = 0; t < block; ++t) any |= dense[o * ic + c * block + t] != 0.0f;
      if (!any) continue;
      indices.push_back(c);
      for (int t = 0; t < block; ++t) values.push_back(dense[o * ic + c * block + t]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  s->dim_metadata.push_back(Dense(oc));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Csr(segments, indices));
  if (block > 1) {
    s->traversal_order = {0, 1, 2, 3, 4};
    s->block_map = {3};
    s->dim_metadata.push_back(Dense(block));
  } else {
    s->traversal_order = {0, 1, 2, 3};
  }
  return values;
}

uint16_t ToHalf(float f) {  // normal range only, round to nearest even
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) == 0) return static_cast<uint16_t>(bits >> 16);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  uint32_t h = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(h);
}

// x -> CONV_2D 1x1 (filter = DENSIFY(sparse constant) [-> DEQUANTIZE]) ->
// RELU -> y: the DENSIFY is done once by the delegate, which takes it.
std::vector<uint8_t> SparseConvNet(bool fp16, int block) {
  const int ic = 16, oc = 8;
  std::vector<float> dense = Random(oc * ic, 21, -1, 1);
  for (size_t i = 0; i < dense.size(); ++i)  // about 3/4 zeros (whole blocks)
    if ((i / static_cast<size_t>(block)) % 4 != 1) dense[i] = 0.0f;
  for (float& v : dense)  // stored values stay well inside float16's normal range
    if (v != 0.0f && std::fabs(v) < 1e-3f) v = 0.5f;
  auto s = std::make_unique<tflite::SparsityParametersT>();
  const std::vector<float> values = EncodeFilter(dense, oc, ic, block, s.get());
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, ic}, "x");
  int w;
  if (fp16) {
    std::vector<uint8_t> bytes(values.size() * 2);
    for (size_t i = 0; i < values.size(); ++i) {
      const uint16_t h = ToHalf(values[i]);
      std::memcpy(bytes.data() + 2 * i, &h, 2);
    }
    w = b.AddConstantBytes(tflite::TensorType_FLOAT16, {oc, 1, 1, ic}, bytes);
  } else {
    w = b.AddConstant<float>({oc, 1, 1, ic}, values);
  }
  b.tensor(w).sparsity = std::move(s);
  const int dense_w = b.AddTensor(fp16 ? tflite::TensorType_FLOAT16 : TensorType_FLOAT32,
                                  {oc, 1, 1, ic});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dense_w});
  int filter = dense_w;
  if (fp16) {
    filter = b.AddTensor(TensorType_FLOAT32, {oc, 1, 1, ic});
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {dense_w}, {filter}, 3);
  }
  const int bias = b.AddConstant<float>({oc}, Random(oc, 22, -0.5f, 0.5f));
  const int c = b.AddTensor(TensorType_FLOAT32, {1, 5, 5, oc});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, filter, bias}, {c}, conv);
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 5, 5, oc}, "y");
  b.AddOperator(tflite::BuiltinOperator_RELU, {c}, {y});
  return b.Finish();
}

TEST(XnnpackSparse, DensifiedWeightsMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (bool fp16 : {false, true}) {
    for (int block : {1, 4}) {
      SCOPED_TRACE(std::string(fp16 ? "float16" : "float32") + " block " + std::to_string(block));
      Expect e;  // everything, DENSIFY (and DEQUANTIZE) included, in one partition
      e.atol = 1e-4;
      CompareWithBuiltin(SparseConvNet(fp16, block), e);
    }
  }
}

TEST(XnnpackSparse, DensifyWithUndelegatedConsumerStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  // The densified tensor also feeds a builtin-only op (SIGN), so DENSIFY runs
  // on its builtin kernel; the convolution still uses the unpacked weights.
  ModelBuilder b;
  std::vector<float> dense = {0, 1.5f, 0, -2, 0, 0, 3, 0};
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  s->dim_metadata.push_back(Dense(2));
  s->dim_metadata.push_back(Csr({0, 2, 3}, {1, 3, 2}));
  const int x = b.AddInput(TensorType_FLOAT32, {3, 4}, "x");
  const int w = b.AddConstant<float>({2, 4}, {1.5f, -2, 3});
  b.tensor(w).sparsity = std::move(s);
  const int dw = b.AddTensor(TensorType_FLOAT32, {2, 4});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dw});
  const int y = b.AddOutput(TensorType_FLOAT32, {3, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, dw}, {y},
                tflite::FullyConnectedOptionsT());
  const int z = b.AddOutput(TensorType_FLOAT32, {2, 4}, "z");
  b.AddOperator(tflite::BuiltinOperator_SIGN, {dw}, {z});
  Expect e;
  e.plan_size = 3;  // DENSIFY, [FULLY_CONNECTED], SIGN
  CompareWithBuiltin(b.Finish(), e);
}

// ---- MediaPipe custom ops ---------------------------------------------------------------

template <typename T>
std::vector<uint8_t> StructBytes(const T& value, size_t size = sizeof(T)) {
  std::vector<uint8_t> b(size);
  std::memcpy(b.data(), &value, size);
  return b;
}
// As MediaPipe's converter writes them: padding and the two strides only.
std::vector<uint8_t> DeconvOptions(TfLitePadding padding, int stride) {
  TfLiteTransposeConvParams p{};
  p.padding = padding;
  p.stride_width = p.stride_height = stride;
  return StructBytes(p, 3 * sizeof(int));
}
std::vector<uint8_t> PoolOptions(TfLitePadding padding, int stride, int filter,
                                 TfLiteFusedActivation act = kTfLiteActNone) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.stride_width = p.stride_height = stride;
  p.filter_width = p.filter_height = filter;
  p.activation = act;
  return StructBytes(p);
}

TEST(XnnpackMediaPipe, Convolution2DTransposeBiasMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (TfLitePadding padding : {kTfLitePaddingSame, kTfLitePaddingValid}) {
    ModelBuilder b;
    const int oh = padding == kTfLitePaddingSame ? 10 : 11;
    const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, 3}, "x");
    const int r = b.AddTensor(TensorType_FLOAT32, {1, 5, 5, 3});
    b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {r});
    const int w = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 3, -1, 1));
    const int bias = b.AddConstant<float>({4}, {0.1f, -0.2f, 0.3f, 0.0f});
    const int y = b.AddOutput(TensorType_FLOAT32, {1, oh, oh, 4}, "y");
    b.AddCustomOperator("Convolution2DTransposeBias", {r, w, bias}, {y},
                        DeconvOptions(padding, 2));
    Expect e;
    e.atol = 1e-4;
    SCOPED_TRACE(padding == kTfLitePaddingSame ? "SAME" : "VALID");
    CompareWithBuiltin(b.Finish(), e);
  }
}

TEST(XnnpackMediaPipe, TransposeConvBiasWithDynamicWeightsStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 3, 3, 2}, "x");
  const int w = b.AddInput(TensorType_FLOAT32, {2, 2, 2, 2}, "w");
  const int bias = b.AddConstant<float>({2}, {0.5f, -0.5f});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 6, 6, 2}, "y");
  b.AddCustomOperator("Convolution2DTransposeBias", {x, w, bias}, {y},
                      DeconvOptions(kTfLitePaddingSame, 2));
  Expect e;
  e.delegate_nodes = 0;
  CompareWithBuiltin(b.Finish(), e);
}

// x -> MaxPoolingWithArgmax2D -> (values, indices) -> MaxUnpooling2D -> y,
// values also an output.
std::vector<uint8_t> PoolUnpoolNet(TfLitePadding padding, int h, int w,
                                   TfLiteFusedActivation act = kTfLiteActNone,
                                   bool indices_output = false) {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, h, w, 3}, "x");
  const int ph = padding == kTfLitePaddingSame ? (h + 1) / 2 : h / 2;
  const int pw = padding == kTfLitePaddingSame ? (w + 1) / 2 : w / 2;
  const int values = b.AddOutput(TensorType_FLOAT32, {1, ph, pw, 3}, "values");
  const int indices = indices_output ? b.AddOutput(TensorType_FLOAT32, {1, ph, pw, 3}, "indices")
                                     : b.AddTensor(TensorType_FLOAT32, {1, ph, pw, 3});
  b.AddCustomOperator("MaxPoolingWithArgmax2D", {x}, {values, indices},
                      PoolOptions(padding, 2, 2, act));
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 2 * ph, 2 * pw, 3}, "y");
  b.AddCustomOperator("MaxUnpooling2D", {values, indices}, {y}, PoolOptions(padding, 2, 2));
  return b.Finish();
}

TEST(XnnpackMediaPipe, ArgmaxPoolingUnpoolingPairMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (TfLitePadding padding : {kTfLitePaddingSame, kTfLitePaddingValid}) {
    SCOPED_TRACE(padding == kTfLitePaddingSame ? "SAME" : "VALID");
    Expect e;
    e.atol = 0;
    e.rtol = 0;
    CompareWithBuiltin(PoolUnpoolNet(padding, 6, 8), e);
    // VALID drops the odd last row/column, like the builtin kernel.
    if (padding == kTfLitePaddingValid) CompareWithBuiltin(PoolUnpoolNet(padding, 7, 9), e);
  }
}

TEST(XnnpackMediaPipe, ArgmaxPoolingOutsideThePairStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Expect e;
  e.plan_size = 2;
  e.delegate_nodes = 0;
  e.atol = 0;
  e.rtol = 0;
  // A fused activation; SAME padding that actually pads.
  SCOPED_TRACE("relu");
  CompareWithBuiltin(PoolUnpoolNet(kTfLitePaddingValid, 6, 8, kTfLiteActRelu), e);
  SCOPED_TRACE("SAME 7x9");
  CompareWithBuiltin(PoolUnpoolNet(kTfLitePaddingSame, 7, 9), e);
}

// Indices that are also a model output would hold XNNPACK's indices, not
// MediaPipe's. The delegate sees model outputs only when building the
// partition, so it refuses the partition then; with fallback the builtin
// kernels run everything.
TEST(XnnpackMediaPipe, ArgmaxIndicesAsModelOutputRefused) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes =
      PoolUnpoolNet(kTfLitePaddingValid, 6, 8, kTfLiteActNone, /*indices_output=*/true);
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()}, /*fallback=*/true);
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_NE(xnn.errors.find("indices are a model output"), std::string::npos) << xnn.errors;
  EXPECT_EQ(xnn.DelegateNodes(), 0);
  const std::vector<float> x = Random(6 * 8 * 3, 5, -2, 2);
  for (Session* s : {&builtin, &xnn}) {
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
    ASSERT_TRUE(s->SetInput(0, x));
    ASSERT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(builtin.Output(i), xnn.Output(i)) << "output " << i;
}

// MediaPipe's selfie segmentation (Convolution2DTransposeBias) runs as one
// XNNPACK partition and matches the builtin kernels within the manifest's
// tolerance on the golden input.
TEST(XnnpackMediaPipe, SelfieSegmentationFullyDelegated) {
  SKIP_WITHOUT_XNNPACK();
  const std::string dir = std::string(TFLITE_C_SHARED_DIR) + "/models/";
  std::ifstream mf(dir + "manifest.json");
  const nlohmann::json m = mf ? nlohmann::json::parse(mf, nullptr, false) : nlohmann::json();
  nlohmann::json entry;
  if (!m.is_discarded() && m.contains("models")) {
    for (const auto& e : m["models"])
      if (e.value("name", "") == "mp_selfie_segmentation") entry = e;
  }
  if (entry.is_null()) GTEST_SKIP() << "mp_selfie_segmentation not in the manifest";
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
  };
  const std::vector<uint8_t> bytes = read(dir + entry["file"].get<std::string>());
  const std::vector<uint8_t> input = read(dir + entry["inputs"][0]["file"].get<std::string>());
  ASSERT_FALSE(bytes.empty());
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_GT(builtin.plan().size(), 100u);
  EXPECT_EQ(xnn.plan().size(), 1u);  // everything, the custom op included
  EXPECT_EQ(xnn.DelegateNodes(), 1);
  const nlohmann::json tol = entry["outputs"][0].value("tolerance", nlohmann::json::object());
  const double atol = tol.value("atol", 0.0), rtol = tol.value("rtol", 0.0);
  for (Session* s : {&builtin, &xnn}) {
    TfLiteInterpreter* it = s->interpreter.get();
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s->errors;
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), input.data(),
                                         input.size()),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s->errors;
  }
  const std::vector<float> a = builtin.Output(0), x = xnn.Output(0);
  ASSERT_EQ(a.size(), x.size());
  ASSERT_EQ(a.size(), 256u * 256u);
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::fabs(double(a[i]) - x[i]));
    ASSERT_LE(std::fabs(double(a[i]) - x[i]), atol + rtol * std::fabs(a[i])) << "element " << i;
  }
  RecordProperty("max_abs_diff", std::to_string(worst));
  if (std::getenv("XNNPACK_TEST_VERBOSE")) std::printf("[ max |diff| ] %g\n", worst);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

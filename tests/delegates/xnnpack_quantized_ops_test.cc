// XNNPACK delegate, QS8/QU8 paths: int8 and uint8 networks, QUANTIZE and
// DEQUANTIZE, quantized unary ops, MEAN/SUM and requantization, run through
// the delegate and compared with the builtin kernels (within one
// quantization step). Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_ops_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

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

}  // namespace
}  // namespace testing
}  // namespace tflite_c

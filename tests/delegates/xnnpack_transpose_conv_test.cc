// XNNPACK delegate: quantized TRANSPOSE_CONV as upstream's delegate takes it
// (int8 activations with int8 per-tensor or per-channel weights, uint8 with
// uint8 weights; int32 bias optional; SAME/VALID padding; fused activation),
// compared with the builtin kernel within one quantization step. Nodes outside
// that (dynamic output shape, int8 weights with uint8 activations) stay on
// the builtin kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

struct DeconvCase {
  tflite::TensorType type;
  bool per_channel;
  bool bias;
  tflite::Padding padding;
  int stride;
  tflite::ActivationFunctionType activation;
};

std::string Describe(const DeconvCase& c) {
  std::string s = c.type == tflite::TensorType_INT8 ? "int8" : "uint8";
  s += c.per_channel ? " per-channel" : " per-tensor";
  s += c.bias ? " bias" : "";
  s += c.padding == tflite::Padding_SAME ? " SAME" : " VALID";
  s += " stride " + std::to_string(c.stride);
  s += c.activation == tflite::ActivationFunctionType_RELU ? " relu" : "";
  return s;
}

// input [1, 5, 4, 3] -> filter [4, 3, 3, 3] -> output [1, oh, ow, 4].
std::vector<uint8_t> DeconvModel(const DeconvCase& c, bool static_shape = true) {
  const bool s8 = c.type == tflite::TensorType_INT8;
  const int ih = 5, iw = 4, ic = 3, oc = 4, k = 3;
  const int oh = c.padding == tflite::Padding_SAME ? ih * c.stride : (ih - 1) * c.stride + k;
  const int ow = c.padding == tflite::Padding_SAME ? iw * c.stride : (iw - 1) * c.stride + k;
  const float in_scale = 0.03f;
  ModelBuilder b;
  const int x = b.AddInput(c.type, {1, ih, iw, ic}, "x");
  b.SetQuantization(x, {{in_scale}, {s8 ? -5 : 131}});
  const std::vector<int32_t> out_shape = {1, oh, ow, oc};
  const int shape = static_shape ? b.AddConstant<int32_t>({4}, out_shape)
                                 : b.AddInput(tflite::TensorType_INT32, {4}, "shape");
  std::vector<float> w_scales = {0.02f};
  if (c.per_channel) w_scales = {0.02f, 0.011f, 0.035f, 0.007f};
  const size_t wn = static_cast<size_t>(oc) * k * k * ic;
  int w;
  if (s8) {
    w = b.AddConstant<int8_t>({oc, k, k, ic}, RandomValues<int8_t>(wn, 11, -127, 127));
    b.SetQuantization(w, {w_scales, std::vector<int64_t>(w_scales.size(), 0), 0});
  } else {
    w = b.AddConstant<uint8_t>({oc, k, k, ic}, RandomValues<uint8_t>(wn, 11, 0, 255));
    b.SetQuantization(w, {w_scales, {120}, 0});
  }
  std::vector<int> inputs = {shape, w, x};
  if (c.bias) {
    std::vector<float> b_scales;
    for (float s : w_scales) b_scales.push_back(s * in_scale);
    const int bias = b.AddConstant<int32_t>({oc}, {300, -1200, 45, 2500});
    b.SetQuantization(bias, {b_scales, std::vector<int64_t>(b_scales.size(), 0), 0});
    inputs.push_back(bias);
  }
  const int y = b.AddOutput(c.type, {1, oh, ow, oc}, "y");
  b.SetQuantization(y, {{0.25f}, {s8 ? 3 : 125}});
  tflite::TransposeConvOptionsT o;
  o.padding = c.padding;
  o.stride_w = o.stride_h = c.stride;
  o.fused_activation_function = c.activation;
  const int version = c.activation != tflite::ActivationFunctionType_NONE ? 4 : c.bias ? 3 : 2;
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, inputs, {y}, o, version);
  return b.Finish();
}

TEST(XnnpackTransposeConv, QuantizedMatchesBuiltinWithinOneStep) {
  SKIP_WITHOUT_XNNPACK();
  const auto kNone = tflite::ActivationFunctionType_NONE;
  const auto kRelu = tflite::ActivationFunctionType_RELU;
  const std::vector<DeconvCase> cases = {
      {tflite::TensorType_INT8, false, true, tflite::Padding_SAME, 2, kNone},
      {tflite::TensorType_INT8, false, false, tflite::Padding_VALID, 2, kNone},
      {tflite::TensorType_INT8, true, true, tflite::Padding_SAME, 2, kNone},
      {tflite::TensorType_INT8, true, true, tflite::Padding_VALID, 1, kNone},
      {tflite::TensorType_INT8, true, false, tflite::Padding_SAME, 3, kRelu},
      {tflite::TensorType_UINT8, false, true, tflite::Padding_SAME, 2, kNone},
      {tflite::TensorType_UINT8, false, false, tflite::Padding_VALID, 2, kNone},
      {tflite::TensorType_UINT8, false, true, tflite::Padding_VALID, 1, kRelu},
  };
  double worst = 0;
  for (const DeconvCase& c : cases) {
    SCOPED_TRACE(Describe(c));
    Tolerance t;
    t.atol = 1;
    t.rtol = 0;
    t.min_distinct = 40;  // not saturated
    worst = std::max(worst, RunBothAndCompare(DeconvModel(c), t));
  }
  ::testing::Test::RecordProperty("max_steps", std::to_string(worst));
}

TEST(XnnpackTransposeConv, DynamicOutputShapeStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  const DeconvCase c{tflite::TensorType_INT8, true, true, tflite::Padding_SAME, 2,
                     tflite::ActivationFunctionType_NONE};
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
  const std::vector<uint8_t> model = DeconvModel(c, /*static_shape=*/false);
  Session s;
  s.Create(model, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), 0);
}

TEST(XnnpackTransposeConv, FilterTypeMustMatchActivations) {
  SKIP_WITHOUT_XNNPACK();
  // uint8 activations with int8 weights: no XNNPACK operator takes that mix.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_UINT8, {1, 3, 3, 2}, "x");
  b.SetQuantization(x, {{0.05f}, {128}});
  const int shape = b.AddConstant<int32_t>({4}, {1, 6, 6, 2});
  const int w = b.AddConstant<int8_t>({2, 2, 2, 2}, RandomValues<int8_t>(16, 3, -100, 100));
  b.SetQuantization(w, {{0.02f}, {0}});
  const int y = b.AddOutput(tflite::TensorType_UINT8, {1, 6, 6, 2}, "y");
  b.SetQuantization(y, {{0.1f}, {128}});
  tflite::TransposeConvOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_w = o.stride_h = 2;
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, w, x}, {y}, o, 2);
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
  const std::vector<uint8_t> model = b.Finish();
  Session s;
  s.Create(model, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), 0);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

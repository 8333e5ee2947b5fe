// The XNNPACK delegate folds an explicit spatial PAD into the VALID
// (depthwise) convolution reading it (src/delegates/xnnpack/pad_folding.h):
// outputs stay those of the builtin kernels, and no XNNPACK pad operator runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/core/api/profiler.h"
#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

#ifdef TFLITE_C_WITH_XNNPACK

struct Case {
  bool quantized;
  bool depthwise;
  tflite::Padding conv_padding;
  bool pad_also_output;  // the PAD's result is also a model output
};

// x[1,9,9,8] -> PAD (H 1+1, W 0+1) -> 3x3 stride-2 conv -> y; int8 with
// zero point -128 (where this XNNPACK's own folding gives up) or float32.
std::vector<uint8_t> PadConvNet(const Case& c) {
  ModelBuilder b;
  const tflite::TensorType t = c.quantized ? tflite::TensorType_INT8 : tflite::TensorType_FLOAT32;
  const int x = b.AddInput(t, {1, 9, 9, 8}, "x");
  const int pads = b.AddConstant<int32_t>({4, 2}, {0, 0, 1, 1, 0, 1, 0, 0});
  const int px = b.AddTensor(t, {1, 11, 10, 8});
  if (c.quantized) {
    b.SetQuantization(x, {{0.05f}, {-128}});
    b.SetQuantization(px, {{0.05f}, {-128}});
  }
  b.AddOperator(tflite::BuiltinOperator_PAD, {x, pads}, {px});
  const bool same = c.conv_padding == tflite::Padding_SAME;
  const int oh = same ? 6 : 5, ow = same ? 5 : 4;
  const int oc = 8;
  int w, bias;
  const std::vector<int> wshape = c.depthwise ? std::vector<int>{1, 3, 3, oc}
                                              : std::vector<int>{oc, 3, 3, 8};
  if (c.quantized) {
    w = b.AddConstant<int8_t>(wshape, RandomValues<int8_t>(72 * (c.depthwise ? 1 : 8), 3, -127, 127));
    std::vector<float> scales(oc);
    for (int i = 0; i < oc; ++i) scales[i] = 0.004f + 0.001f * i;
    b.SetQuantization(w, {scales, std::vector<int64_t>(oc, 0), c.depthwise ? 3 : 0});
    bias = b.AddConstant<int32_t>({oc}, RandomValues<int32_t>(oc, 4, -500, 500));
    std::vector<float> bscales(oc);
    for (int i = 0; i < oc; ++i) bscales[i] = 0.05f * scales[i];
    b.SetQuantization(bias, {bscales, std::vector<int64_t>(oc, 0), 0});
  } else {
    w = b.AddConstant<float>(wshape, Random(72 * (c.depthwise ? 1 : 8), 3));
    bias = b.AddConstant<float>({oc}, Random(oc, 4));
  }
  const int y = b.AddOutput(t, {1, oh, ow, oc}, "y");
  if (c.quantized) b.SetQuantization(y, {{0.1f}, {3}});
  if (c.depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = c.conv_padding;
    o.stride_w = o.stride_h = 2;
    o.depth_multiplier = 1;
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {px, w, bias}, {y}, o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = c.conv_padding;
    o.stride_w = o.stride_h = 2;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {px, w, bias}, {y}, o);
  }
  if (c.pad_also_output) b.SetOutputs({y, px});
  return b.Finish();
}

// XNNPACK operator names of one invoke of `model` through the delegate.
OperatorNames Operators(const std::vector<uint8_t>& model) {
  OperatorNames names;
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
  ModelPtr m(TfLiteModelCreate(model.data(), model.size()));
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
  TfLiteInterpreterOptionsAddDelegate(options.get(), reinterpret_cast<TfLiteOpaqueDelegate*>(d.get()));
  TfLiteInterpreterOptionsSetProfiler(options.get(), &names);
  InterpreterPtr it(TfLiteInterpreterCreate(m.get(), options.get()));
  EXPECT_NE(it, nullptr);
  if (it == nullptr) return names;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(it.get()), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(it.get()), kTfLiteOk);
  return names;
}

class PadFolding : public ::testing::TestWithParam<Case> {};

TEST_P(PadFolding, SameOutputsAsBuiltin) {
  const Case& c = GetParam();
  Tolerance tol;
  tol.atol = c.quantized ? 1.0 : 1e-5;  // one quantization step
  tol.min_distinct = 10;
  const double worst = RunBothAndCompare(PadConvNet(c), tol, -2.0f, 2.0f);
  EXPECT_LE(worst, tol.atol);
}

TEST_P(PadFolding, PadRunsOnlyWhenItCannotBeFolded) {
  const Case& c = GetParam();
  const OperatorNames ops = Operators(PadConvNet(c));
  ASSERT_FALSE(ops.names.empty());
  EXPECT_TRUE(ops.Has("Convolution")) << ops.names.front();
  const bool foldable = c.conv_padding == tflite::Padding_VALID && !c.pad_also_output;
  EXPECT_EQ(ops.Has("Pad"), !foldable);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PadFolding,
    ::testing::Values(Case{true, true, tflite::Padding_VALID, false},
                      Case{true, false, tflite::Padding_VALID, false},
                      Case{false, true, tflite::Padding_VALID, false},
                      Case{true, true, tflite::Padding_SAME, false},
                      Case{true, true, tflite::Padding_VALID, true}),
    [](const ::testing::TestParamInfo<Case>& info) {
      const Case& c = info.param;
      return std::string(c.quantized ? "Int8" : "Float") + (c.depthwise ? "Depthwise" : "Conv") +
             (c.conv_padding == tflite::Padding_SAME ? "Same" : "Valid") +
             (c.pad_also_output ? "PadIsOutput" : "");
    });

#else
TEST(PadFolding, SkippedWithoutXnnpack) { GTEST_SKIP() << "built without XNNPACK"; }
#endif

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// Op table cases: convolution, pooling, fully connected, matmul, softmax, normalization.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

constexpr auto kNone = tflite::ActivationFunctionType_NONE;
constexpr auto kRelu = tflite::ActivationFunctionType_RELU;
constexpr auto kRelu6 = tflite::ActivationFunctionType_RELU6;
constexpr auto kReluN1To1 = tflite::ActivationFunctionType_RELU_N1_TO_1;
constexpr auto kSame = tflite::Padding_SAME;
constexpr auto kValid = tflite::Padding_VALID;

tflite::BuiltinOptionsUnion FcOpts(tflite::ActivationFunctionType act = kNone,
                                   bool keep_num_dims = false,
                                   tflite::FullyConnectedOptionsWeightsFormat format =
                                       tflite::FullyConnectedOptionsWeightsFormat_DEFAULT) {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  o.keep_num_dims = keep_num_dims;
  o.weights_format = format;
  return Opts(o);
}
// Sets the fields Conv2DOptionsT and DepthwiseConv2DOptionsT share.
template <typename T>
tflite::BuiltinOptionsUnion ConvLikeOpts(T o, tflite::Padding padding, int stride_h, int stride_w,
                                         int dilation_h, int dilation_w,
                                         tflite::ActivationFunctionType act) {
  o.padding = padding;
  o.stride_h = stride_h;
  o.stride_w = stride_w;
  o.dilation_h_factor = dilation_h;
  o.dilation_w_factor = dilation_w;
  o.fused_activation_function = act;
  return Opts(o);
}
tflite::BuiltinOptionsUnion ConvOpts(tflite::Padding padding, int stride_h = 1, int stride_w = 1,
                                     int dilation_h = 1, int dilation_w = 1,
                                     tflite::ActivationFunctionType act = kNone) {
  return ConvLikeOpts(tflite::Conv2DOptionsT(), padding, stride_h, stride_w, dilation_h, dilation_w,
                      act);
}
tflite::BuiltinOptionsUnion DepthwiseOpts(tflite::Padding padding, int multiplier, int stride_h = 1,
                                          int stride_w = 1, int dilation_h = 1, int dilation_w = 1,
                                          tflite::ActivationFunctionType act = kNone) {
  tflite::DepthwiseConv2DOptionsT o;
  o.depth_multiplier = multiplier;
  return ConvLikeOpts(o, padding, stride_h, stride_w, dilation_h, dilation_w, act);
}

// 1..9 as a [1, 3, 3, 1] image, and a 2x2 window of ones as conv / depthwise
// filters: each output is the sum of the input pixels under the window.
InputSpec Image3x3() { return F32({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}); }
InputSpec Ones2x2Filter() { return Const(F32({1, 2, 2, 1}, {1, 1, 1, 1})); }
InputSpec ZeroBias1() { return Const(F32({1}, {0})); }

}  // namespace

std::vector<OpCase> NnCases() {
  std::vector<OpCase> cases;
  for (bool same : {true, false}) {
    for (int stride : {1, 2}) {
      const std::string suffix = std::string(same ? "_same" : "_valid") + "_s" + std::to_string(stride);
      // Regular (filter [O,kh,kw,C]) or depthwise with multiplier 2 (filter [1,kh,kw,C*2]).
      auto add_conv = [&](const std::string& name, BuiltinOperator op, std::vector<InputSpec> inputs,
                          bool depthwise, std::function<tflite::BuiltinOptionsUnion()> options) {
        OpCase c;
        c.name = name + suffix;
        c.op = op;
        c.inputs = std::move(inputs);
        c.ref = [stride, same, depthwise](const std::vector<FTensor>& d,
                                          const std::vector<std::vector<int32_t>>&) {
          return std::vector<FTensor>{Conv(d[0], d[1], {}, stride, same, depthwise, depthwise ? 2 : 1)};
        };
        c.options = std::move(options);
        c.types = kF8;
        c.lo = -1, c.hi = 1;
        c.rtol = 1e-4f, c.atol = 1e-4f;
        c.also_default_delegates = true;  // XNNPACK's convolutions too
        cases.push_back(c);
      };
      const tflite::Padding padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
      add_conv("CONV_2D", tflite::BuiltinOperator_CONV_2D, {Data({1, 6, 5, 3}), Weights({4, 3, 3, 3})},
               false, [stride, padding] {
                 tflite::Conv2DOptionsT o;
                 o.padding = padding;
                 o.stride_w = o.stride_h = stride;
                 return Opts(o);
               });
      // Pointwise: XNNPACK runs it as a fully connected layer over each pixel.
      add_conv("CONV_2D_1x1", tflite::BuiltinOperator_CONV_2D, {Data({1, 5, 4, 6}), Weights({3, 1, 1, 6})},
               false, [stride, padding] {
                 tflite::Conv2DOptionsT o;
                 o.padding = padding;
                 o.stride_w = o.stride_h = stride;
                 return Opts(o);
               });
      add_conv("DEPTHWISE_CONV_2D", tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
               {Data({1, 6, 5, 2}), Weights({1, 3, 3, 4})}, true, [stride, padding] {
                 tflite::DepthwiseConv2DOptionsT o;
                 o.padding = padding;
                 o.stride_w = o.stride_h = stride;
                 o.depth_multiplier = 2;
                 return Opts(o);
               });
      for (bool max : {true, false}) {
        OpCase c;
        c.name = std::string(max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D") + suffix;
        c.op = max ? tflite::BuiltinOperator_MAX_POOL_2D : tflite::BuiltinOperator_AVERAGE_POOL_2D;
        c.inputs = {Data({1, 5, 6, 3})};
        c.ref = [stride, same, max](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
          return std::vector<FTensor>{Pool(d[0], 3, stride, same, max)};
        };
        c.options = [stride, same] {
          tflite::Pool2DOptionsT o;
          o.padding = same ? tflite::Padding_SAME : tflite::Padding_VALID;
          o.stride_w = o.stride_h = stride;
          o.filter_width = o.filter_height = 3;
          return Opts(o);
        };
        c.types = kF816;
        c.out_like_input = true;
        c.rtol = 1e-5f;
        cases.push_back(c);
      }
    }
  }
  {
    OpCase c;
    c.name = "FULLY_CONNECTED";
    c.op = tflite::BuiltinOperator_FULLY_CONNECTED;
    c.inputs = {Data({3, 10}), Weights({4, 10})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{{3, 4}, {}};
      for (int b = 0; b < 3; ++b)
        for (int o = 0; o < 4; ++o) {
          float acc = 0;
          for (int i = 0; i < 10; ++i) acc += d[0].v[b * 10 + i] * d[1].v[o * 10 + i];
          y.v.push_back(acc);
        }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::FullyConnectedOptionsT()); };
    c.types = kF8;
    c.lo = -1, c.hi = 1;
    c.rtol = 1e-4f, c.atol = 1e-4f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "BATCH_MATMUL";
    c.op = tflite::BuiltinOperator_BATCH_MATMUL;
    c.inputs = {Data({2, 3, 4}), Data({1, 4, 5})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{{2, 3, 5}, {}};
      for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 5; ++j) {
            float acc = 0;
            for (int k = 0; k < 4; ++k) acc += d[0].v[(b * 3 + i) * 4 + k] * d[1].v[k * 5 + j];
            y.v.push_back(acc);
          }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::BatchMatMulOptionsT()); };
    c.types = kF8S;
    c.lo = -1, c.hi = 1;
    c.rtol = 1e-4f, c.atol = 1e-4f;
    cases.push_back(c);
  }
  for (int axis_last : {1, 0}) {
    OpCase c;
    c.name = axis_last ? "SOFTMAX" : "LOG_SOFTMAX";
    c.op = axis_last ? tflite::BuiltinOperator_SOFTMAX : tflite::BuiltinOperator_LOG_SOFTMAX;
    c.inputs = {Data({3, 9})};
    const bool log = !axis_last;
    c.ref = [log](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{d[0].shape, {}};
      for (int r = 0; r < 3; ++r) {
        double mx = -1e30, sum = 0;
        for (int i = 0; i < 9; ++i) mx = std::max(mx, d[0].v[r * 9 + i]);
        for (int i = 0; i < 9; ++i) sum += std::exp(d[0].v[r * 9 + i] - mx);
        for (int i = 0; i < 9; ++i) {
          const double z = d[0].v[r * 9 + i] - mx;
          y.v.push_back(log ? z - std::log(sum) : std::exp(z) / sum);
        }
      }
      return std::vector<FTensor>{y};
    };
    if (axis_last) {
      c.options = [] {
        tflite::SoftmaxOptionsT o;
        o.beta = 1.f;
        return Opts(o);
      };
      c.types = kF8;
      c.types.push_back(tflite::TensorType_INT16);
      c.fixed_out = [](TensorType t) -> Quantization {
        if (t == tflite::TensorType_INT8) return {{1.f / 256}, {-128}, 0};
        if (t == tflite::TensorType_UINT8) return {{1.f / 256}, {0}, 0};
        return {{1.f / 32768}, {0}, 0};
      };
    } else {
      c.options = [] { return Opts(tflite::LogSoftmaxOptionsT()); };
      c.types = kF8;
      c.fixed_out = [](TensorType t) -> Quantization {
        if (t == tflite::TensorType_INT8) return {{16.f / 256}, {127}, 0};
        return {{16.f / 256}, {255}, 0};
      };
    }
    c.rtol = 1e-5f, c.atol = 1e-6f;
    c.lsb = 2.01f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "L2_NORMALIZATION";
    c.op = tflite::BuiltinOperator_L2_NORMALIZATION;
    c.inputs = {Data({2, 6})};
    c.ref = [](const std::vector<FTensor>& d, const std::vector<std::vector<int32_t>>&) {
      FTensor y{d[0].shape, {}};
      for (int r = 0; r < 2; ++r) {
        float ss = 0;
        for (int i = 0; i < 6; ++i) ss += d[0].v[r * 6 + i] * d[0].v[r * 6 + i];
        for (int i = 0; i < 6; ++i) y.v.push_back(d[0].v[r * 6 + i] / std::sqrt(ss));
      }
      return std::vector<FTensor>{y};
    };
    c.options = [] { return Opts(tflite::L2NormOptionsT()); };
    c.types = kF8;
    c.fixed_out = [](TensorType t) -> Quantization {
      if (t == tflite::TensorType_INT8) return {{1.f / 128}, {0}, 0};
      return {{1.f / 128}, {128}, 0};
    };
    c.lsb = 2.01f;
    cases.push_back(c);
  }
  {
    OpCase c;
    c.name = "PRELU";
    c.op = tflite::BuiltinOperator_PRELU;
    c.inputs = {Data({1, 3, 3, 4}), Weights({4})};
    c.ref = BinaryRef([](float x, float a) { return x < 0 ? a * x : x; });
    c.types = kF8;
    cases.push_back(c);
  }
  return cases;
}


// clang-format off
std::vector<OpCase> FullyConnectedHandCases() {
  constexpr auto kFc = tflite::BuiltinOperator_FULLY_CONNECTED;
  // out[b] = W in[b] + bias with W = [[1, 0, -1], [0.5, 0.5, 0.5]], bias = [1, -1]:
  // rows [1 2 3] -> [-1, 2] and [4 5 6] -> [-1, 6.5].
  auto in = [] { return F32({2, 3}, {1, 2, 3, 4, 5, 6}); };
  auto weights = [] { return Const(F32({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5})); };
  auto bias = [] { return Const(F32({2}, {1, -1})); };
  return Cases({
      {"Bias", kFc, FcOpts(), {in(), weights(), bias()}, F32({2, 2}, {-1, 2, -1, 6.5})},
      {"Relu", kFc, FcOpts(kRelu), {in(), weights(), bias()}, F32({2, 2}, {0, 2, 0, 6.5})},
      {"NoBiasInput", kFc, FcOpts(), {in(), weights()}, F32({2, 2}, {-2, 3, -2, 7.5}),
       Outcome::kOk, "", 6},
      {"OmittedBias", kFc, FcOpts(), {in(), weights(), Omitted()},
       F32({2, 2}, {-2, 3, -2, 7.5})},
      {"FlattensInput", kFc, FcOpts(), {F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), weights(), bias()},
       F32({2, 2}, {-1, 2, -1, 6.5})},
      {"KeepNumDims", kFc, FcOpts(kNone, true),
       {F32({1, 2, 3}, {1, 2, 3, 4, 5, 6}), weights(), bias()},
       F32({1, 2, 2}, {-1, 2, -1, 6.5}), Outcome::kOk, "", 5},
      {"NonConstantWeights", kFc, FcOpts(),
       {in(), F32({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5}), bias()}, F32({2, 2}, {-1, 2, -1, 6.5})},
      {"ShuffledWeightsUnsupported", kFc,
       FcOpts(kNone, false, tflite::FullyConnectedOptionsWeightsFormat_SHUFFLED4x16INT8),
       {in(), weights(), bias()}, F32({2, 2}, {}), Outcome::kPrepareFails, "weights format", 2},
      {"Int8WeightsUnsupported", kFc, FcOpts(),
       {in(), Const(Typed(tflite::TensorType_INT8, {2, 3})), bias()}, F32({2, 2}, {}),
       Outcome::kPrepareFails, "INT8", 3},
      {"BiasSizeMismatch", kFc, FcOpts(), {in(), weights(), Const(F32({3}, {1, 2, 3}))},
       F32({2, 2}, {}), Outcome::kPrepareFails, "bias"},
      {"DepthMismatch", kFc, FcOpts(), {F32({1, 5}, {1, 2, 3, 4, 5}), weights(), bias()},
       F32({1, 2}, {}), Outcome::kPrepareFails, "FULLY_CONNECTED"},
  });
}

std::vector<OpCase> ConvHandCases() {
  constexpr auto kConv = tflite::BuiltinOperator_CONV_2D;
  return Cases({
      // 1x1: each pixel (a, b) -> (a, b, a + b + 10).
      {"Pointwise", kConv, ConvOpts(kValid),
       {F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
        Const(F32({3, 1, 1, 2}, {1, 0, 0, 1, 1, 1})), Const(F32({3}, {0, 0, 10}))},
       F32({1, 2, 2, 3}, {1, 2, 13, 3, 4, 17, 5, 6, 21, 7, 8, 25})},
      {"Valid", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      // SAME pads one row/column at the end (the odd total goes after).
      {"Same", kConv, ConvOpts(kSame), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {12, 16, 9, 24, 28, 15, 15, 17, 9})},
      {"SameStride2", kConv, ConvOpts(kSame, 2, 2), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {12, 9, 15, 9})},
      {"ValidStride2x1", kConv, ConvOpts(kValid, 2, 1),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 1, 2, 1}, {12, 16})},
      // Dilation 2: the 2x2 window spans 3x3, taking the corners.
      {"ValidDilation2", kConv, ConvOpts(kValid, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 1, 1, 1}, {20})},
      {"SameDilation2", kConv, ConvOpts(kSame, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {5, 10, 5, 10, 20, 10, 5, 10, 5})},
      {"NoBias", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      {"OmittedBias", kConv, ConvOpts(kValid), {Image3x3(), Ones2x2Filter(), Omitted()},
       F32({1, 2, 2, 1}, {12, 16, 24, 28})},
      // Two channels in, two out: sums 10 and 1 - 2 - 3 + 4 = 0, bias -20 / 5, RELU.
      {"MultiChannelBiasRelu", kConv, ConvOpts(kValid, 1, 1, 1, 1, kRelu),
       {F32({1, 1, 2, 2}, {1, 2, 3, 4}), Const(F32({2, 1, 2, 2}, {1, 1, 1, 1, 1, -1, -1, 1})),
        Const(F32({2}, {-20, 5}))},
       F32({1, 1, 1, 2}, {0, 5})},
      {"Batch2Relu6", kConv, ConvOpts(kValid, 1, 1, 1, 1, kRelu6),
       {F32({2, 1, 2, 1}, {1, 2, 3, 4}), Const(F32({1, 1, 2, 1}, {1, 1})), ZeroBias1()},
       F32({2, 1, 1, 1}, {3, 6})},
      // Two groups of 2 input channels: (1, 2) . (1, 1) = 3, (3, 4) . (1, -1) = -1.
      {"Grouped", kConv, ConvOpts(kValid),
       {F32({1, 1, 1, 4}, {1, 2, 3, 4}), Const(F32({2, 1, 1, 2}, {1, 1, 1, -1})),
        Const(F32({2}, {0, 0}))},
       F32({1, 1, 1, 2}, {3, -1}), Outcome::kOk, "", 6},
      {"InputRank3", kConv, ConvOpts(kValid),
       {F32({3, 3, 1}, std::vector<double>(9, 1.0)), Ones2x2Filter(), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "CONV_2D"},
      {"ChannelMismatch", kConv, ConvOpts(kValid),
       {F32({1, 2, 2, 3}, std::vector<double>(12, 1.0)),
        Const(F32({1, 1, 1, 2}, {1, 1})), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "CONV_2D"},
      {"HybridUnsupported", kConv, ConvOpts(kValid),
       {Image3x3(), Const(Typed(tflite::TensorType_INT8, {1, 2, 2, 1})), ZeroBias1()},
       F32({1, 2, 2, 1}, {}), Outcome::kPrepareFails, "INT8", 2},
      {"BiasSizeMismatch", kConv, ConvOpts(kValid),
       {Image3x3(), Ones2x2Filter(), Const(F32({2}, {0, 0}))}, F32({1, 2, 2, 1}, {}),
       Outcome::kPrepareFails, "bias"},
      {"ZeroStride", kConv, ConvOpts(kValid, 0, 1),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 2, 2, 1}, {}),
       Outcome::kPrepareFails, "stride"},
  });
}

std::vector<OpCase> DepthwiseHandCases() {
  constexpr auto kDw = tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
  // Channel 0 is summed with weights 1, channel 1 weighted 1, 2, 3, 4:
  // 1 + 3 + 5 + 7 = 16 and 2 + 8 + 18 + 32 = 60.
  auto in2x2x2 = [] { return F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}); };
  auto filter2ch = [] { return Const(F32({1, 2, 2, 2}, {1, 1, 1, 2, 1, 3, 1, 4})); };
  return Cases({
      {"Valid", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), filter2ch(), Const(F32({2}, {0, 0}))}, F32({1, 1, 1, 2}, {16, 60})},
      {"BiasRelu", kDw, DepthwiseOpts(kValid, 1, 1, 1, 1, 1, kRelu),
       {in2x2x2(), filter2ch(), Const(F32({2}, {1, -100}))}, F32({1, 1, 1, 2}, {17, 0})},
      {"NoBias", kDw, DepthwiseOpts(kValid, 1), {in2x2x2(), filter2ch()},
       F32({1, 1, 1, 2}, {16, 60})},
      // Multiplier 2: input channel c feeds output channels 2c and 2c + 1.
      {"Multiplier2", kDw, DepthwiseOpts(kValid, 2),
       {F32({1, 1, 1, 2}, {2, 3}), Const(F32({1, 1, 1, 4}, {1, 2, 3, 4})),
        Const(F32({4}, {0, 0, 0, 1}))},
       F32({1, 1, 1, 4}, {2, 4, 9, 13})},
      {"Same", kDw, DepthwiseOpts(kSame, 1), {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {12, 16, 9, 24, 28, 15, 15, 17, 9})},
      {"SameStride2", kDw, DepthwiseOpts(kSame, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()}, F32({1, 2, 2, 1}, {12, 9, 15, 9})},
      {"SameDilation2", kDw, DepthwiseOpts(kSame, 1, 1, 1, 2, 2),
       {Image3x3(), Ones2x2Filter(), ZeroBias1()},
       F32({1, 3, 3, 1}, {5, 10, 5, 10, 20, 10, 5, 10, 5}), Outcome::kOk, "", 2},
      {"FilterNotDepthwise", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), Const(F32({2, 1, 1, 2}, {1, 1, 1, 1})), Const(F32({2}, {0, 0}))},
       F32({1, 2, 2, 2}, {}), Outcome::kPrepareFails, "DEPTHWISE_CONV_2D"},
      {"ChannelsNotMultiple", kDw, DepthwiseOpts(kValid, 1),
       {in2x2x2(), Const(F32({1, 1, 1, 3}, {1, 1, 1})), Const(F32({3}, {0, 0, 0}))},
       F32({1, 2, 2, 3}, {}), Outcome::kPrepareFails, "DEPTHWISE_CONV_2D"},
      {"Int32Unsupported", kDw, DepthwiseOpts(kValid, 1),
       {I32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
        Const(I32({1, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1}))},
       I32({1, 1, 1, 2}, {}), Outcome::kPrepareFails, "INT32"},
  });
}
// clang-format on


// One RNN step from a zero state: relu(W x + b); a sequence adds R h.
// W = [[1, 2], [3, 4]], R = identity, b = [1, -1].
// clang-format off
std::vector<OpCase> RecurrentHandCases() {
  tflite::RNNOptionsT rnn;
  rnn.fused_activation_function = kRelu;
  tflite::SequenceRNNOptionsT seq;
  seq.time_major = true;
  seq.fused_activation_function = kRelu;
  tflite::BidirectionalSequenceRNNOptionsT birnn;
  birnn.fused_activation_function = kRelu;
  tflite::SVDFOptionsT svdf;
  svdf.rank = 1;
  auto w = [] { return Const({2, 2}, {1, 2, 3, 4}); };
  auto r = [] { return Const({2, 2}, {1, 0, 0, 1}); };
  auto b = [] { return Const({2}, {1, -1}); };
  return Cases({
      {"OneStep", tflite::BuiltinOperator_RNN, Opts(rnn),
       {F32({1, 2}, {1, 2}), w(), r(), b(), Variable({1, 2})}, F32({1, 2}, {6, 10})},
      // Step 2: W [0, 1] + R [6, 10] + b = [2 + 6 + 1, 4 + 10 - 1].
      {"TwoStepsTimeMajor", tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN, Opts(seq),
       {F32({2, 1, 2}, {1, 2, 0, 1}), w(), r(), b(), Variable({1, 2})},
       F32({2, 1, 2}, {6, 10, 9, 13})},
      // Backward weights swap the two inputs: relu([2, 1] + 0).
      Hand("OneStepEachWay", tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN, Opts(birnn),
           {F32({1, 1, 2}, {1, 2}), w(), r(), b(), Variable({1, 2}), Const({2, 2}, {0, 1, 1, 0}), r(),
            Const({2}, {0, 0}), Variable({1, 2}), Omitted(), Omitted(), Omitted()},
           F32({1, 1, 2}, {6, 10}))
          .And(F32({1, 1, 2}, {2, 1})),
      // Rank 1, memory 1, zero state: (feature weights . x) * time weight + bias.
      {"RankOneMemoryOne", tflite::BuiltinOperator_SVDF, Opts(svdf),
       {F32({1, 2}, {1, 2}), Const({2, 2}, {1, 0, 0, 1}), Const({2, 1}, {3, 4}), Const({2}, {1, 1}),
        Variable({1, 2})},
       F32({1, 2}, {4, 9})},
  });
}
// clang-format on

}  // namespace op_table
}  // namespace tflite_c

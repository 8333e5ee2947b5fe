// SAME padding where the last window ends inside the input: a stride larger
// than the window (a 2x2 window with stride 3 over 6 pixels reaches pixel 4,
// not 5). TensorFlow pads nothing there, total = max(0, (out - 1) * stride +
// window - in). The pinned XNNPACK computed that difference without the
// max, in unsigned arithmetic: average pooling wrapped to a padding of ~2^31
// (AllocateTensors failed, or with a huge stride allocated for seconds and
// returned -inf; structured_fuzzer), convolutions to ~2^63 (output rows read
// as padding). Patch 0004 clamps at 0 as its max pooling already did.
// Expected values come from the plain loops below, not from either kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

struct Geometry {
  int in = 6;          // square input, pixels per side
  int window = 2;      // square window / filter
  int stride = 3;
  int channels = 2;    // input channels
  int out() const { return (in + stride - 1) / stride; }  // SAME
  int pad_before() const {
    return std::max(0, (out() - 1) * stride + window - in) / 2;
  }
};

enum class Kind { kAveragePool, kMaxPool, kConv, kDepthwise };

constexpr int kFilters = 3;  // output channels of kConv

// The reference: every output pixel over the window's pixels inside the input.
std::vector<float> Reference(Kind kind, const Geometry& g, const std::vector<float>& x,
                             const std::vector<float>& w) {
  const int oc = kind == Kind::kConv ? kFilters : g.channels;
  std::vector<float> y;
  for (int oy = 0; oy < g.out(); ++oy) {
    for (int ox = 0; ox < g.out(); ++ox) {
      for (int c = 0; c < oc; ++c) {
        float acc = kind == Kind::kMaxPool ? -1e30f : 0.0f;
        int count = 0;
        for (int ky = 0; ky < g.window; ++ky) {
          for (int kx = 0; kx < g.window; ++kx) {
            const int iy = oy * g.stride + ky - g.pad_before();
            const int ix = ox * g.stride + kx - g.pad_before();
            if (iy < 0 || ix < 0 || iy >= g.in || ix >= g.in) continue;
            const float* px = &x[(iy * g.in + ix) * g.channels];
            ++count;
            switch (kind) {
              case Kind::kAveragePool: acc += px[c]; break;
              case Kind::kMaxPool: acc = std::max(acc, px[c]); break;
              case Kind::kDepthwise:  // filter [1, window, window, channels]
                acc += px[c] * w[(ky * g.window + kx) * g.channels + c];
                break;
              case Kind::kConv:  // filter [filters, window, window, channels]
                for (int ic = 0; ic < g.channels; ++ic) {
                  acc += px[ic] * w[((c * g.window + ky) * g.window + kx) * g.channels + ic];
                }
                break;
            }
          }
        }
        y.push_back(kind == Kind::kAveragePool ? acc / count : acc);
      }
    }
  }
  return y;
}

std::vector<uint8_t> Model(Kind kind, const Geometry& g, const std::vector<float>& w) {
  ModelBuilder b;
  const int oc = kind == Kind::kConv ? kFilters : g.channels;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, g.in, g.in, g.channels}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, g.out(), g.out(), oc}, "y");
  if (kind == Kind::kAveragePool || kind == Kind::kMaxPool) {
    tflite::Pool2DOptionsT p;
    p.padding = tflite::Padding_SAME;
    p.stride_w = p.stride_h = g.stride;
    p.filter_width = p.filter_height = g.window;
    b.AddOperator(kind == Kind::kMaxPool ? tflite::BuiltinOperator_MAX_POOL_2D
                                         : tflite::BuiltinOperator_AVERAGE_POOL_2D,
                  {x}, {y}, p);
  } else if (kind == Kind::kConv) {
    const int f = b.AddConstant<float>({kFilters, g.window, g.window, g.channels}, w);
    tflite::Conv2DOptionsT c;
    c.padding = tflite::Padding_SAME;
    c.stride_w = c.stride_h = g.stride;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, f, -1}, {y}, c);
  } else {
    const int f = b.AddConstant<float>({1, g.window, g.window, g.channels}, w);
    tflite::DepthwiseConv2DOptionsT c;
    c.padding = tflite::Padding_SAME;
    c.stride_w = c.stride_h = g.stride;
    c.depth_multiplier = 1;
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {x, f, -1}, {y}, c);
  }
  return b.Finish();
}

void Check(Kind kind, const Geometry& g) {
  SCOPED_TRACE("input " + std::to_string(g.in) + ", window " + std::to_string(g.window) +
               ", stride " + std::to_string(g.stride));
  const size_t weights = kind == Kind::kConv ? kFilters * g.window * g.window * g.channels
                                             : g.window * g.window * g.channels;
  const std::vector<float> w = Random(weights, 5);
  const std::vector<float> x = Random(static_cast<size_t>(g.in * g.in * g.channels), 6);
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  const FloatRun run = RunFloatModel(Model(kind, g, w), delegate.get(), x);
  ASSERT_EQ(run.delegate_nodes, 1) << "the node goes to XNNPACK";
  const std::vector<float> want = Reference(kind, g, x, w);
  ASSERT_EQ(run.out.size(), want.size()) << run.errors;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(run.out[i], want[i], 1e-5f) << i;
}

const Geometry kGeometries[] = {
    {6, 2, 3, 2},  // windows at 0 and 3: pixel 5 unread
    {4, 1, 2, 2},  // 1x1 window, stride 2, even input
    {9, 3, 4, 1},  // padding 2: one pixel before, one after
    {7, 2, 3, 2},  // windows at 0, 3, 6: the last one padded by one pixel
};

TEST(XnnpackSamePadding, AveragePoolWithStrideBeyondTheWindow) {
  SKIP_WITHOUT_XNNPACK();
  for (const Geometry& g : kGeometries) {
    if (g.window > 1) Check(Kind::kAveragePool, g);  // 1x1 pools stay builtin
  }
}

// XNNPACK's max pooling refuses a stride beyond the window when the graph is
// defined, which failed the whole delegation (every node back on the CPU,
// or TfLiteInterpreterCreate failing with the delegate added explicitly).
// The delegate now leaves such a node to the builtin kernel.
TEST(XnnpackSamePadding, MaxPoolWithStrideBeyondTheWindowStaysBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (const Geometry& g : kGeometries) {
    if (g.window == 1) continue;
    const std::vector<float> x = Random(static_cast<size_t>(g.in * g.in * g.channels), 6);
    std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
        TfLiteXNNPackDelegateCreate(nullptr));
    const FloatRun run = RunFloatModel(Model(Kind::kMaxPool, g, {}), delegate.get(), x);
    EXPECT_EQ(run.delegate_nodes, 0);
    EXPECT_EQ(run.out, Reference(Kind::kMaxPool, g, x, {})) << run.errors;
  }
}

TEST(XnnpackSamePadding, ConvolutionWithStrideBeyondTheFilter) {
  SKIP_WITHOUT_XNNPACK();
  for (const Geometry& g : kGeometries) Check(Kind::kConv, g);
}

TEST(XnnpackSamePadding, DepthwiseConvolutionWithStrideBeyondTheFilter) {
  SKIP_WITHOUT_XNNPACK();
  for (const Geometry& g : kGeometries) Check(Kind::kDepthwise, g);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// Float depthwise convolutions through the XNNPACK delegate, across window
// sizes: the unipass kernels (3, 4, 9 and 25 taps) and, for windows of more
// than 25 taps (a 31-tap 1-D convolution as conformers use, 7x7, 6x5), the
// multipass kernels patch 0017 adds (on CPUs without one, a grouped
// convolution; the results must be the same). Channel counts on both
// sides of the kernels' channel tiles, SAME and VALID padding, strides 1 and
// 2, bias and a RELU6 clamp; expected values from plain loops in double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

struct Case {
  int h, w;    // input pixels
  int kh, kw;  // window
  int channels;
  int stride;
  bool same;
  bool relu6;
};

int OutSize(int in, int k, int stride, bool same) {
  return same ? (in + stride - 1) / stride : (in - k) / stride + 1;
}
int PadBefore(int in, int k, int stride, bool same) {
  if (!same) return 0;
  const int out = OutSize(in, k, stride, same);
  return std::max(0, (out - 1) * stride + k - in) / 2;
}

void Check(const Case& c) {
  SCOPED_TRACE("input " + std::to_string(c.h) + "x" + std::to_string(c.w) + ", window " +
               std::to_string(c.kh) + "x" + std::to_string(c.kw) + ", " +
               std::to_string(c.channels) + " channels, stride " + std::to_string(c.stride) +
               (c.same ? ", SAME" : ", VALID") + (c.relu6 ? ", RELU6" : ""));
  const int oh = OutSize(c.h, c.kh, c.stride, c.same);
  const int ow = OutSize(c.w, c.kw, c.stride, c.same);
  const std::vector<float> x = Random(static_cast<size_t>(c.h) * c.w * c.channels, 41, -2, 2);
  const std::vector<float> w = Random(static_cast<size_t>(c.kh) * c.kw * c.channels, 42);
  const std::vector<float> bias = Random(static_cast<size_t>(c.channels), 43);

  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, c.h, c.w, c.channels}, "x");
  const int yt = b.AddOutput(tflite::TensorType_FLOAT32, {1, oh, ow, c.channels}, "y");
  const int ft = b.AddConstant<float>({1, c.kh, c.kw, c.channels}, w);
  const int bt = b.AddConstant<float>({c.channels}, bias);
  tflite::DepthwiseConv2DOptionsT o;
  o.padding = c.same ? tflite::Padding_SAME : tflite::Padding_VALID;
  o.stride_w = o.stride_h = c.stride;
  o.depth_multiplier = 1;
  o.fused_activation_function =
      c.relu6 ? tflite::ActivationFunctionType_RELU6 : tflite::ActivationFunctionType_NONE;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {xt, ft, bt}, {yt}, o);

  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  const FloatRun run = RunFloatModel(b.Finish(), delegate.get(), x);
  ASSERT_EQ(run.delegate_nodes, 1) << "the node goes to XNNPACK; " << run.errors;
  ASSERT_EQ(run.out.size(), static_cast<size_t>(oh) * ow * c.channels) << run.errors;

  const int pt = PadBefore(c.h, c.kh, c.stride, c.same);
  const int pl = PadBefore(c.w, c.kw, c.stride, c.same);
  int bad = 0;
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      for (int ch = 0; ch < c.channels; ++ch) {
        double acc = bias[ch];
        for (int ky = 0; ky < c.kh; ++ky) {
          for (int kx = 0; kx < c.kw; ++kx) {
            const int iy = oy * c.stride + ky - pt, ix = ox * c.stride + kx - pl;
            if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
            acc += static_cast<double>(x[(static_cast<size_t>(iy) * c.w + ix) * c.channels + ch]) *
                   w[(static_cast<size_t>(ky) * c.kw + kx) * c.channels + ch];
          }
        }
        if (c.relu6) acc = std::min(6.0, std::max(0.0, acc));
        const float got = run.out[(static_cast<size_t>(oy) * ow + ox) * c.channels + ch];
        if (std::fabs(got - acc) > 1e-5 * (1.0 + std::fabs(acc)) * c.kh * c.kw && ++bad <= 5) {
          ADD_FAILURE() << "pixel (" << oy << ", " << ox << ") channel " << ch << ": " << got
                        << " != " << acc;
        }
      }
    }
  }
}

const int kChannels[] = {1, 7, 8, 17, 40};

TEST(XnnpackDepthwiseWindows, UnipassWindows) {
  SKIP_WITHOUT_XNNPACK();
  for (int ch : kChannels) {
    Check({9, 9, 3, 3, ch, 1, true, false});
    Check({8, 8, 2, 2, ch, 2, false, true});
    Check({11, 10, 5, 5, ch, 2, true, true});
  }
}

TEST(XnnpackDepthwiseWindows, WindowsLargerThan25Taps) {
  SKIP_WITHOUT_XNNPACK();
  for (int ch : kChannels) {
    Check({40, 1, 31, 1, ch, 1, true, false});   // conformer-style 1-D, SAME
    Check({1, 45, 1, 31, ch, 1, false, true});   // along the width, VALID
    Check({12, 11, 7, 7, ch, 1, true, false});   // 49 taps
    Check({13, 14, 7, 7, ch, 2, true, true});
    Check({9, 8, 6, 5, ch, 1, false, false});    // 30 taps
    Check({8, 8, 5, 3, ch, 1, true, false});     // 15 taps (5 + 5 + 5)
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

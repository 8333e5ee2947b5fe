// The float DEPTHWISE_CONV_2D kernel (vectors of eight channels accumulated
// in registers, picked at run time on x86-64) and the bias-and-clamp loop
// every float convolution ends with. The reference is the definition in
// float arithmetic: each channel's sum from 0 over the window's taps inside
// the image in (ky, kx) order, plus the bias, clamped. The kernel promises
// that rounding (contraction is off), so the comparison is exact, with one
// and two threads.
#include <gtest/gtest.h>

#include <cmath>
#include <climits>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;

struct DwCase {
  int h, w, channels, multiplier, kh, kw, stride, dilation;
  tflite::Padding padding;
  tflite::ActivationFunctionType activation;
  int stride_w = 0;  // 0: `stride`
  int StrideW() const { return stride_w ? stride_w : stride; }
};

float Clamp(float v, tflite::ActivationFunctionType a) {
  const float lo = a == tflite::ActivationFunctionType_NONE           ? -INFINITY
                   : a == tflite::ActivationFunctionType_RELU_N1_TO_1 ? -1.f
                                                                      : 0.f;
  const float hi = a == tflite::ActivationFunctionType_RELU6          ? 6.f
                   : a == tflite::ActivationFunctionType_RELU_N1_TO_1 ? 1.f
                                                                      : INFINITY;
  return v < lo ? lo : (v > hi ? hi : v);
}

std::vector<float> Reference(const DwCase& c, const std::vector<float>& in,
                             const std::vector<float>& filter, const std::vector<float>& bias,
                             int* out_h, int* out_w) {
  const int eh = (c.kh - 1) * c.dilation + 1, ew = (c.kw - 1) * c.dilation + 1;
  const bool same = c.padding == tflite::Padding_SAME;
  *out_h = same ? (c.h + c.stride - 1) / c.stride : (c.h - eh + c.stride) / c.stride;
  const int64_t sw = c.StrideW();
  *out_w = static_cast<int>(same ? (c.w + sw - 1) / sw : (c.w - ew + sw) / sw);
  const int pad_t = same ? std::max(0, (*out_h - 1) * c.stride + eh - c.h) / 2 : 0;
  const int pad_l =
      same ? static_cast<int>(std::max<int64_t>(0, (*out_w - 1) * sw + ew - c.w) / 2) : 0;
  const int out_c = c.channels * c.multiplier;
  std::vector<float> out;
  for (int oy = 0; oy < *out_h; ++oy) {
    for (int ox = 0; ox < *out_w; ++ox) {
      for (int oc = 0; oc < out_c; ++oc) {
        float acc = 0;
        for (int ky = 0; ky < c.kh; ++ky) {
          for (int kx = 0; kx < c.kw; ++kx) {
            const int y = oy * c.stride - pad_t + ky * c.dilation;
            const int64_t x = ox * sw - pad_l + kx * c.dilation;
            if (y < 0 || y >= c.h || x < 0 || x >= c.w) continue;
            acc += in[(size_t(y) * c.w + x) * c.channels + oc / c.multiplier] *
                   filter[(size_t(ky) * c.kw + kx) * out_c + oc];
          }
        }
        out.push_back(Clamp(acc + bias[oc], c.activation));
      }
    }
  }
  return out;
}

TEST(DepthwiseFloatTest, EqualsTapOrderFloatSumsForEveryChannelCount) {
  std::vector<DwCase> cases;
  for (int channels : {1, 3, 7, 8, 9, 16, 23, 24, 31, 32, 33, 40, 57, 64, 72, 100}) {
    cases.push_back({13, 11, channels, 1, 3, 3, 1, 1, tflite::Padding_SAME,
                     tflite::ActivationFunctionType_RELU6});
  }
  cases.push_back(
      {20, 17, 40, 1, 3, 3, 2, 1, tflite::Padding_SAME, tflite::ActivationFunctionType_NONE});
  cases.push_back(
      {21, 19, 33, 1, 5, 5, 2, 1, tflite::Padding_VALID, tflite::ActivationFunctionType_RELU});
  cases.push_back({16, 16, 24, 1, 3, 3, 1, 2, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_RELU_N1_TO_1});
  cases.push_back(
      {9, 30, 48, 1, 1, 7, 1, 1, tflite::Padding_SAME, tflite::ActivationFunctionType_NONE});
  cases.push_back({56, 56, 32, 1, 3, 3, 1, 1, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_RELU6});  // large enough for two threads
  // A window wider than the image (no interior column), and stride 3 with
  // dilation 2 (interior columns start past the padding).
  cases.push_back({3, 4, 16, 1, 5, 5, 1, 1, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_NONE});
  cases.push_back({29, 31, 24, 1, 3, 3, 3, 2, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_NONE});
  // A hostile stride (INT_MAX) next to a padding of 2: one output column.
  DwCase huge_stride{4, 4, 8, 1, 9, 9, 1, 1, tflite::Padding_SAME,
                     tflite::ActivationFunctionType_NONE};
  huge_stride.stride_w = INT32_MAX;
  cases.push_back(huge_stride);
  cases.push_back({12, 12, 5, 2, 3, 3, 1, 1, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_NONE});  // multiplier 2
  // Windows just under and over the 256 taps whose pointers the kernel
  // gathers (larger ones go tap by tap into the output row).
  cases.push_back({18, 18, 20, 1, 16, 16, 1, 1, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_NONE});
  cases.push_back({19, 18, 20, 1, 17, 17, 1, 1, tflite::Padding_SAME,
                   tflite::ActivationFunctionType_NONE});
  for (const DwCase& c : cases) {
    std::mt19937 rng(c.channels * 131 + c.h);
    std::uniform_real_distribution<float> dist(-2.f, 2.f);
    const int out_c = c.channels * c.multiplier;
    std::vector<float> in(size_t(c.h) * c.w * c.channels), filter(size_t(c.kh) * c.kw * out_c),
        bias(out_c);
    for (float& v : in) v = dist(rng);
    for (float& v : filter) v = dist(rng);
    for (float& v : bias) v = dist(rng);
    int out_h, out_w;
    const std::vector<float> want = Reference(c, in, filter, bias, &out_h, &out_w);
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message()
                   << c.h << "x" << c.w << "x" << c.channels << " x" << c.multiplier << " filter "
                   << c.kh << "x" << c.kw << " stride " << c.stride << " dilation " << c.dilation
                   << " threads " << threads);
      OneOpModel m;
      m.configure_options = [threads](TfLiteInterpreterOptions* o) {
        TfLiteInterpreterOptionsSetNumThreads(o, threads);
      };
      m.Input(tflite::TensorType_FLOAT32, {1, c.h, c.w, c.channels});
      m.Const<float>({1, c.kh, c.kw, out_c}, filter);
      m.Const<float>({out_c}, bias);
      m.Output(tflite::TensorType_FLOAT32, {1, out_h, out_w, out_c});
      tflite::DepthwiseConv2DOptionsT o;
      o.padding = c.padding;
      o.stride_h = c.stride;
      o.stride_w = c.StrideW();
      o.dilation_h_factor = o.dilation_w_factor = c.dilation;
      o.depth_multiplier = c.multiplier;
      o.fused_activation_function = c.activation;
      m.Op(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Opts(o));
      ASSERT_TRUE(m.Allocate()) << m.log();
      m.Set<float>(0, in);
      ASSERT_TRUE(m.Invoke()) << m.log();
      const std::vector<float> got = m.Get<float>();
      ASSERT_EQ(got.size(), want.size());
      int bad = 0;
      for (size_t i = 0; i < want.size() && bad < 5; ++i) {
        if (got[i] != want[i]) {
          ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want " << want[i];
          ++bad;
        }
      }
    }
  }
}

// NaN passes through the clamp, -0 stays -0 when no bias is added, and
// infinities clamp, element by element as the scalar definition, for rows
// whose length is not a multiple of the vector width.
TEST(DepthwiseFloatTest, BiasAndClampKeepsNanSignedZeroAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = INFINITY;
  const std::vector<float> specials = {nan, -0.f, 0.f, inf, -inf, 7.f, -3.f, 5.5f, 6.f, 1e30f};
  for (int channels : {1, 5, 8, 13, 21}) {
    for (bool with_bias : {false, true}) {
      for (auto range : {kernels::internal::ActivationRange<float>{0.f, 6.f},
                         kernels::internal::ActivationRange<float>{-inf, inf}}) {
        const int rows = 3;
        std::vector<float> data(size_t(rows) * channels), bias(channels);
        for (size_t i = 0; i < data.size(); ++i) data[i] = specials[(i * 7) % specials.size()];
        for (int c = 0; c < channels; ++c) bias[c] = c % 3 == 0 ? -0.f : 0.25f * c - 1;
        std::vector<float> want(data);
        for (size_t i = 0; i < want.size(); ++i) {
          float v = with_bias ? want[i] + bias[i % channels] : want[i];
          want[i] = v < range.min ? range.min : (v > range.max ? range.max : v);
        }
        kernels::internal::AddBiasAndClamp(data.data(), rows, channels,
                                           with_bias ? bias.data() : nullptr, range);
        for (size_t i = 0; i < want.size(); ++i) {
          if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(data[i])) << "element " << i;
          } else {
            EXPECT_EQ(data[i], want[i]) << "element " << i;
            EXPECT_EQ(std::signbit(data[i]), std::signbit(want[i])) << "element " << i;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tflite_c

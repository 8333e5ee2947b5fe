// Tests of the FLOAT32-only window and normalization ops: L2_POOL_2D,
// LOCAL_RESPONSE_NORMALIZATION and FAKE_QUANT. Expected values are upstream's
// published test vectors (facts) or come from a straightforward reference
// written here, never from the kernels themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

void ExpectNear(const Floats& actual, const Floats& expected, float tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
  }
}

// ---- L2_POOL_2D ------------------------------------------------------------------------

tflite::BuiltinOptionsUnion PoolOpts(tflite::Padding padding, int stride, int filter_h,
                                     int filter_w,
                                     tflite::ActivationFunctionType act =
                                         tflite::ActivationFunctionType_NONE) {
  tflite::Pool2DOptionsT o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.filter_height = filter_h;
  o.filter_width = filter_w;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(L2Pool2DTest, UpstreamValidVector) {
  OneOpModel m;
  m.Input(F32, {1, 2, 4, 1});
  m.Output(F32, {1, 1, 2, 1});
  m.Op(tflite::BuiltinOperator_L2_POOL_2D, PoolOpts(tflite::Padding_VALID, 2, 2, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {0, 6, 2, 4, 3, 2, 10, 7});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 1, 2, 1}));
  // sqrt((0 + 36 + 9 + 4) / 4) and sqrt((4 + 16 + 100 + 49) / 4).
  ExpectNear(m.Get<float>(), {3.5f, 6.5f}, 1e-6f);
}

// Same padding clips windows at the border; the mean is over valid taps only.
TEST(L2Pool2DTest, SamePaddingMatchesReference) {
  const int h = 3, w = 4, c = 2;
  Floats input(h * w * c);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 7) - 2.5f;
  OneOpModel m;
  m.Input(F32, {1, h, w, c});
  m.Output(F32, {1, h, w, c});
  m.Op(tflite::BuiltinOperator_L2_POOL_2D, PoolOpts(tflite::Padding_SAME, 1, 2, 3));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, input);
  ASSERT_TRUE(m.Invoke()) << m.log();
  // SAME with a 2x3 filter, stride 1: pad 0 above and 1 to the left.
  Floats expected;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int ch = 0; ch < c; ++ch) {
        double sum = 0;
        int n = 0;
        for (int yy = y; yy < y + 2; ++yy) {
          for (int xx = x - 1; xx < x + 2; ++xx) {
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            const float v = input[(yy * w + xx) * c + ch];
            sum += v * v;
            ++n;
          }
        }
        expected.push_back(static_cast<float>(std::sqrt(sum / n)));
      }
    }
  }
  ExpectNear(m.Get<float>(), expected, 1e-5f);
}

TEST(L2Pool2DTest, FusedActivationClamps) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Output(F32, {1, 1, 1, 1});
  m.Op(tflite::BuiltinOperator_L2_POOL_2D,
       PoolOpts(tflite::Padding_VALID, 1, 2, 2, tflite::ActivationFunctionType_RELU6));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {8, -8, 8, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), Floats{6});
}

TEST(L2Pool2DTest, Errors) {
  {
    OneOpModel m;
    m.Input(I8, {1, 2, 2, 1}, testing::Q(0.5f, 0));
    m.Output(I8, {1, 1, 1, 1}, testing::Q(0.5f, 0));
    m.Op(tflite::BuiltinOperator_L2_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2, 2));
    ExpectPrepareError(m, "L2_POOL_2D: input type INT8 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {1, 2, 2, 1});
    m.Output(F32, {1, 1, 1, 1});
    m.Op(tflite::BuiltinOperator_L2_POOL_2D, PoolOpts(tflite::Padding_VALID, 0, 2, 2));
    ExpectPrepareError(m, "L2_POOL_2D: stride_h must be positive");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 2, 1});
    m.Output(F32, {1, 1, 1});
    m.Op(tflite::BuiltinOperator_L2_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2, 2));
    ExpectPrepareError(m, "L2_POOL_2D: input must be 4-D");
  }
}

// ---- LOCAL_RESPONSE_NORMALIZATION ---------------------------------------------------------

tflite::BuiltinOptionsUnion LrnOpts(int radius, float bias, float alpha, float beta) {
  tflite::LocalResponseNormalizationOptionsT o;
  o.radius = radius;
  o.bias = bias;
  o.alpha = alpha;
  o.beta = beta;
  return Opts(o);
}

Floats RunLrn(const std::vector<int>& shape, const Floats& input, int radius, float bias,
              float alpha, float beta) {
  OneOpModel m;
  m.Input(F32, shape);
  m.Output(F32, shape);
  m.Op(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, LrnOpts(radius, bias, alpha, beta));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, input);
  EXPECT_TRUE(m.Invoke()) << m.log();
  return m.Get<float>();
}

TEST(LocalResponseNormTest, UpstreamVectors) {
  const Floats in = {-1.1f, 0.6f, 0.7f, 1.2f, -0.7f, 0.1f};
  // A radius covering the row makes it an L2 normalization (divide by 2).
  ExpectNear(RunLrn({1, 1, 1, 6}, in, 20, 0.0f, 1.0f, 0.5f),
             {-0.55f, 0.3f, 0.35f, 0.6f, -0.35f, 0.05f}, 1e-5f);
  ExpectNear(RunLrn({1, 1, 1, 6}, in, 20, 0.0f, 4.0f, 0.5f),
             {-0.275f, 0.15f, 0.175f, 0.3f, -0.175f, 0.025f}, 1e-5f);
  ExpectNear(RunLrn({1, 1, 1, 6}, in, 20, 9.0f, 4.0f, 0.5f),
             {-0.22f, 0.12f, 0.14f, 0.24f, -0.14f, 0.02f}, 1e-5f);
  // radius 2: the window is 5 channels wide (both ends included).
  ExpectNear(RunLrn({1, 1, 1, 6}, in, 2, 9.0f, 4.0f, 0.5f),
             {-0.264926f, 0.125109f, 0.140112f, 0.267261f, -0.161788f, 0.0244266f}, 1e-5f);
}

TEST(LocalResponseNormTest, ManyRowsMatchReference) {
  const std::vector<int> shape = {2, 1, 3, 5};
  Floats in(30);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i)) * 3.0f;
  const int radius = 1;
  const float bias = 1.5f, alpha = 0.3f, beta = 0.75f;
  Floats expected;
  for (int row = 0; row < 6; ++row) {
    for (int c = 0; c < 5; ++c) {
      double sum = 0;
      for (int k = std::max(0, c - radius); k <= std::min(4, c + radius); ++k) {
        sum += double{in[row * 5 + k]} * in[row * 5 + k];
      }
      expected.push_back(static_cast<float>(in[row * 5 + c] * std::pow(bias + alpha * sum, -beta)));
    }
  }
  ExpectNear(RunLrn(shape, in, radius, bias, alpha, beta), expected, 1e-5f);
}

TEST(LocalResponseNormTest, HugeRadiusIsClippedToTheRow) {
  const Floats in = {3, 4};
  ExpectNear(RunLrn({1, 1, 1, 2}, in, std::numeric_limits<int>::max(), 0.0f, 1.0f, 1.0f),
             {3.0f / 25, 4.0f / 25}, 1e-6f);
}

TEST(LocalResponseNormTest, Errors) {
  {
    OneOpModel m;
    m.Input(F32, {1, 1, 6});
    m.Output(F32, {1, 1, 6});
    m.Op(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, LrnOpts(2, 1, 1, 0.5f));
    ExpectPrepareError(m, "LOCAL_RESPONSE_NORMALIZATION: input must be 4-D, got rank 3");
  }
  {
    OneOpModel m;
    m.Input(I8, {1, 1, 1, 6});
    m.Output(I8, {1, 1, 1, 6});
    m.Op(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, LrnOpts(2, 1, 1, 0.5f));
    ExpectPrepareError(m, "LOCAL_RESPONSE_NORMALIZATION: input type INT8 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {1, 1, 1, 6});
    m.Output(F32, {1, 1, 1, 6});
    m.Op(tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, LrnOpts(-1, 1, 1, 0.5f));
    ExpectPrepareError(m, "LOCAL_RESPONSE_NORMALIZATION: radius -1 is negative");
  }
}

// ---- FAKE_QUANT ------------------------------------------------------------------------------

tflite::BuiltinOptionsUnion FakeQuantOpts(float min, float max, int num_bits,
                                          bool narrow_range = false) {
  tflite::FakeQuantOptionsT o;
  o.min = min;
  o.max = max;
  o.num_bits = num_bits;
  o.narrow_range = narrow_range;
  return Opts(o);
}

Floats RunFakeQuant(const Floats& in, float min, float max, int num_bits) {
  OneOpModel m;
  m.Input(F32, {static_cast<int>(in.size())});
  m.Output(F32, {static_cast<int>(in.size())});
  m.Op(tflite::BuiltinOperator_FAKE_QUANT, FakeQuantOpts(min, max, num_bits));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, in);
  EXPECT_TRUE(m.Invoke()) << m.log();
  return m.Get<float>();
}

TEST(FakeQuantTest, UpstreamVectors) {
  const Floats positive = {0.0f, 1.0f, 0.25f, 0.50f, 0.4444444f, 0.00001f};
  const Floats negative = {0.0f, -0.9f, 0.25f, 0.50f, 0.4444444f, -0.00001f};
  ExpectNear(RunFakeQuant(positive, 0.0f, 1.0f, 8), {0, 1, 0.25098f, 0.498039f, 0.443137f, 0},
             1e-5f);
  ExpectNear(RunFakeQuant(negative, -0.9f, 0.9f, 8),
             {0, -0.896471f, 0.247059f, 0.501176f, 0.444706f, 0}, 1e-5f);
  ExpectNear(RunFakeQuant(positive, 0.0f, 1.0f, 16),
             {0, 1, 0.250004f, 0.500008f, 0.44445f, 1.5259e-05f}, 1e-5f);
  ExpectNear(RunFakeQuant(negative, -0.9f, 0.9f, 16),
             {0, -0.900014f, 0.249998f, 0.499995f, 0.444431f, 0}, 1e-5f);
}

// TensorFlow's FakeQuantWithMinMaxArgs, step by step in float, as its
// documentation describes it: the reference the kernel must equal bit for bit.
Floats ReferenceFakeQuant(const Floats& in, float min, float max, int num_bits) {
  const float qmax = static_cast<float>((1 << num_bits) - 1);
  const float scale = (max - min) / qmax;
  const float zero_from_min = 0.0f - min / scale;
  const float zero = zero_from_min < 0.0f ? 0.0f
                     : zero_from_min > qmax ? qmax
                                            : std::round(zero_from_min);
  const float lo = (0.0f - zero) * scale;
  const float hi = (qmax - zero) * scale;
  const float inv = 1.0f / scale;
  Floats out;
  for (float x : in) {
    float c = x;
    if (!(c >= lo)) c = lo;  // NaN goes to lo
    if (c > hi) c = hi;
    out.push_back(std::round((c - lo) * inv) * scale + lo);
  }
  return out;
}

TEST(FakeQuantTest, BitExactAgainstReference) {
  Floats in;
  for (int i = -300; i <= 300; ++i) in.push_back(static_cast<float>(i) * 0.0137f);
  in.push_back(std::numeric_limits<float>::infinity());
  in.push_back(-std::numeric_limits<float>::infinity());
  in.push_back(std::numeric_limits<float>::quiet_NaN());
  in.push_back(-0.0f);
  struct Range {
    float min, max;
    int bits;
  };
  for (const Range& r : {Range{-1.3f, 2.7f, 8}, Range{-6.0f, 0.0f, 4}, Range{0.5f, 3.0f, 8},
                         Range{-0.1f, 0.3f, 16}, Range{-2.0f, 2.0f, 2}, Range{-4.0f, -1.0f, 1}}) {
    const Floats got = RunFakeQuant(in, r.min, r.max, r.bits);
    const Floats want = ReferenceFakeQuant(in, r.min, r.max, r.bits);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      uint32_t a, b;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, &want[i], 4);
      EXPECT_EQ(a, b) << "x=" << in[i] << " range [" << r.min << ", " << r.max << "] bits "
                      << r.bits << ": " << got[i] << " vs " << want[i];
    }
  }
}

TEST(FakeQuantTest, Errors) {
  struct Case {
    float min, max;
    int bits;
    bool narrow;
    const char* message;
  };
  const float inf = std::numeric_limits<float>::infinity();
  for (const Case& c : {Case{-1, 1, 8, true, "FAKE_QUANT: narrow_range is not supported"},
                        Case{1, 1, 8, false, "FAKE_QUANT: needs finite min < max"},
                        Case{2, 1, 8, false, "FAKE_QUANT: needs finite min < max"},
                        Case{-inf, 1, 8, false, "FAKE_QUANT: needs finite min < max"},
                        Case{-1, 1, 0, false, "FAKE_QUANT: num_bits 0 is outside [1, 16]"},
                        Case{-1, 1, 17, false, "FAKE_QUANT: num_bits 17 is outside [1, 16]"}}) {
    OneOpModel m;
    m.Input(F32, {2});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_FAKE_QUANT, FakeQuantOpts(c.min, c.max, c.bits, c.narrow), 2);
    ExpectPrepareError(m, c.message);
  }
  OneOpModel m;
  m.Input(I8, {2});
  m.Output(I8, {2});
  m.Op(tflite::BuiltinOperator_FAKE_QUANT, FakeQuantOpts(-1, 1, 8));
  ExpectPrepareError(m, "FAKE_QUANT: input type INT8 is not supported");
}

}  // namespace
}  // namespace tflite_c

// Hybrid (dynamic-range) CONV_2D and DEPTHWISE_CONV_2D: FLOAT32 input and
// output, INT8 / INT4 filter with per-tensor or per-channel scales, FLOAT32
// bias. The expected outputs are computed here independently with upstream's
// procedure: quantize each batch of the input (symmetric when CONV_2D has one
// scale, or equal ones, and no groups; asymmetric with a zero point
// otherwise, and always for DEPTHWISE_CONV_2D), accumulate integer products
// of filter * (q - zero point), scale by filter scale x input scale, add the
// bias, clamp. A looser check compares with a float convolution on the
// dequantized filter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/kernels/hybrid_test_util.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using testing::Quantization;
using testing::QuantizeAsymmetric;
using testing::QuantizeSymmetric;
using testing::RowQ;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

struct ConvCase {
  bool depthwise = false;
  int batches = 1, h = 5, w = 4, in_c = 3;
  int out_c = 4, kh = 3, kw = 3;
  int groups = 1;  // CONV_2D: input channels / filter input channels
  int stride = 1, dilation = 1;
  bool same = true;
  ActivationFunctionType act = ActivationFunctionType_NONE;
  std::vector<float> scales;  // one, or one per output channel
  bool int4 = false;
  bool with_bias = true;
  float lo = -2, hi = 2;  // input range
};

struct Geometry {
  int out_h, out_w, pad_top, pad_left;
};

Geometry ComputeGeometry(const ConvCase& c) {
  const int ekh = (c.kh - 1) * c.dilation + 1, ekw = (c.kw - 1) * c.dilation + 1;
  Geometry g{};
  if (c.same) {
    g.out_h = (c.h + c.stride - 1) / c.stride;
    g.out_w = (c.w + c.stride - 1) / c.stride;
    g.pad_top = std::max(0, ((g.out_h - 1) * c.stride + ekh - c.h)) / 2;
    g.pad_left = std::max(0, ((g.out_w - 1) * c.stride + ekw - c.w)) / 2;
  } else {
    g.out_h = (c.h - ekh) / c.stride + 1;
    g.out_w = (c.w - ekw) / c.stride + 1;
  }
  return g;
}

// Filter layout: CONV_2D [out_c, kh, kw, in_c / groups], DEPTHWISE [1, kh, kw, out_c].
int FilterIndex(const ConvCase& c, int oc, int ky, int kx, int ic) {
  return c.depthwise ? (ky * c.kw + kx) * c.out_c + oc
                     : ((oc * c.kh + ky) * c.kw + kx) * (c.in_c / c.groups) + ic;
}

// Generic convolution over values `in` (one batch after another) and
// `filter`, with acc(b, in_value, filter_value) folding products; returns the
// per-output sums before scaling.
template <typename In, typename Acc>
std::vector<Acc> Convolve(const ConvCase& c, const std::vector<In>& in,
                          const std::vector<In>& filter, std::vector<In> pad_value) {
  const Geometry g = ComputeGeometry(c);
  const int fic = c.depthwise ? 1 : c.in_c / c.groups;
  std::vector<Acc> out;
  for (int b = 0; b < c.batches; ++b)
    for (int y = 0; y < g.out_h; ++y)
      for (int x = 0; x < g.out_w; ++x)
        for (int oc = 0; oc < c.out_c; ++oc) {
          Acc acc = 0;
          for (int ky = 0; ky < c.kh; ++ky)
            for (int kx = 0; kx < c.kw; ++kx)
              for (int i = 0; i < fic; ++i) {
                const int iy = y * c.stride - g.pad_top + ky * c.dilation;
                const int ix = x * c.stride - g.pad_left + kx * c.dilation;
                const int ic = c.depthwise ? oc / (c.out_c / c.in_c)
                                           : (oc / (c.out_c / c.groups)) * fic + i;
                const In v = (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w)
                                 ? pad_value[b]
                                 : in[((b * c.h + iy) * c.w + ix) * c.in_c + ic];
                acc += static_cast<Acc>(v) * static_cast<Acc>(filter[FilterIndex(c, oc, ky, kx, i)]);
              }
          out.push_back(acc);
        }
  return out;
}

float Activate(ActivationFunctionType act, float v) {
  if (act == ActivationFunctionType_RELU) return std::max(0.f, v);
  if (act == ActivationFunctionType_RELU6) return std::min(6.f, std::max(0.f, v));
  if (act == ActivationFunctionType_RELU_N1_TO_1) return std::min(1.f, std::max(-1.f, v));
  return v;
}

struct Data {
  std::vector<float> input, bias;
  std::vector<int8_t> filter;
};

Data MakeData(const ConvCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> in(c.lo, c.hi), bias(-1, 1);
  const int filter_max = c.int4 ? 7 : 127;
  std::uniform_int_distribution<int> f(-filter_max - 1, filter_max);
  Data d;
  d.input.resize(static_cast<size_t>(c.batches) * c.h * c.w * c.in_c);
  for (float& v : d.input) v = in(rng);
  const int fcount = c.depthwise ? c.kh * c.kw * c.out_c : c.out_c * c.kh * c.kw * (c.in_c / c.groups);
  for (int i = 0; i < fcount; ++i) d.filter.push_back(static_cast<int8_t>(f(rng)));
  for (int i = 0; i < c.out_c; ++i) d.bias.push_back(bias(rng));
  return d;
}

float ChannelScale(const ConvCase& c, int oc) {
  return c.scales.size() == 1 ? c.scales[0] : c.scales[oc];
}

bool UsesAsymmetric(const ConvCase& c) {
  if (c.depthwise || c.groups != 1) return true;
  for (float s : c.scales)
    if (s != c.scales[0]) return true;
  return false;
}

// Upstream's procedure, written out.
std::vector<float> HybridReference(const ConvCase& c, const Data& d) {
  const size_t per_batch = static_cast<size_t>(c.h) * c.w * c.in_c;
  std::vector<int32_t> q;
  std::vector<float> scales;
  std::vector<int32_t> zps;
  for (int b = 0; b < c.batches; ++b) {
    std::vector<float> x(d.input.begin() + b * per_batch, d.input.begin() + (b + 1) * per_batch);
    const RowQ r = UsesAsymmetric(c) ? QuantizeAsymmetric(x.data(), x.size())
                                     : QuantizeSymmetric(x.data(), x.size());
    for (int32_t v : r.q) q.push_back(v - r.zero_point);
    scales.push_back(r.scale);
    zps.push_back(r.zero_point);
  }
  std::vector<int32_t> filter(d.filter.begin(), d.filter.end());
  const std::vector<int32_t> sums =
      Convolve<int32_t, int32_t>(c, q, filter, std::vector<int32_t>(c.batches, 0));
  const Geometry g = ComputeGeometry(c);
  std::vector<float> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) {
    const int oc = static_cast<int>(i % c.out_c);
    const int b = static_cast<int>(i / (static_cast<size_t>(c.out_c) * g.out_h * g.out_w));
    // The scales in the order of upstream's x86 kernels: depthwise input
    // scale first, grouped conv (reference kernel) channel scale first, else
    // their product.
    const float acc = static_cast<float>(sums[i]);
    float v = c.depthwise     ? acc * scales[b] * ChannelScale(c, oc)
              : c.groups != 1 ? acc * ChannelScale(c, oc) * scales[b]
                              : acc * (ChannelScale(c, oc) * scales[b]);
    if (c.with_bias) v += d.bias[oc];
    out[i] = Activate(c.act, v);
  }
  return out;
}

// Float convolution with the dequantized filter.
std::vector<float> FloatReference(const ConvCase& c, const Data& d) {
  std::vector<double> in(d.input.begin(), d.input.end());
  std::vector<double> filter;
  for (size_t i = 0; i < d.filter.size(); ++i) {
    int oc = 0;
    if (c.depthwise) oc = static_cast<int>(i % c.out_c);
    else oc = static_cast<int>(i / (d.filter.size() / c.out_c));
    filter.push_back(d.filter[i] * static_cast<double>(ChannelScale(c, oc)));
  }
  const std::vector<double> sums =
      Convolve<double, double>(c, in, filter, std::vector<double>(c.batches, 0.0));
  std::vector<float> out;
  for (size_t i = 0; i < sums.size(); ++i) {
    const double v = sums[i] + (c.with_bias ? d.bias[i % c.out_c] : 0.0);
    out.push_back(Activate(c.act, static_cast<float>(v)));
  }
  return out;
}

std::vector<uint8_t> PackInt4(const std::vector<int8_t>& v) {
  std::vector<uint8_t> bytes((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) {
    bytes[i / 2] |= static_cast<uint8_t>((v[i] & 0xF) << (i % 2 ? 4 : 0));
  }
  return bytes;
}

std::vector<int> FilterShape(const ConvCase& c) {
  return c.depthwise ? std::vector<int>{1, c.kh, c.kw, c.out_c}
                     : std::vector<int>{c.out_c, c.kh, c.kw, c.in_c / c.groups};
}

// Builds the one-op model; `filter_type`/`filter_q`/`bias_type` allow broken variants.
void Build(OneOpModel& m, const ConvCase& c, const Data& d, TensorType filter_type,
           const Quantization& filter_q, TensorType bias_type = TensorType_FLOAT32) {
  const Geometry g = ComputeGeometry(c);
  m.Input(TensorType_FLOAT32, {c.batches, c.h, c.w, c.in_c});
  std::vector<uint8_t> bytes;
  if (filter_type == TensorType_INT4) {
    bytes = PackInt4(d.filter);
  } else if (filter_type == TensorType_INT16) {
    for (int8_t v : d.filter) {
      const int16_t w = v;
      bytes.push_back(static_cast<uint8_t>(w & 0xFF));
      bytes.push_back(static_cast<uint8_t>((w >> 8) & 0xFF));
    }
  } else {
    bytes.assign(reinterpret_cast<const uint8_t*>(d.filter.data()),
                 reinterpret_cast<const uint8_t*>(d.filter.data()) + d.filter.size());
  }
  m.ConstBytes(filter_type, FilterShape(c), bytes, filter_q);
  if (c.with_bias) {
    if (bias_type == TensorType_FLOAT32) {
      m.Const<float>({c.out_c}, d.bias);
    } else {
      m.Const<int32_t>({c.out_c}, std::vector<int32_t>(c.out_c, 0));
    }
  }
  m.Output(TensorType_FLOAT32, {c.batches, g.out_h, g.out_w, c.out_c});
  const Padding padding = c.same ? Padding_SAME : Padding_VALID;
  if (c.depthwise) {
    DepthwiseConv2DOptionsT o;
    o.padding = padding;
    o.stride_w = o.stride_h = c.stride;
    o.dilation_w_factor = o.dilation_h_factor = c.dilation;
    o.depth_multiplier = c.out_c / c.in_c;
    o.fused_activation_function = c.act;
    m.Op(BuiltinOperator_DEPTHWISE_CONV_2D, Opts(o), 6);
  } else {
    Conv2DOptionsT o;
    o.padding = padding;
    o.stride_w = o.stride_h = c.stride;
    o.dilation_w_factor = o.dilation_h_factor = c.dilation;
    o.fused_activation_function = c.act;
    m.Op(BuiltinOperator_CONV_2D, Opts(o), c.scales.size() > 1 ? 5 : 2);
  }
}

Quantization FilterQuant(const ConvCase& c) {
  return {c.scales, std::vector<int64_t>(c.scales.size(), 0), c.depthwise ? 3 : 0};
}

// Runs the case and checks it against both references.
void Check(const ConvCase& c, uint32_t seed = 1) {
  const Data d = MakeData(c, seed);
  OneOpModel m;
  Build(m, c, d, c.int4 ? TensorType_INT4 : TensorType_INT8, FilterQuant(c));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, d.input);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<float> got = m.Get<float>();
  const std::vector<float> want = HybridReference(c, d);
  const std::vector<float> approx = FloatReference(c, d);
  ASSERT_EQ(got.size(), want.size());
  float max_abs = 0;
  for (float v : approx) max_abs = std::max(max_abs, std::fabs(v));
  int reported = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    // Same procedure: only float rounding may differ.
    if (!(std::fabs(got[i] - want[i]) <= 1e-5f + 1e-5f * std::fabs(want[i])) && reported++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", hybrid reference " << want[i];
    }
    // Against float: input quantization error only (a few percent of the range).
    if (!(std::fabs(got[i] - approx[i]) <= 0.03f * max_abs + 1e-3f) && reported++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", float reference " << approx[i];
    }
  }
}

TEST(HybridConvTest, PerTensorSymmetric) {
  ConvCase c;
  c.scales = {0.02f};
  Check(c);
}

TEST(HybridConvTest, PerTensorTwoBatchesStrideValidRelu) {
  ConvCase c;
  c.batches = 2, c.h = 7, c.w = 6, c.stride = 2, c.same = false;
  c.act = ActivationFunctionType_RELU;
  c.scales = {0.01f};
  Check(c, 2);
}

TEST(HybridConvTest, EqualPerChannelScalesTakeTheSymmetricRoute) {
  // Positive inputs: symmetric and asymmetric quantization differ clearly.
  ConvCase c;
  c.lo = 0.5f, c.hi = 4.f;
  c.scales = {0.03f, 0.03f, 0.03f, 0.03f};
  Check(c, 3);
}

TEST(HybridConvTest, PerChannelAsymmetric) {
  ConvCase c;
  c.lo = 0.5f, c.hi = 4.f;  // zero point far from 0
  c.batches = 2;
  c.scales = {0.01f, 0.02f, 0.005f, 0.04f};
  Check(c, 4);
  c.lo = -3.f, c.hi = 1.f;
  c.act = ActivationFunctionType_RELU6;
  Check(c, 5);
}

TEST(HybridConvTest, PointwiseAndDilated) {
  ConvCase c;
  c.kh = c.kw = 1, c.in_c = 8, c.out_c = 5;
  c.scales = {0.02f};
  Check(c, 6);
  c.kh = c.kw = 3, c.dilation = 2, c.h = 7, c.w = 7;
  c.scales = {0.02f, 0.01f, 0.02f, 0.03f, 0.01f};
  Check(c, 7);
}

TEST(HybridConvTest, GroupedUsesAsymmetricEvenWithOneScale) {
  ConvCase c;
  c.in_c = 4, c.out_c = 6, c.groups = 2;
  c.lo = 0.f, c.hi = 3.f;
  c.scales = {0.02f};
  Check(c, 8);
  c.scales = {0.02f, 0.01f, 0.02f, 0.03f, 0.01f, 0.05f};
  Check(c, 9);
}

TEST(HybridConvTest, NoBiasAndInt4Filter) {
  ConvCase c;
  c.with_bias = false;
  c.scales = {0.1f};
  Check(c, 10);
  c.with_bias = true;
  c.int4 = true;
  c.out_c = 3, c.kh = 3, c.kw = 1;  // odd element count: last byte half used
  c.scales = {0.2f, 0.1f, 0.3f};
  Check(c, 11);
}

TEST(HybridConvTest, AllZeroInputGivesBias) {
  ConvCase c;
  c.lo = c.hi = 0.f;
  c.scales = {0.02f};
  Check(c, 12);
  c.scales = {0.02f, 0.01f, 0.02f, 0.03f};
  Check(c, 12);
}

TEST(HybridDepthwiseConvTest, PerChannelMultipliers) {
  ConvCase c;
  c.depthwise = true;
  c.in_c = 3, c.out_c = 3;
  c.scales = {0.02f, 0.01f, 0.04f};
  Check(c, 20);
  c.out_c = 6, c.batches = 2, c.stride = 2, c.lo = 0.2f, c.hi = 2.f;
  c.act = ActivationFunctionType_RELU_N1_TO_1;
  c.scales = {0.02f, 0.01f, 0.04f, 0.02f, 0.03f, 0.01f};
  Check(c, 21);
}

TEST(HybridDepthwiseConvTest, OneScaleIsAsymmetricToo) {
  ConvCase c;
  c.depthwise = true;
  c.in_c = 4, c.out_c = 8, c.dilation = 2, c.h = 6, c.w = 6;
  c.lo = 0.5f, c.hi = 3.f;
  c.scales = {0.03f};
  Check(c, 22);
}

// ---- errors -------------------------------------------------------------------

ConvCase SmallCase(bool depthwise) {
  ConvCase c;
  c.depthwise = depthwise;
  if (depthwise) c.in_c = 4;
  c.scales = {0.1f, 0.2f, 0.1f, 0.2f};
  return c;
}

TEST(HybridConvErrorTest, BadFilterTypes) {
  for (bool depthwise : {false, true}) {
    const ConvCase c = SmallCase(depthwise);
    const Data d = MakeData(c, 30);
    for (TensorType t : {TensorType_UINT8, TensorType_INT16}) {
      OneOpModel m;
      Build(m, c, d, t, FilterQuant(c));
      testing::ExpectPrepareError(m, "filter (with FLOAT32 input) type");
      EXPECT_NE(m.log().find("not supported"), std::string::npos) << m.log();
    }
  }
  // INT4 is CONV_2D only, as upstream.
  const ConvCase c = SmallCase(true);
  OneOpModel m;
  Build(m, c, MakeData(c, 31), TensorType_INT4, FilterQuant(c));
  testing::ExpectPrepareError(m, "filter (with FLOAT32 input) type INT4 is not supported");
}

TEST(HybridConvErrorTest, MissingScales) {
  for (bool depthwise : {false, true}) {
    const ConvCase c = SmallCase(depthwise);
    OneOpModel m;
    Build(m, c, MakeData(c, 32), TensorType_INT8, Quantization{});
    testing::ExpectPrepareError(m, "needs quantization scales");
  }
}

TEST(HybridConvErrorTest, ScaleCountMustMatchOutputChannels) {
  for (bool depthwise : {false, true}) {
    ConvCase c = SmallCase(depthwise);
    OneOpModel m;
    Quantization q = FilterQuant(c);
    q.scale = {0.1f, 0.2f, 0.3f};
    q.zero_point = {0, 0, 0};
    Build(m, c, MakeData(c, 33), TensorType_INT8, q);
    // The model loader already refuses this one (reporting on stderr).
    EXPECT_FALSE(m.Allocate());
  }
  // Right count, wrong dimension: the kernel's check.
  ConvCase c = SmallCase(false);
  OneOpModel m;
  Quantization q = FilterQuant(c);
  q.quantized_dimension = 3;
  c.in_c = 4;
  Build(m, c, MakeData(c, 34), TensorType_INT8, q);
  testing::ExpectPrepareError(m, "expected 1 or 4 (one per output channel, dimension 0)");
}

TEST(HybridConvErrorTest, NonzeroZeroPointAndBadScale) {
  const ConvCase c = SmallCase(false);
  {
    OneOpModel m;
    Quantization q = FilterQuant(c);
    q.zero_point = {0, 1, 0, 0};
    Build(m, c, MakeData(c, 35), TensorType_INT8, q);
    testing::ExpectPrepareError(m, "nonzero zero point are not supported");
  }
  {
    OneOpModel m;
    Quantization q = FilterQuant(c);
    q.scale[2] = 0.f;
    Build(m, c, MakeData(c, 36), TensorType_INT8, q);
    testing::ExpectPrepareError(m, "must be positive");
  }
}

TEST(HybridConvErrorTest, TooDeepFilterIsNotSupported) {
  // 1 x 200 x 200 taps: int32 sums could overflow, refused rather than wrong.
  ConvCase c;
  c.depthwise = true;
  c.in_c = c.out_c = 1, c.h = c.w = 200, c.kh = c.kw = 200, c.same = false;
  c.scales = {0.1f};
  OneOpModel m;
  Build(m, c, MakeData(c, 38), TensorType_INT8, FilterQuant(c));
  testing::ExpectPrepareError(m, "hybrid filters deeper than 32768 values (here 40000) are not supported");
}

TEST(HybridConvErrorTest, BiasMustBeFloat) {
  for (bool depthwise : {false, true}) {
    const ConvCase c = SmallCase(depthwise);
    OneOpModel m;
    Build(m, c, MakeData(c, 37), TensorType_INT8, FilterQuant(c), TensorType_INT32);
    testing::ExpectPrepareError(m, "bias (with FLOAT32 input) type INT32 is not supported");
  }
}

}  // namespace
}  // namespace tflite_c

// Hostile attribute values (huge dilations, strides, window sizes) on the
// sliding-window kernels: each model either fails AllocateTensors with the
// shared "overflows" / "must be positive" message of window_math.h, or runs
// and gives what a straightforward int64 reference convolution gives. No
// crash, no out-of-bounds read (the executable runs in the ASan pass).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using testing::Q;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

// ---- CONV_2D ----------------------------------------------------------------------

enum class ConvKind { kFloat, kInt8, kInt16x8, kHybrid };

const char* KindName(ConvKind k) {
  switch (k) {
    case ConvKind::kFloat: return "float";
    case ConvKind::kInt8: return "int8";
    case ConvKind::kInt16x8: return "16x8";
    case ConvKind::kHybrid: return "hybrid";
  }
  return "?";
}

constexpr int kIn = 5;      // input is 1 x kIn x kIn x 1
constexpr int kFilter = 3;  // filter is 1 x kFilter x kFilter x 1

// Input values: small integers, one of them 127 so that the hybrid path's
// dynamic input scale is exactly 1 (every value then is exact).
std::vector<int> InputValues() {
  std::vector<int> v(kIn * kIn);
  for (int i = 0; i < kIn * kIn; ++i) v[i] = (i * 7) % 11 - 5;
  v[12] = 127;
  return v;
}
std::vector<int> FilterValues() { return {1, -2, 3, -1, 2, -3, 1, 1, -1}; }

struct ConvCase {
  ConvKind kind;
  Padding padding;
  int stride_h, stride_w, dilation_h, dilation_w;
};

std::string Describe(const ConvCase& c) {
  return std::string(KindName(c.kind)) + (c.padding == Padding_SAME ? " SAME" : " VALID") +
         " stride " + std::to_string(c.stride_h) + "x" + std::to_string(c.stride_w) +
         " dilation " + std::to_string(c.dilation_h) + "x" + std::to_string(c.dilation_w);
}

// One output axis of the reference: size and padding before, in int64.
struct RefAxis {
  int64_t out, pad;
};
RefAxis ReferenceAxis(Padding padding, int64_t in, int64_t filter, int64_t stride,
                      int64_t dilation) {
  const int64_t span = (filter - 1) * dilation + 1;
  if (padding == Padding_VALID) {
    return {in >= span ? (in - span) / stride + 1 : 0, 0};
  }
  const int64_t out = (in + stride - 1) / stride;
  const int64_t total = std::max<int64_t>(0, (out - 1) * stride + span - in);
  return {out, total / 2};
}

// Sum of input * filter over the taps inside the input, for every output
// pixel (scales are 1 and zero points 0, so this is every kind's answer,
// before clamping to the output type).
std::vector<int64_t> ReferenceConv(const ConvCase& c, std::vector<int>* out_shape) {
  const RefAxis ry = ReferenceAxis(c.padding, kIn, kFilter, c.stride_h, c.dilation_h);
  const RefAxis rx = ReferenceAxis(c.padding, kIn, kFilter, c.stride_w, c.dilation_w);
  const std::vector<int> in = InputValues(), f = FilterValues();
  std::vector<int64_t> out;
  for (int64_t y = 0; y < ry.out; ++y) {
    for (int64_t x = 0; x < rx.out; ++x) {
      int64_t acc = 0;
      for (int64_t ky = 0; ky < kFilter; ++ky) {
        for (int64_t kx = 0; kx < kFilter; ++kx) {
          const int64_t iy = y * c.stride_h - ry.pad + ky * c.dilation_h;
          const int64_t ix = x * c.stride_w - rx.pad + kx * c.dilation_w;
          if (iy < 0 || iy >= kIn || ix < 0 || ix >= kIn) continue;
          acc += int64_t{in[iy * kIn + ix]} * f[ky * kFilter + kx];
        }
      }
      out.push_back(acc);
    }
  }
  *out_shape = {1, static_cast<int>(ry.out), static_cast<int>(rx.out), 1};
  return out;
}

template <typename T>
std::vector<T> Cast(const std::vector<int>& v) {
  return std::vector<T>(v.begin(), v.end());
}

// Builds the model; the output shape in the model is the reference's.
void BuildConv(OneOpModel& m, const ConvCase& c, std::vector<int> out_shape) {
  const std::vector<int> in_shape{1, kIn, kIn, 1}, f_shape{1, kFilter, kFilter, 1};
  switch (c.kind) {
    case ConvKind::kFloat:
      m.Input(TensorType_FLOAT32, in_shape);
      m.Const<float>(f_shape, Cast<float>(FilterValues()));
      m.Const<float>({1}, {0.0f});
      m.Output(TensorType_FLOAT32, out_shape);
      break;
    case ConvKind::kInt8:
      m.Input(TensorType_INT8, in_shape, Q(1.0f, 0));
      m.Const<int8_t>(f_shape, Cast<int8_t>(FilterValues()), TensorType_INT8, Q(1.0f, 0));
      m.Const<int32_t>({1}, {0}, TensorType_INT32, Q(1.0f, 0));
      m.Output(TensorType_INT8, out_shape, Q(1.0f, 0));
      break;
    case ConvKind::kInt16x8:
      m.Input(TensorType_INT16, in_shape, Q(1.0f, 0));
      m.Const<int8_t>(f_shape, Cast<int8_t>(FilterValues()), TensorType_INT8, Q(1.0f, 0));
      m.Const<int64_t>({1}, {0}, TensorType_INT64, Q(1.0f, 0));
      m.Output(TensorType_INT16, out_shape, Q(1.0f, 0));
      break;
    case ConvKind::kHybrid:
      m.Input(TensorType_FLOAT32, in_shape);
      m.Const<int8_t>(f_shape, Cast<int8_t>(FilterValues()), TensorType_INT8, Q(1.0f, 0));
      m.Const<float>({1}, {0.0f});
      m.Output(TensorType_FLOAT32, out_shape);
      break;
  }
  Conv2DOptionsT o;
  o.padding = c.padding;
  o.stride_h = c.stride_h;
  o.stride_w = c.stride_w;
  o.dilation_h_factor = c.dilation_h;
  o.dilation_w_factor = c.dilation_w;
  m.Op(BuiltinOperator_CONV_2D, Opts(o), c.kind == ConvKind::kInt16x8 ? 4 : 1);
}

// The message Prepare must fail with, or "" when the case must run:
// spans and padded extents beyond int overflow (upstream computes them in
// int), and a VALID window wider than the input by more than a stride gives
// a negative output size.
std::string ExpectedRefusal(const ConvCase& c) {
  const struct {
    int64_t stride, dilation;
  } axes[] = {{c.stride_h, c.dilation_h}, {c.stride_w, c.dilation_w}};
  for (const auto& a : axes) {
    const int64_t span = int64_t{kFilter - 1} * a.dilation + 1;
    if (span > INT_MAX) return "* (filter 3 - 1) + 1 overflows";
    if (c.padding == Padding_VALID && kIn - span + a.stride < 0) return "would be negative";
    const RefAxis r = ReferenceAxis(c.padding, kIn, kFilter, a.stride, a.dilation);
    if (r.out > 0 && (r.out - 1) * a.stride + span > INT_MAX) return "overflows";
  }
  return "";
}

// Runs one case: either Prepare refuses with the expected message, or the
// output matches the reference.
void RunConvCase(const ConvCase& c, bool xnnpack = false) {
  SCOPED_TRACE(Describe(c) + (xnnpack ? " XNNPACK" : ""));
  std::vector<int> out_shape{1, 1, 1, 1};
  const std::string refusal = ExpectedRefusal(c);
  std::vector<int64_t> expected;
  if (refusal.empty()) expected = ReferenceConv(c, &out_shape);
  OneOpModel m;
  if (xnnpack) {
    m.configure_options = [](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetUseXNNPACK(o, true);
    };
  }
  BuildConv(m, c, out_shape);
  if (!refusal.empty()) {
    testing::ExpectPrepareError(m, refusal);
    return;
  }
  ASSERT_TRUE(m.Allocate()) << m.log();
  const std::vector<int> in = InputValues();
  switch (c.kind) {
    case ConvKind::kFloat:
    case ConvKind::kHybrid:
      m.Set<float>(0, Cast<float>(in));
      break;
    case ConvKind::kInt8: {
      std::vector<int8_t> v = Cast<int8_t>(in);
      m.Set<int8_t>(0, v);
      break;
    }
    case ConvKind::kInt16x8:
      m.Set<int16_t>(0, Cast<int16_t>(in));
      break;
  }
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), out_shape);
  std::vector<int64_t> got;
  switch (c.kind) {
    case ConvKind::kFloat:
    case ConvKind::kHybrid:
      for (float v : m.Get<float>()) got.push_back(static_cast<int64_t>(v));
      break;
    case ConvKind::kInt8:
      for (int8_t v : m.Get<int8_t>()) got.push_back(v);
      for (int64_t& e : expected) e = std::min<int64_t>(127, std::max<int64_t>(-128, e));
      break;
    case ConvKind::kInt16x8:
      for (int16_t v : m.Get<int16_t>()) got.push_back(v);
      break;
  }
  EXPECT_EQ(got, expected);
}

TEST(HostileConvAttributesTest, HugeDilationAndStrideEveryKind) {
  const int dilations[] = {1, 2, 100000, 1 << 30, INT_MAX};
  const int strides[] = {1, 3, 1 << 30, INT_MAX};
  for (ConvKind kind : {ConvKind::kFloat, ConvKind::kInt8, ConvKind::kInt16x8, ConvKind::kHybrid}) {
    for (Padding padding : {Padding_SAME, Padding_VALID}) {
      for (int d : dilations) {
        for (int s : strides) {
          RunConvCase({kind, padding, s, s, d, 1});
          RunConvCase({kind, padding, 1, s, 1, d});
          if (kind == ConvKind::kFloat || kind == ConvKind::kInt8) {
            // The delegate takes what the builtin kernel accepts and leaves
            // it the rest.
            RunConvCase({kind, padding, s, s, d, 1}, /*xnnpack=*/true);
            RunConvCase({kind, padding, 1, s, 1, d}, /*xnnpack=*/true);
          }
        }
      }
    }
  }
}

TEST(HostileConvAttributesTest, NonPositiveStrideOrDilationRefused) {
  for (ConvKind kind : {ConvKind::kFloat, ConvKind::kInt16x8}) {
    for (int bad : {0, -1, INT_MIN}) {
      for (int which = 0; which < 4; ++which) {
        ConvCase c{kind, Padding_SAME, 1, 1, 1, 1};
        (which == 0 ? c.stride_h : which == 1 ? c.stride_w : which == 2 ? c.dilation_h
                                                                        : c.dilation_w) = bad;
        SCOPED_TRACE(Describe(c));
        OneOpModel m;
        BuildConv(m, c, {1, kIn, kIn, 1});
        const std::string attribute = which < 2 ? "stride_" : "dilation_";
        testing::ExpectPrepareError(m, "CONV_2D: " + attribute);
        EXPECT_NE(m.log().find("must be positive, got " + std::to_string(bad)), std::string::npos);
      }
    }
  }
}


// The other window kernels share the checks (padding.h), with the
// attribute named as in the schema.
TEST(HostileWindowAttributesTest, DepthwisePoolingTransposeConv) {
  {
    OneOpModel m;
    m.Input(TensorType_INT16, {1, 5, 5, 1}, Q(1.0f, 0));
    m.Const<int8_t>({1, 3, 3, 1}, std::vector<int8_t>(9, 1), TensorType_INT8, Q(1.0f, 0));
    m.Const<int64_t>({1}, {0}, TensorType_INT64, Q(1.0f, 0));
    m.Output(TensorType_INT16, {1, 5, 5, 1}, Q(1.0f, 0));
    DepthwiseConv2DOptionsT o;
    o.padding = Padding_SAME;
    o.stride_h = o.stride_w = 1;
    o.depth_multiplier = 1;
    o.dilation_h_factor = 1;
    o.dilation_w_factor = 1 << 30;
    m.Op(BuiltinOperator_DEPTHWISE_CONV_2D, Opts(o), 5);
    testing::ExpectPrepareError(
        m, "DEPTHWISE_CONV_2D: dilation_w_factor 1073741824 * (filter 3 - 1) + 1 overflows");
  }
  for (auto op : {BuiltinOperator_AVERAGE_POOL_2D, BuiltinOperator_MAX_POOL_2D,
                  BuiltinOperator_L2_POOL_2D}) {
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {1, 4, 4, 1});
    m.Output(TensorType_FLOAT32, {1, 1, 1, 1});
    Pool2DOptionsT o;
    o.padding = Padding_VALID;
    o.stride_h = o.stride_w = 1;
    o.filter_height = 2;
    o.filter_width = INT_MAX;
    m.Op(op, Opts(o));
    testing::ExpectPrepareError(m, "output width would be negative");
  }
  {
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {1, 4, 4, 1});
    m.Output(TensorType_FLOAT32, {1, 2, 2, 1});
    Pool2DOptionsT o;
    o.padding = Padding_SAME;
    o.stride_h = INT_MAX;
    o.stride_w = 1;
    o.filter_height = o.filter_width = 2;
    m.Op(BuiltinOperator_MAX_POOL_2D, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();  // one output row: rows 0 and 1
    m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{6, 7, 8, 8}));
  }
  {
    OneOpModel m;
    m.Const<int32_t>({4}, {1, 4, 4, 1});
    m.Const<float>({1, 3, 3, 1}, std::vector<float>(9, 1.0f));
    m.Input(TensorType_FLOAT32, {1, 2, 2, 1});
    m.Output(TensorType_FLOAT32, {1, 4, 4, 1});
    TransposeConvOptionsT o;
    o.padding = Padding_SAME;
    o.stride_h = 0;
    o.stride_w = 2;
    m.Op(BuiltinOperator_TRANSPOSE_CONV, Opts(o));
    testing::ExpectPrepareError(m, "TRANSPOSE_CONV: stride_h must be positive, got 0");
  }
}


// ---- sums past the int32 range ---------------------------------------------------
// A layer deep enough that its 8-bit products leave int32: the input value
// 127 with zero point -128 (255 after the offset) against weights of -127,
// 66,564 (depthwise and conv windows of 258 x 258) or 70,000 (fully
// connected, transposed convolution) times, sums to about -2.2e9. Upstream's int32 sums wrap around
// (two's complement) to about +2.0e9; ours do the same without signed
// overflow (this executable runs under UBSan in CI). With a multiplier of
// 2^-10 either sum saturates the int8 output: +127 for the wrapped sum,
// -128 for a sum that does not wrap.
constexpr int kDeepWindow = 258;  // 66,564 taps: past the 256 gathered taps

// The builtin kernels (XNNPACK's own int8 kernels are not what is tested).
void BuiltinOnly(OneOpModel* m) {
  m->configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetUseXNNPACK(o, false);
  };
}

TEST(HostileDeepSumsTest, EightBitSumsWrapAroundAsUpstreams) {
  const int64_t taps = int64_t{kDeepWindow} * kDeepWindow;
  const int64_t window_sum = taps * 255 * -127;
  ASSERT_LT(window_sum, int64_t{INT32_MIN});
  ASSERT_GT(window_sum + (int64_t{1} << 32), 0);  // wrapped: positive
  const std::vector<int8_t> image(taps, 127);
  const std::vector<int8_t> filter(taps, -127);
  for (auto op : {BuiltinOperator_DEPTHWISE_CONV_2D, BuiltinOperator_CONV_2D}) {
    SCOPED_TRACE(EnumNameBuiltinOperator(op));
    OneOpModel m;
    BuiltinOnly(&m);
    m.Input(TensorType_INT8, {1, kDeepWindow, kDeepWindow, 1}, Q(1.0f, -128));
    m.Const<int8_t>({1, kDeepWindow, kDeepWindow, 1}, filter, TensorType_INT8,
                    Q(1.0f / 1024, 0));
    m.Const<int32_t>({1}, {0}, TensorType_INT32, Q(1.0f / 1024, 0));
    m.Output(TensorType_INT8, {1, 1, 1, 1}, Q(1.0f, 0));
    if (op == BuiltinOperator_CONV_2D) {
      Conv2DOptionsT o;
      o.padding = Padding_VALID;
      o.stride_h = o.stride_w = 1;
      m.Op(op, Opts(o));
    } else {
      DepthwiseConv2DOptionsT o;
      o.padding = Padding_VALID;
      o.stride_h = o.stride_w = 1;
      o.depth_multiplier = 1;
      m.Op(op, Opts(o));
    }
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, image);
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{127}));
  }
  {
    SCOPED_TRACE("FULLY_CONNECTED");
    constexpr int kDepth = 70000;
    ASSERT_LT(int64_t{kDepth} * 255 * -127, int64_t{INT32_MIN});
    OneOpModel m;
    BuiltinOnly(&m);
    m.Input(TensorType_INT8, {1, kDepth}, Q(1.0f, -128));
    m.Const<int8_t>({1, kDepth}, std::vector<int8_t>(kDepth, -127), TensorType_INT8,
                    Q(1.0f / 1024, 0));
    m.Output(TensorType_INT8, {1, 1}, Q(1.0f, 0));
    m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, std::vector<int8_t>(kDepth, 127));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{127}));
  }
  {
    SCOPED_TRACE("TRANSPOSE_CONV");
    constexpr int kChannels = 70000;  // one 1x1 tap of 70,000 input channels
    OneOpModel m;
    BuiltinOnly(&m);
    m.Const<int32_t>({4}, {1, 1, 1, 1});
    m.Const<int8_t>({1, 1, 1, kChannels}, std::vector<int8_t>(kChannels, -127), TensorType_INT8,
                    Q(1.0f / 1024, 0));
    m.Input(TensorType_INT8, {1, 1, 1, kChannels}, Q(1.0f, -128));
    m.Output(TensorType_INT8, {1, 1, 1, 1}, Q(1.0f, 0));
    TransposeConvOptionsT o;
    o.padding = Padding_VALID;
    o.stride_h = o.stride_w = 1;
    m.Op(BuiltinOperator_TRANSPOSE_CONV, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, std::vector<int8_t>(kChannels, 127));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{127}));
  }
  {
    // Hybrid: inputs of 1.0 quantize to 127 (scale 1/127); against weights
    // of -127 over 140,000 values the int32 sum wraps to 2,036,907,296.
    SCOPED_TRACE("FULLY_CONNECTED, hybrid");
    constexpr int kDepth = 140000;
    const int64_t wrapped = int64_t{kDepth} * 127 * -127 + (int64_t{1} << 32);
    ASSERT_EQ(wrapped, 2036907296);
    OneOpModel m;
    BuiltinOnly(&m);
    m.Input(TensorType_FLOAT32, {1, kDepth});
    m.Const<int8_t>({1, kDepth}, std::vector<int8_t>(kDepth, -127), TensorType_INT8,
                    Q(1.0f, 0));
    m.Output(TensorType_FLOAT32, {1, 1});
    m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, std::vector<float>(kDepth, 1.0f));
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<float> out = m.Get<float>();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_NEAR(out[0], static_cast<double>(wrapped) / 127, 1e-6 * wrapped / 127);
  }
}

// AVERAGE_POOL_2D over windows whose sums leave int32: 257 x 257 int16 values
// of +-32767 / -32768 (about +-2.16e9) and 2902 x 2902 uint8 values of 255
// (2,147,509,020). Summed in int64, the averages are the values themselves.
// One VALID window of side x side equal values: the average is the value.
template <typename T>
void ExpectAverageOfEqualValues(TensorType type, int side, T value) {
  OneOpModel m;
  BuiltinOnly(&m);
  m.Input(type, {1, side, side, 1}, Q(1.0f, 0));
  m.Output(type, {1, 1, 1, 1}, Q(1.0f, 0));
  Pool2DOptionsT o;
  o.padding = Padding_VALID;
  o.stride_h = o.stride_w = 1;
  o.filter_height = o.filter_width = side;
  m.Op(BuiltinOperator_AVERAGE_POOL_2D, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, std::vector<T>(int64_t{side} * side, value));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<T>(), (std::vector<T>{value}));
}

TEST(HostileDeepSumsTest, AveragePoolWindowsPastInt32) {
  ASSERT_GT(int64_t{257} * 257 * 32767, int64_t{INT32_MAX});
  ASSERT_GT(int64_t{2902} * 2902 * 255, int64_t{INT32_MAX});
  for (int16_t value : {int16_t{32767}, int16_t{-32768}}) {
    SCOPED_TRACE(value);
    ExpectAverageOfEqualValues<int16_t>(TensorType_INT16, 257, value);
  }
  ExpectAverageOfEqualValues<uint8_t>(TensorType_UINT8, 2902, 255);
}

// MEAN over more int16 values than an int32 sum holds: the sum wraps
// around as upstream's does (no signed overflow under UBSan), and Invoke
// succeeds. The value itself is as meaningless as upstream's.
TEST(HostileDeepSumsTest, QuantizedMeanPastInt32Runs) {
  constexpr int kSide = 257;
  OneOpModel m;
  BuiltinOnly(&m);
  m.Input(TensorType_INT16, {1, kSide, kSide, 1}, Q(1.0f, 0));
  m.Const<int32_t>({2}, {1, 2});
  m.Output(TensorType_INT16, {1, 1, 1, 1}, Q(1.0f, 0));
  ReducerOptionsT o;
  o.keep_dims = true;
  m.Op(BuiltinOperator_MEAN, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int16_t>(0, std::vector<int16_t>(kSide * kSide, 32767));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int16_t>().size(), 1u);
}

// L2_NORMALIZATION of a 40,000-value int8 row of -128 with zero point 127:
// the sum of squares (40,000 x 255^2, about 2.6e9) wraps around as
// upstream's int32 sum does; Invoke succeeds without a signed overflow.
TEST(HostileDeepSumsTest, QuantizedL2NormPastInt32Runs) {
  constexpr int kDepth = 40000;
  ASSERT_GT(int64_t{kDepth} * 255 * 255, int64_t{INT32_MAX});
  OneOpModel m;
  BuiltinOnly(&m);
  m.Input(TensorType_INT8, {1, kDepth}, Q(0.1f, 127));
  m.Output(TensorType_INT8, {1, kDepth}, Q(1.0f / 128, 0));
  m.Op(BuiltinOperator_L2_NORMALIZATION, Opts(L2NormOptionsT()));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, std::vector<int8_t>(kDepth, -128));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>().size(), size_t{kDepth});
}

// Dimension products and sums of the layout ops go through checked_math.h.
struct LayoutCase {
  BuiltinOperator op;
  BuiltinOptionsUnion options;
  std::vector<int> in_shape;
  std::vector<std::vector<int32_t>> params;  // constant INT32 inputs: 1-D, then 2-D [n, 2]
  const char* message;
};

TEST(HostileDimensionArithmeticTest, LayoutOpsRefuseOverflow) {
  DepthToSpaceOptionsT d2s;
  d2s.block_size = 65536;
  SpaceToDepthOptionsT s2d;
  s2d.block_size = 0;
  const LayoutCase cases[] = {
      {BuiltinOperator_DEPTH_TO_SPACE, Opts(d2s), {1, 1, 1, 4}, {},
       "DEPTH_TO_SPACE: block_size 65536 * 65536 overflows"},
      {BuiltinOperator_SPACE_TO_DEPTH, Opts(s2d), {1, 2, 2, 1}, {},
       "SPACE_TO_DEPTH: block_size must be positive, got 0"},
      {BuiltinOperator_SPACE_TO_BATCH_ND, Opts(SpaceToBatchNDOptionsT()), {1, 2, 2, 1},
       {{1, 1}, {INT_MAX, 1, 0, 0}},
       "SPACE_TO_BATCH_ND: padded dimension 2 + 2147483647 + 1 overflows"},
      {BuiltinOperator_SPACE_TO_BATCH_ND, Opts(SpaceToBatchNDOptionsT()), {1, 1, 1, 1},
       {{65536, 65536}, {0, 65535, 0, 65535}},
       "SPACE_TO_BATCH_ND: output batch 65536 * 65536 overflows"},
      {BuiltinOperator_BATCH_TO_SPACE_ND, Opts(BatchToSpaceNDOptionsT()), {4, 3, 1, 1},
       {{1 << 30, 1}, {0, 0, 0, 0}},
       "BATCH_TO_SPACE_ND: uncropped dimension 3 * 1073741824 overflows"},
      {BuiltinOperator_TILE, Opts(TileOptionsT()), {2}, {{1 << 30}},
       "TILE: output dimension 2 * 1073741824 overflows"},
  };
  for (const LayoutCase& c : cases) {
    SCOPED_TRACE(c.message);
    OneOpModel m;
    m.Input(TensorType_FLOAT32, c.in_shape);
    for (size_t i = 0; i < c.params.size(); ++i) {
      const int n = static_cast<int>(c.params[i].size());
      m.Const<int32_t>(i == 0 ? std::vector<int>{n} : std::vector<int>{n / 2, 2}, c.params[i]);
    }
    m.Output(TensorType_FLOAT32, c.in_shape);
    m.Op(c.op, c.options);
    testing::ExpectPrepareError(m, c.message);
  }
}


// RESIZE_BILINEAR's integer path places taps in 1/1024 of an input pixel in
// int32, so inputs taller than about 2^21 rows are refused there; an empty
// input has no pixel to read.
TEST(HostileDimensionArithmeticTest, ResizeBilinear) {
  {
    OneOpModel m;
    m.Input(TensorType_INT8, {1, 1 << 21, 1, 1}, Q(1.0f, 0));
    m.Const<int32_t>({2}, {2, 2});
    m.Output(TensorType_INT8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Op(BuiltinOperator_RESIZE_BILINEAR, Opts(ResizeBilinearOptionsT()));
    testing::ExpectPrepareError(
        m, "RESIZE_BILINEAR: input height + 1 in 1/1024 steps: 2097153 * 1024 overflows");
  }
  for (auto op : {BuiltinOperator_RESIZE_BILINEAR, BuiltinOperator_RESIZE_NEAREST_NEIGHBOR}) {
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {1, 0, 2, 1});
    m.Const<int32_t>({2}, {2, 2});
    m.Output(TensorType_FLOAT32, {1, 2, 2, 1});
    m.Op(op);
    testing::ExpectPrepareError(m, "input height must be positive, got 0");
  }
}

}  // namespace
}  // namespace tflite_c

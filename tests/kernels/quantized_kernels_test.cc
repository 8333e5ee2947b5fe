// Quantized paths of the core kernels (ADD, SUB, MUL, FULLY_CONNECTED,
// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, SOFTMAX, LOGISTIC, TANH), each a
// one-op model run through the public C API. Expected integers are worked
// out by hand from upstream's integer arithmetic, including its rounding of
// ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using testing::Q;
using testing::Quantization;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

Quantization PerChannel(std::vector<float> scales, int dim) {
  return {scales, std::vector<int64_t>(scales.size(), 0), dim};
}

// ---- ADD / SUB / MUL --------------------------------------------------------------

// One quantized input of a binary op: shape, quantization and values.
template <typename T>
struct Operand {
  std::vector<int> shape;
  Quantization q;
  std::vector<T> values;
};

// Runs `op` on a and b, giving an output of `out_shape` quantized as `out_q`.
template <typename T>
std::vector<T> RunBinary(BuiltinOperator op, BuiltinOptionsUnion options, const Operand<T>& a,
                         const Operand<T>& b, std::vector<int> out_shape, Quantization out_q) {
  OneOpModel m;
  m.Input(testing::TensorTypeOf<T>(), a.shape, a.q);
  m.Input(testing::TensorTypeOf<T>(), b.shape, b.q);
  m.Output(testing::TensorTypeOf<T>(), std::move(out_shape), std::move(out_q));
  m.Op(op, std::move(options));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, a.values);
  m.Set<T>(1, b.values);
  EXPECT_TRUE(m.Invoke()) << m.log();
  return m.Get<T>();
}

TEST(QuantizedBinaryTest, AddInt8SameScale) {
  EXPECT_EQ(RunBinary<int8_t>(BuiltinOperator_ADD, Opts(AddOptionsT()),
                              {{4}, Q(0.5f, 0), {1, 2, -3, 100}}, {{4}, Q(0.5f, 0), {3, 4, 5, 100}},
                              {4}, Q(0.5f, 0)),
            (std::vector<int8_t>{4, 6, 2, 127}));  // saturates
}

TEST(QuantizedBinaryTest, AddInt8ZeroPointsAndBroadcast) {
  // 1.0, 0.0 plus 2.0, -1.0 is 3, 0, 2, -1 at scale 1 around -5.
  EXPECT_EQ(RunBinary<int8_t>(BuiltinOperator_ADD, Opts(AddOptionsT()),
                              {{2, 1}, Q(0.5f, 10), {12, 10}}, {{2}, Q(0.5f, 10), {14, 8}}, {2, 2},
                              Q(1.0f, -5)),
            (std::vector<int8_t>{-2, -5, -3, -6}));
}

TEST(QuantizedBinaryTest, SubUInt8) {
  EXPECT_EQ(RunBinary<uint8_t>(BuiltinOperator_SUB, Opts(SubOptionsT()),
                               {{2}, Q(1.0f, 128), {130, 100}}, {{2}, Q(1.0f, 128), {129, 200}},
                               {2}, Q(1.0f, 128)),
            (std::vector<uint8_t>{129, 28}));
}

// ---- 8-bit ADD / SUB on every pair of input values ------------------------------
//
// The expected values follow upstream's reference integer ADD, written out
// here on its own: inputs shifted left by 20 and scaled by
// scale / (2 * max scale), summed, scaled by 2 * max scale / (2^20 * output
// scale), each scaling a doubling high multiply (round half away from zero)
// then a right shift rounding half away from zero.

int32_t RefDoublingHighMul(int32_t a, int32_t b) {
  const int64_t ab = static_cast<int64_t>(a) * b;
  const int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

int32_t RefDivideByPot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// A multiplier below 1 as a 31-bit fraction and a right shift.
void RefMultiplier(double real, int32_t* fraction, int* right_shift) {
  int exponent = 0;
  const double f = std::frexp(real, &exponent);
  int64_t q = static_cast<int64_t>(std::round(f * (int64_t{1} << 31)));
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  *fraction = static_cast<int32_t>(q);
  *right_shift = -exponent;
}

struct AddCase {
  float scale_a, scale_b, scale_out;
  int zp_a, zp_b, zp_out;
  ActivationFunctionType activation;
  bool sub;
};

template <typename T>
T RefQuantAdd(const AddCase& c, int32_t x, int32_t y) {
  const double twice_max = 2.0 * std::max<double>(c.scale_a, c.scale_b);
  int32_t ma, mb, mo;
  int ra, rb, ro;
  RefMultiplier(c.scale_a / twice_max, &ma, &ra);
  RefMultiplier(c.scale_b / twice_max, &mb, &rb);
  RefMultiplier(twice_max / ((1 << 20) * static_cast<double>(c.scale_out)), &mo, &ro);
  const int32_t sa = RefDivideByPot(RefDoublingHighMul((x - c.zp_a) * (1 << 20), ma), ra);
  const int32_t sb = RefDivideByPot(RefDoublingHighMul((y - c.zp_b) * (1 << 20), mb), rb);
  const int32_t sum = c.sub ? sa - sb : sa + sb;
  int32_t v = RefDivideByPot(RefDoublingHighMul(sum, mo), ro) + c.zp_out;
  int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  if (c.activation == ActivationFunctionType_RELU) lo = std::max(lo, c.zp_out);
  if (c.activation == ActivationFunctionType_RELU6) {
    lo = std::max(lo, c.zp_out);
    hi = std::min<int32_t>(hi, c.zp_out + static_cast<int32_t>(std::round(6.0f / c.scale_out)));
  }
  return static_cast<T>(std::min(hi, std::max(lo, v)));
}

BuiltinOptionsUnion AddSubOptions(const AddCase& c) {
  if (c.sub) {
    SubOptionsT o;
    o.fused_activation_function = c.activation;
    return Opts(o);
  }
  AddOptionsT o;
  o.fused_activation_function = c.activation;
  return Opts(o);
}

// Every (a, b) pair of 8-bit values, laid out three ways: two flat inputs of
// the same shape (with a tail of 5 past a multiple of 32), a column against a
// row (each output row adds one a to every b), and a row against a column
// (one b to every a).
template <typename T>
void CheckEveryPair(const AddCase& c) {
  SCOPED_TRACE(::testing::Message() << "scales " << c.scale_a << ", " << c.scale_b << " -> "
                                  << c.scale_out << ", zero points " << c.zp_a << ", " << c.zp_b
                                  << " -> " << c.zp_out << (c.sub ? ", SUB" : ", ADD"));
  const BuiltinOperator op = c.sub ? BuiltinOperator_SUB : BuiltinOperator_ADD;
  const int lo = std::numeric_limits<T>::min();
  std::vector<T> values(256);
  for (int i = 0; i < 256; ++i) values[i] = static_cast<T>(lo + i);

  const int n = 256 * 256 + 5;
  std::vector<T> flat_a(n), flat_b(n), expected(n);
  for (int i = 0; i < n; ++i) {
    flat_a[i] = values[(i / 256) % 256];
    flat_b[i] = values[(i * 7 + 3) % 256];
    expected[i] = RefQuantAdd<T>(c, flat_a[i], flat_b[i]);
  }
  EXPECT_EQ(RunBinary<T>(op, AddSubOptions(c), {{n}, Q(c.scale_a, c.zp_a), flat_a},
                         {{n}, Q(c.scale_b, c.zp_b), flat_b}, {n}, Q(c.scale_out, c.zp_out)),
            expected);

  // a a column and b a row (output row i adds a[i] to every b), then the
  // other way round.
  std::vector<T> grid(256 * 256);
  for (bool a_is_column : {true, false}) {
    for (int i = 0; i < 256; ++i) {
      for (int j = 0; j < 256; ++j) {
        grid[i * 256 + j] = a_is_column ? RefQuantAdd<T>(c, values[i], values[j])
                                        : RefQuantAdd<T>(c, values[j], values[i]);
      }
    }
    const std::vector<int> column = {256, 1}, row = {1, 256};
    EXPECT_EQ(RunBinary<T>(op, AddSubOptions(c),
                           {a_is_column ? column : row, Q(c.scale_a, c.zp_a), values},
                           {a_is_column ? row : column, Q(c.scale_b, c.zp_b), values},
                           {256, 256}, Q(c.scale_out, c.zp_out)),
              grid)
        << (a_is_column ? "a column, b row" : "a row, b column");
  }
}

TEST(QuantizedBinaryTest, AddSubInt8MatchUpstreamArithmeticOnEveryPair) {
  for (const AddCase& c : {
           AddCase{0.5f, 0.25f, 0.6f, 3, -7, 1, ActivationFunctionType_NONE, false},
           AddCase{0.0235f, 0.0517f, 0.0391f, -128, 20, -5, ActivationFunctionType_RELU6, false},
           AddCase{0.1f, 0.1f, 0.1f, 0, 0, 0, ActivationFunctionType_NONE, true},
           AddCase{0.013f, 0.4f, 0.25f, 127, -100, 9, ActivationFunctionType_RELU, true},
           AddCase{1.0f, 0.001f, 2.0f, 0, 0, 0, ActivationFunctionType_NONE, false},
       }) {
    CheckEveryPair<int8_t>(c);
  }
}

TEST(QuantizedBinaryTest, AddSubUInt8MatchUpstreamArithmeticOnEveryPair) {
  for (const AddCase& c : {
           AddCase{1.0f, 0.7f, 1.5f, 128, 0, 100, ActivationFunctionType_RELU, false},
           AddCase{0.0039f, 0.0078f, 0.0117f, 0, 255, 128, ActivationFunctionType_NONE, true},
           AddCase{0.02f, 0.03f, 0.01f, 77, 180, 3, ActivationFunctionType_RELU6, false},
       }) {
    CheckEveryPair<uint8_t>(c);
  }
}

TEST(QuantizedBinaryTest, MulInt8WithRelu) {
  MulOptionsT options;
  options.fused_activation_function = ActivationFunctionType_RELU;
  // 2 x 2 = 4, and -3 x 0.75 = -2.25 clamped by RELU.
  EXPECT_EQ(RunBinary<int8_t>(BuiltinOperator_MUL, Opts(options), {{2}, Q(0.5f, 0), {4, -6}},
                              {{2}, Q(0.25f, 0), {8, 3}}, {2}, Q(0.125f, 0)),
            (std::vector<int8_t>{32, 0}));
}

TEST(QuantizedBinaryTest, AddInt16PowerOfTwoScales) {
  // pot_scale_int16 defaults to true. The second input is shifted right by
  // 2: 6 / 4 = 1.5 rounds away from zero.
  EXPECT_EQ(RunBinary<int16_t>(BuiltinOperator_ADD, Opts(AddOptionsT()),
                               {{2}, Q(1.0f / 1024, 0), {1024, 100}},
                               {{2}, Q(1.0f / 4096, 0), {4096, 6}}, {2}, Q(1.0f / 1024, 0)),
            (std::vector<int16_t>{2048, 102}));
}

TEST(QuantizedBinaryTest, AddInt16GeneralScales) {
  AddOptionsT options;
  options.pot_scale_int16 = false;
  EXPECT_EQ(RunBinary<int16_t>(BuiltinOperator_ADD, Opts(options), {{2}, Q(0.5f, 0), {4, -4}},
                               {{2}, Q(0.5f, 0), {2, -2}}, {2}, Q(1.0f, 0)),
            (std::vector<int16_t>{3, -3}));
}

TEST(QuantizedBinaryTest, AddInt16RejectsNonZeroZeroPoint) {
  OneOpModel m;
  m.Input(TensorType_INT16, {1}, Q(0.5f, 1));
  m.Input(TensorType_INT16, {1}, Q(0.5f, 0));
  m.Output(TensorType_INT16, {1}, Q(1.0f, 0));
  m.Op(BuiltinOperator_ADD, Opts(AddOptionsT()));
  testing::ExpectPrepareError(m, "zero points 0");
}

TEST(QuantizedBinaryTest, SubInt16RejectsCoarserInputScale) {
  OneOpModel m;
  m.Input(TensorType_INT16, {1}, Q(1.0f / 1024, 0));
  m.Input(TensorType_INT16, {1}, Q(1.0f / 4096, 0));
  m.Output(TensorType_INT16, {1}, Q(1.0f / 4096, 0));
  m.Op(BuiltinOperator_SUB, Opts(SubOptionsT()));
  testing::ExpectPrepareError(m, "power-of-two int16 scales");
}

TEST(QuantizedBinaryTest, MissingQuantizationIsRejected) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1});
  m.Input(TensorType_INT8, {1});
  m.Output(TensorType_INT8, {1});
  m.Op(BuiltinOperator_MUL, Opts(MulOptionsT()));
  testing::ExpectPrepareError(m, "must have affine quantization");
}

// ---- FULLY_CONNECTED ----------------------------------------------------------------

TEST(QuantizedFullyConnectedTest, Int8WithBias) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 2}, Q(0.5f, -1));
  m.Const<int8_t>({2, 2}, {4, 8, -4, 0}, TensorType_INT8, Q(0.25f, 0));  // [1, 2], [-1, 0]
  m.Const<int32_t>({2}, {8, 0}, TensorType_INT32, Q(0.125f, 0));         // 1, 0
  m.Output(TensorType_INT8, {1, 2}, Q(0.5f, 0));
  m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {1, 3});  // 1, 2
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{12, -2}));  // 6, -1
}

TEST(QuantizedFullyConnectedTest, Int16RejectsNonZeroZeroPoint) {
  OneOpModel m;
  m.Input(TensorType_INT16, {1, 2}, Q(0.5f, 3));
  m.Const<int8_t>({1, 2}, {1, 1}, TensorType_INT8, Q(0.25f, 0));
  m.Output(TensorType_INT16, {1, 1}, Q(0.5f, 0));
  m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
  testing::ExpectPrepareError(m, "zero points 0");
}

// A zero point outside the element type (only a corrupt model has one) is
// refused before the kernel folds it into int32 sums.
TEST(QuantizedFullyConnectedTest, MalformedZeroPointOutsideTheTypeIsRejected) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 2}, Q(0.5f, 1 << 30));
  m.Const<int8_t>({1, 2}, {1, 1}, TensorType_INT8, Q(0.25f, 0));
  m.Output(TensorType_INT8, {1, 1}, Q(0.5f, 0));
  m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
  testing::ExpectPrepareError(m, "zero point 1073741824 is outside the INT8 range");
}

// An output scale so small that input * filter / output scale is 2^96: the
// rescale would shift every sum out of 32 bits (upstream's kernel overflows),
// so Prepare refuses it (the test is named Malformed so CI reruns it under
// UBSan; QuantParamsMalformed.RescaleOf2To31OrMoreIsRefused covers the rest
// of the convolution family).
TEST(QuantizedFullyConnectedTest, MalformedOutputScaleIsRefused) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 2}, Q(0.5f, 0));
  m.Const<int8_t>({2, 2}, {4, 8, -4, 0}, TensorType_INT8, Q(0.25f, 0));
  m.Output(TensorType_INT8, {1, 2}, Q(1e-30f, 0));
  m.Op(BuiltinOperator_FULLY_CONNECTED, Opts(FullyConnectedOptionsT()));
  testing::ExpectPrepareError(
      m, "FULLY_CONNECTED: input scale * filter scale / output scale is 2^96 or more");
}

// SOFTMAX whose input scale times beta overflows float: the probabilities
// are NaN and must convert to a defined value (NaN -> 0, plus the zero point)
// instead of an undefined float-to-int conversion.
TEST(QuantizedSoftmaxTest, MalformedInputScaleGivesDefinedOutput) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 3}, Q(3e38f, 0));
  m.Output(TensorType_INT8, {1, 3}, Q(1.0f / 256.0f, -128));
  SoftmaxOptionsT o;
  o.beta = 10.0f;
  m.Op(BuiltinOperator_SOFTMAX, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {1, 2, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-128, -128, -128}));
}

// ---- CONV_2D / DEPTHWISE_CONV_2D ------------------------------------------------------

// A 1x1, stride-1 CONV_2D: input [1, H, W, 1], one filter value and one bias
// value per output channel.
template <typename T, typename Filter, typename Bias>
void BuildPointwiseConv(OneOpModel& m, std::vector<int> in_shape, Quantization in_q,
                        std::vector<Filter> filter, Quantization filter_q, std::vector<Bias> bias,
                        Quantization bias_q, Quantization out_q) {
  const int channels = static_cast<int>(filter.size());
  std::vector<int> out_shape = in_shape;
  out_shape[3] = channels;
  m.Input(testing::TensorTypeOf<T>(), in_shape, std::move(in_q));
  m.Const<Filter>({channels, 1, 1, 1}, std::move(filter), testing::TensorTypeOf<Filter>(),
                  std::move(filter_q));
  m.Const<Bias>({channels}, std::move(bias), testing::TensorTypeOf<Bias>(), std::move(bias_q));
  m.Output(testing::TensorTypeOf<T>(), out_shape, std::move(out_q));
  Conv2DOptionsT o;
  o.padding = Padding_VALID;
  o.stride_h = o.stride_w = 1;
  m.Op(BuiltinOperator_CONV_2D, Opts(o));
}

TEST(QuantizedConvTest, Int8PerChannelRoundsHalfUp) {
  OneOpModel m;
  BuildPointwiseConv<int8_t, int8_t, int32_t>(m, {1, 2, 2, 1}, Q(1.0f, 0), {2, 4},
                                              PerChannel({0.5f, 0.25f}, 0), {0, 0},
                                              PerChannel({0.5f, 0.25f}, 0), Q(2.0f, 0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-1, 1, 3, -3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // Both channels see -0.5, 0.5, 1.5, -1.5; upstream's int8 convolution
  // (ruy on x86) rounds ties upward.
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{0, 0, 1, 1, 2, 2, -1, -1}));
}

TEST(QuantizedConvTest, UInt8PerTensor) {
  OneOpModel m;
  BuildPointwiseConv<uint8_t, uint8_t, int32_t>(m, {1, 1, 2, 1}, Q(1.0f, 128), {132},
                                                Q(0.5f, 128), {0}, Q(0.5f, 0), Q(1.0f, 128));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {130, 126});  // 2 and -2, times a filter of 2
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{132, 124}));
}

TEST(QuantizedConvTest, Int16WithInt64Bias) {
  OneOpModel m;
  BuildPointwiseConv<int16_t, int8_t, int64_t>(m, {1, 1, 2, 1}, Q(1.0f, 0), {2}, Q(0.5f, 0), {2},
                                               Q(0.5f, 0), Q(1.0f, 0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int16_t>(0, {1000, -3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int16_t>(), (std::vector<int16_t>{1001, -2}));
}

TEST(QuantizedConvTest, Int8RejectsFilterZeroPoint) {
  OneOpModel m;
  BuildPointwiseConv<int8_t, int8_t, int32_t>(m, {1, 1, 1, 1}, Q(1.0f, 0), {2}, Q(0.5f, 3), {0},
                                              Q(0.5f, 0), Q(1.0f, 0));
  testing::ExpectPrepareError(m, "filter zero points must be 0");
}

// Stride 1, multiplier 1.
BuiltinOptionsUnion DepthwiseOptions(Padding padding) {
  DepthwiseConv2DOptionsT o;
  o.padding = padding;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  return Opts(o);
}

TEST(QuantizedDepthwiseConvTest, Int8PerChannelRoundsAwayFromZero) {
  OneOpModel m;
  m.Input(TensorType_INT8, {1, 1, 2, 2}, Q(0.5f, 0));
  m.Const<int8_t>({1, 1, 1, 2}, {1, 2}, TensorType_INT8, PerChannel({1.0f, 0.5f}, 3));
  m.Const<int32_t>({2}, {0, 0}, TensorType_INT32, PerChannel({0.5f, 0.25f}, 0));
  m.Output(TensorType_INT8, {1, 1, 2, 2}, Q(1.0f, 0));
  m.Op(BuiltinOperator_DEPTHWISE_CONV_2D, DepthwiseOptions(Padding_VALID));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {3, -4, 5, 7});  // 1.5, -2, 2.5, 3.5
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{2, -2, 3, 4}));
}

// 8-bit depthwise windows around the size where the kernel stops gathering
// tap pointers (256 taps): 15x15 and 17x17 SAME windows over a 9x9 image, so
// every pixel's window is clipped differently, int8 and uint8, 35 channels
// (the 16-, 8- and 1-channel parts of the sum loop). Expected: int64 sums of
// (input - zero point) * filter + bias, requantized by upstream's rounding
// (RefDoublingHighMul, then RefDivideByPot).
template <typename T>
void CheckLargeDepthwiseWindow(int window) {
  SCOPED_TRACE(::testing::Message() << window << "x" << window << " window, "
                                    << (std::is_signed_v<T> ? "int8" : "uint8"));
  const int h = 9, w = 9, c = 35;
  const int zp_in = std::is_signed_v<T> ? -3 : 131, zp_out = std::is_signed_v<T> ? 5 : 120;
  const float in_scale = 0.5f, filter_scale = 0.25f, out_scale = 9.0f;
  std::vector<T> in(h * w * c);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<T>(std::numeric_limits<T>::min() + (i * 37 + 11) % 256);
  }
  std::vector<int8_t> filter(window * window * c);
  for (size_t i = 0; i < filter.size(); ++i) {
    filter[i] = static_cast<int8_t>(static_cast<int>((i * 53 + 7) % 255) - 127);
  }
  std::vector<int32_t> bias(c);
  for (int k = 0; k < c; ++k) bias[k] = k * 100 - 1700;
  int32_t m;
  int right;
  RefMultiplier(double{in_scale} * filter_scale / out_scale, &m, &right);
  std::vector<T> expected(h * w * c);
  const int pad = (window - 1) / 2;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int k = 0; k < c; ++k) {
        int64_t acc = bias[k];
        for (int ky = 0; ky < window; ++ky) {
          for (int kx = 0; kx < window; ++kx) {
            const int iy = y + ky - pad, ix = x + kx - pad;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            acc += int64_t{in[(iy * w + ix) * c + k] - zp_in} * filter[(ky * window + kx) * c + k];
          }
        }
        ASSERT_LT(std::abs(acc), int64_t{1} << 31);
        const int32_t v =
            RefDivideByPot(RefDoublingHighMul(static_cast<int32_t>(acc), m), right) + zp_out;
        expected[(y * w + x) * c + k] = static_cast<T>(std::min<int32_t>(
            std::numeric_limits<T>::max(), std::max<int32_t>(std::numeric_limits<T>::min(), v)));
      }
    }
  }
  OneOpModel m_;
  m_.Input(testing::TensorTypeOf<T>(), {1, h, w, c}, Q(in_scale, zp_in));
  if (std::is_signed_v<T>) {
    m_.Const<int8_t>({1, window, window, c}, filter, TensorType_INT8, Q(filter_scale, 0));
  } else {
    // UINT8 takes a UINT8 filter: the same values around zero point 128.
    std::vector<uint8_t> shifted(filter.size());
    for (size_t i = 0; i < filter.size(); ++i) shifted[i] = static_cast<uint8_t>(filter[i] + 128);
    m_.Const<uint8_t>({1, window, window, c}, shifted, TensorType_UINT8, Q(filter_scale, 128));
  }
  m_.Const<int32_t>({c}, bias, TensorType_INT32, Q(in_scale * filter_scale, 0));
  m_.Output(testing::TensorTypeOf<T>(), {1, h, w, c}, Q(out_scale, zp_out));
  m_.Op(BuiltinOperator_DEPTHWISE_CONV_2D, DepthwiseOptions(Padding_SAME));
  ASSERT_TRUE(m_.Allocate()) << m_.log();
  m_.Set<T>(0, in);
  ASSERT_TRUE(m_.Invoke()) << m_.log();
  EXPECT_EQ(m_.Get<T>(), expected);
}

TEST(QuantizedDepthwiseConvTest, WindowsAroundTheGatheredTapLimitMatchReference) {
  for (int window : {3, 15, 17}) {
    CheckLargeDepthwiseWindow<int8_t>(window);
  }
  CheckLargeDepthwiseWindow<uint8_t>(17);
  CheckLargeDepthwiseWindow<uint8_t>(5);
}

TEST(QuantizedTransposeConvTest, Int16x8WithRuntimeOutputShape) {
  OneOpModel m;
  m.Input(TensorType_INT32, {4});
  m.Const<int8_t>({1, 2, 2, 1}, {2, 4, 6, -8}, TensorType_INT8, Q(0.5f, 0));  // 1, 2, 3, -4
  m.Input(TensorType_INT16, {1, 1, 2, 1}, Q(1.0f, 0));
  m.Output(TensorType_INT16, {1, 2, 4, 1}, Q(1.0f, 0));
  TransposeConvOptionsT o;
  o.padding = Padding_VALID;
  o.stride_h = o.stride_w = 2;
  m.Op(BuiltinOperator_TRANSPOSE_CONV, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 4, 1});
  m.Set<int16_t>(1, {3, -5});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // Each input pixel writes its own 2x2 block: value x [[1, 2], [3, -4]].
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 2, 4, 1}));
  EXPECT_EQ(m.Get<int16_t>(), (std::vector<int16_t>{3, 6, -5, -10, 9, -12, -15, 20}));
}

// ---- SOFTMAX / LOGISTIC ---------------------------------------------------------------

TEST(QuantizedSoftmaxTest, Int8) {
  OneOpModel m;
  m.Input(TensorType_INT8, {2, 2}, Q(1.0986123f, 0));  // ln 3
  m.Output(TensorType_INT8, {2, 2}, Q(1.0f / 256, -128));
  SoftmaxOptionsT o;
  o.beta = 1.0f;
  m.Op(BuiltinOperator_SOFTMAX, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {0, 1, 5, 5});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // Rows: probabilities 1/4, 3/4 and 1/2, 1/2.
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-64, 64, 0, 0}));
}

TEST(QuantizedSoftmaxTest, Int8RejectsWrongOutputScale) {
  OneOpModel m;
  m.Input(TensorType_INT8, {2}, Q(0.5f, 0));
  m.Output(TensorType_INT8, {2}, Q(1.0f / 128, -128));
  SoftmaxOptionsT o;
  o.beta = 1.0f;
  m.Op(BuiltinOperator_SOFTMAX, Opts(o));
  testing::ExpectPrepareError(m, "scale 1/256");
}

TEST(QuantizedLogisticTest, Int8) {
  OneOpModel m;
  m.Input(TensorType_INT8, {3}, Q(1.0f / 16, 0));
  m.Output(TensorType_INT8, {3}, Q(1.0f / 256, -128));
  m.Op(BuiltinOperator_LOGISTIC);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {0, 127, -128});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{0, 127, -128}));
}

TEST(QuantizedTanhTest, UInt8) {
  OneOpModel m;
  m.Input(TensorType_UINT8, {3}, Q(1.0f / 16, 128));
  m.Output(TensorType_UINT8, {3}, Q(1.0f / 128, 128));
  m.Op(BuiltinOperator_TANH);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {128, 255, 0});  // 0, 7.9375, -8
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{128, 255, 0}));  // 0, 1 and -1, saturated
}

}  // namespace
}  // namespace tflite_c

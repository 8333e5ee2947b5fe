// Quantized activations and row-wise ops over every input value or against a
// float reference: HARD_SWISH, GELU, ELU, PRELU (int8/uint8), SOFTMAX (int16),
// LOG_SOFTMAX and L2_NORMALIZATION (int8/uint8).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto I16 = tflite::TensorType_INT16;

// ---- HARD_SWISH quantized --------------------------------------------------------------

// Runs `op` over every value of T and compares each output with `fn` applied
// to the dequantized input, requantized: at most one step off, and exact for
// all but `max_off_by_one` inputs.
template <typename T>
void CheckQuantizedUnary(tflite::TensorType type, tflite::BuiltinOperator op,
                         tflite::BuiltinOptionsUnion options, double (*fn)(double), float in_scale,
                         int in_zp, float out_scale, int out_zp, int max_off_by_one = 2) {
  constexpr int lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::vector<T> all;
  for (int v = lo; v <= hi; ++v) all.push_back(static_cast<T>(v));
  const int n = static_cast<int>(all.size());
  OneOpModel m;
  m.Input(type, {n}, testing::Q(in_scale, in_zp));
  m.Output(type, {n}, testing::Q(out_scale, out_zp));
  m.Op(op, std::move(options));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, all);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<T> out = m.Get<T>();
  ASSERT_EQ(out.size(), all.size());
  int exact = 0;
  for (int i = 0; i < n; ++i) {
    const double y = fn((static_cast<double>(all[i]) - in_zp) * in_scale);
    const double q = std::min<double>(hi, std::max<double>(lo, std::round(y / out_scale) + out_zp));
    EXPECT_NEAR(out[i], q, 1.0) << "input " << int{all[i]};
    exact += out[i] == q;
  }
  // Float vs double rounding at a tie, at most (by default).
  EXPECT_GE(exact, n - max_off_by_one);
}

double RefHardSwish(double x) { return x * std::min(6.0, std::max(0.0, x + 3)) / 6; }

// The fixed-point recipe is off by one rarely: exact for 9 in 10 of the 256 inputs.
template <typename T>
void CheckQuantizedHardSwish(tflite::TensorType type, float in_scale, int in_zp, float out_scale,
                             int out_zp) {
  CheckQuantizedUnary<T>(type, tflite::BuiltinOperator_HARD_SWISH, {}, RefHardSwish, in_scale, in_zp,
                         out_scale, out_zp, 256 - 256 * 9 / 10);
}

TEST(HardSwishQuantizedTest, Int8AllInputs) {
  CheckQuantizedHardSwish<int8_t>(I8, 0.05f, -10, 0.03f, -60);
}

TEST(HardSwishQuantizedTest, UInt8AllInputs) {
  CheckQuantizedHardSwish<uint8_t>(tflite::TensorType_UINT8, 8.0f / 255, 128, 5.0f / 255, 30);
}

TEST(HardSwishQuantizedTest, Errors) {
  {
    OneOpModel m;
    m.Input(I8, {2}, testing::Q(1.0f, 0));
    m.Output(I8, {2}, testing::Q(1.0f / 256, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "HARD_SWISH: output scale");
  }
  {
    OneOpModel m;
    m.Input(I8, {2}, testing::Q(1.0f, 0));
    m.Output(tflite::TensorType_UINT8, {2}, testing::Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "does not match");
  }
  {
    OneOpModel m;
    m.Input(I16, {2}, testing::Q(1.0f, 0));
    m.Output(I16, {2}, testing::Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_HARD_SWISH);
    ExpectPrepareError(m, "HARD_SWISH");
  }
}

// ---- INT16 SOFTMAX ----------------------------------------------------------------------

tflite::BuiltinOptionsUnion SoftmaxOpts(float beta) {
  tflite::SoftmaxOptionsT o;
  o.beta = beta;
  return Opts(o);
}

TEST(SoftmaxInt16Test, MatchesFloatSoftmaxWithinFourSteps) {
  const float in_scale = 10.0f / 32768;  // inputs in [-10, 10)
  const std::vector<int16_t> x = {0,     3277,  -3277, 32767, -32768, 100,  12000, 12001,
                                  -5000, -5000, -5000, -5000, 20000,  -20000, 0, 1};
  for (float beta : {1.0f, 0.5f}) {
    OneOpModel m;
    m.Input(I16, {4, 4}, testing::Q(in_scale, 0));
    m.Output(I16, {4, 4}, testing::Q(1.0f / 32768, 0));
    m.Op(tflite::BuiltinOperator_SOFTMAX, SoftmaxOpts(beta));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int16_t>(0, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<int16_t> out = m.Get<int16_t>();
    ASSERT_EQ(out.size(), x.size());
    for (int r = 0; r < 4; ++r) {
      double mx = -1e9, sum = 0;
      for (int c = 0; c < 4; ++c) mx = std::max(mx, static_cast<double>(x[r * 4 + c]) * in_scale);
      for (int c = 0; c < 4; ++c) sum += std::exp(beta * (x[r * 4 + c] * in_scale - mx));
      for (int c = 0; c < 4; ++c) {
        const double p = std::exp(beta * (x[r * 4 + c] * in_scale - mx)) / sum;
        EXPECT_NEAR(out[r * 4 + c], std::min(32767.0, p * 32768), 4.0)
            << "row " << r << " col " << c << " beta " << beta;
      }
    }
  }
}

TEST(SoftmaxInt16Test, Errors) {
  OneOpModel m;
  m.Input(I16, {4}, testing::Q(0.001f, 0));
  m.Output(I16, {4}, testing::Q(1.0f / 256, 0));
  m.Op(tflite::BuiltinOperator_SOFTMAX, SoftmaxOpts(1.0f));
  ExpectPrepareError(m, "INT16 needs zero points 0 and output scale 1/32768");
}

// ---- GELU / ELU quantized ----------------------------------------------------------------


double RefGelu(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double RefGeluTanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}
double RefElu(double x) { return x < 0 ? std::expm1(x) : x; }

tflite::BuiltinOptionsUnion GeluOpts(bool approximate) {
  tflite::GeluOptionsT o;
  o.approximate = approximate;
  return Opts(o);
}

TEST(QuantizedActivationTableTest, GeluInt8AndUInt8) {
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_GELU, GeluOpts(false), RefGelu, 0.04f,
                              5, 0.03f, -100);
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_GELU, GeluOpts(true), RefGeluTanh,
                              0.04f, 5, 0.03f, -100);
  CheckQuantizedUnary<uint8_t>(tflite::TensorType_UINT8, tflite::BuiltinOperator_GELU,
                               GeluOpts(false), RefGelu, 0.05f, 128, 0.025f, 20);
}

TEST(QuantizedActivationTableTest, EluInt8) {
  CheckQuantizedUnary<int8_t>(I8, tflite::BuiltinOperator_ELU, {}, RefElu, 0.05f, 0, 0.04f, -3);
}


TEST(PreluQuantizedTest, Int8AlphaBroadcastAndErrors) {
  OneOpModel m;
  m.Input(I8, {2, 2}, testing::Q(0.5f, 0));
  m.Const<int8_t>({2}, {2, 4}, I8, testing::Q(0.25f, 0));  // alpha 0.5, 1.0
  m.Output(I8, {2, 2}, testing::Q(0.5f, 0));
  m.Op(tflite::BuiltinOperator_PRELU);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-4, 4, -6, 6});  // -2, 2, -3, 3
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-2, 4, -3, 6}));  // -1, 2, -1.5, 3
  OneOpModel bad;
  bad.Input(I16, {2}, testing::Q(0.5f, 0));
  bad.Const<int16_t>({2}, {1, 1}, I16, testing::Q(0.5f, 0));
  bad.Output(I16, {2}, testing::Q(0.5f, 0));
  bad.Op(tflite::BuiltinOperator_PRELU);
  ExpectPrepareError(bad, "PRELU");
}


// ---- LOG_SOFTMAX / L2_NORMALIZATION quantized -------------------------------------------

TEST(QuantizedRowwiseTest, LogSoftmaxInt8WithinOneStep) {
  const float in_scale = 0.1f;
  const std::vector<int8_t> x = {-128, 0, 10, 127, 5, 5, 5, 5, -20, -19, 40, 0};
  OneOpModel m;
  m.Input(I8, {3, 4}, testing::Q(in_scale, 0));
  m.Output(I8, {3, 4}, testing::Q(16.0f / 256, 127));
  m.Op(tflite::BuiltinOperator_LOG_SOFTMAX, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<int8_t> out = m.Get<int8_t>();
  for (int r = 0; r < 3; ++r) {
    double mx = -1e9, sum = 0;
    for (int c = 0; c < 4; ++c) mx = std::max(mx, x[r * 4 + c] * double{in_scale});
    for (int c = 0; c < 4; ++c) sum += std::exp(x[r * 4 + c] * double{in_scale} - mx);
    for (int c = 0; c < 4; ++c) {
      const double y = x[r * 4 + c] * double{in_scale} - mx - std::log(sum);
      const double q = std::max(-128.0, std::min(127.0, std::round(y / (16.0 / 256)) + 127));
      EXPECT_NEAR(out[r * 4 + c], q, 1.0) << r << "," << c;
    }
  }
  OneOpModel bad;
  bad.Input(I8, {4}, testing::Q(in_scale, 0));
  bad.Output(I8, {4}, testing::Q(1.0f / 256, -128));
  bad.Op(tflite::BuiltinOperator_LOG_SOFTMAX, {}, 2);
  ExpectPrepareError(bad, "INT8 output must have scale 16/256 and zero point 127");
}

TEST(QuantizedRowwiseTest, L2NormalizationInt8AndUInt8) {
  {
    OneOpModel m;
    m.Input(I8, {2, 3}, testing::Q(0.5f, -2));
    m.Output(I8, {2, 3}, testing::Q(1.0f / 128, 0));
    m.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {1, 2, -2, 10, -6, -2});  // centred: 3 4 0 | 12 -4 0
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<int8_t> out = m.Get<int8_t>();
    // 3/5, 4/5, 0 | 12/sqrt(160), -4/sqrt(160), 0, in 1/128 steps.
    const std::vector<double> want = {0.6, 0.8, 0, 12 / std::sqrt(160.0), -4 / std::sqrt(160.0), 0};
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(out[i], std::min(127.0, want[i] * 128), 1.0) << i;
  }
  {
    OneOpModel m;
    m.Input(tflite::TensorType_UINT8, {1, 2}, testing::Q(0.5f, 100));
    m.Output(tflite::TensorType_UINT8, {1, 2}, testing::Q(1.0f / 128, 128));
    m.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {103, 96});  // 3, -4
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<uint8_t> out = m.Get<uint8_t>();
    EXPECT_NEAR(out[0], 128 + 0.6 * 128, 1.0);
    EXPECT_NEAR(out[1], 128 - 0.8 * 128, 1.0);
  }
  OneOpModel bad;
  bad.Input(I8, {3}, testing::Q(0.5f, 0));
  bad.Output(I8, {3}, testing::Q(1.0f / 128, 5));
  bad.Op(tflite::BuiltinOperator_L2_NORMALIZATION, {}, 2);
  ExpectPrepareError(bad, "INT8 output must have scale 1/128 and zero point 0");
}

}  // namespace
}  // namespace tflite_c

// UINT8 quantized DIV (op version 2): every (dividend, divisor) byte pair
// against the real quotient, broadcasting, the fused activation clamp in
// the quantized domain, and the error cases (zero-point divisor at Invoke,
// missing quantization and mixed types in Prepare).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;
using testing::Quantization;

constexpr auto U8 = tflite::TensorType_UINT8;

tflite::BuiltinOptionsUnion DivOpts(tflite::ActivationFunctionType act) {
  tflite::DivOptionsT o;
  o.fused_activation_function = act;
  return Opts(o);
}

struct Scales {
  float s1;
  int z1;
  float s2;
  int z2;
  float so;
  int zo;
};

// All 256 x 256 pairs (minus zero-point divisors): the fixed-point result is
// within one step of the correctly rounded quotient, and equal to it for at
// least 98% of the pairs (misses sit at rounding ties of the two roundings).
TEST(DivUint8, AllPairsMatchRealQuotient) {
  for (const Scales& s : {Scales{0.05f, 128, 0.05f, 0, 0.1f, 0}, Scales{0.02f, 0, 0.03f, 10, 0.2f, 100},
                          Scales{1.f, 0, 1.f, 0, 1.f, 0}, Scales{0.5f, 200, 0.01f, 128, 4.f, 128}}) {
    std::vector<uint8_t> a, b;
    for (int i = 0; i < 256; ++i)
      for (int j = 0; j < 256; ++j) {
        if (j == s.z2) continue;
        a.push_back(static_cast<uint8_t>(i));
        b.push_back(static_cast<uint8_t>(j));
      }
    const int n = static_cast<int>(a.size());
    OneOpModel m;
    m.Input(U8, {n}, Q(s.s1, s.z1));
    m.Input(U8, {n}, Q(s.s2, s.z2));
    m.Output(U8, {n}, Q(s.so, s.zo));
    m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, a);
    m.Set<uint8_t>(1, b);
    ASSERT_TRUE(m.Invoke()) << m.log();
    const std::vector<uint8_t> got = m.Get<uint8_t>();
    ASSERT_EQ(got.size(), a.size());
    int exact = 0, reported = 0;
    for (int k = 0; k < n; ++k) {
      const double x = s.s1 * (a[k] - s.z1), y = s.s2 * (b[k] - s.z2);
      const double want = std::clamp(std::round(x / y / s.so) + s.zo, 0.0, 255.0);
      const double diff = std::fabs(got[k] - want);
      if (diff == 0) ++exact;
      if (diff > 1 && reported++ < 5)
        ADD_FAILURE() << int(a[k]) << " / " << int(b[k]) << ": got " << int(got[k]) << ", want "
                      << want;
    }
    EXPECT_GT(exact, n * 98 / 100) << "scales " << s.s1 << " " << s.s2 << " " << s.so;
  }
}

TEST(DivUint8, SmallExactQuotients) {
  // Unit scales: integer division rounded half away from zero.
  OneOpModel m;
  m.Input(U8, {6}, Q(1.f, 0));
  m.Input(U8, {6}, Q(1.f, 0));
  m.Output(U8, {6}, Q(1.f, 0));
  m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {6, 255, 200, 0, 1, 9});
  m.Set<uint8_t>(1, {3, 255, 7, 5, 255, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // 200/7 = 28.57, 1/255 rounds to 0, 9/2 = 4.5 rounds up.
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{2, 1, 29, 0, 0, 5}));
}

TEST(DivUint8, BroadcastAndRelu6Clamp) {
  // x in [-6.4, 6.35], divisor scalar 0.5; output [-16, 15.9], RELU6 clamps
  // in the quantized domain.
  OneOpModel m;
  m.Input(U8, {2, 3}, Q(0.05f, 128));
  m.Input(U8, {1}, Q(0.1f, 0));
  m.Output(U8, {2, 3}, Q(0.125f, 128));
  m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_RELU6), 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  // x = -2, -0.5, 0, 0.5, 2, 6 (q = 128 + x / 0.05)
  m.Set<uint8_t>(0, {88, 118, 128, 138, 168, 248});
  m.Set<uint8_t>(1, {5});  // 0.5
  ASSERT_TRUE(m.Invoke()) << m.log();
  // x / 0.5 = -4, -1, 0, 1, 4, 12 -> clamp [0, 6] -> q = 128 + v / 0.125
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{128, 128, 128, 136, 160, 176}));
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 3}));
}

TEST(DivUint8, DivisorAtZeroPointFailsAtInvoke) {
  OneOpModel m;
  m.Input(U8, {2}, Q(0.1f, 0));
  m.Input(U8, {2}, Q(0.1f, 7));
  m.Output(U8, {2}, Q(0.1f, 0));
  m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {10, 10});
  m.Set<uint8_t>(1, {9, 7});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("DIV: UINT8 division by zero (divisor element 1)"), std::string::npos)
      << m.log();
}

TEST(DivUint8, PrepareErrors) {
  {
    OneOpModel m;  // no quantization on the divisor
    m.Input(U8, {2}, Q(0.1f, 0));
    m.Input(U8, {2});
    m.Output(U8, {2}, Q(0.1f, 0));
    m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
    ExpectPrepareError(m, "DIV: input 1 of type UINT8 must have affine quantization");
  }
  {
    OneOpModel m;  // mixed types
    m.Input(U8, {2}, Q(0.1f, 0));
    m.Input(tflite::TensorType_INT8, {2}, Q(0.1f, 0));
    m.Output(U8, {2}, Q(0.1f, 0));
    m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
    EXPECT_FALSE(m.Allocate());
    EXPECT_FALSE(m.log().empty());
  }
  {
    OneOpModel m;  // absurd scale ratio (2^30)
    m.Input(U8, {2}, Q(1024.f, 0));
    m.Input(U8, {2}, Q(1.f / 1024, 0));
    m.Output(U8, {2}, Q(1.f / 1024, 0));
    m.Op(tflite::BuiltinOperator_DIV, DivOpts(tflite::ActivationFunctionType_NONE), 2);
    ExpectPrepareError(m, "not supported");
  }
}

}  // namespace
}  // namespace tflite_c

// INT16 LOGISTIC and TANH against upstream's default kernels, bit for bit,
// over all 65536 inputs. Two independent checks per case:
//  * a second implementation of upstream's rule written here (gemmlowp's
//    16-bit fixed-point logistic/tanh for power-of-two input scales, the
//    interpolated sigmoid table otherwise), compared output by output;
//  * a 64-bit FNV-1a hash of the 65536 outputs that upstream's own code
//    (gemmlowp fixedpoint.h and reference_integer_ops with its literal
//    table) produced for the same scale, so the test also fails if both
//    implementations here drifted the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

constexpr auto I16 = tflite::TensorType_INT16;

// ---- 16-bit fixed point, as gemmlowp defines it ------------------------------------
// Raw int16 values; the number of integer bits is tracked by the caller.

int16_t Wrap(int32_t v) { return static_cast<int16_t>(v); }
int16_t Clamp16(int64_t v) { return static_cast<int16_t>(std::clamp<int64_t>(v, -32768, 32767)); }

// a * b / 2^15 rounded half up, -1 * -1 saturated.
int16_t Mul(int16_t a, int16_t b) {
  if (a == -32768 && b == -32768) return 32767;
  const int32_t p = int32_t{a} * b + (1 << 14);
  return static_cast<int16_t>(p >= 0 ? p / 32768 : -((-p + 32767) / 32768));  // floor
}

// x / 2^e rounded half away from zero.
int32_t DivPow2(int32_t x, int e) {
  const int32_t magnitude = (std::abs(x) + (1 << (e - 1))) >> e;
  return x < 0 ? -magnitude : magnitude;
}

int16_t MulPow2(int16_t x, int e) { return Clamp16(int64_t{x} * (int64_t{1} << e)); }

// A real constant as gemmlowp writes it: Q0.31 (or Q2.29 when q = 29)
// rounded, then narrowed to 16 bits with a rounding shift.
int16_t Constant(double value, int q = 31) {
  return static_cast<int16_t>(DivPow2(static_cast<int32_t>(std::llround(std::ldexp(value, q))), 16));
}

// exp(a), a in [-1/4, 0), Q0.15: Taylor series around -1/8 to fourth order.
int16_t ExpSmall(int16_t a) {
  const int16_t e = Constant(std::exp(-0.125)), third = Constant(1.0 / 3);
  const int16_t x = Wrap(a + 4096);
  const int16_t x2 = Mul(x, x), x3 = Mul(x2, x), x4 = Mul(x2, x2);
  const int16_t tail =
      static_cast<int16_t>(DivPow2(Wrap(Mul(Wrap(DivPow2(x4, 2) + x3), third) + x2), 1));
  return Clamp16(int32_t{e} + Mul(e, Wrap(x + tail)));
}

// exp(a) for a <= 0 read with `bits` integer bits (3 or 4), Q0.15.
int16_t ExpNegative(int16_t a, int bits) {
  if (a == 0) return 32767;
  const int frac = 15 - bits;
  const int16_t quarter = static_cast<int16_t>(1 << (frac - 2));
  const int16_t r = Wrap((a & (quarter - 1)) - quarter);
  int16_t result = ExpSmall(MulPow2(r, bits));
  const int16_t rest = Wrap(r - a);
  for (int e = -2; e < bits && e <= 4; ++e) {
    if (rest & (1 << (frac + e))) result = Mul(result, Constant(std::exp(-std::ldexp(1.0, e))));
  }
  return result;
}

// Newton-Raphson for 1 / ((1 + a) / 2), a in [0, 1] Q0.15, result Q2.13.
int16_t InverseHalfSum(int16_t a) {
  const int32_t sum = int32_t{a} + 32767;
  const int16_t half = static_cast<int16_t>(sum / 2 + (sum % 2 != 0 ? (sum > 0 ? 1 : -1) : 0));
  int16_t x = Wrap(Constant(48.0 / 17, 29) + Mul(half, Constant(-32.0 / 17, 29)));
  for (int i = 0; i < 3; ++i) x = Wrap(x + MulPow2(Mul(x, Wrap(8192 - Mul(half, x))), 2));
  return x;
}

int16_t FixedLogistic(int16_t a) {  // Q3.12 -> Q0.15
  if (a == 0) return 16384;
  const int16_t magnitude = a > 0 ? a : Wrap(-a);
  const int16_t positive = MulPow2(InverseHalfSum(ExpNegative(Wrap(-magnitude), 3)), 1);
  return a > 0 ? positive : Wrap(32767 - positive);
}

int16_t FixedTanh(int16_t a) {  // Q3.12 -> Q0.15
  if (a == 0) return 0;
  const int16_t negative_magnitude = a < 0 ? a : Wrap(-a);
  // exp(2 * -|a|): the same raw value read with 4 integer bits.
  const int16_t t = MulPow2(Wrap(InverseHalfSum(ExpNegative(negative_magnitude, 4)) - 8192), 2);
  return a < 0 ? Wrap(-t) : t;
}

// ---- the interpolated table ------------------------------------------------------

std::vector<int64_t> SigmoidTable() {
  auto f = [](long double x) { return 65536.0L / (1.0L + std::exp(-x)); };
  std::vector<int64_t> t(256);
  for (int i = 0; i < 255; ++i) {
    const long double a = f(i / 24.0L), b = f((i + 1) / 24.0L), mid = f((i + 0.5L) / 24.0L);
    t[i] = std::llround(a + (mid - (a + b) / 2) / 2);
  }
  t[255] = 65535;
  return t;
}

// sigmoid / tanh of x (units of 1/12288), Q0.15.
int16_t TableLogistic(int64_t x) {
  static const std::vector<int64_t> t = SigmoidTable();
  const int64_t m = std::abs(x), i = m / 512;
  const int64_t v = i >= 255 ? int64_t{32767} * 1024 : t[i] * 512 + (m % 512) * (t[i + 1] - t[i]);
  return static_cast<int16_t>(x >= 0 ? (v + 512) / 1024 : ((int64_t{1} << 25) - v + 511) / 1024);
}
int16_t TableTanh(int64_t x) {
  static const std::vector<int64_t> t = SigmoidTable();
  const int64_t m = std::abs(x), i = m / 256;
  const int64_t v = i >= 255 ? int64_t{65535} * 256 : t[i] * 256 + (m % 256) * (t[i + 1] - t[i]);
  const int64_t centred = x >= 0 ? v - (1 << 23) + 128 : (1 << 23) - v + 127;
  return static_cast<int16_t>(centred >= 0 ? centred / 256 : -((-centred + 255) / 256));
}

// ---- upstream's choice of path -----------------------------------------------------

struct Case {
  tflite::BuiltinOperator op;
  float scale;
  uint64_t upstream_hash;  // FNV-1a of upstream's 65536 outputs
};

bool IsTanh(const Case& c) { return c.op == tflite::BuiltinOperator_TANH; }

int16_t Expected(const Case& c, int16_t in) {
  // Power of two: log2 within 1e-3 of an integer (single precision).
  const float log2 = std::log(c.scale) / std::log(2.0f);
  const int shift = 12 + static_cast<int>(std::round(log2));
  const bool pot = std::fabs(log2 - std::round(log2)) < 1e-3f &&
                   (shift == 0 || (IsTanh(c) && shift == 1));
  if (pot) {
    if (!IsTanh(c)) return FixedLogistic(in);
    return FixedTanh(shift == 1 ? MulPow2(in, 1) : in);
  }
  double multiplier = double{c.scale} * 12288;
  int right = 0;
  for (; multiplier <= 16383.5 && right < 31; ++right) multiplier *= 2;
  const int64_t m = static_cast<int64_t>(multiplier);
  const int64_t x = right == 0 ? in * m : (in * m + (int64_t{1} << (right - 1))) >> right;
  return IsTanh(c) ? TableTanh(x) : TableLogistic(x);
}

uint64_t Fnv1a(const std::vector<int16_t>& values) {
  uint64_t h = 1469598103934665603ull;
  for (int16_t v : values) {
    const auto u = static_cast<uint16_t>(v);
    for (int byte : {u & 0xFF, u >> 8}) {
      h ^= static_cast<uint64_t>(byte);
      h *= 1099511628211ull;
    }
  }
  return h;
}

std::vector<int16_t> RunAllInputs(const Case& c) {
  std::vector<int16_t> all;
  for (int v = -32768; v <= 32767; ++v) all.push_back(static_cast<int16_t>(v));
  OneOpModel m;
  m.Input(I16, {static_cast<int>(all.size())}, testing::Q(c.scale, 0));
  m.Output(I16, {static_cast<int>(all.size())}, testing::Q(1.0f / 32768, 0));
  m.Op(c.op);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<int16_t>(0, all);
  EXPECT_TRUE(m.Invoke()) << m.log();
  return m.Get<int16_t>();
}

void CheckCase(const Case& c) {
  SCOPED_TRACE(std::string(IsTanh(c) ? "TANH" : "LOGISTIC") + " scale " + std::to_string(c.scale));
  const std::vector<int16_t> out = RunAllInputs(c);
  ASSERT_EQ(out.size(), 65536u);
  int mismatches = 0;
  for (int i = 0; i < 65536; ++i) {
    const auto in = static_cast<int16_t>(i - 32768);
    const double x = in * double{c.scale};
    const double exact = IsTanh(c) ? std::tanh(x) : 1 / (1 + std::exp(-x));
    // Sanity of the rule itself: within a few units of the exact value.
    EXPECT_NEAR(out[i], std::min(32767.0, exact * 32768), 13) << "input " << in;
    if (out[i] != Expected(c, in) && ++mismatches <= 5) {
      ADD_FAILURE() << "input " << in << ": got " << out[i] << ", upstream's rule gives "
                    << Expected(c, in);
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(Fnv1a(out), c.upstream_hash);
}

constexpr auto kLogistic = tflite::BuiltinOperator_LOGISTIC;
constexpr auto kTanh = tflite::BuiltinOperator_TANH;

TEST(Int16LogisticTest, PowerOfTwoScaleUsesFixedPoint) {
  CheckCase({kLogistic, 1.0f / 4096, 0x6c3e6d486d7a957eull});
}
TEST(Int16LogisticTest, GeneralScaleUsesTheTable) {
  CheckCase({kLogistic, 0.00037f, 0x0a55fdd74ce19dd7ull});
  // 2^-13 is a power of two, but not the one the fixed-point path takes.
  CheckCase({kLogistic, 1.0f / 8192, 0xf8a4b8c7223162e3ull});
  CheckCase({kLogistic, 2.5f, 0x518683397df41217ull});
}
TEST(Int16TanhTest, PowerOfTwoScalesUseFixedPoint) {
  CheckCase({kTanh, 1.0f / 4096, 0x1f8a787a38d6470bull});
  CheckCase({kTanh, 1.0f / 2048, 0xc1c4213e05fe2256ull});  // input doubled first
}
TEST(Int16TanhTest, GeneralScaleUsesTheTable) {
  CheckCase({kTanh, 0.00021f, 0x88d9d13a14c12102ull});
  CheckCase({kTanh, 1e-5f, 0x07baf4c471948402ull});
}

// A few outputs of upstream's kernels, spelled out.
TEST(Int16ActivationTest, UpstreamSpotValues) {
  struct Spot {
    Case c;
    int16_t in, out;
  };
  const Spot spots[] = {
      {{kLogistic, 1.0f / 4096, 0}, -32768, 11},   {{kLogistic, 1.0f / 4096, 0}, 20000, 32524},
      {{kLogistic, 1.0f / 4096, 0}, 32767, 32756}, {{kLogistic, 0.00037f, 0}, 1234, 20061},
      {{kLogistic, 0.00037f, 0}, -32768, 1},       {{kTanh, 1.0f / 2048, 0}, 1, 24},
      {{kTanh, 1.0f / 2048, 0}, 1234, 17652},      {{kTanh, 0.00021f, 0}, -20000, -32754},
      {{kTanh, 1e-5f, 0}, 32767, 10368},
  };
  for (const Spot& s : spots) {
    OneOpModel m;
    m.Input(I16, {1}, testing::Q(s.c.scale, 0));
    m.Output(I16, {1}, testing::Q(1.0f / 32768, 0));
    m.Op(s.c.op);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int16_t>(0, {s.in});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int16_t>()[0], s.out) << s.in;
    EXPECT_EQ(Expected(s.c, s.in), s.out) << s.in;
  }
}

TEST(Int16ActivationTest, Errors) {
  for (auto op : {kLogistic, kTanh}) {
    {
      OneOpModel m;
      m.Input(I16, {2}, testing::Q(1.0f / 4096, 0));
      m.Output(I16, {2}, testing::Q(1.0f / 256, 0));
      m.Op(op);
      ExpectPrepareError(m, "INT16 output scale must be 2^-15");
    }
    {
      OneOpModel m;
      m.Input(I16, {2}, testing::Q(1.0f / 4096, 5));
      m.Output(I16, {2}, testing::Q(1.0f / 32768, 0));
      m.Op(op);
      ExpectPrepareError(m, "need zero point 0");
    }
    for (float bad : {0.0f, -1.0f / 4096, std::nanf(""), INFINITY}) {
      OneOpModel m;
      m.Input(I16, {2}, testing::Q(bad, 0));
      m.Output(I16, {2}, testing::Q(1.0f / 32768, 0));
      m.Op(op);
      ExpectPrepareError(m, "must be positive and finite");
    }
  }
  // Like upstream: LOGISTIC wants 2^-15 exactly, TANH within 1e-3 in log2.
  const float near = 1.0f / 32768 * 1.0002f;
  {
    OneOpModel m;
    m.Input(I16, {2}, testing::Q(1.0f / 4096, 0));
    m.Output(I16, {2}, testing::Q(near, 0));
    m.Op(kLogistic);
    ExpectPrepareError(m, "INT16 output scale must be 2^-15");
  }
  {
    OneOpModel m;
    m.Input(I16, {2}, testing::Q(1.0f / 4096, 0));
    m.Output(I16, {2}, testing::Q(near, 0));
    m.Op(kTanh);
    EXPECT_TRUE(m.Allocate()) << m.log();
  }
}

}  // namespace
}  // namespace tflite_c

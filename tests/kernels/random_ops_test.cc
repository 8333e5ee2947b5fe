// Tests of the random ops: the Philox4x32-10 and Threefry2x32-20 known-answer
// vectors of Random123 (as TensorFlow's rng_util_test quotes them), TensorFlow
// Lite's published MULTINOMIAL outputs for fixed seeds (random_ops_test.cc),
// RANDOM_UNIFORM / RANDOM_STANDARD_NORMAL against a reference written here on
// top of the checked block function, the stream continuing across invokes,
// distribution sanity on large draws, STABLEHLO_RNG_BIT_GENERATOR's state
// layout, and the shape/type errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "src/kernels/internal/counter_rng.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using kernels::internal::Philox4x32;
using kernels::internal::PhiloxBlock;
using kernels::internal::Threefry2x32;
using kernels::internal::ThreefryBlock;
using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

constexpr auto U32 = tflite::TensorType_UINT32;
constexpr auto U64 = tflite::TensorType_UINT64;
constexpr uint32_t kMax32 = 0xFFFFFFFFu;

// ---- block functions: Random123 known answers ---------------------------------

TEST(CounterRngTest, PhiloxKnownAnswers) {
  EXPECT_EQ(Philox4x32(0, 0, {0, 0, 0, 0}),
            (PhiloxBlock{0x6627E8D5u, 0xE169C58Du, 0xBC57AC4Cu, 0x9B00DBD8u}));
  EXPECT_EQ(Philox4x32(kMax32, kMax32, {kMax32, kMax32, kMax32, kMax32}),
            (PhiloxBlock{0x408F276Du, 0x41C83B0Eu, 0xA20BC7C6u, 0x6D5451FDu}));
  EXPECT_EQ(Philox4x32(0xA4093822u, 0x299F31D0u,
                       {0x243F6A88u, 0x85A308D3u, 0x13198A2Eu, 0x03707344u}),
            (PhiloxBlock{0xD16CFE09u, 0x94FDCCEBu, 0x5001E420u, 0x24126EA1u}));
}

TEST(CounterRngTest, ThreefryKnownAnswers) {
  EXPECT_EQ(Threefry2x32(0, 0, {0, 0}), (ThreefryBlock{0x6B200159u, 0x99BA4EFEu}));
  EXPECT_EQ(Threefry2x32(kMax32, kMax32, {kMax32, kMax32}),
            (ThreefryBlock{0x1CB996FCu, 0xBB002BE7u}));
  EXPECT_EQ(Threefry2x32(0x13198A2Eu, 0x03707344u, {0x243F6A88u, 0x85A308D3u}),
            (ThreefryBlock{0xC4923A9Cu, 0x483DF7A0u}));
}

// ---- reference of TensorFlow's seeding and conversions ------------------------

// Block `i` of the stream seeded with (seed, seed2): key = seed, counter =
// (i, 0, seed2) as little-endian 32-bit words.
PhiloxBlock StreamBlock(int64_t seed, int64_t seed2, uint32_t i) {
  const uint64_t k = static_cast<uint64_t>(seed), c = static_cast<uint64_t>(seed2);
  return Philox4x32(static_cast<uint32_t>(k), static_cast<uint32_t>(k >> 32),
                    {i, 0, static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32)});
}

// The low 23 bits as a fraction of 2^23.
double Unit(uint32_t w) { return static_cast<double>(w & 0x7FFFFFu) / 8388608.0; }

std::vector<float> UniformReference(int64_t seed, int64_t seed2, uint32_t first_block, int n) {
  std::vector<float> out;
  for (uint32_t b = first_block; static_cast<int>(out.size()) < n; ++b) {
    for (uint32_t w : StreamBlock(seed, seed2, b)) {
      if (static_cast<int>(out.size()) < n) out.push_back(static_cast<float>(Unit(w)));
    }
  }
  return out;
}

std::vector<double> NormalReference(int64_t seed, int64_t seed2, uint32_t first_block, int n) {
  std::vector<double> out;
  for (uint32_t b = first_block; static_cast<int>(out.size()) < n; ++b) {
    const PhiloxBlock w = StreamBlock(seed, seed2, b);
    for (int k = 0; k < 4; k += 2) {
      const double u = std::max(Unit(w[k]), 1e-7);
      const double r = std::sqrt(-2 * std::log(u));
      const double a = 2 * M_PI * Unit(w[k + 1]);
      out.push_back(r * std::sin(a));
      out.push_back(r * std::cos(a));
    }
  }
  out.resize(n);
  return out;
}

tflite::BuiltinOptionsUnion Seeds(int64_t seed, int64_t seed2) {
  tflite::RandomOptionsT o;
  o.seed = seed;
  o.seed2 = seed2;
  return Opts(o);
}

// A RANDOM_UNIFORM / RANDOM_STANDARD_NORMAL model of a constant (or fed) shape.
void BuildDistribution(OneOpModel* m, tflite::BuiltinOperator op, const Ints& shape,
                       int64_t seed, int64_t seed2, bool const_shape = true) {
  if (const_shape) {
    m->Const<int32_t>({static_cast<int>(shape.size())}, shape);
  } else {
    m->Input(I32, {static_cast<int>(shape.size())});
  }
  m->Output(F32, {});
  m->Op(op, Seeds(seed, seed2));
}

TEST(RandomUniformTest, MatchesThePhiloxStreamOfTheSeeds) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_UNIFORM, {2, 3}, 1234, 5678);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 3}));
  EXPECT_EQ(m.Get<float>(), UniformReference(1234, 5678, 0, 6));
  // Six values used two blocks; the next invoke starts at block 2.
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), UniformReference(1234, 5678, 2, 6));
}

TEST(RandomUniformTest, NegativeSeedsAreSignExtended) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_UNIFORM, {4}, -7, -1);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), UniformReference(-7, -1, 0, 4));
}

TEST(RandomUniformTest, FedShapeMakesTheOutputDynamic) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_UNIFORM, {0, 0, 0}, 1, 2, false);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {3, 1, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{3, 1, 3}));
  EXPECT_EQ(m.Get<float>(), UniformReference(1, 2, 0, 9));
}

TEST(RandomUniformTest, MeanAndVarianceOfALargeDraw) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_UNIFORM, {100, 50, 5}, 1234, 5678);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats v = m.Get<float>();
  ASSERT_EQ(v.size(), 25000u);
  double sum = 0, sq = 0;
  for (float x : v) {
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
    sum += x;
  }
  const double mean = sum / v.size();
  for (float x : v) sq += (x - mean) * (x - mean);
  EXPECT_NEAR(mean, 0.5, 0.01);
  EXPECT_NEAR(sq / v.size(), 1.0 / 12, 0.005);
}

TEST(RandomStandardNormalTest, MatchesBoxMullerOnTheStream) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {7}, 42, 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  for (uint32_t first_block : {0u, 2u}) {
    ASSERT_TRUE(m.Invoke()) << m.log();
    const Floats got = m.Get<float>();
    const std::vector<double> want = NormalReference(42, 7, first_block, 7);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << "invoke from block "
                                                                     << first_block << ", " << i;
    }
  }
}

TEST(RandomStandardNormalTest, MeanAndVarianceOfALargeDraw) {
  OneOpModel m;
  BuildDistribution(&m, tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {100, 50, 5}, 1234, 5678);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats v = m.Get<float>();
  double sum = 0, sq = 0;
  for (float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
  }
  const double mean = sum / v.size();
  for (float x : v) sq += (x - mean) * (x - mean);
  EXPECT_NEAR(mean, 0.0, 0.03);
  EXPECT_NEAR(sq / v.size(), 1.0, 0.03);
}

TEST(RandomOpsTest, ZeroSeedsDrawFreshSeedsPerModel) {
  for (auto op : {tflite::BuiltinOperator_RANDOM_UNIFORM,
                  tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL}) {
    OneOpModel a, b;
    BuildDistribution(&a, op, {64}, 0, 0);
    BuildDistribution(&b, op, {64}, 0, 0);
    ASSERT_TRUE(a.Allocate()) << a.log();
    ASSERT_TRUE(b.Allocate()) << b.log();
    ASSERT_TRUE(a.Invoke() && b.Invoke());
    const Floats first = a.Get<float>();
    EXPECT_NE(first, b.Get<float>());
    ASSERT_TRUE(a.Invoke());
    EXPECT_NE(first, a.Get<float>());
  }
}

TEST(RandomOpsTest, RejectsBadShapesAndTypes) {
  {
    OneOpModel m;
    m.Const<float>({1}, {2});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_RANDOM_UNIFORM, Seeds(1, 2));
    ExpectPrepareError(m, "RANDOM_UNIFORM: shape must be a 1-D INT32 tensor");
  }
  {
    OneOpModel m;
    m.Const<int32_t>({1, 1}, {2});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, Seeds(1, 2));
    ExpectPrepareError(m, "RANDOM_STANDARD_NORMAL: shape must be a 1-D INT32 tensor");
  }
  {
    OneOpModel m;
    m.Const<int32_t>({1}, {2});
    m.Output(I32, {});
    m.Op(tflite::BuiltinOperator_RANDOM_UNIFORM, Seeds(1, 2));
    ExpectPrepareError(m, "RANDOM_UNIFORM: output type INT32 is not supported");
  }
  {
    OneOpModel m;
    m.Const<int32_t>({2}, {2, -1});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_RANDOM_UNIFORM, Seeds(1, 2));
    ExpectPrepareError(m, "negative size -1");
  }
}

// ---- MULTINOMIAL: TensorFlow Lite's published outputs --------------------------

template <typename Index>
void ExpectMultinomial(const Floats& logits, int batch, int samples, int64_t seed, int64_t seed2,
                       const std::vector<std::vector<int64_t>>& per_invoke) {
  OneOpModel m;
  const int classes = static_cast<int>(logits.size()) / batch;
  m.Const<float>({batch, classes}, logits);
  m.Const<int32_t>({}, {samples});
  m.Output(testing::TensorTypeOf<Index>(), {});
  m.Op(tflite::BuiltinOperator_MULTINOMIAL, Seeds(seed, seed2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  for (size_t i = 0; i < per_invoke.size(); ++i) {
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (Shape{batch, samples}));
    const std::vector<Index> got = m.Get<Index>();
    EXPECT_EQ(std::vector<int64_t>(got.begin(), got.end()), per_invoke[i]) << "invoke " << i;
  }
}

TEST(MultinomialTest, UpstreamOutputsInt32) {
  ExpectMultinomial<int32_t>({-1.2039728f, -0.35667497f}, 1, 10, 1234, 5678,
                             {{1, 0, 1, 0, 1, 1, 1, 1, 1, 1},
                              {1, 1, 1, 0, 1, 1, 0, 0, 0, 1},
                              {0, 1, 1, 0, 1, 1, 1, 1, 0, 1},
                              {1, 1, 1, 0, 1, 0, 0, 0, 1, 0}});
}

TEST(MultinomialTest, UpstreamOutputsInt64) {
  ExpectMultinomial<int64_t>({-1.609438f, -1.2039728f, -0.6931472f}, 1, 15, 5678, 1234,
                             {{1, 2, 1, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2},
                              {1, 2, 0, 0, 2, 1, 2, 0, 1, 0, 2, 2, 0, 2, 2},
                              {1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2, 2},
                              {0, 1, 1, 1, 2, 0, 1, 2, 1, 1, 2, 2, 1, 2, 2},
                              {0, 2, 2, 0, 2, 0, 2, 0, 1, 1, 2, 2, 0, 0, 1}});
}

TEST(MultinomialTest, UpstreamOutputsMultiBatchMultiInvoke) {
  const Floats logits = {std::log(0.1f), std::log(0.2f), std::log(0.7f),
                         std::log(0.2f), std::log(0.3f), std::log(0.5f),
                         std::log(0.1f), std::log(0.1f), std::log(0.8f)};
  ExpectMultinomial<int64_t>(
      logits, 3, 10, 1234, 5678,
      {{2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 2, 1, 1, 2, 2, 2, 1, 2, 2, 1, 2, 2, 2, 2},
       {2, 2, 2, 0, 2, 1, 0, 0, 2, 0, 2, 0, 2, 1, 2, 2, 0, 0, 2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 2, 2},
       {2, 0, 0, 0, 1, 2, 1, 2, 0, 0, 2, 2, 2, 2, 0, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2}});
}

TEST(MultinomialTest, ClassFrequenciesFollowTheSoftmax) {
  const Floats probs = {0.1f, 0.9f, 0.25f, 0.75f, 0.5f, 0.5f};
  Floats logits;
  for (float p : probs) logits.push_back(std::log(p));
  OneOpModel m;
  m.Const<float>({3, 2}, logits);
  m.Const<int32_t>({}, {20000});
  m.Output(I64, {});
  m.Op(tflite::BuiltinOperator_MULTINOMIAL, Seeds(1, 1));
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<int64_t> out = m.Get<int64_t>();
  for (int row = 0; row < 3; ++row) {
    int ones = 0;
    for (int s = 0; s < 20000; ++s) {
      const int64_t c = out[row * 20000 + s];
      ASSERT_TRUE(c == 0 || c == 1);
      ones += static_cast<int>(c);
    }
    EXPECT_NEAR(ones / 20000.0, probs[row * 2 + 1], 0.015) << "row " << row;
  }
}

TEST(MultinomialTest, NonFiniteLogitsAreNeverDrawn) {
  const float inf = std::numeric_limits<float>::infinity();
  OneOpModel m;
  m.Const<float>({2, 4}, {-inf, 0.0f, std::nanf(""), 1.0f, inf, -inf, 3.0f, -inf});
  m.Const<int32_t>({}, {200});
  m.Output(I32, {});
  m.Op(tflite::BuiltinOperator_MULTINOMIAL, Seeds(3, 4));
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<int32_t> out = m.Get<int32_t>();
  for (int s = 0; s < 200; ++s) {
    EXPECT_TRUE(out[s] == 1 || out[s] == 3) << out[s];
    EXPECT_EQ(out[200 + s], 2);
  }
}

TEST(MultinomialTest, FedSampleCountAndErrors) {
  {
    OneOpModel m;
    m.Const<float>({1, 2}, {0.0f, 0.0f});
    m.Input(I32, {});
    m.Output(I64, {});
    m.Op(tflite::BuiltinOperator_MULTINOMIAL, Seeds(1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {5});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (Shape{1, 5}));
    m.Set<int32_t>(0, {-3});
    EXPECT_FALSE(m.Invoke());
    EXPECT_NE(m.log().find("MULTINOMIAL: num_samples -3 is negative"), std::string::npos);
  }
  struct Case {
    tflite::TensorType logits_type, out_type;
    Shape logits_shape, samples_shape;
    const char* message;
  };
  for (const Case& c : {
           Case{F32, I64, {4}, {}, "logits must be a 2-D FLOAT32 tensor"},
           Case{I32, I64, {1, 4}, {}, "logits must be a 2-D FLOAT32 tensor"},
           Case{F32, I64, {1, 0}, {}, "logits need at least one class"},
           Case{F32, I64, {1, 4}, {1}, "num_samples must be an INT32 scalar"},
           Case{F32, F32, {1, 4}, {}, "output type FLOAT32 is not supported"},
       }) {
    OneOpModel m;
    m.Input(c.logits_type, c.logits_shape);
    m.Input(I32, c.samples_shape);
    m.Output(c.out_type, {});
    m.Op(tflite::BuiltinOperator_MULTINOMIAL, Seeds(1, 2));
    ExpectPrepareError(m, std::string("MULTINOMIAL: ") + c.message);
  }
}

// ---- STABLEHLO_RNG_BIT_GENERATOR ----------------------------------------------

struct BitGenResult {
  std::vector<uint64_t> state;
  std::vector<uint32_t> words;  // the output's bytes as 32-bit words
};

BitGenResult RunBitGenerator(tflite::RngAlgorithm algorithm, const std::vector<uint64_t>& state,
                             tflite::TensorType out_type, Shape out_shape) {
  OneOpModel m;
  m.Input(U64, {static_cast<int>(state.size())});
  m.Output(U64, {static_cast<int>(state.size())});
  m.Output(out_type, out_shape);
  m.Op(tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR);
  tflite::StablehloRngBitGeneratorOptionsT o;
  o.algorithm = algorithm;
  m.builder().op(0).builtin_options_2.Set(o);
  BitGenResult r;
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<uint64_t>(0, state);
  EXPECT_TRUE(m.Invoke()) << m.log();
  r.state = m.Get<uint64_t>(0);
  r.words = m.Get<uint32_t>(1);
  return r;
}

uint64_t Pair(uint32_t lo, uint32_t hi) { return (static_cast<uint64_t>(hi) << 32) | lo; }

TEST(RngBitGeneratorTest, PhiloxStateIsKeyThenCounter) {
  // Known answers through the op: state {key, counter low, counter high}.
  const uint64_t all = ~uint64_t{0};
  BitGenResult r = RunBitGenerator(tflite::RngAlgorithm_PHILOX, {0, 0, 0}, U32, {4});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0x6627E8D5u, 0xE169C58Du, 0xBC57AC4Cu, 0x9B00DBD8u}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{0, 1, 0}));
  r = RunBitGenerator(tflite::RngAlgorithm_DEFAULT, {all, all, all}, U32, {4});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0x408F276Du, 0x41C83B0Eu, 0xA20BC7C6u, 0x6D5451FDu}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{all, 0, all}));  // the counter's low half wraps
  r = RunBitGenerator(tflite::RngAlgorithm_PHILOX,
                      {Pair(0xA4093822u, 0x299F31D0u), Pair(0x243F6A88u, 0x85A308D3u),
                       Pair(0x13198A2Eu, 0x03707344u)},
                      tflite::TensorType_INT32, {2, 2});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0xD16CFE09u, 0x94FDCCEBu, 0x5001E420u, 0x24126EA1u}));
}

TEST(RngBitGeneratorTest, PhiloxTwoWordStateReusesTheKeyAsCounterHigh) {
  const uint32_t k0 = 0x01234567u, k1 = 0x89ABCDEFu;
  const BitGenResult r =
      RunBitGenerator(tflite::RngAlgorithm_PHILOX, {Pair(k0, k1), Pair(kMax32, 7)}, U64, {3});
  // Six words: block (counter 7:FFFFFFFF), then the first two of the next one,
  // after the counter's low word carried into its second word.
  const PhiloxBlock b0 = Philox4x32(k0, k1, {kMax32, 7, k0, k1});
  const PhiloxBlock b1 = Philox4x32(k0, k1, {0, 8, k0, k1});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{b0[0], b0[1], b0[2], b0[3], b1[0], b1[1]}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{Pair(k0, k1), Pair(1, 8)}));
}

TEST(RngBitGeneratorTest, ThreefryStateIsKeyThenCounter) {
  BitGenResult r = RunBitGenerator(tflite::RngAlgorithm_THREEFRY, {0, 0}, U32, {2});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0x6B200159u, 0x99BA4EFEu}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{0, 1}));
  const uint64_t key = Pair(0x13198A2Eu, 0x03707344u);
  r = RunBitGenerator(tflite::RngAlgorithm_THREEFRY, {key, Pair(0x243F6A88u, 0x85A308D3u)}, I64,
                      {2});
  const ThreefryBlock next = Threefry2x32(0x13198A2Eu, 0x03707344u, {0x243F6A89u, 0x85A308D3u});
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0xC4923A9Cu, 0x483DF7A0u, next[0], next[1]}));
  EXPECT_EQ(r.state, (std::vector<uint64_t>{key, Pair(0x243F6A8Au, 0x85A308D3u)}));
}

TEST(RngBitGeneratorTest, RejectsBadStatesAndTypes) {
  struct Case {
    tflite::RngAlgorithm algorithm;
    tflite::TensorType state_type, out_type;
    int state_size;
    const char* message;
  };
  for (const Case& c : {
           Case{tflite::RngAlgorithm_THREEFRY, U64, U32, 3, "THREEFRY needs a state of 2 elements"},
           Case{tflite::RngAlgorithm_PHILOX, U64, U32, 4, "PHILOX needs a state of 2 or 3"},
           Case{tflite::RngAlgorithm_PHILOX, I64, U32, 2, "initial state must be a 1-D UINT64"},
           Case{tflite::RngAlgorithm_PHILOX, U64, F32, 2, "output type FLOAT32 is not supported"},
       }) {
    OneOpModel m;
    m.Input(c.state_type, {c.state_size});
    m.Output(c.state_type, {c.state_size});
    m.Output(c.out_type, {4});
    m.Op(tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR);
    tflite::StablehloRngBitGeneratorOptionsT o;
    o.algorithm = c.algorithm;
    m.builder().op(0).builtin_options_2.Set(o);
    ExpectPrepareError(m, std::string("STABLEHLO_RNG_BIT_GENERATOR: ") + c.message);
  }
}

}  // namespace
}  // namespace tflite_c

// Op table cases: DENSIFY, the hashing ops (LSH_PROJECTION, SKIP_GRAM) and
// the random ops (MULTINOMIAL, STABLEHLO_RNG_BIT_GENERATOR, RANDOM_UNIFORM,
// RANDOM_STANDARD_NORMAL).
// Expected values: DENSIFY and SKIP_GRAM by hand; LSH_PROJECTION and
// MULTINOMIAL are TensorFlow Lite's published outputs (lsh_projection_test.cc,
// random_ops_test.cc), taken as facts; STABLEHLO_RNG_BIT_GENERATOR's words
// are the Philox4x32-10 and Threefry2x32-20 known answers of Random123 for a
// zero key and counter. RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL publish no
// values: their cases check the range and moments of a 2000-value draw and
// that the same seeds give the same bytes twice.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"
#include "tests/util/sparsity.h"

namespace tflite_c {
namespace op_table {
namespace {

using testing::Csr;
using testing::Dense;

// The sparse constant (input 0) of every case gets the parameters `make` builds.
std::vector<OpCase> WithSparsity(
    std::vector<OpCase> cases, std::function<std::unique_ptr<tflite::SparsityParametersT>()> make) {
  for (OpCase& c : cases) {
    c.after_op = [make](testing::OneOpModel& m) {
      testing::ModelBuilder& b = m.builder();
      b.tensor(b.op(0).inputs[0]).sparsity = make();
    };
  }
  return cases;
}

std::vector<OpCase> DensifyCases() {
  constexpr auto kDensify = tflite::BuiltinOperator_DENSIFY;
  // [[0, 1, 0], [2, 0, 3]]: rows dense, columns CSR (row 0 holds column 1,
  // row 1 columns 0 and 2).
  std::vector<OpCase> cases = WithSparsity(
      Cases({{"CsrMatrix", kDensify, {}, {Const(F32({2, 3}, {1, 2, 3}))},
              F32({2, 3}, {0, 1, 0, 2, 0, 3})}}),
      [] {
        auto s = std::make_unique<tflite::SparsityParametersT>();
        s->traversal_order = {0, 1};
        s->dim_metadata.push_back(Dense(2));
        s->dim_metadata.push_back(Csr({0, 1, 3}, {1, 0, 2}));
        return s;
      });
  // A 4x4 matrix in 2x2 blocks: block rows dense, block columns CSR (block
  // row 0 holds block column 0, block row 1 block column 1), each block's
  // 2x2 values dense.
  Append(&cases, WithSparsity(
      Cases({{"Blocks2x2", kDensify, {}, {Const(F32({4, 4}, {1, 2, 3, 4, 0, 0, 5, 6}))},
              F32({4, 4}, {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6})}}),
      [] {
        auto s = std::make_unique<tflite::SparsityParametersT>();
        s->traversal_order = {0, 1, 2, 3};
        s->block_map = {0, 1};
        s->dim_metadata.push_back(Dense(2));
        s->dim_metadata.push_back(Csr({0, 1, 2}, {0, 1}));
        s->dim_metadata.push_back(Dense(2));
        s->dim_metadata.push_back(Dense(2));
        return s;
      }));
  return cases;
}

tflite::BuiltinOptionsUnion Lsh(tflite::LSHProjectionType type) {
  tflite::LSHProjectionOptionsT o;
  o.type = type;
  return Opts(o);
}

tflite::BuiltinOptionsUnion SkipGram(int ngram, int max_skip, bool all) {
  tflite::SkipGramOptionsT o;
  o.ngram_size = ngram;
  o.max_skip_size = max_skip;
  o.include_all_ngrams = all;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Seeds(int64_t seed, int64_t seed2) {
  tflite::RandomOptionsT o;
  o.seed = seed;
  o.seed2 = seed2;
  return Opts(o);
}

// clang-format off
std::vector<OpCase> HashingCases() {
  constexpr auto kLsh = tflite::BuiltinOperator_LSH_PROJECTION;
  constexpr auto kSkipGram = tflite::BuiltinOperator_SKIP_GRAM;
  constexpr auto kDense = tflite::LSHProjectionType_DENSE;
  constexpr auto kSparse = tflite::LSHProjectionType_SPARSE;
  // Upstream's three hash functions of two seeds each.
  auto seeds = [] { return Const(F32({3, 2}, {0.123, 0.456, -0.321, 1.234, 5.678, -4.321})); };
  auto keys = [] { return Const(I32({5}, {12345, 54321, 67890, 9876, -12345678})); };
  return Cases({
      {"Dense1D", kLsh, Lsh(kDense), {seeds(), keys(), Const(F32({5}, {1, 1, 1, 1, 1}))},
       I32({6}, {0, 0, 0, 1, 0, 0})},
      // SPARSE: hash k's bucket plus k * 2^bits.
      {"Sparse1D", kLsh, Lsh(kSparse), {seeds(), keys()}, I32({3}, {0, 4 + 1, 8 + 0})},
      {"Sparse3D", kLsh, Lsh(kSparse),
       {seeds(), Const(I32({5, 2, 2}, {1234, 2345, 3456, 1234, 4567, 5678, 6789, 4567, 7891, 8912,
                                       9123, 7890, -987, -876, -765, -987, -543, -432, -321, -543})),
        Const(F32({5}, {0.12, 0.34, 0.56, 0.67, 0.78}))},
       I32({3}, {0 + 2, 4 + 1, 8 + 1})},
      {"UnknownType", kLsh, Lsh(tflite::LSHProjectionType_UNKNOWN), {seeds(), keys()}, I32({3}, {}),
       Outcome::kPrepareFails, "projection type must be SPARSE or DENSE"},
      // Bigrams skipping at most one word, each start's grams before the next start's.
      {"Skip1Bigrams", kSkipGram, SkipGram(2, 1, false), {Str({1}, {"a b c"})},
       Str({3}, {"a b", "a c", "b c"})},
      // With the shorter grams: each gram right after its extensions.
      {"AllUpToBigrams", kSkipGram, SkipGram(2, 0, true), {Str({1}, {"a b c"})},
       Str({5}, {"a b", "a", "b c", "b", "c"})},
      {"NegativeNgram", kSkipGram, SkipGram(-1, 0, false), {Str({1}, {"a"})}, Str({1}, {}),
       Outcome::kPrepareFails, "ngram_size must be given and not negative"},
  });
}

std::vector<OpCase> RandomHandCases() {
  constexpr auto kMultinomial = tflite::BuiltinOperator_MULTINOMIAL;
  constexpr auto kBits = tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR;
  constexpr auto kU32 = tflite::TensorType_UINT32;
  constexpr auto kU64 = tflite::TensorType_UINT64;
  std::vector<OpCase> cases = Cases({
      {"UpstreamInt32", kMultinomial, Seeds(1234, 5678),
       {Const(F32({1, 2}, {-1.2039728, -0.35667497})), Const(I32({}, {10}))},
       I32({1, 10}, {1, 0, 1, 0, 1, 1, 1, 1, 1, 1})},
      {"UpstreamInt64", kMultinomial, Seeds(5678, 1234),
       {Const(F32({1, 3}, {-1.609438, -1.2039728, -0.6931472})), Const(I32({}, {15}))},
       I64({1, 15}, {1, 2, 1, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2})},
  });
  // State {key, counter low, counter high} -> the state with the counter
  // moved past one block, and the block's words.
  tflite::StablehloRngBitGeneratorOptionsT philox;
  philox.algorithm = tflite::RngAlgorithm_PHILOX;
  tflite::StablehloRngBitGeneratorOptionsT threefry;
  threefry.algorithm = tflite::RngAlgorithm_THREEFRY;
  Append(&cases, WithOptions2(Cases({
      Hand("PhiloxZeroState", kBits, {}, {In({3}, {0, 0, 0}, kU64)}, In({3}, {0, 1, 0}, kU64))
          .And(In({4}, {0x6627E8D5u, 0xE169C58Du, 0xBC57AC4Cu, 0x9B00DBD8u}, kU32)),
  }), philox));
  Append(&cases, WithOptions2(Cases({
      Hand("ThreefryZeroState", kBits, {}, {In({2}, {0, 0}, kU64)}, In({2}, {0, 1}, kU64))
          .And(In({2}, {0x6B200159u, 0x99BA4EFEu}, kU32)),
  }), threefry));
  return cases;
}
// clang-format on

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double Variance(const std::vector<double>& v) {
  const double m = Mean(v);
  double sum = 0;
  for (double x : v) sum += (x - m) * (x - m);
  return sum / static_cast<double>(v.size());
}

// A draw of 40x50 values from fixed seeds, checked by `property`.
OpCase Distribution(const std::string& name, BuiltinOperator op,
                    std::function<std::string(const std::vector<double>&)> property) {
  OpCase c;
  c.name = std::string(tflite::EnumNameBuiltinOperator(op)) + "_" + name;
  c.op = op;
  c.inputs = {Ints({2}, {40, 50})};
  c.ref = Expect({FTensor{{40, 50}, {}}});
  c.types = kF;
  c.options = [] { return Seeds(1234, 5678); };
  c.property = [property](const std::vector<std::vector<double>>& out) {
    return property(out[0]);
  };
  return c;
}

std::string Moments(const std::vector<double>& v, double mean, double variance, double tol) {
  const double m = Mean(v), var = Variance(v);
  if (std::fabs(m - mean) > tol || std::fabs(var - variance) > tol) {
    return "mean " + std::to_string(m) + ", variance " + std::to_string(var) + "; want " +
           std::to_string(mean) + " and " + std::to_string(variance) + " within " +
           std::to_string(tol);
  }
  return "";
}

std::vector<OpCase> DistributionCases() {
  return {
      // Uniform on [0, 1): mean 1/2, variance 1/12.
      Distribution("UnitRangeAndMoments", tflite::BuiltinOperator_RANDOM_UNIFORM,
                   [](const std::vector<double>& v) -> std::string {
                     const auto mm = std::minmax_element(v.begin(), v.end());
                     if (*mm.first < 0 || *mm.second >= 1) return "a value outside [0, 1)";
                     return Moments(v, 0.5, 1.0 / 12, 0.03);
                   }),
      Distribution("Moments", tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL,
                   [](const std::vector<double>& v) -> std::string {
                     for (double x : v) {
                       if (!std::isfinite(x)) return "a value that is not finite";
                     }
                     return Moments(v, 0, 1, 0.15);
                   }),
  };
}

}  // namespace

std::vector<OpCase> HashRandomCases() {
  std::vector<OpCase> cases;
  for (auto gen : {DensifyCases, HashingCases, RandomHandCases, DistributionCases}) {
    Append(&cases, gen());
  }
  return cases;
}

}  // namespace op_table
}  // namespace tflite_c

// Tests of LSH_PROJECTION and SKIP_GRAM.
// LSH_PROJECTION: FarmHash Fingerprint64 against published fingerprints
// (TensorFlow's fingerprint_test, Guava's FarmHashFingerprint64Test, Airship's
// FarmHash test data) covering every length class, then TensorFlow Lite's
// published projections (lsh_projection_test.cc, little-endian values).
// SKIP_GRAM: TensorFlow Lite's published skip-grams of its test sentence
// (skip_gram_test.cc, unordered there), a brute-force reference written here
// (every increasing choice of word positions with small enough gaps),
// upstream's depth-first output order and word-splitting quirks.
// Both: the type, shape and option errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "src/kernels/internal/fingerprint64.h"
#include "tests/kernels/string_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ExpectAllocateError;
using testing::ModelBuilder;
using testing::ModelRunner;
using Strings = std::vector<std::string>;

constexpr auto STRING = tflite::TensorType_STRING;
using Shape = std::vector<int>;

// ---- LSH_PROJECTION --------------------------------------------------------------

uint64_t Fingerprint(const std::string& s) {
  return kernels::internal::Fingerprint64(s.data(), s.size());
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(Fingerprint64Test, PublishedValuesOfEveryLengthClass) {
  EXPECT_EQ(Fingerprint(""), 0x9AE16A3B2F90404Full);                   // 0 bytes
  EXPECT_EQ(Fingerprint("Hello"), 15404698994557526151ull);             // 4-7
  EXPECT_EQ(Fingerprint("World"), 18308117990299812472ull);
  EXPECT_EQ(Fingerprint("test"), 8581389452482819506ull);
  EXPECT_EQ(Fingerprint("/dWQW6&i7h$1@"), 11452602314494946942ull);     // 8-16
  EXPECT_EQ(Fingerprint("dXB@tDQ-v5<H]rq2Pcc*s>nC-[Mdy"), 8365906589669344754ull);  // 17-32
  EXPECT_EQ(Fingerprint(Repeat("test", 8)), static_cast<uint64_t>(-4196240717365766262ll));
  EXPECT_EQ(Fingerprint("2/?98ns)xbzEVL^:wCS$7l3@_g!zP^<D.-bd6"), 9728733090894310797ull);  // 33-64
  EXPECT_EQ(Fingerprint("F7479877-4690-4A44-AFC9-8FE987EA512F:some_other_id"),
            6862335115798125349ull);
  EXPECT_EQ(Fingerprint(Repeat("test", 64)), 3500507768004279527ull);  // over 64
}

struct LshCase {
  tflite::LSHProjectionType type;
  Shape input_shape;
  std::vector<int32_t> input;
  std::vector<float> weight;  // empty: no weight input
  std::vector<int32_t> want;
};

const std::vector<float> kSeeds = {0.123f, 0.456f, -0.321f, 1.234f, 5.678f, -4.321f};

void ExpectLsh(const LshCase& c) {
  ModelBuilder b;
  const int hash = b.AddConstant<float>({3, 2}, kSeeds);
  const int in = b.AddConstant<int32_t>(c.input_shape, c.input);
  std::vector<int> inputs = {hash, in};
  if (!c.weight.empty()) {
    inputs.push_back(b.AddConstant<float>({static_cast<int>(c.weight.size())}, c.weight));
  }
  const int out = b.AddOutput(tflite::TensorType_INT32, {1});
  tflite::LSHProjectionOptionsT o;
  o.type = c.type;
  b.AddOperator(tflite::BuiltinOperator_LSH_PROJECTION, inputs, {out}, o);
  ModelRunner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int32_t>(), c.want);
}

TEST(LshProjectionTest, UpstreamDense1DInputs) {
  ExpectLsh({tflite::LSHProjectionType_DENSE, {5}, {12345, 54321, 67890, 9876, -12345678},
             {1, 1, 1, 1, 1}, {0, 0, 0, 1, 0, 0}});
}

TEST(LshProjectionTest, UpstreamSparse1DInputs) {
  ExpectLsh({tflite::LSHProjectionType_SPARSE, {5}, {12345, 54321, 67890, 9876, -12345678}, {},
             {0 + 0, 4 + 1, 8 + 0}});
}

TEST(LshProjectionTest, UpstreamSparse3DInputs) {
  // 16-byte items: 20-byte keys.
  ExpectLsh({tflite::LSHProjectionType_SPARSE,
             {5, 2, 2},
             {1234, 2345, 3456, 1234, 4567, 5678, 6789, 4567, 7891, 8912,
              9123, 7890, -987, -876, -765, -987, -543, -432, -321, -543},
             {0.12f, 0.34f, 0.56f, 0.67f, 0.78f},
             {0 + 2, 4 + 1, 8 + 1}});
}

TEST(LshProjectionTest, RejectsBadShapesTypesAndOptions) {
  struct Case {
    Shape hash_shape, input_shape, weight_shape;
    tflite::LSHProjectionType type;
    const char* message;
  };
  for (const Case& c : {
           Case{{6}, {5}, {}, tflite::LSHProjectionType_DENSE, "hash seeds must be a 2-D FLOAT32"},
           Case{{1, 33}, {5}, {}, tflite::LSHProjectionType_DENSE, "33 bits per hash"},
           Case{{3, 2}, {}, {}, tflite::LSHProjectionType_DENSE, "input must have rank >= 1"},
           Case{{3, 2}, {5}, {4}, tflite::LSHProjectionType_DENSE, "weight must be FLOAT32 [5]"},
           Case{{3, 31}, {5}, {}, tflite::LSHProjectionType_SPARSE,
                "SPARSE needs bits + ceil(log2(hashes)) <= 32, got 31 bits and 3 hashes"},
           Case{{3, 2}, {5}, {}, tflite::LSHProjectionType_UNKNOWN,
                "projection type must be SPARSE or DENSE"},
       }) {
    ModelBuilder b;
    std::vector<int> inputs = {b.AddInput(tflite::TensorType_FLOAT32, c.hash_shape),
                               b.AddInput(tflite::TensorType_INT32, c.input_shape)};
    if (!c.weight_shape.empty()) {
      inputs.push_back(b.AddInput(tflite::TensorType_FLOAT32, c.weight_shape));
    }
    const int out = b.AddOutput(tflite::TensorType_INT32, {1});
    tflite::LSHProjectionOptionsT o;
    o.type = c.type;
    b.AddOperator(tflite::BuiltinOperator_LSH_PROJECTION, inputs, {out}, o);
    ExpectAllocateError(b, std::string("LSH_PROJECTION: ") + c.message);
  }
}

// ---- SKIP_GRAM ----------------------------------------------------------------------

constexpr char kSentence[] = "The quick\t brown fox\n jumps over\n the lazy dog!";

ModelBuilder SkipGramModel(const std::string& sentence, int ngram, int max_skip, bool all,
                           tflite::TensorType out_type = STRING) {
  ModelBuilder b;
  const std::vector<uint8_t> bytes = testing::EncodeStrings({sentence});
  const int in = b.AddConstantBytes(STRING, {1}, bytes);
  const int out = b.AddOutput(out_type, {1});
  tflite::SkipGramOptionsT o;
  o.ngram_size = ngram;
  o.max_skip_size = max_skip;
  o.include_all_ngrams = all;
  b.AddOperator(tflite::BuiltinOperator_SKIP_GRAM, {in}, {out}, o);
  return b;
}

Strings SkipGrams(const std::string& sentence, int ngram, int max_skip, bool all) {
  ModelRunner r(SkipGramModel(sentence, ngram, max_skip, all));
  EXPECT_TRUE(r.Allocate()) << r.log();
  EXPECT_TRUE(r.Invoke()) << r.log();
  return testing::ReadStrings(r.output(0));
}

Strings Sorted(Strings s) {
  std::sort(s.begin(), s.end());
  return s;
}

// Every gram by brute force: all increasing position sequences whose
// consecutive gaps skip at most `max_skip` words.
Strings Reference(const Strings& words, int ngram, int max_skip, bool all) {
  Strings out;
  const int n = static_cast<int>(words.size());
  std::vector<int> pos;
  auto visit = [&](auto&& self) -> void {
    const int size = static_cast<int>(pos.size());
    if (size > 0 && (all ? size <= ngram : size == ngram)) {
      std::string g;
      for (int p : pos) g += (g.empty() ? "" : " ") + words[p];
      out.push_back(g);
    }
    if (size == ngram) return;
    const int first = size == 0 ? 0 : pos.back() + 1;
    const int last = size == 0 ? n - 1 : std::min(n - 1, pos.back() + 1 + max_skip);
    for (int p = first; p <= last; ++p) {
      pos.push_back(p);
      self(self);
      pos.pop_back();
    }
  };
  if (n >= ngram) visit(visit);
  return out;
}

const Strings kWords = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog!"};

TEST(SkipGramTest, UpstreamSkip1Bigrams) {
  EXPECT_EQ(Sorted(SkipGrams(kSentence, 2, 1, false)),
            Sorted({"The quick", "The brown", "quick brown", "quick fox", "brown fox",
                    "brown jumps", "fox jumps", "fox over", "jumps over", "jumps the",
                    "over the", "over lazy", "the lazy", "the dog!", "lazy dog!"}));
}

TEST(SkipGramTest, UpstreamSkip1Trigrams) {
  EXPECT_EQ(Sorted(SkipGrams(kSentence, 3, 1, false)),
            Sorted({"The quick brown", "The quick fox",    "The brown fox",   "The brown jumps",
                    "quick brown fox", "quick brown jumps", "quick fox jumps", "quick fox over",
                    "brown fox jumps", "brown fox over",   "brown jumps over", "brown jumps the",
                    "fox jumps over",  "fox jumps the",    "fox over the",    "fox over lazy",
                    "jumps over the",  "jumps over lazy",  "jumps the lazy",  "jumps the dog!",
                    "over the lazy",   "over the dog!",    "over lazy dog!",  "the lazy dog!"}));
}

TEST(SkipGramTest, MatchesBruteForceForManyOptions) {
  for (int ngram = 1; ngram <= 4; ++ngram) {
    for (int skip = 0; skip <= 3; ++skip) {
      for (bool all : {false, true}) {
        EXPECT_EQ(Sorted(SkipGrams(kSentence, ngram, skip, all)),
                  Sorted(Reference(kWords, ngram, skip, all)))
            << ngram << " " << skip << " " << all;
      }
    }
  }
}

TEST(SkipGramTest, DepthFirstOrderAsUpstream) {
  // Each gram comes after all of its extensions.
  EXPECT_EQ(SkipGrams("a b c", 2, 0, true), (Strings{"a b", "a", "b c", "b", "c"}));
  EXPECT_EQ(SkipGrams("a b c", 2, 1, false), (Strings{"a b", "a c", "b c"}));
}

TEST(SkipGramTest, WordSplittingAsUpstream) {
  EXPECT_EQ(SkipGrams("   Hello   world    !  ", 1, 1, false), (Strings{"Hello", "world", "!"}));
  EXPECT_EQ(SkipGrams("Hi", 1, 1, false), (Strings{"Hi"}));
  EXPECT_EQ(SkipGrams("Hi hi", 3, 1, false), Strings{});
  EXPECT_EQ(SkipGrams("", 1, 1, false), Strings{});
  EXPECT_EQ(SkipGrams("    ", 1, 1, false), Strings{});
  EXPECT_EQ(SkipGrams("a b", 0, 1, true), Strings{});
  // Upstream never takes the first character for a separator: one leading
  // whitespace character drops the first word, or stays in a lone word.
  EXPECT_EQ(SkipGrams(" one two", 1, 0, false), (Strings{"two"}));
  EXPECT_EQ(SkipGrams("\tx", 1, 0, false), (Strings{"\tx"}));
}

TEST(SkipGramTest, RejectsBadTypesAndOptions) {
  ExpectAllocateError(SkipGramModel("a", 1, 0, false, tflite::TensorType_INT32),
                      "SKIP_GRAM: output type INT32 is not supported");
  ExpectAllocateError(SkipGramModel("a", -1, 0, false),
                      "SKIP_GRAM: ngram_size must be given and not negative");
}

}  // namespace
}  // namespace tflite_c

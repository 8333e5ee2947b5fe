// Tests of SKIP_GRAM: TensorFlow Lite's published skip-grams of its test
// sentence (skip_gram_test.cc, unordered there), a brute-force reference
// written here (every increasing choice of word positions with small enough
// gaps), upstream's depth-first output order and word-splitting quirks, and
// the type and option errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

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

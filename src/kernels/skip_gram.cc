// SKIP_GRAM (sentence: STRING) -> STRING[k]: the skip-grams of the words of
// the input's first string, each written as its words joined by one space.
//
// Words are split at C isspace() characters the way upstream does it, quirks
// included: a run of whitespace separates words, but the very first
// character is never taken for a separator, so a sentence opening with a
// single whitespace character loses its first word, and one holding a single
// word after it keeps that character ("\tx" -> "\tx").
//
// A skip-gram is a sequence of words in sentence order in which each word
// follows the previous one with at most `max_skip_size` words left out in
// between; its size is `ngram_size`, or 1 to `ngram_size` with
// `include_all_ngrams`. The grams come in upstream's order: a depth-first
// walk from each first word, each gram after all of its extensions
// ("a b", "a" before "b ...").
#include <cctype>
#include <new>
#include <string>
#include <vector>

#include "src/core/string_util.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SKIP_GRAM";

struct Word {
  const char* text;
  int length;
};

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::vector<Word> SplitWords(const char* s, int length) {
  std::vector<Word> words;
  int start = 0;
  for (int i = 1; i < length; ++i) {
    if (!IsSpace(s[i])) continue;
    if (i > start && !IsSpace(s[start])) words.push_back({s + start, i - start});
    start = i + 1;
  }
  if (length > start) words.push_back({s + start, length - start});
  return words;
}

// Appends every gram to `grams` in upstream's order.
void CollectGrams(const std::vector<Word>& words, const TfLiteSkipGramParams& p,
                  std::vector<std::string>* grams) {
  const int n = p.ngram_size;
  const int num_words = static_cast<int>(words.size());
  if (n < 1 || num_words < n) return;
  auto keep = [&](int size) {
    return size > 0 && (p.include_all_ngrams ? size <= n : size == n);
  };
  // picked[0..depth) are the word indices of the current gram; picked[depth]
  // is the last word tried at `depth` (the next one is picked[depth] + 1).
  std::vector<int> picked(n, 0);
  int depth = 1;
  while (depth >= 0) {
    const bool can_extend =
        depth < n && picked[depth] + 1 < num_words &&
        (depth == 0 || picked[depth] - picked[depth - 1] <= p.max_skip_size);
    if (can_extend) {
      ++picked[depth];
      ++depth;
      if (depth < n) picked[depth] = picked[depth - 1];
      continue;
    }
    if (keep(depth)) {
      std::string gram;
      for (int i = 0; i < depth; ++i) {
        if (i > 0) gram.push_back(' ');
        gram.append(words[picked[i]].text, words[picked[i]].length);
      }
      grams->push_back(std::move(gram));
    }
    --depth;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "input", input, kTfLiteString));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteString));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteSkipGramParams*>(node->builtin_data);
  if (params->ngram_size < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: ngram_size must be given and not negative", kOp);
    return kTfLiteError;
  }
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& params = *static_cast<const TfLiteSkipGramParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const char* sentence;
  int length;
  if (!StringTensorGet(input, 0, &sentence, &length)) {
    TF_LITE_KERNEL_LOG(context, "%s: input holds no well-formed string", kOp);
    return kTfLiteError;
  }
  std::vector<std::string> grams;
  std::vector<const char*> texts;
  std::vector<int> lengths;
  try {
    CollectGrams(SplitWords(sentence, length), params, &grams);
    for (const std::string& g : grams) {
      texts.push_back(g.data());
      lengths.push_back(static_cast<int>(g.size()));
    }
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for the grams", kOp);
    return kTfLiteError;
  }
  return StringTensorWrite(internal::OutputAt(context, node, 0), texts.data(), lengths.data(),
                           static_cast<int>(grams.size()));
}

}  // namespace

const TfLiteRegistration* Register_SKIP_GRAM() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

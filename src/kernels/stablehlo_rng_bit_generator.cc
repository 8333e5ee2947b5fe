// STABLEHLO_RNG_BIT_GENERATOR (initial_state UINT64[n]) -> (new_state
// UINT64[n], output): fills `output` (INT32, UINT32, INT64 or UINT64, of the
// shape the model declares) with raw random bits and returns the state to
// continue from, as TensorFlow Lite's kernel does.
//
// The state is read as 32-bit words, word 2i and 2i + 1 being the low and
// high halves of state[i]. Words 0-1 are the key; the counter's low 64 bits
// are words 2-3 and advance by one per block (without carry into the rest).
//   THREEFRY (n = 2): Threefry2x32-20, two words per block.
//   PHILOX and DEFAULT (n = 2 or 3): Philox4x32-10, four words per block; the
//     counter's high 64 bits are words 4-5 when n = 3, else the key words
//     again (upstream's choice).
// The output takes the words in order (a 64-bit element is two words, low
// first); words left over in the last block are dropped. new_state is the
// initial state with words 2-3 replaced by the advanced counter.
#include <cstdint>

#include "src/kernels/internal/counter_rng.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "STABLEHLO_RNG_BIT_GENERATOR";

TfLiteRngAlgorithm AlgorithmOf(const TfLiteNode* node) {
  return static_cast<const TfLiteStablehloRngBitGeneratorParams*>(node->builtin_data)->algorithm;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 2));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor* state;
  TfLiteTensor *new_state, *output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &state));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &new_state));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 1, kOp, &output));
  if (state->type != kTfLiteUInt64 || internal::NumDims(state) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: initial state must be a 1-D UINT64 tensor", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "new state", new_state,
                                                  kTfLiteUInt64));
  if (output->type != kTfLiteInt32 && output->type != kTfLiteUInt32 &&
      output->type != kTfLiteInt64 && output->type != kTfLiteUInt64) {
    return internal::UnsupportedType(context, kOp, "output", output->type);
  }
  const int words = internal::Dim(state, 0);
  switch (AlgorithmOf(node)) {
    case kTfLiteRngAlgorithmThreefry:
      if (words != 2) {
        TF_LITE_KERNEL_LOG(context, "%s: THREEFRY needs a state of 2 elements, got %d", kOp,
                           words);
        return kTfLiteError;
      }
      break;
    case kTfLiteRngAlgorithmPhilox:
    case kTfLiteRngAlgorithmDefault:
      if (words != 2 && words != 3) {
        TF_LITE_KERNEL_LOG(context, "%s: PHILOX needs a state of 2 or 3 elements, got %d", kOp,
                           words);
        return kTfLiteError;
      }
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: unknown algorithm %d", kOp,
                         static_cast<int>(AlgorithmOf(node)));
      return kTfLiteError;
  }
  if (internal::IsDynamic(output)) {
    TF_LITE_KERNEL_LOG(context, "%s: the output shape must be static", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, new_state, state->dims));
  return internal::ResizeOutputLike(context, output, output->dims);
}

// Writes `count` words from consecutive blocks of `generate(c0, c1)`,
// stepping the 64-bit counter (c0, c1) after each block.
template <typename Generate>
void FillWords(uint32_t* c0, uint32_t* c1, int64_t count, uint32_t* out, Generate generate) {
  for (int64_t i = 0; i < count;) {
    const auto block = generate(*c0, *c1);
    for (size_t k = 0; k < block.size() && i < count; ++k) out[i++] = block[k];
    if (++*c0 == 0) ++*c1;
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* state = internal::InputAt(context, node, 0);
  TfLiteTensor* new_state = internal::OutputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 1);
  const int n = internal::Dim(state, 0);  // 2 or 3 (Prepare)
  uint32_t s[6] = {0};
  for (int i = 0; i < n; ++i) {
    s[2 * i] = static_cast<uint32_t>(state->data.u64[i]);
    s[2 * i + 1] = static_cast<uint32_t>(state->data.u64[i] >> 32);
  }
  const bool wide = output->type == kTfLiteInt64 || output->type == kTfLiteUInt64;
  const int64_t count = internal::NumElements(output) * (wide ? 2 : 1);
  // Both 64-bit halves are written in memory order, low word first: the
  // library targets little-endian hosts, where that is the element's value.
  uint32_t* words = output->data.u32;
  const uint32_t key0 = s[0], key1 = s[1];
  if (AlgorithmOf(node) == kTfLiteRngAlgorithmThreefry) {
    FillWords(&s[2], &s[3], count, words, [&](uint32_t c0, uint32_t c1) {
      return internal::Threefry2x32(key0, key1, {c0, c1});
    });
  } else {
    const uint32_t high0 = n == 3 ? s[4] : s[0], high1 = n == 3 ? s[5] : s[1];
    FillWords(&s[2], &s[3], count, words, [&](uint32_t c0, uint32_t c1) {
      return internal::Philox4x32(key0, key1, {c0, c1, high0, high1});
    });
  }
  for (int i = 0; i < n; ++i) {
    new_state->data.u64[i] = (static_cast<uint64_t>(s[2 * i + 1]) << 32) | s[2 * i];
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_STABLEHLO_RNG_BIT_GENERATOR() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

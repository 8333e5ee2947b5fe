// RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL: TensorFlow's
// stateful random ops on a Philox4x32-10 stream (internal/counter_rng.h), so a
// seed gives TensorFlow Lite's exact numbers.
//
//   RANDOM_UNIFORM (shape) -> FLOAT32 in [0, 1): one value per 32-bit word.
//   RANDOM_STANDARD_NORMAL (shape) -> FLOAT32: Box-Muller on pairs of words.
//   MULTINOMIAL (logits [batch, classes] FLOAT32, num_samples INT32 scalar)
//     -> [batch, num_samples] INT32 or INT64 class indices, each drawn from
//     the softmax of its row (non-finite logits have probability zero; a row
//     with none finite yields `classes`, as upstream).
//
// Seeding happens in Prepare, so every AllocateTensors restarts the stream:
// key = seed, counter's upper half = seed2 (each sign-extended to 64 bits).
// When both are 0 the seeds are drawn from a process-wide generator seeded by
// std::random_device, so every node and every Prepare differs. Each Invoke
// continues the stream: uniform and normal consume whole 128-bit blocks (the
// unused words of the last one are dropped); MULTINOMIAL samples from a copy
// of the stream and moves the stream on by a fixed, generous number of blocks,
// as TensorFlow does.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <new>
#include <random>
#include <vector>

#include "src/kernels/internal/counter_rng.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::PhiloxBlock;
using internal::PhiloxStream;

struct RandomData {
  PhiloxStream stream;
};

// A 64-bit value no run of the process can predict.
uint64_t NondeterministicSeed() {
  static std::mutex mutex;
  static std::mt19937_64* generator = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (generator == nullptr) {
    uint64_t seed;
    try {
      std::random_device device;
      seed = (static_cast<uint64_t>(device()) << 32) ^ device();
    } catch (...) {
      seed = static_cast<uint64_t>(
          std::chrono::high_resolution_clock::now().time_since_epoch().count());
    }
    static std::mt19937_64 instance(seed);
    generator = &instance;
  }
  return (*generator)();
}

void SeedStream(const TfLiteNode* node, RandomData* data) {
  const auto* params = static_cast<const TfLiteRandomParams*>(node->builtin_data);
  uint64_t seed = static_cast<uint64_t>(static_cast<int64_t>(params->seed));
  uint64_t seed2 = static_cast<uint64_t>(static_cast<int64_t>(params->seed2));
  if (seed == 0 && seed2 == 0) {
    seed = NondeterministicSeed();
    seed2 = NondeterministicSeed();
  }
  data->stream = PhiloxStream(seed, seed2);
}

// ---- RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL ------------------------------

template <const char* kOp>
TfLiteStatus ResizeFromShape(TfLiteContext* context, TfLiteNode* node) {
  return internal::ResizeOutputToShapeInput(context, node, 0, kOp, "shape");
}

template <const char* kOp>
TfLiteStatus PrepareDistribution(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const TfLiteTensor* shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &shape));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (shape->type != kTfLiteInt32 || internal::NumDims(shape) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: shape must be a 1-D INT32 tensor", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  SeedStream(node, static_cast<RandomData*>(node->user_data));
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(shape),
                                 ResizeFromShape<kOp>);
}

// Fills `count` floats, `per_block` of them (at most 4) from each Philox
// block by `convert(block, values)`.
template <typename Convert>
void FillFromBlocks(PhiloxStream* stream, float* out, int64_t count, Convert convert) {
  float values[4];
  for (int64_t i = 0; i < count; i += 4) {
    convert(stream->Next(), values);
    const int64_t n = std::min<int64_t>(4, count - i);
    std::copy(values, values + n, out + i);
  }
}

constexpr char kUniform[] = "RANDOM_UNIFORM";
constexpr char kNormal[] = "RANDOM_STANDARD_NORMAL";

TfLiteStatus EvalUniform(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeFromShape<kUniform>));
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  FillFromBlocks(&static_cast<RandomData*>(node->user_data)->stream, output->data.f,
                 internal::NumElements(output), [](const PhiloxBlock& block, float* values) {
                   for (int k = 0; k < 4; ++k) values[k] = internal::UnitFloatFromBits(block[k]);
                 });
  return kTfLiteOk;
}

TfLiteStatus EvalNormal(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeFromShape<kNormal>));
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  FillFromBlocks(&static_cast<RandomData*>(node->user_data)->stream, output->data.f,
                 internal::NumElements(output), [](const PhiloxBlock& block, float* values) {
                   internal::BoxMuller(block[0], block[1], &values[0], &values[1]);
                   internal::BoxMuller(block[2], block[3], &values[2], &values[3]);
                 });
  return kTfLiteOk;
}

// ---- MULTINOMIAL ----------------------------------------------------------------

constexpr char kMultinomial[] = "MULTINOMIAL";

TfLiteStatus ResizeMultinomial(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* logits = internal::InputAt(context, node, 0);
  const int32_t num_samples = internal::InputAt(context, node, 1)->data.i32[0];
  if (num_samples < 0) {
    TF_LITE_KERNEL_LOG(context, "%s: num_samples %d is negative", kMultinomial, num_samples);
    return kTfLiteError;
  }
  return internal::ResizeOutput(context, internal::OutputAt(context, node, 0),
                                {internal::Dim(logits, 0), num_samples});
}

TfLiteStatus PrepareMultinomial(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kMultinomial, 2, 2, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kMultinomial));
  const TfLiteTensor *logits, *num_samples;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kMultinomial, &logits));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kMultinomial, &num_samples));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kMultinomial, &output));
  if (logits->type != kTfLiteFloat32 || internal::NumDims(logits) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: logits must be a 2-D FLOAT32 tensor", kMultinomial);
    return kTfLiteError;
  }
  if (internal::Dim(logits, 1) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: logits need at least one class", kMultinomial);
    return kTfLiteError;
  }
  if (num_samples->type != kTfLiteInt32 || internal::NumDims(num_samples) != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: num_samples must be an INT32 scalar", kMultinomial);
    return kTfLiteError;
  }
  if (output->type != kTfLiteInt32 && output->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kMultinomial, "output", output->type);
  }
  SeedStream(node, static_cast<RandomData*>(node->user_data));
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(num_samples),
                                 ResizeMultinomial);
}

// Draws the samples of every row from `stream`, two words per sample, the
// words of one block shared across row boundaries.
template <typename Index>
void SampleRows(PhiloxStream stream, const float* logits, int batch, int classes,
                int num_samples, std::vector<double>* cdf, Index* out) {
  PhiloxBlock block{};
  int used = 4;
  for (int row = 0; row < batch; ++row) {
    const float* x = logits + static_cast<int64_t>(row) * classes;
    float max_logit = std::numeric_limits<float>::lowest();
    for (int c = 0; c < classes; ++c) {
      if (std::isfinite(x[c])) max_logit = std::max(max_logit, x[c]);
    }
    // Unnormalized cumulative probabilities, shifted by the maximum so that
    // exp cannot overflow.
    double total = 0.0;
    for (int c = 0; c < classes; ++c) {
      if (std::isfinite(x[c])) total += std::exp(x[c] - static_cast<double>(max_logit));
      (*cdf)[c] = total;
    }
    Index* row_out = out + static_cast<int64_t>(row) * num_samples;
    for (int s = 0; s < num_samples; ++s) {
      if (used == 4) {
        block = stream.Next();
        used = 0;
      }
      const double target = internal::UnitDoubleFromBits(block[used], block[used + 1]) * total;
      used += 2;
      row_out[s] = static_cast<Index>(std::upper_bound(cdf->begin(), cdf->end(), target) -
                                      cdf->begin());
    }
  }
}

TfLiteStatus EvalMultinomial(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeMultinomial));
  const TfLiteTensor* logits = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int batch = internal::Dim(output, 0);
  const int num_samples = internal::Dim(output, 1);
  const int classes = internal::Dim(logits, 1);
  PhiloxStream& stream = static_cast<RandomData*>(node->user_data)->stream;
  const PhiloxStream sampler = stream;
  // TensorFlow's reservation: 256 * 2 blocks per sample (rounded up to 4).
  const uint64_t reserved = static_cast<uint64_t>(batch) *
                            ((static_cast<uint64_t>(num_samples) + 3) / 4 * 4) * 2 * 256;
  stream.Skip(reserved);
  std::vector<double> cdf;
  try {
    cdf.resize(static_cast<size_t>(classes));
  } catch (const std::bad_alloc&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for %d classes", kMultinomial, classes);
    return kTfLiteError;
  }
  if (output->type == kTfLiteInt64) {
    SampleRows(sampler, logits->data.f, batch, classes, num_samples, &cdf, output->data.i64);
  } else {
    SampleRows(sampler, logits->data.f, batch, classes, num_samples, &cdf, output->data.i32);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RANDOM_UNIFORM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<RandomData>, internal::FreeOpData<RandomData>,
                                 PrepareDistribution<kUniform>, EvalUniform);
  return &r;
}

const TfLiteRegistration* Register_RANDOM_STANDARD_NORMAL() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<RandomData>, internal::FreeOpData<RandomData>,
                                 PrepareDistribution<kNormal>, EvalNormal);
  return &r;
}

const TfLiteRegistration* Register_MULTINOMIAL() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(internal::InitOpData<RandomData>, internal::FreeOpData<RandomData>,
                                 PrepareMultinomial, EvalMultinomial);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

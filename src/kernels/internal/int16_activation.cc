#include "src/kernels/internal/int16_activation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/lstm_integer.h"
#include "src/kernels/internal/quant_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

// Upstream's power-of-two test, in single precision like upstream: log2(x)
// rounded, and whether x is within 1e-3 (in log2) of that power.
bool NearPowerOfTwo(float x, int* log2_rounded) {
  const float log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2);
  *log2_rounded = static_cast<int>(rounded);
  return std::fabs(log2 - rounded) < 1e-3f;
}

constexpr int kTableSize = 256;

std::array<uint16_t, kTableSize> MakeSigmoidTable() {
  // Spacing 1/24: the rescaled input has 12288 units per 1, and LOGISTIC
  // indexes the table by its 512-unit steps.
  constexpr double kStep = 1.0 / 24;
  auto f = [](double x) { return 65536.0 / (1.0 + std::exp(-x)); };
  std::array<uint16_t, kTableSize> table{};
  for (int i = 0; i + 1 < kTableSize; ++i) {
    const double left = f(i * kStep), right = f((i + 1) * kStep);
    const double mid = f((i + 0.5) * kStep);
    // Half the midpoint error of the chord moves the line halfway towards
    // the curve, splitting the worst error between ends and middle.
    table[i] = static_cast<uint16_t>(std::lround(left + (mid - (left + right) / 2) / 2));
  }
  table[kTableSize - 1] = std::numeric_limits<uint16_t>::max();
  return table;
}

const std::array<uint16_t, kTableSize>& SigmoidTable() {
  static const std::array<uint16_t, kTableSize> table = MakeSigmoidTable();
  return table;
}

// x in units of 1/12288; the table step is 512 units (1/24).
int16_t SigmoidFromTable(const std::array<uint16_t, kTableSize>& table, int64_t x) {
  const uint64_t magnitude = static_cast<uint64_t>(x < 0 ? -x : x);
  const uint64_t index = magnitude >> 9;
  uint32_t q25;  // sigmoid(|x|) in Q0.25
  if (index >= kTableSize - 1) {
    q25 = uint32_t{0x7FFF} << 10;
  } else {
    const uint32_t lo = table[index], hi = table[index + 1];
    q25 = (lo << 9) + static_cast<uint32_t>(magnitude & 0x1FF) * (hi - lo);
  }
  // sigmoid(-x) = 1 - sigmoid(x); both round to Q0.15 with a half-unit nudge.
  q25 = x >= 0 ? q25 + (1u << 9) : (1u << 25) - q25 + (1u << 9) - 1;
  return static_cast<int16_t>(q25 >> 10);
}

// x in units of 1/12288; tanh(x) = 2 sigmoid(2x) - 1, so the table step is
// 256 units here.
int16_t TanhFromTable(const std::array<uint16_t, kTableSize>& table, int64_t x) {
  const uint64_t magnitude = static_cast<uint64_t>(x < 0 ? -x : x);
  const uint64_t index = magnitude >> 8;
  int32_t q24;  // sigmoid(2|x|) in Q0.24
  if (index >= kTableSize - 1) {
    q24 = int32_t{0xFFFF} << 8;
  } else {
    const uint32_t lo = table[index], hi = table[index + 1];
    q24 = static_cast<int32_t>((lo << 8) + static_cast<uint32_t>(magnitude & 0xFF) * (hi - lo));
  }
  // 2 sigmoid - 1 in Q0.23, rounded down to Q0.15 with a half-unit nudge.
  q24 = x >= 0 ? q24 - (1 << 23) + (1 << 7) : -q24 + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(q24 >> 8);
}

}  // namespace

TfLiteStatus PrepareInt16Activation(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    Int16Activation function, Int16ActivationData* data) {
  *data = Int16ActivationData();
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &input));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  if (output->type != kTfLiteInt16) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  QuantParams in, out;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input", input, &in));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "output", output, &out));
  if (in.zero_point != 0 || out.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output need zero point 0, got %d and %d", op,
                       in.zero_point, out.zero_point);
    return kTfLiteError;
  }
  // Scales are positive and finite (GetQuantParams).
  // LOGISTIC wants exactly 2^-15; TANH a scale within 1e-3 (in log2) of it.
  int out_log2 = 0;
  const bool out_ok = function == Int16Activation::kLogistic
                          ? out.scale == 1.0f / 32768
                          : NearPowerOfTwo(out.scale, &out_log2) && out_log2 == -15;
  if (!out_ok) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 output scale must be 2^-15, got %g", op, out.scale);
    return kTfLiteError;
  }

  // Input scale 2^-12 (Q3.12) feeds the fixed-point routine directly; TANH
  // also takes 2^-11 by doubling the input first.
  int in_log2 = 0;
  const bool pot = NearPowerOfTwo(in.scale, &in_log2);
  const int pot_shift = 12 + in_log2;
  data->function = function;
  if (pot && pot_shift == 0) {
    data->path = Int16ActivationPath::kFixedPoint;
  } else if (pot && function == Int16Activation::kTanh && pot_shift == 1) {
    data->path = Int16ActivationPath::kFixedPointDoubled;
  } else {
    data->path = Int16ActivationPath::kTable;
    // Units of 1/12288 (+-2^17 spans +-32/3): the multiplier is doubled until
    // it exceeds 2^14 - 1/2 (or the shift reaches 31) and then truncated.
    double multiplier = static_cast<double>(in.scale) * 4096.0 * 3.0;
    int shift = 0;
    while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
      ++shift;
      multiplier *= 2.0;
    }
    constexpr double kMax = std::numeric_limits<int32_t>::max();
    data->multiplier = static_cast<int32_t>(std::min(multiplier, kMax));
    data->shift = shift;
  }
  return ResizeOutputLike(context, output, input->dims);
}

void EvalInt16Activation(const TfLiteTensor* input, TfLiteTensor* output,
                         const Int16ActivationData& data) {
  const int16_t* in = input->data.i16;
  int16_t* out = output->data.i16;
  const int64_t n = NumElements(input);
  const bool logistic = data.function == Int16Activation::kLogistic;
  if (data.path != Int16ActivationPath::kTable) {
    constexpr int64_t kChunk = 1024;
    int16_t doubled[kChunk];
    for (int64_t start = 0; start < n; start += kChunk) {
      const int count = static_cast<int>(std::min(kChunk, n - start));
      const int16_t* src = in + start;
      if (data.path == Int16ActivationPath::kFixedPointDoubled) {
        for (int i = 0; i < count; ++i) {
          doubled[i] = static_cast<int16_t>(std::min(32767, std::max(-32768, 2 * src[i])));
        }
        src = doubled;
      }
      if (logistic) {
        Int16Sigmoid(src, count, out + start);
      } else {
        Int16Tanh(3, src, count, out + start);
      }
    }
    return;
  }
  const auto& table = SigmoidTable();
  const int64_t rounding = data.shift > 0 ? int64_t{1} << (data.shift - 1) : 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = (static_cast<int64_t>(in[i]) * data.multiplier + rounding) >> data.shift;
    out[i] = logistic ? SigmoidFromTable(table, x) : TanhFromTable(table, x);
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

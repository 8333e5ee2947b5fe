// Mfcc (custom op; upstream's default resolver registers it): mel-frequency
// cepstral coefficients of each frame of a squared-magnitude spectrogram
// (FLOAT32 [channels, frames, bins], as AudioSpectrogram makes it) at the
// INT32 sample_rate (one element). Output FLOAT32
// [channels, frames, dct_coefficient_count]. Options (flexbuffer map, all
// required, numbers truncated to integers as upstream reads them):
// upper_frequency_limit > lower_frequency_limit >= 0 (Hz),
// filterbank_channel_count >= 1, 1 <= dct_coefficient_count <=
// filterbank_channel_count.
//
// Per frame: the square roots of the bins are weighted into
// filterbank_channel_count triangular mel bands (MelFilterbank below), each
// band's log is taken with a floor of 1e-12, and the first
// dct_coefficient_count coefficients of the DCT-II
//   c[k] = sqrt(2 / N) * sum_j log_band[j] * cos(pi k (j + 0.5) / N)
// are the output. As upstream, a spectrogram whose bins do not reach
// upper_frequency_limit (upper > sample_rate / 2) yields zeros.
#include <cmath>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/internal/custom_options.h"
#include "src/kernels/internal/flex_map.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "Mfcc";
// Bounds the DCT table (channels x coefficients doubles).
constexpr int kMaxFilterbankChannels = 4096;
constexpr double kLogFloor = 1e-12;

double FreqToMel(double hz) { return 1127.0 * std::log1p(hz / 700.0); }

// Triangular mel filterbank over the bins of one spectrogram frame. Band
// centres are evenly spaced in mel between the two limits (count + 2 points,
// the outer two being the edges of the first and last triangles). Bins in
// [start, end] contribute: bin i, with mel position m, lies between the
// centres of bands b = band[i] and b + 1 and adds sqrt(power) * weight[i] to
// band b and sqrt(power) * (1 - weight[i]) to band b + 1, weight falling
// linearly from 1 at centre b to 0 at centre b + 1. DC is always skipped.
struct MelFilterbank {
  int bins = 0;
  int start = 0, end = -1;  // inclusive range of contributing bins
  bool covers_upper = false;  // false: the bins stop below the upper limit
  internal::ScratchVector<int> band;
  internal::ScratchVector<double> weight;

  void Build(int bin_count, double sample_rate, int channels, double lower, double upper) {
    bins = bin_count;
    std::vector<double> centre(static_cast<size_t>(channels) + 1);
    const double mel_low = FreqToMel(lower);
    const double spacing = (FreqToMel(upper) - mel_low) / (channels + 1);
    for (int i = 0; i <= channels; ++i) centre[i] = mel_low + spacing * (i + 1);
    const double hz_per_bin = 0.5 * sample_rate / (bins - 1);
    // Bounds computed in double and clamped before converting, so that any
    // sample rate stays defined.
    const double first = 1.5 + lower / hz_per_bin;
    const double last = upper / hz_per_bin;
    covers_upper = last < bins;
    start = first < bins ? static_cast<int>(first) : bins;
    end = covers_upper ? static_cast<int>(last) : bins - 1;
    band.assign(static_cast<size_t>(bins), -1);
    weight.assign(static_cast<size_t>(bins), 0.0);
    int b = 0;  // bands whose centre lies below the current bin
    for (int i = start; i <= end; ++i) {
      const double mel = FreqToMel(i * hz_per_bin);
      while (b < channels && centre[b] < mel) ++b;
      band[i] = b - 1;
      weight[i] = b > 0 ? (centre[b] - mel) / (centre[b] - centre[b - 1])
                        : (centre[0] - mel) / (centre[0] - mel_low);
    }
  }
};

struct OpData {
  double upper = 0, lower = 0;
  int channels = 0, coefficients = 0;
  std::string error;  // why the options are unusable, reported by Prepare

  internal::ScratchVector<double> dct;  // [coefficients, channels]
  MelFilterbank filterbank;
  int built_rate = 0;  // sample rate and bin count the filterbank was built for
  int built_bins = 0;
  internal::ScratchVector<double> bands;
};

// upstream reads the frequency limits as integers (int or float values,
// truncated toward zero) and keeps them as float.
bool ReadFrequency(const internal::FlexMap& map, const char* key, double* value,
                   std::string* error) {
  double v = 0;
  if (!map.Has(key)) {
    *error = std::string("option '") + key + "' is missing";
    return false;
  }
  if (!map.GetDouble(key, &v) || !std::isfinite(v) || std::fabs(v) > 1e30) {
    *error = std::string("option '") + key + "' is not a finite number";
    return false;
  }
  *value = static_cast<float>(std::trunc(v));
  return true;
}

void ParseOptions(const char* buffer, size_t length, OpData* data) {
  internal::FlexMap map;
  if (buffer == nullptr || !map.Parse(buffer, length)) {
    data->error = "custom options are missing or not a flexbuffer map";
    return;
  }
  if (!ReadFrequency(map, "upper_frequency_limit", &data->upper, &data->error) ||
      !ReadFrequency(map, "lower_frequency_limit", &data->lower, &data->error) ||
      !internal::FlexInt(map, "filterbank_channel_count", true, &data->channels, &data->error) ||
      !internal::FlexInt(map, "dct_coefficient_count", true, &data->coefficients,
                          &data->error)) {
    return;
  }
  if (data->lower < 0) {
    data->error = "lower_frequency_limit must not be negative";
  } else if (data->upper <= data->lower) {
    data->error = "upper_frequency_limit must be above lower_frequency_limit";
  } else if (data->channels < 1 || data->channels > kMaxFilterbankChannels) {
    data->error = "filterbank_channel_count " + std::to_string(data->channels) +
                  " is outside [1, " + std::to_string(kMaxFilterbankChannels) + "]";
  } else if (data->coefficients < 1 || data->coefficients > data->channels) {
    data->error = "dct_coefficient_count " + std::to_string(data->coefficients) +
                  " is outside [1, filterbank_channel_count]";
  }
}

void BuildDct(OpData* data) {
  const int n = data->channels;
  const double scale = std::sqrt(2.0 / n);
  const double step = 3.14159265358979323846264338327950288 / n;
  data->dct.resize(static_cast<size_t>(data->coefficients) * n);
  for (int k = 0; k < data->coefficients; ++k) {
    for (int j = 0; j < n; ++j) {
      data->dct[static_cast<size_t>(k) * n + j] = scale * std::cos(k * step * (j + 0.5));
    }
  }
}

void* Init(TfLiteContext*, const char* buffer, size_t length) {
  auto* data = new (std::nothrow) OpData;
  if (data == nullptr) return nullptr;
  ParseOptions(buffer, length, data);
  if (data->error.empty()) {
    try {
      BuildDct(data);
      data->bands.resize(static_cast<size_t>(data->channels));
    } catch (const std::exception&) {
      data->error = "out of memory";
    }
  }
  return data;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckParsedOptions(context, kOp, data));
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *spectrogram, *rate;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &spectrogram));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &rate));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "spectrogram", spectrogram, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "sample_rate", rate, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  char shape[64];
  if (internal::NumDims(spectrogram) != 3 || internal::Dim(spectrogram, 2) < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: spectrogram shape %s must be [channels, frames, bins >= 2]",
                       kOp, internal::ShapeToString(spectrogram->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  if (internal::NumElements(rate) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: sample_rate shape %s must hold one value", kOp,
                       internal::ShapeToString(rate->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  data->built_rate = 0;  // the bin count may have changed
  return internal::ResizeOutput(
      context, output,
      {internal::Dim(spectrogram, 0), internal::Dim(spectrogram, 1), data->coefficients});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* spectrogram = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rate = internal::InputAt(context, node, 1)->data.i32[0];
  if (rate <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: sample_rate %d must be positive", kOp, rate);
    return kTfLiteError;
  }
  const int bins = internal::Dim(spectrogram, 2);
  MelFilterbank& fb = data->filterbank;
  if (data->built_rate != rate || data->built_bins != bins) {
    try {
      fb.Build(bins, rate, data->channels, data->lower, data->upper);
    } catch (const std::exception&) {
      data->built_rate = 0;
      TF_LITE_KERNEL_LOG(context, "%s: out of memory", kOp);
      return kTfLiteError;
    }
    data->built_rate = rate;
    data->built_bins = bins;
  }
  const int64_t frames = int64_t{internal::Dim(spectrogram, 0)} * internal::Dim(spectrogram, 1);
  const int n = data->channels;
  for (int64_t f = 0; f < frames; ++f) {
    const float* power = spectrogram->data.f + f * bins;
    float* out = output->data.f + f * data->coefficients;
    if (!fb.covers_upper) {
      for (int k = 0; k < data->coefficients; ++k) out[k] = 0.0f;
      continue;
    }
    double* bands = data->bands.data();
    for (int j = 0; j < n; ++j) bands[j] = 0.0;
    for (int i = fb.start; i <= fb.end; ++i) {
      const double magnitude = std::sqrt(static_cast<double>(power[i]));
      const double left = magnitude * fb.weight[i];
      const int b = fb.band[i];
      if (b >= 0) bands[b] += left;
      if (b + 1 < n) bands[b + 1] += magnitude - left;
    }
    for (int j = 0; j < n; ++j) bands[j] = std::log(bands[j] < kLogFloor ? kLogFloor : bands[j]);
    for (int k = 0; k < data->coefficients; ++k) {
      const double* row = data->dct.data() + static_cast<size_t>(k) * n;
      double sum = 0.0;
      for (int j = 0; j < n; ++j) sum += row[j] * bands[j];
      out[k] = static_cast<float>(sum);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_MFCC() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(Init, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

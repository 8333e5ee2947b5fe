// AudioSpectrogram (custom op; upstream's default resolver registers it):
// the short-time Fourier spectrum of each channel of FLOAT32 audio
// [samples, channels]. Options (flexbuffer map): window_size >= 2 and
// stride >= 1 (samples), magnitude_squared (default false).
// Frame f covers samples [f * stride, f * stride + window_size); there are
// 1 + (samples - window_size) / stride frames, none when the audio is shorter
// than one window. Each frame is multiplied by a periodic Hann window,
// zero-padded to fft_length (the next power of two >= window_size) and
// transformed; output FLOAT32 [channels, frames, fft_length / 2 + 1] holds
// |X|^2, or |X| unless magnitude_squared. Computed in double, like upstream.
#include <cmath>
#include <complex>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/internal/custom_options.h"
#include "src/kernels/internal/flex_map.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/spectral.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "AudioSpectrogram";
// fft_length must stay an int: the next power of two of at most 2^30.
constexpr int kMaxWindowSize = 1 << 30;

struct OpData {
  int window_size = 0;
  int stride = 0;
  bool magnitude_squared = false;
  std::string error;  // why the options are unusable, reported by Prepare

  int fft_length = 0;
  int frames = 0;
  internal::Fft fft;
  internal::ScratchVector<double> window;  // periodic Hann, built when there are frames
  internal::ScratchVector<double> frame;   // fft_length windowed samples
  internal::ScratchVector<std::complex<double>> spectrum;
};

void ParseOptions(const char* buffer, size_t length, OpData* data) {
  internal::FlexMap map;
  if (buffer == nullptr || !map.Parse(buffer, length)) {
    data->error = "custom options are missing or not a flexbuffer map";
    return;
  }
  int magnitude_squared = 0;
  if (!internal::FlexInt(map, "window_size", true, &data->window_size, &data->error) ||
      !internal::FlexInt(map, "stride", true, &data->stride, &data->error) ||
      !internal::FlexInt(map, "magnitude_squared", false, &magnitude_squared, &data->error)) {
    return;
  }
  data->magnitude_squared = magnitude_squared != 0;
  if (data->window_size < 2 || data->window_size > kMaxWindowSize) {
    data->error = "window_size " + std::to_string(data->window_size) + " is outside [2, 2^30]";
  } else if (data->stride < 1) {
    data->error = "stride " + std::to_string(data->stride) + " must be positive";
  }
}

void* Init(TfLiteContext*, const char* buffer, size_t length) {
  auto* data = new (std::nothrow) OpData;
  if (data != nullptr) ParseOptions(buffer, length, data);
  return data;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckParsedOptions(context, kOp, data));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "input", input, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  if (internal::NumDims(input) != 2) {
    char shape[64];
    TF_LITE_KERNEL_LOG(context, "%s: input shape %s must be [samples, channels]", kOp,
                       internal::ShapeToString(input->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  const int samples = internal::Dim(input, 0);
  data->fft_length = internal::NextPowerOfTwo(data->window_size);
  data->frames = samples < data->window_size ? 0 : 1 + (samples - data->window_size) / data->stride;
  // Buffers as large as a window are only built when a window fits in the
  // input, so their size is bounded by the input's.
  if (data->frames > 0) {
    bool ok = internal::PeriodicHann(data->window_size, &data->window);
    try {
      data->frame.resize(static_cast<size_t>(data->fft_length));
      data->spectrum.resize(static_cast<size_t>(data->fft_length / 2 + 1));
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok) {
      TF_LITE_KERNEL_LOG(context, "%s: out of memory for window_size %d", kOp, data->window_size);
      return kTfLiteError;
    }
  }
  return internal::ResizeOutput(context, output,
                                {internal::Dim(input, 1), data->frames, data->fft_length / 2 + 1});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int channels = internal::Dim(input, 1);
  const int bins = data->fft_length / 2 + 1;
  const float* in = input->data.f;
  float* out = output->data.f;
  for (int c = 0; c < channels; ++c) {
    for (int f = 0; f < data->frames; ++f) {
      const int64_t start = static_cast<int64_t>(f) * data->stride;
      for (int i = 0; i < data->window_size; ++i) {
        data->frame[i] = in[(start + i) * channels + c] * data->window[i];
      }
      for (int i = data->window_size; i < data->fft_length; ++i) data->frame[i] = 0.0;
      if (!data->fft.RealForward(data->frame.data(), data->fft_length, data->spectrum.data())) {
        TF_LITE_KERNEL_LOG(context, "%s: out of memory", kOp);
        return kTfLiteError;
      }
      float* row = out + (static_cast<int64_t>(c) * data->frames + f) * bins;
      for (int k = 0; k < bins; ++k) {
        const double re = data->spectrum[k].real(), im = data->spectrum[k].imag();
        // Rounded to float before the square root, as upstream.
        const float power = static_cast<float>(re * re + im * im);
        row[k] = data->magnitude_squared ? power : std::sqrt(power);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_AUDIO_SPECTROGRAM() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(Init, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

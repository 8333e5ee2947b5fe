// Plain references for the audio front-end ops (AudioSpectrogram, Mfcc),
// written from their documented definitions in double precision; shared by
// the kernel tests and the end-to-end pipeline tests.
#ifndef TFLITE_C_TESTS_UTIL_AUDIO_REFERENCE_H_
#define TFLITE_C_TESTS_UTIL_AUDIO_REFERENCE_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace tflite_c {
namespace testing {

// Hann-windowed frames of each channel, zero-padded to the next power of
// two and transformed by the DFT's definition; [channels, frames, bins].
inline std::vector<double> ReferenceSpectrogram(const std::vector<float>& audio, int samples,
                                                int channels, int window, int stride,
                                                bool squared) {
  const double pi = std::acos(-1.0);
  int fft = 1;
  while (fft < window) fft *= 2;
  const int frames = samples < window ? 0 : 1 + (samples - window) / stride;
  std::vector<double> out;
  for (int c = 0; c < channels; ++c) {
    for (int f = 0; f < frames; ++f) {
      for (int k = 0; k <= fft / 2; ++k) {
        std::complex<double> sum = 0;
        for (int n = 0; n < window; ++n) {
          const double hann = 0.5 - 0.5 * std::cos(2 * pi * n / window);
          const double x = audio[(f * stride + n) * channels + c] * hann;
          sum += x * std::polar(1.0, -2 * pi * k * n / fft);
        }
        out.push_back(squared ? std::norm(sum) : std::abs(sum));
      }
    }
  }
  return out;
}

// Mfcc options (the defaults are the op's).
struct MfccOptions {
  double upper = 4000, lower = 20;
  int channels = 40, coefficients = 13;
};

// MFCCs from the textbook description: band j of n is a triangle in mel
// rising from centre j-1 (the lower limit for j = 0) to centre j and falling
// to centre j+1, centres evenly spaced in mel with n + 2 points spanning the
// limits; bins from floor(1.5 + lower / hz_per_bin) (DC skipped) to
// floor(upper / hz_per_bin) weight their magnitude into the bands; then
// log(max(band, 1e-12)) and c_k = sqrt(2/n) sum_j log_j cos(pi k (j + 1/2) /
// n).
inline std::vector<double> ReferenceMfcc(const std::vector<float>& power, int bins, int rate,
                                         const MfccOptions& o) {
  const double pi = std::acos(-1.0);
  auto mel = [](double hz) { return 1127.0 * std::log(1.0 + hz / 700.0); };
  const int n = o.channels;
  const double lo = mel(o.lower), hi = mel(o.upper);
  std::vector<double> centre(n + 2);  // centre[0] is the lower edge
  for (int j = 0; j < n + 2; ++j) centre[j] = lo + (hi - lo) * j / (n + 1);
  const double hz_per_bin = 0.5 * rate / (bins - 1);
  const int first = static_cast<int>(1.5 + o.lower / hz_per_bin);
  const int last = static_cast<int>(o.upper / hz_per_bin);
  std::vector<double> out;
  for (size_t frame = 0; frame < power.size() / bins; ++frame) {
    std::vector<double> band(n, 0.0);
    for (int i = first; i <= last; ++i) {
      const double m = mel(i * hz_per_bin);
      const double magnitude = std::sqrt(static_cast<double>(power[frame * bins + i]));
      for (int j = 0; j < n; ++j) {
        const double left = centre[j], mid = centre[j + 1], right = centre[j + 2];
        if (m > left && m <= mid) band[j] += magnitude * (m - left) / (mid - left);
        if (m > mid && m <= right) band[j] += magnitude * (right - m) / (right - mid);
      }
    }
    for (int k = 0; k < o.coefficients; ++k) {
      double sum = 0;
      for (int j = 0; j < n; ++j) {
        sum += std::log(std::max(band[j], 1e-12)) * std::cos(pi * k * (j + 0.5) / n);
      }
      out.push_back(std::sqrt(2.0 / n) * sum);
    }
  }
  return out;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_AUDIO_REFERENCE_H_

// Fourier transforms and windows shared by the spectral kernels (RFFT2D,
// AudioSpectrogram). The transforms come from Eigen's FFT
// module (unsupported/Eigen/FFT, kissfft backend; header-only, so nothing is
// added at run time or for cross builds) and run in double, as upstream runs
// Ooura's fft2d: float results agree with upstream's up to rounding.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_SPECTRAL_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_SPECTRAL_H_

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/kernels/internal/scratch_vector.h"


namespace tflite_c {
namespace kernels {
namespace internal {

// Forward discrete Fourier transforms, unscaled:
//   out[k] = sum_n in[n] * exp(-2 pi i k n / length).
// Plans (twiddle factors) are kept between calls, so one Fft serves one node;
// it is not safe to share between threads. Every call returns false instead
// of throwing when memory runs out.
class Fft {
 public:
  Fft();
  ~Fft();
  Fft(const Fft&) = delete;
  Fft& operator=(const Fft&) = delete;

  // The non-redundant half of the spectrum of `length` real values:
  // out[0 .. length/2] (length/2 + 1 values).
  bool RealForward(const double* in, int length, std::complex<double>* out);
  // The full spectrum of `length` complex values; `in` and `out` must not
  // overlap.
  bool ComplexForward(const std::complex<double>* in, int length, std::complex<double>* out);

 private:
  struct Impl;
  template <typename In>
  bool Forward(const In* in, int length, std::complex<double>* out);

  std::unique_ptr<Impl> impl_;
};

// True for 1, 2, 4, 8, ...
inline bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// The smallest power of two >= n, for n in [1, 2^30].
int NextPowerOfTwo(int n);

// The periodic Hann window of `length` samples (the spectrogram's window):
// w[i] = 0.5 - 0.5 * cos(2 pi i / length). False when memory runs out.
bool PeriodicHann(int length, ScratchVector<double>* window);

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_SPECTRAL_H_

#include "src/kernels/internal/spectral.h"

#include <cmath>
#include <exception>

#include <unsupported/Eigen/FFT>

namespace tflite_c {
namespace kernels {
namespace internal {

struct Fft::Impl {
  Eigen::FFT<double> fft;
};

Fft::Fft() = default;
Fft::~Fft() = default;

// Real input yields the half spectrum (HalfSpectrum), complex input the
// whole one (the flag does not apply to it).
template <typename In>
bool Fft::Forward(const In* in, int length, std::complex<double>* out) {
  if (length < 1) return false;
  // kissfft has no plan for a single point; its DFT is the point itself.
  if (length == 1) {
    out[0] = in[0];
    return true;
  }
  try {
    if (impl_ == nullptr) {
      impl_ = std::make_unique<Impl>();
      impl_->fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    }
    impl_->fft.fwd(out, in, length);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool Fft::RealForward(const double* in, int length, std::complex<double>* out) {
  return Forward(in, length, out);
}

bool Fft::ComplexForward(const std::complex<double>* in, int length, std::complex<double>* out) {
  return Forward(in, length, out);
}

int NextPowerOfTwo(int n) {
  int p = 1;
  while (p < n && p <= (1 << 29)) p <<= 1;
  return p;
}

bool PeriodicHann(int length, ScratchVector<double>* window) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  try {
    window->resize(static_cast<size_t>(length));
  } catch (const std::exception&) {
    return false;
  }
  for (int i = 0; i < length; ++i) {
    (*window)[i] = 0.5 - 0.5 * std::cos(kTwoPi * i / length);
  }
  return true;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

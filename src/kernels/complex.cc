// REAL, IMAG and COMPLEX_ABS (input): the real part, the imaginary part and
// the magnitude |z| (computed without overflow, as std::abs) of every element
// of a COMPLEX64 or COMPLEX128 tensor. The output has the input's shape and
// the matching real type: FLOAT32 for COMPLEX64, FLOAT64 for COMPLEX128.
// The ops are described for RegisterUnaryOp (elementwise_unary.h).
#include <complex>

#include "src/kernels/internal/elementwise_unary.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

using internal::MapUnary;
using internal::TypeSet;
using internal::UnaryOpData;

struct RealPart {
  template <typename T>
  T operator()(const std::complex<T>& z) const { return z.real(); }
};
struct ImagPart {
  template <typename T>
  T operator()(const std::complex<T>& z) const { return z.imag(); }
};
struct Magnitude {
  template <typename T>
  T operator()(const std::complex<T>& z) const { return std::abs(z); }
};

// The op named `Name` mapping each complex element to the real value `Part`
// computes.
template <const char* Name, typename Part>
struct ComplexPartOp {
  static constexpr const char* kName = Name;
  static constexpr TypeSet kTypes = {kTfLiteComplex64, kTfLiteComplex128};
  static TfLiteType OutputType(TfLiteType input) {
    return input == kTfLiteComplex64 ? kTfLiteFloat32 : kTfLiteFloat64;
  }
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node, const UnaryOpData&) {
    if (internal::InputAt(context, node, 0)->type == kTfLiteComplex64) {
      return MapUnary<std::complex<float>, float>(context, node, Part());
    }
    return MapUnary<std::complex<double>, double>(context, node, Part());
  }
};

constexpr char kReal[] = "REAL";
constexpr char kImag[] = "IMAG";
constexpr char kComplexAbs[] = "COMPLEX_ABS";

}  // namespace

const TfLiteRegistration* Register_REAL() {
  return internal::RegisterUnaryOp<ComplexPartOp<kReal, RealPart>>();
}
const TfLiteRegistration* Register_IMAG() {
  return internal::RegisterUnaryOp<ComplexPartOp<kImag, ImagPart>>();
}
const TfLiteRegistration* Register_COMPLEX_ABS() {
  return internal::RegisterUnaryOp<ComplexPartOp<kComplexAbs, Magnitude>>();
}

}  // namespace kernels
}  // namespace tflite_c

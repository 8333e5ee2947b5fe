// REAL, IMAG and COMPLEX_ABS (input): the real part, the imaginary part and
// the magnitude |z| (computed without overflow, as std::abs) of every element
// of a COMPLEX64 or COMPLEX128 tensor. The output has the input's shape and
// the matching real type: FLOAT32 for COMPLEX64, FLOAT64 for COMPLEX128.
#include <complex>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

TfLiteStatus PrepareComplexPart(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, op, &output));
  TfLiteType real_type;
  if (input->type == kTfLiteComplex64) {
    real_type = kTfLiteFloat32;
  } else if (input->type == kTfLiteComplex128) {
    real_type = kTfLiteFloat64;
  } else {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (output->type != real_type) {
    return internal::TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

template <typename T, typename Part>
void ExtractPart(const TfLiteTensor* input, TfLiteTensor* output, Part part) {
  const auto* in = reinterpret_cast<const std::complex<T>*>(input->data.raw_const);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int64_t n = internal::NumElements(input);
  for (int64_t i = 0; i < n; ++i) out[i] = part(in[i]);
}

// `Part` is a functor template instantiated for float and double.
template <template <typename> class Part>
TfLiteStatus EvalComplexPart(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (input->type == kTfLiteComplex64) {
    ExtractPart<float>(input, output, Part<float>());
  } else {
    ExtractPart<double>(input, output, Part<double>());
  }
  return kTfLiteOk;
}

template <typename T>
struct RealPart {
  static constexpr char kName[] = "REAL";
  T operator()(const std::complex<T>& z) const { return z.real(); }
};
template <typename T>
struct ImagPart {
  static constexpr char kName[] = "IMAG";
  T operator()(const std::complex<T>& z) const { return z.imag(); }
};
template <typename T>
struct Magnitude {
  static constexpr char kName[] = "COMPLEX_ABS";
  T operator()(const std::complex<T>& z) const { return std::abs(z); }
};

template <template <typename> class Part>
const TfLiteRegistration* RegisterComplexPart() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      nullptr, nullptr,
      [](TfLiteContext* context, TfLiteNode* node) {
        return PrepareComplexPart(context, node, Part<float>::kName);
      },
      EvalComplexPart<Part>);
  return &r;
}

}  // namespace

const TfLiteRegistration* Register_REAL() { return RegisterComplexPart<RealPart>(); }
const TfLiteRegistration* Register_IMAG() { return RegisterComplexPart<ImagPart>(); }
const TfLiteRegistration* Register_COMPLEX_ABS() { return RegisterComplexPart<Magnitude>(); }

}  // namespace kernels
}  // namespace tflite_c

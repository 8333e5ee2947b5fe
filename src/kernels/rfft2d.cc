// RFFT2D (input, fft_length): the 2-D discrete Fourier transform of the real
// FLOAT32 input over its two innermost dimensions, keeping the non-redundant
// half of the last axis. fft_length is an INT32 [2] tensor [fft_h, fft_w] of
// powers of two (upstream's limit); each [H, W] slice is cropped or
// zero-padded to [fft_h, fft_w] first. Output: COMPLEX64
// [..., fft_h, fft_w / 2 + 1],
//   out[.., u, v] = sum_{y, x} in[.., y, x] * exp(-2 pi i (u y / fft_h + v x / fft_w)).
// A non-constant fft_length makes the output dynamic. The transform runs in
// double (rows real-to-complex, then columns complex) and rounds once.
#include <complex>
#include <cstdint>
#include <exception>
#include <limits>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/scratch_vector.h"
#include "src/kernels/internal/spectral.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "RFFT2D";

struct OpData {
  internal::Fft fft;
  internal::ScratchVector<double> row;                      // one zero-padded input row
  internal::ScratchVector<std::complex<double>> spectrum;   // [fft_h, fft_w / 2 + 1]
  std::vector<std::complex<double>> column_in, column_out;
};

// Reads and checks fft_length: two powers of two.
TfLiteStatus ReadFftLength(TfLiteContext* context, const TfLiteTensor* fft_length, int* height,
                           int* width) {
  const int32_t* v = fft_length->data.i32;
  if (!internal::IsPowerOfTwo(v[0]) || !internal::IsPowerOfTwo(v[1])) {
    TF_LITE_KERNEL_LOG(context, "%s: fft_length [%d, %d] must hold two powers of two", kOp,
                       static_cast<int>(v[0]), static_cast<int>(v[1]));
    return kTfLiteError;
  }
  *height = v[0];
  *width = v[1];
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  int fft_h, fft_w;
  TF_LITE_ENSURE_OK(context,
                    ReadFftLength(context, internal::InputAt(context, node, 1), &fft_h, &fft_w));
  const int rank = internal::NumDims(input);
  internal::IntArrayPtr dims = internal::MakeIntArray(input->dims->data, rank);
  dims->data[rank - 2] = fft_h;
  dims->data[rank - 1] = fft_w / 2 + 1;
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0), dims.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *fft_length;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &fft_length));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "input", input, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "fft_length", fft_length, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context,
                    internal::ExpectType(context, kOp, "output", output, kTfLiteComplex64));
  if (internal::NumDims(input) < 2) {
    char shape[64];
    TF_LITE_KERNEL_LOG(context, "%s: input shape %s must have rank 2 or more", kOp,
                       internal::ShapeToString(input->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  if (internal::NumDims(fft_length) != 1 || internal::Dim(fft_length, 0) != 2) {
    char shape[64];
    TF_LITE_KERNEL_LOG(context, "%s: fft_length shape %s must be [2]", kOp,
                       internal::ShapeToString(fft_length->dims, shape, sizeof(shape)));
    return kTfLiteError;
  }
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(fft_length),
                                 ResizeOutput);
}

// Transforms one [in_h, in_w] slice into one [fft_h, fft_w / 2 + 1] slice.
bool TransformSlice(OpData* data, const float* in, int in_h, int in_w, int fft_h, int fft_w,
                    std::complex<float>* out) {
  const int bins = fft_w / 2 + 1;
  const int rows = in_h < fft_h ? in_h : fft_h;
  const int cols = in_w < fft_w ? in_w : fft_w;
  std::complex<double>* spectrum = data->spectrum.data();
  for (int y = 0; y < fft_h; ++y) {
    std::complex<double>* dst = spectrum + static_cast<size_t>(y) * bins;
    if (y >= rows) {  // zero padding transforms to zeros
      for (int v = 0; v < bins; ++v) dst[v] = 0.0;
      continue;
    }
    const float* src = in + static_cast<size_t>(y) * in_w;
    for (int x = 0; x < cols; ++x) data->row[x] = src[x];
    for (int x = cols; x < fft_w; ++x) data->row[x] = 0.0;
    if (!data->fft.RealForward(data->row.data(), fft_w, dst)) return false;
  }
  for (int v = 0; v < bins; ++v) {
    for (int y = 0; y < fft_h; ++y) data->column_in[y] = spectrum[static_cast<size_t>(y) * bins + v];
    if (!data->fft.ComplexForward(data->column_in.data(), fft_h, data->column_out.data())) {
      return false;
    }
    for (int y = 0; y < fft_h; ++y) {
      const std::complex<double> z = data->column_out[y];
      out[static_cast<size_t>(y) * bins + v] =
          std::complex<float>(static_cast<float>(z.real()), static_cast<float>(z.imag()));
    }
  }
  return true;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeOutput));
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  int fft_h, fft_w;
  TF_LITE_ENSURE_OK(context,
                    ReadFftLength(context, internal::InputAt(context, node, 1), &fft_h, &fft_w));
  const int rank = internal::NumDims(output);
  const int bins = fft_w / 2 + 1;
  if (internal::Dim(output, rank - 2) != fft_h || internal::Dim(output, rank - 1) != bins) {
    TF_LITE_KERNEL_LOG(context, "%s: fft_length [%d, %d] does not match the output shape", kOp,
                       fft_h, fft_w);
    return kTfLiteError;
  }
  const int in_h = internal::Dim(input, rank - 2);
  const int in_w = internal::Dim(input, rank - 1);
  const int64_t slices = internal::NumElements(output) / (int64_t{fft_h} * bins);
  // The work buffers are at most twice the output's size, so they are only
  // built when there is an output to fill.
  if (slices == 0) return kTfLiteOk;
  try {
    data->row.resize(static_cast<size_t>(fft_w));
    data->spectrum.resize(static_cast<size_t>(fft_h) * bins);
    data->column_in.resize(static_cast<size_t>(fft_h));
    data->column_out.resize(static_cast<size_t>(fft_h));
  } catch (const std::exception&) {
    TF_LITE_KERNEL_LOG(context, "%s: out of memory for a %dx%d transform", kOp, fft_h, fft_w);
    return kTfLiteError;
  }
  const float* in = input->data.f;
  auto* out = reinterpret_cast<std::complex<float>*>(output->data.raw);
  const size_t in_slice = static_cast<size_t>(in_h) * in_w;
  const size_t out_slice = static_cast<size_t>(fft_h) * bins;
  for (int64_t s = 0; s < slices; ++s) {
    if (!TransformSlice(data, in + s * in_slice, in_h, in_w, fft_h, fft_w, out + s * out_slice)) {
      TF_LITE_KERNEL_LOG(context, "%s: out of memory for a %dx%d transform", kOp, fft_h, fft_w);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_RFFT2D() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

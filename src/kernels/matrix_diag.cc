// MATRIX_DIAG (diagonal [..., N]) -> [..., N, N]: one square matrix per
// batch with the values on its main diagonal and zeros elsewhere.
// MATRIX_SET_DIAG (input [..., M, N], diagonal [..., min(M, N)]) -> the input
// with its main diagonals replaced. Any fixed-size element type (upstream:
// FLOAT32, INT8, UINT8, INT16, INT32, INT64), values moved unchanged; a
// quantized zero is the stored value 0, as upstream writes it.
#include <algorithm>
#include <cstring>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kDiag[] = "MATRIX_DIAG";
constexpr char kSetDiag[] = "MATRIX_SET_DIAG";

// Copies min(rows, cols) elements per batch from `diagonal` onto the main
// diagonal of each rows x cols matrix of `out`.
void WriteDiagonal(const TfLiteTensor* output, const char* diagonal, char* out) {
  const int rank = internal::NumDims(output);
  const int64_t rows = internal::Dim(output, rank - 2);
  const int64_t cols = internal::Dim(output, rank - 1);
  const int64_t batches = internal::DimsProduct(output->dims, 0, rank - 2);
  const int64_t length = std::min(rows, cols);
  const size_t es = internal::ElementBytes(output->type);
  for (int64_t b = 0; b < batches; ++b) {
    char* matrix = out + b * rows * cols * es;
    for (int64_t i = 0; i < length; ++i, diagonal += es) {
      std::memcpy(matrix + (i * cols + i) * es, diagonal, es);
    }
  }
}

TfLiteStatus DiagPrepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetMovableUnaryTensors(context, node, kDiag, &input, &output));
  const int rank = internal::NumDims(input);
  if (rank < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kDiag);
    return kTfLiteError;
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank + 1));
  for (int d = 0; d < rank; ++d) shape->data[d] = internal::Dim(input, d);
  shape->data[rank] = internal::Dim(input, rank - 1);
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus DiagEval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (output->bytes > 0) std::memset(output->data.raw, 0, output->bytes);
  WriteDiagonal(output, internal::InputAt(context, node, 0)->data.raw_const, output->data.raw);
  return kTfLiteOk;
}

TfLiteStatus SetDiagPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kSetDiag, 2, 2, 1));
  const TfLiteTensor *input, *diagonal;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kSetDiag, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kSetDiag, &diagonal));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kSetDiag, &output));
  size_t element_bytes;
  TF_LITE_ENSURE_OK(context,
                    internal::CheckSameMovableType(context, kSetDiag, input, output, &element_bytes));
  if (diagonal->type != input->type) {
    return internal::TypeMismatch(context, kSetDiag, "input", input->type, "diagonal",
                                  diagonal->type);
  }
  const int rank = internal::NumDims(input);
  if (rank < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 2, got %d", kSetDiag, rank);
    return kTfLiteError;
  }
  bool diagonal_fits = internal::NumDims(diagonal) == rank - 1 &&
                       internal::Dim(diagonal, rank - 2) ==
                           std::min(internal::Dim(input, rank - 2), internal::Dim(input, rank - 1));
  for (int d = 0; diagonal_fits && d < rank - 2; ++d) {
    diagonal_fits = internal::Dim(diagonal, d) == internal::Dim(input, d);
  }
  if (!diagonal_fits) {
    char in_shape[64], diag_shape[64];
    TF_LITE_KERNEL_LOG(context, "%s: diagonal shape %s does not fit input shape %s", kSetDiag,
                       internal::ShapeToString(diagonal->dims, diag_shape, sizeof(diag_shape)),
                       internal::ShapeToString(input->dims, in_shape, sizeof(in_shape)));
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus SetDiagEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (output->data.raw != input->data.raw && output->bytes > 0) {
    std::memcpy(output->data.raw, input->data.raw_const, output->bytes);
  }
  WriteDiagonal(output, internal::InputAt(context, node, 1)->data.raw_const, output->data.raw);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_MATRIX_DIAG() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, DiagPrepare, DiagEval);
  return &r;
}

const TfLiteRegistration* Register_MATRIX_SET_DIAG() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, SetDiagPrepare, SetDiagEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

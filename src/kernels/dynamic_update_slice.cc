// DYNAMIC_UPDATE_SLICE (operand, update, start_indices): a copy of operand
// with `update` written at `start_indices` (1-D INT32 or INT64, one per
// operand dimension). Each start is clamped to [0, operand dim - update dim]
// so the update always fits, as upstream. update has operand's rank and type
// and no larger dimensions; any fixed-size element type, or INT4 (two values
// per byte, low nibble first, as upstream's packed layout; upstream accepts
// INT4 from op version 5, TensorFlow Lite 2.21). Rank <= 8.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DYNAMIC_UPDATE_SLICE";
constexpr int kMaxRank = 8;

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *operand, *update, *starts;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &operand));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &update));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &starts));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  size_t bytes;
  if (operand->type != kTfLiteInt4) {
    TF_LITE_ENSURE_OK(context,
                      internal::GetElementBytes(context, kOp, "operand", operand->type, &bytes));
  }
  if (update->type != operand->type) {
    return internal::TypeMismatch(context, kOp, "operand", operand->type, "update", update->type);
  }
  if (output->type != operand->type) {
    return internal::TypeMismatch(context, kOp, "operand", operand->type, "output", output->type);
  }
  if (starts->type != kTfLiteInt32 && starts->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "start_indices", starts->type);
  }
  const int rank = internal::NumDims(operand);
  if (rank > kMaxRank) {
    TF_LITE_KERNEL_LOG(context, "%s: operand rank %d is above %d", kOp, rank, kMaxRank);
    return kTfLiteError;
  }
  if (internal::NumDims(starts) != 1 || internal::Dim(starts, 0) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: start_indices must be 1-D with %d elements (operand rank)",
                       kOp, rank);
    return kTfLiteError;
  }
  bool fits = internal::NumDims(update) == rank;
  for (int i = 0; fits && i < rank; ++i) fits = internal::Dim(update, i) <= internal::Dim(operand, i);
  if (!fits) {
    char a[64], b[64];
    TF_LITE_KERNEL_LOG(context, "%s: update shape %s does not fit in operand shape %s", kOp,
                       internal::ShapeToString(update->dims, a, sizeof(a)),
                       internal::ShapeToString(operand->dims, b, sizeof(b)));
    return kTfLiteError;
  }
  return internal::ResizeOutputLike(context, output, operand->dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* operand = internal::InputAt(context, node, 0);
  const TfLiteTensor* update = internal::InputAt(context, node, 1);
  const TfLiteTensor* starts = internal::InputAt(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const bool int4 = operand->type == kTfLiteInt4;
  if (int4) {
    TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "operand", operand));
    TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "update", update));
    TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "output", output));
  }
  const size_t bytes = int4 ? 0 : internal::ElementBytes(operand->type);
  const int rank = internal::NumDims(operand);
  if (output->data.raw != operand->data.raw && operand->bytes > 0) {
    std::memcpy(output->data.raw, operand->data.raw, std::min(operand->bytes, output->bytes));
  }
  if (internal::NumElements(update) == 0) return kTfLiteOk;
  int64_t start[kMaxRank] = {0};
  for (int i = 0; i < rank; ++i) {
    const int64_t s = starts->type == kTfLiteInt32 ? starts->data.i32[i] : starts->data.i64[i];
    start[i] = std::min<int64_t>(std::max<int64_t>(0, s),
                                 internal::Dim(operand, i) - internal::Dim(update, i));
  }
  int64_t strides[kMaxRank] = {0};
  internal::RowMajorStrides(operand->dims, strides);
  // Copy the update row by row (its last dimension is contiguous in both).
  const int64_t row = rank > 0 ? internal::Dim(update, rank - 1) : 1;
  const int64_t rows = internal::NumElements(update) / row;
  int64_t counter[kMaxRank] = {0};
  const char* src = update->data.raw_const;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int i = 0; i < rank; ++i) offset += (start[i] + counter[i]) * strides[i];
    if (int4) {
      internal::CopyInt4(reinterpret_cast<const uint8_t*>(src), r * row,
                         reinterpret_cast<uint8_t*>(output->data.raw), offset, row);
    } else {
      std::memcpy(output->data.raw + offset * bytes, src + r * row * bytes, row * bytes);
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++counter[d] < internal::Dim(update, d)) break;
      counter[d] = 0;
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// BITCAST: reinterprets the input's bytes as the output's element type (any
// two fixed-size types). Same element sizes keep the shape; a wider input
// element adds a last dimension of size in_bytes / out_bytes; a narrower one
// requires the last dimension to be out_bytes / in_bytes and drops it.
#include <cstring>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BITCAST";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetUnaryTensors(context, node, kOp, &input, &output));
  size_t in_bytes, out_bytes;
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type, &in_bytes));
  TF_LITE_ENSURE_OK(context,
                    internal::GetElementBytes(context, kOp, "output", output->type, &out_bytes));
  const int rank = internal::NumDims(input);
  if (in_bytes == out_bytes) return internal::ResizeOutputLike(context, output, input->dims);
  if (in_bytes > out_bytes) {
    internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank + 1));
    for (int d = 0; d < rank; ++d) shape->data[d] = internal::Dim(input, d);
    shape->data[rank] = static_cast<int>(in_bytes / out_bytes);
    return context->ResizeTensor(context, output, shape.release());
  }
  const int want = static_cast<int>(out_bytes / in_bytes);
  if (rank < 1 || internal::Dim(input, rank - 1) != want) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: a %s input cast to %s needs a last dimension of %d elements", kOp,
                       TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type), want);
    return kTfLiteError;
  }
  return context->ResizeTensor(context, output, internal::MakeIntArray(input->dims->data, rank - 1).release());
}

}  // namespace

const TfLiteRegistration* Register_BITCAST() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, Prepare, internal::CopyInputBytes);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// EXPAND_DIMS (input, axis): inserts a dimension of size 1 at `axis` (a
// one-element INT32 or INT64 tensor; negative counts from the end of the
// output's rank). The data is copied unchanged; any fixed-size element
// type. A non-constant axis makes the output dynamic.
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "EXPAND_DIMS";

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const int rank = internal::NumDims(input);
  int a;
  TF_LITE_ENSURE_OK(context, internal::ReadAxisInput(context, node, 1, kOp, rank + 1, &a));
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank + 1));
  for (int d = 0, i = 0; d <= rank; ++d) shape->data[d] = d == a ? 1 : internal::Dim(input, i++);
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0), shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &axis));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  size_t element_bytes;
  TF_LITE_ENSURE_OK(context,
                    internal::CheckSameMovableType(context, kOp, input, output, &element_bytes));
  if (axis->type != kTfLiteInt32 && axis->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "axis", axis->type);
  }
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(axis),
                                 ResizeOutput);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeOutput));
  return internal::CopyInputBytes(context, node);
}

}  // namespace

const TfLiteRegistration* Register_EXPAND_DIMS() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

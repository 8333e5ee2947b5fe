// DILATE (input, dilations, padding_value): spreads the input's elements
// apart, dilations[d] - 1 padding values between neighbours along axis d, so
// that output[i0 * d0, ..., ik * dk] = input[i0, ..., ik] and every other
// output element is padding_value. An axis of size s becomes (s - 1) * d + 1
// (0 stays 0). dilations: 1-D INT32, one entry >= 1 per input axis;
// padding_value: one element of the input's type. Any fixed-size element
// type. Non-constant dilations make the output dynamic.

#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DILATE";

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* dilations = internal::InputAt(context, node, 1);
  const int rank = internal::NumDims(input);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  for (int d = 0; d < rank; ++d) {
    const int64_t factor = dilations->data.i32[d];
    const int64_t size = internal::Dim(input, d);
    if (factor < 1) {
      TF_LITE_KERNEL_LOG(context, "%s: dilation %lld of axis %d is below 1", kOp,
                         static_cast<long long>(factor), d);
      return kTfLiteError;
    }
    // (size - 1) * factor + 1, 0 for an empty axis.
    int spread = 0;
    shape->data[d] = 0;
    if (size > 0) {
      TF_LITE_ENSURE_OK(context, internal::MulDim(context, kOp, "dilated axis", size - 1, factor,
                                                  &spread));
      TF_LITE_ENSURE_OK(context, internal::AddDims(context, kOp, "dilated axis", spread, 1, 0,
                                                   &shape->data[d]));
    }
  }
  return context->ResizeTensor(context, internal::OutputAt(context, node, 0), shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *input, *dilations, *padding;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &dilations));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &padding));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckPaddingValue(context, kOp, input, padding, output));
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "input", input));
  const int rank = internal::NumDims(input);
  if (rank < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have rank >= 1, got a scalar", kOp);
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "dilations", dilations,
                                                  kTfLiteInt32));
  if (internal::NumDims(dilations) != 1 || internal::Dim(dilations, 0) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: dilations must be 1-D with one entry per input axis (%d)",
                       kOp, rank);
    return kTfLiteError;
  }
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(dilations),
                                 ResizeOutput);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeOutput));
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const int32_t* dilations = internal::InputAt(context, node, 1)->data.i32;
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rank = internal::NumDims(input);
  int64_t offset[internal::kMaxLayoutRank] = {}, step[internal::kMaxLayoutRank];
  for (int d = 0; d < rank; ++d) step[d] = dilations[d];
  internal::SpreadElements(input, offset, step, internal::InputAt(context, node, 2)->data.raw_const,
                           output);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DILATE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

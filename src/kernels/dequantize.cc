// DEQUANTIZE: quantized or half-precision values → FLOAT32: UINT8 / INT8 /
// INT16 / INT4 per tensor or per channel, FLOAT16 widened (the conversion is
// internal/dequantize_util.h's). INT16 must have zero point 0.
// Constant inputs (typically fp16 or int8 weights) are converted once, in
// Prepare, into a persistent read-only output that later kernels can treat
// as a constant too.
#include "src/kernels/internal/dequantize_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DEQUANTIZE";

struct OpData {
  bool folded = false;
};

TfLiteStatus Compute(TfLiteContext* context, TfLiteNode* node) {
  internal::DequantizeToFloat(internal::InputAt(context, node, 0),
                              internal::OutputAt(context, node, 0)->data.f);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, kOp, &input, &output));
  const TfLiteType t = input->type;
  if (t != kTfLiteUInt8 && t != kTfLiteInt8 && t != kTfLiteInt16 && t != kTfLiteInt4 &&
      t != kTfLiteFloat16) {
    return internal::UnsupportedType(context, kOp, "input", t);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "output", output, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, internal::CheckDequantizable(context, kOp, input));
  if (t == kTfLiteInt16 && input->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 input must have zero point 0, has %d", kOp,
                       input->params.zero_point);
    return kTfLiteError;
  }

  data->folded = internal::IsConstantOrPersistent(input);
  if (data->folded) internal::SetTensorToPersistentRo(output);
  TF_LITE_ENSURE_OK(context, internal::ResizeOutputLike(context, output, input->dims));
  return data->folded ? Compute(context, node) : kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (static_cast<const OpData*>(node->user_data)->folded) return kTfLiteOk;
  return Compute(context, node);
}

}  // namespace

const TfLiteRegistration* Register_DEQUANTIZE() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

#include "src/kernels/internal/lut8_op.h"

#include "src/kernels/internal/kernel_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareLut8(TfLiteContext* context, TfLiteNode* node, const char* op,
                         float (*fn)(float), float output_scale, Lut8Data* data) {
  const TfLiteTensor* input = GetOptionalInput(context, node, 0);
  data->active = input != nullptr && (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8);
  if (!data->active) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  if (output->type != input->type) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  QuantParams in, out;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input", input, &in));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "output", output, &out));
  if (output_scale != 0.0f && output->params.scale != output_scale) {
    TF_LITE_KERNEL_LOG(context, "%s: quantized output scale must be %g, got %g", op, output_scale,
                       output->params.scale);
    return kTfLiteError;
  }
  if (input->type == kTfLiteInt8) {
    PopulateLut8<int8_t>(in, out, fn, data->lut_int8);
  } else {
    PopulateLut8<uint8_t>(in, out, fn, data->lut_uint8);
  }
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

void EvalLut8(const TfLiteTensor* input, TfLiteTensor* output, const Lut8Data& data) {
  const int64_t n = NumElements(input);
  if (input->type == kTfLiteInt8) {
    ApplyLut(input->data.int8, n, data.lut_int8, output->data.int8);
  } else {
    ApplyLut(input->data.uint8, n, data.lut_uint8, output->data.uint8);
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

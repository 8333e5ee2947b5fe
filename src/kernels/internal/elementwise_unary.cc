#include "src/kernels/internal/elementwise_unary.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareUnaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                            TypeSet types, const TfLiteTensor** input_out,
                            TfLiteTensor** output_out, TfLiteType (*output_type)(TfLiteType)) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  if (!TypeIn(input->type, types)) return UnsupportedType(context, op, "input", input->type);
  const TfLiteType expected = output_type != nullptr ? output_type(input->type) : input->type;
  if (output->type != expected) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  if (input_out != nullptr) *input_out = input;
  if (output_out != nullptr) *output_out = output;
  return ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus ReadUnaryQuantParams(TfLiteContext* context, const char* op,
                                  const TfLiteTensor* input, const TfLiteTensor* output,
                                  UnaryOpData* data) {
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input", input, &data->in));
  return GetQuantParams(context, op, "output", output, &data->out);
}

TfLiteStatus ApplyUnaryLut(TfLiteContext* context, const TfLiteNode* node,
                           const UnaryOpData& data) {
  switch (InputAt(context, node, 0)->type) {
    case kTfLiteInt8:
      return MapUnary<int8_t>(context, node, [&](int8_t v) { return LookupLut(v, data.lut.int8); });
    case kTfLiteUInt8:
      return MapUnary<uint8_t>(context, node,
                               [&](uint8_t v) { return LookupLut(v, data.lut.uint8); });
    default:
      return MapUnary<int16_t>(context, node,
                               [&](int16_t v) { return LookupLut(v, data.lut.int16); });
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

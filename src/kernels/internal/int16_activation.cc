#include "src/kernels/internal/int16_activation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/quant_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareInt16Activation(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    Int16ActivationData* data) {
  data->active = false;
  const TfLiteTensor* input = GetOptionalInput(context, node, 0);
  if (input == nullptr || input->type != kTfLiteInt16) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  if (output->type != kTfLiteInt16) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  QuantParams in, out;
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "input", input, &in));
  TF_LITE_ENSURE_OK(context, GetQuantParams(context, op, "output", output, &out));
  if (in.zero_point != 0 || out.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 input and output need zero point 0, got %d and %d", op,
                       in.zero_point, out.zero_point);
    return kTfLiteError;
  }
  // Upstream accepts a scale whose log2 is within 1e-3 of -15.
  if (std::fabs(std::log2(static_cast<double>(out.scale)) + 15.0) > 1e-3) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 output scale must be 2^-15, got %g", op, out.scale);
    return kTfLiteError;
  }
  data->input_scale = in.scale;
  data->active = true;
  return ResizeOutputLike(context, output, input->dims);
}

void EvalInt16Activation(const TfLiteTensor* input, TfLiteTensor* output,
                         const Int16ActivationData& data, double (*fn)(double)) {
  const int16_t* in = input->data.i16;
  int16_t* out = output->data.i16;
  for (int64_t i = 0, n = NumElements(input); i < n; ++i) {
    const double y = std::round(fn(in[i] * data.input_scale) * 32768.0);
    out[i] = static_cast<int16_t>(std::min(32767.0, std::max(-32768.0, y)));
  }
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// ZEROS_LIKE: a tensor of the input's shape and type holding zeros. Any
// fixed-size element type.
#include <cstring>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "ZEROS_LIKE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    internal::GetMovableUnaryTensors(context, node, kOp, &input, &output));
  return internal::ResizeOutputLike(context, output, input->dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (output->bytes > 0) std::memset(output->data.raw, 0, output->bytes);
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_ZEROS_LIKE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

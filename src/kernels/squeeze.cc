// SQUEEZE: drops the listed dimensions of size 1 (squeeze_dims, negative
// counting from the end), or every dimension of size 1 when none are
// listed. The data is copied unchanged; any fixed-size element type.
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SQUEEZE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteSqueezeParams*>(node->builtin_data);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context,
                    internal::GetMovableUnaryTensors(context, node, kOp, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "input", input));
  const int rank = internal::NumDims(input);
  bool drop[internal::kMaxLayoutRank] = {false};
  const int listed = params->num_squeeze_dims;
  for (int i = 0; i < listed; ++i) {
    int d;
    TF_LITE_ENSURE_OK(context,
                      internal::NormalizeAxis(context, kOp, params->squeeze_dims[i], rank, &d));
    if (internal::Dim(input, d) != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: dimension %d has size %d, not 1", kOp, d,
                         internal::Dim(input, d));
      return kTfLiteError;
    }
    drop[d] = true;
  }
  int shape[internal::kMaxLayoutRank], out_rank = 0;
  for (int d = 0; d < rank; ++d) {
    const bool squeeze = listed > 0 ? drop[d] : internal::Dim(input, d) == 1;
    if (!squeeze) shape[out_rank++] = internal::Dim(input, d);
  }
  return context->ResizeTensor(context, output,
                               internal::MakeIntArray(shape, out_rank).release());
}

}  // namespace

const TfLiteRegistration* Register_SQUEEZE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare,
                                                                 internal::CopyInputBytes);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

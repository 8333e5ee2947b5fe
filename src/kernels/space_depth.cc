// SPACE_TO_DEPTH and DEPTH_TO_SPACE, NHWC, block size b (the two are inverse
// rearrangements, hence one file):
//   SPACE_TO_DEPTH [N, H, W, C] → [N, H/b, W/b, C*b*b]: output channel
//     (by * b + bx) * C + c of pixel (y, x) is input pixel (y*b + by, x*b + bx).
//   DEPTH_TO_SPACE [N, H, W, C] → [N, H*b, W*b, C/(b*b)], the inverse.
// Any fixed-size element type; quantized values move unchanged. Both are one
// gather over a 6-D view of the output.
#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

template <bool kToDepth>
constexpr const char* OpName() {
  return kToDepth ? "SPACE_TO_DEPTH" : "DEPTH_TO_SPACE";
}

template <bool kToDepth>
int BlockSize(const TfLiteNode* node) {
  if (kToDepth) return static_cast<const TfLiteSpaceToDepthParams*>(node->builtin_data)->block_size;
  return static_cast<const TfLiteDepthToSpaceParams*>(node->builtin_data)->block_size;
}

template <bool kToDepth>
TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  constexpr const char* op = OpName<kToDepth>();
  const int b = BlockSize<kToDepth>(node);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int n = internal::Dim(input, 0), h = internal::Dim(input, 1), w = internal::Dim(input, 2),
            c = internal::Dim(input, 3);
  TF_LITE_ENSURE_OK(context, internal::CheckPositive(context, op, "block_size", b));
  int b2 = 0;  // b * b, the channel factor
  TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "block_size", b, b, &b2));
  if ((kToDepth && (h % b != 0 || w % b != 0)) || (!kToDepth && c % b2 != 0)) {
    TF_LITE_KERNEL_LOG(context, "%s: block size %d does not divide the input [%d, %d, %d, %d]", op,
                       b, n, h, w, c);
    return kTfLiteError;
  }
  const int64_t s_w = c, s_h = int64_t{w} * c, s_n = int64_t{h} * w * c;
  internal::AxisGather& g = data->gather;
  g = internal::AxisGather(6);
  if (kToDepth) {
    // Output viewed as [N, H/b, W/b, b, b, C].
    g.SetLinearAxis(0, 0, 1, n, s_n);
    g.SetLinearAxis(1, 0, b, h / b, s_h);
    g.SetLinearAxis(2, 0, b, w / b, s_w);
    g.SetLinearAxis(3, 0, 1, b, s_h);
    g.SetLinearAxis(4, 0, 1, b, s_w);
    g.SetLinearAxis(5, 0, 1, c, 1);
    int out_c = 0;
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "output depth", c, b2, &out_c));
    return internal::ResizeOutput(context, output, {n, h / b, w / b, out_c});
  }
  // Output viewed as [N, H, b, W, b, C/(b*b)].
  const int oc = c / b2;
  int out_h = 0, out_w = 0;
  TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "output height", h, b, &out_h));
  TF_LITE_ENSURE_OK(context, internal::MulDim(context, op, "output width", w, b, &out_w));
  g.SetLinearAxis(0, 0, 1, n, s_n);
  g.SetLinearAxis(1, 0, 1, h, s_h);
  g.SetLinearAxis(2, 0, 1, b, int64_t{b} * oc);
  g.SetLinearAxis(3, 0, 1, w, s_w);
  g.SetLinearAxis(4, 0, 1, b, oc);
  g.SetLinearAxis(5, 0, 1, oc, 1);
  return internal::ResizeOutput(context, output, {n, out_h, out_w, oc});
}

template <bool kToDepth>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* op = OpName<kToDepth>();
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, op));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOnlyInputOutput(context, node, op, &input, &output));
  TF_LITE_ENSURE_OK(context, internal::CheckSameMovableType(context, op, input, output,
                                                            &data->element_bytes));
  TF_LITE_ENSURE_OK(context, internal::CheckNhwcInput(context, op, input));
  return internal::FinishGatherPrepare(context, node, data, true, Plan<kToDepth>);
}

template <bool kToDepth>
const TfLiteRegistration* Register() {
  return internal::GatherOpRegistration<Prepare<kToDepth>, Plan<kToDepth>>();
}

}  // namespace

const TfLiteRegistration* Register_SPACE_TO_DEPTH() { return Register<true>(); }
const TfLiteRegistration* Register_DEPTH_TO_SPACE() { return Register<false>(); }

}  // namespace kernels
}  // namespace tflite_c

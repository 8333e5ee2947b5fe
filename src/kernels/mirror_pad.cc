// MIRROR_PAD (input, paddings): pads each dimension with a mirror image of
// its edge. REFLECT leaves the edge element out of the mirror ([1,2,3] padded
// by 2 → [3,2,1,2,3,2,1]), SYMMETRIC repeats it ([2,1,1,2,3,3,2]), so a
// padding may reach dim - 1 or dim elements respectively. Any fixed-size
// element type; paddings INT32 or INT64, of shape [rank, 2]. Non-constant
// paddings make the output dynamic.
#include <limits>
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "MIRROR_PAD";

// Input position feeding output position `o` of an axis of size `n` padded
// by `before`; `edge` is 1 for REFLECT, 0 for SYMMETRIC.
int MirrorIndex(int o, int n, int before, int edge) {
  int i = o - before;
  if (i < 0) return -i - 1 + edge;
  if (i >= n) return 2 * n - i - 1 - edge;
  return i;
}

// Reads the paddings, checks them, sizes the output and builds the gather.
TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const auto* params = static_cast<const TfLiteMirrorPaddingParams*>(node->builtin_data);
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* paddings = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int edge = params->mode == kTfLiteMirrorPaddingReflect ? 1 : 0;
  std::vector<int64_t> values;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "paddings", paddings, &values));
  const int rank = internal::NumDims(input);
  internal::IntArrayPtr shape(TfLiteIntArrayCopy(input->dims));
  data->gather = internal::AxisGather(rank);
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  for (int d = 0; d < rank; ++d) {
    const int64_t n = internal::Dim(input, d);
    const int64_t before = values[2 * d], after = values[2 * d + 1];
    if (before < 0 || after < 0 || before > n - edge || after > n - edge) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: paddings (%lld, %lld) of dimension %d must be in [0, %lld] for "
                         "%s mode",
                         kOp, static_cast<long long>(before), static_cast<long long>(after), d,
                         static_cast<long long>(n - edge), edge ? "REFLECT" : "SYMMETRIC");
      return kTfLiteError;
    }
    if (n + before + after > std::numeric_limits<int>::max()) {
      TF_LITE_KERNEL_LOG(context, "%s: padded dimension %d is too large", kOp, d);
      return kTfLiteError;
    }
    shape->data[d] = static_cast<int>(n + before + after);
    std::vector<int> index(shape->data[d]);
    for (int o = 0; o < shape->data[d]; ++o) {
      index[o] = MirrorIndex(o, static_cast<int>(n), static_cast<int>(before), edge);
    }
    data->gather.SetAxis(d, index, strides[d]);
  }
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *paddings;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &paddings));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->element_bytes));
  if (paddings->type != kTfLiteInt32 && paddings->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "paddings", paddings->type);
  }
  const int rank = internal::NumDims(input);
  if (rank > internal::kMaxLayoutRank) {
    TF_LITE_KERNEL_LOG(context, "%s: input rank %d is above the maximum %d", kOp, rank,
                       internal::kMaxLayoutRank);
    return kTfLiteError;
  }
  if (internal::NumDims(paddings) != 2 || internal::Dim(paddings, 0) != rank ||
      internal::Dim(paddings, 1) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: paddings must have shape [%d, 2]", kOp, rank);
    return kTfLiteError;
  }
  if (input->type == kTfLiteUInt8 || input->type == kTfLiteInt8 || input->type == kTfLiteInt16) {
    if (input->params.scale != output->params.scale ||
        input->params.zero_point != output->params.zero_point) {
      TF_LITE_KERNEL_LOG(context, "%s: input and output must have the same scale and zero point",
                         kOp);
      return kTfLiteError;
    }
  }
  return internal::FinishGatherPrepare(context, node, data,
                                       internal::IsConstantOrPersistent(paddings), Plan);
}

}  // namespace

const TfLiteRegistration* Register_MIRROR_PAD() {
  return internal::GatherOpRegistration<Prepare, Plan>();
}

}  // namespace kernels
}  // namespace tflite_c

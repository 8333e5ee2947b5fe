// BROADCAST_TO (input, shape): repeats the input to `shape` by NumPy rules
// (dimensions aligned from the right; each input dimension is 1 or equal to
// the target). Any fixed-size element type, up to 8-D; shape INT32 or
// INT64. A non-constant shape makes the output dynamic.
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BROADCAST_TO";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int> shape;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "shape",
                                                     internal::InputAt(context, node, 1), &shape));
  const int rank = static_cast<int>(shape.size());
  const int in_rank = internal::NumDims(input);
  if (rank > internal::kMaxLayoutRank || rank < in_rank) {
    TF_LITE_KERNEL_LOG(context, "%s: cannot broadcast a rank-%d input to rank %d (at most %d)",
                       kOp, in_rank, rank, internal::kMaxLayoutRank);
    return kTfLiteError;
  }
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  data->gather = internal::AxisGather(rank);
  for (int d = 0; d < rank; ++d) {
    const int in_d = d - (rank - in_rank);
    const int n = in_d < 0 ? 1 : internal::Dim(input, in_d);
    if (shape[d] < 0 || (n != 1 && n != shape[d])) {
      char in_str[96];
      TF_LITE_KERNEL_LOG(context, "%s: input %s does not broadcast to dimension %d of size %d",
                         kOp, internal::ShapeToString(input->dims, in_str, sizeof(in_str)), d,
                         shape[d]);
      return kTfLiteError;
    }
    // A broadcast dimension reads its single input element again and again.
    data->gather.SetLinearAxis(d, 0, n == 1 ? 0 : 1, shape[d], in_d < 0 ? 0 : strides[in_d]);
  }
  return context->ResizeTensor(context, output,
                               internal::MakeIntArray(shape.data(), rank).release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &shape));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (output->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "input", input->type,
                                                       &data->element_bytes));
  if ((shape->type != kTfLiteInt32 && shape->type != kTfLiteInt64) ||
      internal::NumDims(shape) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: shape must be a 1-D INT32 or INT64 tensor", kOp);
    return kTfLiteError;
  }
  return internal::FinishGatherPrepare(context, node, data,
                                       internal::IsConstantOrPersistent(shape), Plan);
}

}  // namespace

const TfLiteRegistration* Register_BROADCAST_TO() {
  return internal::GatherOpRegistration<Prepare, Plan>();
}

}  // namespace kernels
}  // namespace tflite_c

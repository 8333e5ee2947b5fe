// TRANSPOSE (input, perm): output dimension i is input dimension perm[i].
// Up to 8-D, any fixed-size element type (quantized values move unchanged)
// and packed INT4 (two values per byte, low nibble first; op version 7);
// perm INT32 or INT64, a permutation of [0, rank) whose entries may also be
// negative (counted from the end). Non-constant perm makes the output
// dynamic.
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/string_gather.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "TRANSPOSE";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* perm_tensor = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rank = internal::NumDims(input);
  std::vector<int> perm;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "perm", perm_tensor, &perm));
  if (static_cast<int>(perm.size()) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: perm has %zu entries for a rank-%d input", kOp, perm.size(),
                       rank);
    return kTfLiteError;
  }
  bool seen[internal::kMaxLayoutRank] = {false};
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  data->gather = internal::AxisGather(rank);
  for (int i = 0; i < rank; ++i) {
    int axis;
    TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, perm[i], rank, &axis));
    if (seen[axis]) {
      TF_LITE_KERNEL_LOG(context, "%s: perm repeats dimension %d", kOp, axis);
      return kTfLiteError;
    }
    seen[axis] = true;
    shape->data[i] = internal::Dim(input, axis);
    data->gather.SetLinearAxis(i, 0, 1, shape->data[i], strides[axis]);
  }
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  const TfLiteTensor* inputs[2];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetPackedGatherTensors(context, node, kOp, 2,
                                                              internal::kGatherInt4, data, inputs,
                                                              &output));
  const TfLiteTensor *input = inputs[0], *perm = inputs[1];
  if (perm->type != kTfLiteInt32 && perm->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "perm", perm->type);
  }
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "input", input));
  if (internal::NumDims(perm) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: perm must be 1-D, got rank %d", kOp, internal::NumDims(perm));
    return kTfLiteError;
  }
  return internal::FinishGatherPrepare(context, node, data,
                                       internal::IsConstantOrPersistent(perm), Plan);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return internal::EvalPackedGatherOp(context, node, kOp, Plan);
}

}  // namespace

const TfLiteRegistration* Register_TRANSPOSE() {
  return internal::GatherKernelRegistration<Prepare, Eval>();
}

}  // namespace kernels
}  // namespace tflite_c

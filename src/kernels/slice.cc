// SLICE (input, begin, size): the block starting at `begin` with `size`
// elements per dimension; a size of -1 takes the rest of the dimension. Any
// fixed-size element type, packed INT4 (op version 7), or STRING (the output
// is then dynamic, its buffer built at Eval); begin and size INT32 or INT64
// with one entry per input dimension. Non-constant begin or size make the
// output dynamic.
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/string_gather.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SLICE";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int64_t> begin, size;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "begin",
                                                     internal::InputAt(context, node, 1), &begin));
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "size",
                                                     internal::InputAt(context, node, 2), &size));
  const int rank = internal::NumDims(input);
  if (static_cast<int>(begin.size()) != rank || static_cast<int>(size.size()) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: begin and size need %d entries, have %zu and %zu", kOp, rank,
                       begin.size(), size.size());
    return kTfLiteError;
  }
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  data->gather = internal::AxisGather(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t n = internal::Dim(input, d);
    const int64_t count = size[d] == -1 ? n - begin[d] : size[d];
    if (begin[d] < 0 || count < 0 || begin[d] + count > n) {
      TF_LITE_KERNEL_LOG(context, "%s: begin %lld, size %lld do not fit dimension %d of size %lld",
                         kOp, static_cast<long long>(begin[d]), static_cast<long long>(size[d]),
                         d, static_cast<long long>(n));
      return kTfLiteError;
    }
    shape->data[d] = static_cast<int>(count);
    data->gather.SetLinearAxis(d, begin[d], 1, shape->data[d], strides[d]);
  }
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  const TfLiteTensor* inputs[3];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetPackedGatherTensors(
                                 context, node, kOp, 3,
                                 internal::kGatherStrings | internal::kGatherInt4, data, inputs,
                                 &output));
  const TfLiteTensor *input = inputs[0], *begin = inputs[1], *size = inputs[2];
  if ((begin->type != kTfLiteInt32 && begin->type != kTfLiteInt64) || size->type != begin->type) {
    TF_LITE_KERNEL_LOG(context, "%s: begin and size must both be INT32 or INT64, got %s and %s",
                       kOp, TfLiteTypeGetName(begin->type), TfLiteTypeGetName(size->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "input", input));
  const bool known =
      internal::IsConstantOrPersistent(begin) && internal::IsConstantOrPersistent(size);
  TF_LITE_ENSURE_OK(context, internal::FinishGatherPrepare(context, node, data, known, Plan));
  if (input->type == kTfLiteString) internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return internal::EvalPackedGatherOp(context, node, kOp, Plan);
}

}  // namespace

const TfLiteRegistration* Register_SLICE() {
  return internal::GatherKernelRegistration<Prepare, Eval>();
}

}  // namespace kernels
}  // namespace tflite_c

// TILE (input, multiples): repeats the input multiples[i] times along each
// dimension i. Any fixed-size element type (BOOL included), or STRING (the
// output is then dynamic, its buffer built at Eval); multiples INT32 or
// INT64, one non-negative entry per input dimension. Non-constant multiples
// make the output dynamic.
#include <vector>

#include "src/kernels/internal/axis_gather.h"
#include "src/kernels/internal/checked_math.h"
#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/string_gather.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "TILE";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int64_t> multiples;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "multiples",
                                                     internal::InputAt(context, node, 1),
                                                     &multiples));
  const int rank = internal::NumDims(input);
  if (static_cast<int>(multiples.size()) != rank) {
    TF_LITE_KERNEL_LOG(context, "%s: multiples has %zu entries for a rank-%d input", kOp,
                       multiples.size(), rank);
    return kTfLiteError;
  }
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  std::vector<int> sizes(rank);
  bool empty = false;
  for (int d = 0; d < rank; ++d) {
    const int n = internal::Dim(input, d);
    if (multiples[d] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: multiple %lld of dimension %d is invalid", kOp,
                         static_cast<long long>(multiples[d]), d);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, internal::MulDim(context, kOp, "output dimension", n,
                                                multiples[d], &shape->data[d]));
    sizes[d] = shape->data[d];
    empty = empty || sizes[d] == 0;
  }
  // Sized first: an output above the allocation limit fails here, before the
  // plan below (one entry per output index of each axis) is built for it.
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, shape.release()));
  data->gather = internal::AxisGather(rank);
  if (empty) return kTfLiteOk;  // nothing to gather; no plan for the other axes
  for (int d = 0; d < rank; ++d) {
    const int n = internal::Dim(input, d);
    std::vector<int> index(sizes[d]);
    for (int i = 0; i < sizes[d]; ++i) index[i] = i % n;
    data->gather.SetAxis(d, index, strides[d]);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<internal::GatherOpData*>(node->user_data);
  const TfLiteTensor* inputs[2];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetPackedGatherTensors(
                                 context, node, kOp, 2, internal::kGatherStrings, data, inputs,
                                 &output));
  const TfLiteTensor *input = inputs[0], *multiples = inputs[1];
  if (multiples->type != kTfLiteInt32 && multiples->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, kOp, "multiples", multiples->type);
  }
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, internal::FinishGatherPrepare(
                                 context, node, data, internal::IsConstantOrPersistent(multiples),
                                 Plan));
  if (input->type == kTfLiteString) internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return internal::EvalPackedGatherOp(context, node, kOp, Plan);
}

}  // namespace

const TfLiteRegistration* Register_TILE() {
  return internal::GatherKernelRegistration<Prepare, Eval>();
}

}  // namespace kernels
}  // namespace tflite_c

// REVERSE_V2 (input, axis): reverses the input along each dimension listed
// in `axis` (1-D INT32 or INT64; negative counts from the end). Any
// fixed-size element type, quantized values unchanged. A non-constant axis
// makes the output dynamic.
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "REVERSE_V2";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, internal::GatherOpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  std::vector<int> axes;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "axis",
                                                     internal::InputAt(context, node, 1), &axes));
  const int rank = internal::NumDims(input);
  bool reverse[internal::kMaxLayoutRank] = {false};
  for (int a : axes) {
    int d;
    TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, a, rank, &d));
    reverse[d] = true;
  }
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(input->dims, strides);
  data->gather = internal::AxisGather(rank);
  for (int d = 0; d < rank; ++d) {
    const int n = internal::Dim(input, d);
    data->gather.SetLinearAxis(d, reverse[d] ? n - 1 : 0, reverse[d] ? -1 : 1, n, strides[d]);
  }
  return internal::ResizeOutputLike(context, internal::OutputAt(context, node, 0), input->dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return internal::PrepareGatherOp(context, node, kOp, 2, "axis", Plan);
}

}  // namespace

const TfLiteRegistration* Register_REVERSE_V2() {
  return internal::GatherOpRegistration<Prepare, Plan>();
}

}  // namespace kernels
}  // namespace tflite_c

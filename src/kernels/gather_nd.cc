// GATHER_ND (params, indices): each row of the last dimension of indices
// (n = its size) names a slice params[i0, ..., in-1, :, ...]; the output
// shape is indices.shape[:-1] + params.shape[n:]. indices are INT16, INT32
// or INT64; an index outside its dimension fails Invoke. Any fixed-size
// element type, quantized values unchanged.
#include <cstring>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "GATHER_ND";

struct OpData {
  size_t element_bytes = 0;
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *params, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &params));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (output->type != params->type) {
    return internal::TypeMismatch(context, kOp, "params", params->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::GetElementBytes(context, kOp, "params", params->type,
                                                       &data->element_bytes));
  if (indices->type != kTfLiteInt32 && indices->type != kTfLiteInt64 &&
      indices->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, kOp, "indices", indices->type);
  }
  const int rank = internal::NumDims(params), irank = internal::NumDims(indices);
  const int n = irank > 0 ? internal::Dim(indices, irank - 1) : -1;
  TF_LITE_ENSURE_OK(context, internal::CheckLayoutRank(context, kOp, "params", params));
  if (rank < 1 || irank < 1 || n > rank) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: indices of rank %d with rows of %d do not fit params of rank %d", kOp,
                       irank, n, rank);
    return kTfLiteError;
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCreate(irank - 1 + rank - n));
  int o = 0;
  for (int d = 0; d < irank - 1; ++d) shape->data[o++] = internal::Dim(indices, d);
  for (int d = n; d < rank; ++d) shape->data[o++] = internal::Dim(params, d);
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* params = internal::InputAt(context, node, 0);
  const TfLiteTensor* indices = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int64_t> idx;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "indices", indices, &idx));
  const int rank = internal::NumDims(params);
  const int n = internal::Dim(indices, internal::NumDims(indices) - 1);
  int64_t strides[internal::kMaxLayoutRank];
  internal::RowMajorStrides(params->dims, strides);
  const int64_t slice = internal::DimsProduct(params->dims, n, rank) * data.element_bytes;
  const int64_t rows = internal::DimsProduct(indices->dims, 0, internal::NumDims(indices) - 1);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int d = 0; d < n; ++d) {
      const int64_t i = idx[r * n + d];
      if (i < 0 || i >= internal::Dim(params, d)) {
        TF_LITE_KERNEL_LOG(context, "%s: index %lld is out of range for dimension %d of size %d",
                           kOp, static_cast<long long>(i), d, internal::Dim(params, d));
        return kTfLiteError;
      }
      offset += i * strides[d];
    }
    // An empty slice copies nothing (and an empty params tensor may have no
    // buffer at all).
    if (slice > 0) {
      std::memcpy(output->data.raw + r * slice, params->data.raw + offset * data.element_bytes,
                  slice);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_GATHER_ND() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

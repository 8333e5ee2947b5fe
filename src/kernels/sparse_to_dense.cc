// SPARSE_TO_DENSE (indices, output_shape, values, default_value): a tensor
// of shape `output_shape` (1-D INT32 or INT64) filled with default_value,
// then written at each index with the matching element of `values` (1-D, one
// per index) or with `values` itself when it is a scalar. indices (INT32 or
// INT64) are a scalar or 1-D (positions in a 1-D output) or 2-D [n, rank]
// (one coordinate row per index). Values: FLOAT32, INT32, INT64, INT8 or
// UINT8. Later indices overwrite earlier ones; an index outside the output
// fails Invoke. As upstream, validate_indices (sortedness) is not checked.
// A non-constant output_shape makes the output dynamic.
#include <cstring>
#include <vector>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SPARSE_TO_DENSE";

TfLiteStatus ResizeFromShape(TfLiteContext* context, TfLiteNode* node) {
  return internal::ResizeOutputToShapeInput(context, node, 1, kOp, "output_shape");
}

int64_t NumIndices(const TfLiteTensor* indices) {
  return internal::NumDims(indices) == 0 ? 1 : internal::Dim(indices, 0);
}

TfLiteStatus CheckShapes(TfLiteContext* context, const TfLiteTensor* indices,
                         const TfLiteTensor* output_shape, const TfLiteTensor* values,
                         const TfLiteTensor* default_value) {
  const int indices_rank = internal::NumDims(indices);
  if (indices_rank > 2) {
    TF_LITE_KERNEL_LOG(context, "%s: indices must be 0-D, 1-D or 2-D, got rank %d", kOp,
                       indices_rank);
    return kTfLiteError;
  }
  if (internal::NumDims(output_shape) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: output_shape must be 1-D", kOp);
    return kTfLiteError;
  }
  const int64_t coordinates = indices_rank == 2 ? internal::Dim(indices, 1) : 1;
  if (internal::NumElements(output_shape) != coordinates) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: output_shape has %d entries but each index has %d coordinates", kOp,
                       static_cast<int>(internal::NumElements(output_shape)),
                       static_cast<int>(coordinates));
    return kTfLiteError;
  }
  if (internal::NumDims(values) > 1 ||
      (internal::NumDims(values) == 1 && internal::Dim(values, 0) != NumIndices(indices))) {
    TF_LITE_KERNEL_LOG(context, "%s: values must be a scalar or hold one value per index (%d)",
                       kOp, static_cast<int>(NumIndices(indices)));
    return kTfLiteError;
  }
  if (internal::NumElements(default_value) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: default_value must hold one element", kOp);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 4, 4, 1));
  const TfLiteTensor *indices, *output_shape, *values, *default_value;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &output_shape));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &values));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 3, kOp, &default_value));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(indices->type, {kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "indices", indices->type);
  }
  if (!internal::TypeIn(output_shape->type, {kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "output_shape", output_shape->type);
  }
  if (!internal::TypeIn(values->type, {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, kTfLiteInt8,
                                       kTfLiteUInt8})) {
    return internal::UnsupportedType(context, kOp, "values", values->type);
  }
  if (default_value->type != values->type) {
    return internal::TypeMismatch(context, kOp, "values", values->type, "default_value",
                                  default_value->type);
  }
  if (output->type != values->type) {
    return internal::TypeMismatch(context, kOp, "values", values->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, CheckShapes(context, indices, output_shape, values, default_value));
  return internal::ResizeOrDefer(context, node, internal::IsConstantOrPersistent(output_shape),
                                 ResizeFromShape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeFromShape));
  const TfLiteTensor* indices = internal::InputAt(context, node, 0);
  const TfLiteTensor* values = internal::InputAt(context, node, 2);
  const TfLiteTensor* default_value = internal::InputAt(context, node, 3);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  std::vector<int64_t> idx;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "indices", indices, &idx));
  const size_t es = internal::ElementBytes(output->type);
  internal::FillElements(output->data.raw, internal::NumElements(output),
                         default_value->data.raw_const, es);
  const int rank = internal::NumDims(output);
  std::vector<int64_t> stride(rank);
  internal::RowMajorStrides(output->dims, stride.data());
  const bool scalar_value = internal::NumDims(values) == 0;
  const int64_t n = NumIndices(indices);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d) {
      const int64_t c = idx[i * rank + d];
      if (c < 0 || c >= internal::Dim(output, d)) {
        TF_LITE_KERNEL_LOG(context, "%s: index %lld of entry %lld is outside dimension %d (size %d)",
                           kOp, static_cast<long long>(c), static_cast<long long>(i), d,
                           internal::Dim(output, d));
        return kTfLiteError;
      }
      offset += c * stride[d];
    }
    std::memcpy(output->data.raw + offset * es,
                values->data.raw_const + (scalar_value ? 0 : i * static_cast<int64_t>(es)), es);
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_SPARSE_TO_DENSE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

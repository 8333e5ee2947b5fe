// SCATTER_ND (indices, updates, shape): a zero tensor of shape `shape` (a
// 1-D INT32 tensor) into which each slice of `updates` is added at the
// position named by the matching row of `indices` (INT32, last dimension =
// number of leading output dimensions indexed; duplicate positions
// accumulate, BOOL updates are OR-ed). Updates are FLOAT32, UINT8, INT8,
// INT32, INT64 or BOOL; the output has their type. A non-constant shape
// makes the output dynamic; out-of-range indices fail at Invoke.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/internal/wrapping_math.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "SCATTER_ND";

// Checks that indices [N..., K], updates [N..., shape[K:]...] and shape agree.
TfLiteStatus CheckShapes(TfLiteContext* context, const TfLiteTensor* indices,
                         const TfLiteTensor* updates, const TfLiteTensor* shape) {
  if (internal::NumDims(indices) < 1 || internal::NumDims(updates) < 1 ||
      internal::NumDims(shape) != 1) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: indices and updates need rank >= 1 and shape must be 1-D", kOp);
    return kTfLiteError;
  }
  const int out_rank = internal::Dim(shape, 0);
  const int outer = internal::NumDims(indices) - 1;
  const int k = internal::Dim(indices, outer);
  if (k < 1 || k > out_rank) {
    TF_LITE_KERNEL_LOG(context, "%s: index depth %d must be in [1, %d] (output rank)", kOp, k,
                       out_rank);
    return kTfLiteError;
  }
  for (int i = 0; i < out_rank; ++i) {
    if (shape->data.i32[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: shape dimension %d is negative (%d)", kOp, i,
                         shape->data.i32[i]);
      return kTfLiteError;
    }
  }
  bool ok = internal::NumDims(updates) - outer == out_rank - k;
  for (int i = 0; ok && i < outer; ++i) ok = internal::Dim(updates, i) == internal::Dim(indices, i);
  for (int i = 0; ok && i + outer < internal::NumDims(updates); ++i) {
    ok = internal::Dim(updates, i + outer) == shape->data.i32[k + i];
  }
  if (!ok) {
    char a[64], b[64], c[64];
    internal::IntArrayPtr out_shape = internal::MakeIntArray(shape->data.i32, out_rank);
    TF_LITE_KERNEL_LOG(context, "%s: updates shape %s does not fit indices shape %s and shape %s",
                       kOp, internal::ShapeToString(updates->dims, a, sizeof(a)),
                       internal::ShapeToString(indices->dims, b, sizeof(b)),
                       internal::ShapeToString(out_shape.get(), c, sizeof(c)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, const TfLiteTensor* indices,
                          const TfLiteTensor* updates, const TfLiteTensor* shape,
                          TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, CheckShapes(context, indices, updates, shape));
  return context->ResizeTensor(
      context, output, internal::MakeIntArray(shape->data.i32, internal::Dim(shape, 0)).release());
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *indices, *updates, *shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &indices));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &updates));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kOp, &shape));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(updates->type, {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt32,
                                        kTfLiteInt64, kTfLiteBool})) {
    return internal::UnsupportedType(context, kOp, "updates", updates->type);
  }
  if (output->type != updates->type) {
    return internal::TypeMismatch(context, kOp, "updates", updates->type, "output", output->type);
  }
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "indices", indices, kTfLiteInt32));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "shape", shape, kTfLiteInt32));
  if (internal::IsConstantOrPersistent(shape)) {
    return ResizeOutput(context, indices, updates, shape, output);
  }
  internal::SetTensorToDynamic(output);
  return kTfLiteOk;
}

template <typename T>
TfLiteStatus Scatter(TfLiteContext* context, const TfLiteTensor* indices,
                     const TfLiteTensor* updates, TfLiteTensor* output) {
  const int outer = internal::NumDims(indices) - 1;
  const int k = internal::Dim(indices, outer);
  const int rank = internal::NumDims(output);
  const int64_t rows = internal::DimsProduct(indices->dims, 0, outer);
  const int64_t slice = internal::DimsProduct(output->dims, k, rank);
  std::vector<int64_t> strides(rank > 0 ? rank : 1);
  internal::RowMajorStrides(output->dims, strides.data());
  T* out = static_cast<T*>(output->data.data);
  const T* upd = static_cast<const T*>(updates->data.data);
  const int64_t total = internal::NumElements(output);
  for (int64_t i = 0; i < total; ++i) out[i] = T(0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int j = 0; j < k; ++j) {
      const int32_t idx = indices->data.i32[r * k + j];
      if (idx < 0 || idx >= internal::Dim(output, j)) {
        TF_LITE_KERNEL_LOG(context, "%s: index %d in row %lld is out of range [0, %d)", kOp, idx,
                           static_cast<long long>(r), internal::Dim(output, j));
        return kTfLiteError;
      }
      offset += idx * strides[j];
    }
    for (int64_t e = 0; e < slice; ++e) {
      if constexpr (std::is_same_v<T, bool>) {
        out[offset + e] = internal::LoadElement(out, offset + e) ||
                          internal::LoadElement(upd, r * slice + e);
      } else {
        out[offset + e] = internal::WrappingAdd(out[offset + e], upd[r * slice + e]);
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = internal::InputAt(context, node, 0);
  const TfLiteTensor* updates = internal::InputAt(context, node, 1);
  const TfLiteTensor* shape = internal::InputAt(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, indices, updates, shape, output));
  }
  switch (output->type) {
    case kTfLiteFloat32: return Scatter<float>(context, indices, updates, output);
    case kTfLiteUInt8: return Scatter<uint8_t>(context, indices, updates, output);
    case kTfLiteInt8: return Scatter<int8_t>(context, indices, updates, output);
    case kTfLiteInt32: return Scatter<int32_t>(context, indices, updates, output);
    case kTfLiteInt64: return Scatter<int64_t>(context, indices, updates, output);
    default: return Scatter<bool>(context, indices, updates, output);
  }
}

}  // namespace

const TfLiteRegistration* Register_SCATTER_ND() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

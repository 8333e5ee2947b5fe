// TOPK_V2 (input, k): along the last dimension, the k largest values in
// descending order (output 0) and their positions (output 1, INT32 or
// INT16); equal values keep their input order. k is a scalar INT32 or
// INT16 in [0, last dimension]. FLOAT32, UINT8, INT8, INT16, INT32, INT64
// (quantized values compare as stored and are copied unchanged). A
// non-constant k makes the outputs dynamic.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "TOPK_V2";

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  std::vector<int> k;
  TF_LITE_ENSURE_OK(
      context, internal::ReadIntValues(context, kOp, "k", internal::InputAt(context, node, 1), &k));
  const int rank = internal::NumDims(input);
  const int last = internal::Dim(input, rank - 1);
  if (k.size() != 1 || k[0] < 0 || k[0] > last) {
    TF_LITE_KERNEL_LOG(context, "%s: k must be one value in [0, %d]", kOp, last);
    return kTfLiteError;
  }
  for (int i = 0; i < 2; ++i) {
    internal::IntArrayPtr shape(TfLiteIntArrayCopy(input->dims));
    shape->data[rank - 1] = k[0];
    TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, internal::OutputAt(context, node, i),
                                                     shape.release()));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 2));
  const TfLiteTensor *input, *k;
  TfLiteTensor *values, *indices;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &k));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &values));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 1, kOp, &indices));
  if (!internal::TypeIn(input->type, {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  if (values->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", values->type);
  }
  if (k->type != kTfLiteInt32 && k->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, kOp, "k", k->type);
  }
  if (indices->type != kTfLiteInt32 && indices->type != kTfLiteInt16) {
    return internal::UnsupportedType(context, kOp, "indices output", indices->type);
  }
  if (internal::NumDims(input) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must have at least one dimension", kOp);
    return kTfLiteError;
  }
  if (internal::IsConstantOrPersistent(k)) return ResizeOutputs(context, node);
  internal::SetTensorToDynamic(values);
  internal::SetTensorToDynamic(indices);
  return kTfLiteOk;
}

template <typename T>
void TopK(const T* in, int64_t rows, int n, int k, TfLiteTensor* values, TfLiteTensor* indices) {
  T* out = reinterpret_cast<T*>(values->data.raw);
  std::vector<int> order(n);
  for (int64_t r = 0; r < rows; ++r, in += n) {
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [in](int a, int b) {
      return in[a] > in[b] || (in[a] == in[b] && a < b);
    });
    for (int i = 0; i < k; ++i) {
      out[r * k + i] = in[order[i]];
      if (indices->type == kTfLiteInt16) {
        indices->data.i16[r * k + i] = static_cast<int16_t>(order[i]);
      } else {
        indices->data.i32[r * k + i] = order[i];
      }
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* values = internal::OutputAt(context, node, 0);
  TfLiteTensor* indices = internal::OutputAt(context, node, 1);
  if (internal::IsDynamic(values)) TF_LITE_ENSURE_OK(context, ResizeOutputs(context, node));
  const int rank = internal::NumDims(input);
  const int n = internal::Dim(input, rank - 1);
  const int k = internal::Dim(values, rank - 1);
  const int64_t rows = internal::DimsProduct(input->dims, 0, rank - 1);
  switch (input->type) {
    case kTfLiteFloat32: TopK(input->data.f, rows, n, k, values, indices); break;
    case kTfLiteUInt8: TopK(input->data.uint8, rows, n, k, values, indices); break;
    case kTfLiteInt8: TopK(input->data.int8, rows, n, k, values, indices); break;
    case kTfLiteInt16: TopK(input->data.i16, rows, n, k, values, indices); break;
    case kTfLiteInt32: TopK(input->data.i32, rows, n, k, values, indices); break;
    default: TopK(input->data.i64, rows, n, k, values, indices); break;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_TOPK_V2() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// UNIQUE (x) -> (y, idx): y holds the distinct values of the 1-D input in
// order of first appearance; idx[i] is the position of x[i] in y. x and y:
// FLOAT32, INT8, UINT8, INT16, INT32 or INT64; idx: INT32 or INT64 as the
// options' idx_out_type says (a model without options is refused, as
// upstream). 0.0 and -0.0 are equal; every NaN is distinct (NaN != NaN).
// The size of y is known only at Invoke, so y is dynamic.
#include <cmath>
#include <map>
#include <type_traits>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "UNIQUE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 1, 1, 2));
  const TfLiteTensor* input;
  TfLiteTensor *values, *index;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &input));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &values));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 1, kOp, &index));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteUniqueParams*>(node->builtin_data);
  if (!internal::TypeIn(params->index_out_type, {kTfLiteInt32, kTfLiteInt64})) {
    TF_LITE_KERNEL_LOG(context, "%s: idx_out_type must be INT32 or INT64, got %s", kOp,
                       TfLiteTypeGetName(params->index_out_type));
    return kTfLiteError;
  }
  if (!internal::TypeIn(input->type, {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64})) {
    return internal::UnsupportedType(context, kOp, "input", input->type);
  }
  if (values->type != input->type) {
    return internal::TypeMismatch(context, kOp, "input", input->type, "output", values->type);
  }
  if (index->type != params->index_out_type) {
    return internal::TypeMismatch(context, kOp, "idx_out_type", params->index_out_type,
                                  "index output", index->type);
  }
  if (internal::NumDims(input) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be 1-D, got rank %d", kOp,
                       internal::NumDims(input));
    return kTfLiteError;
  }
  internal::SetTensorToDynamic(values);
  return internal::ResizeOutputLike(context, index, input->dims);
}

template <typename T>
bool IsNaN(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

template <typename T, typename I>
TfLiteStatus Run(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  TfLiteTensor* values = internal::OutputAt(context, node, 0);
  I* index = static_cast<I*>(internal::OutputAt(context, node, 1)->data.data);
  const T* in = static_cast<const T*>(input->data.data);
  const int n = internal::Dim(input, 0);
  std::map<T, I> position;  // value -> index in `distinct`
  std::vector<T> distinct;
  for (int i = 0; i < n; ++i) {
    const I next = static_cast<I>(distinct.size());
    if (IsNaN(in[i])) {
      index[i] = next;
    } else {
      const auto inserted = position.emplace(in[i], next);
      index[i] = inserted.first->second;
      if (!inserted.second) continue;
    }
    distinct.push_back(in[i]);
  }
  TF_LITE_ENSURE_OK(context,
                    internal::ResizeOutput(context, values, {static_cast<int>(distinct.size())}));
  T* out = static_cast<T*>(values->data.data);
  for (size_t i = 0; i < distinct.size(); ++i) out[i] = distinct[i];
  return kTfLiteOk;
}

template <typename T>
TfLiteStatus RunForIndexType(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUniqueParams*>(node->builtin_data);
  return params->index_out_type == kTfLiteInt64 ? Run<T, int64_t>(context, node)
                                                : Run<T, int32_t>(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  switch (internal::InputAt(context, node, 0)->type) {
    case kTfLiteFloat32: return RunForIndexType<float>(context, node);
    case kTfLiteInt8: return RunForIndexType<int8_t>(context, node);
    case kTfLiteUInt8: return RunForIndexType<uint8_t>(context, node);
    case kTfLiteInt16: return RunForIndexType<int16_t>(context, node);
    case kTfLiteInt32: return RunForIndexType<int32_t>(context, node);
    default: return RunForIndexType<int64_t>(context, node);
  }
}

}  // namespace

const TfLiteRegistration* Register_UNIQUE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

// ARG_MAX and ARG_MIN: index of the largest / smallest value along the axis
// given by input 1 (an INT32 or INT64 scalar or 1-element tensor, negative
// counts from the end); that dimension is removed. Input FLOAT32, UINT8, INT8,
// INT16, INT32, INT64 or BOOL; output INT32 or INT64 (params.output_type).
// Ties pick the first index; NaN never wins over an earlier value, as upstream.
#include <cstdint>
#include <vector>

#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

struct OpData {
  int64_t outer = 0, axis_size = 0, inner = 0;
};

TfLiteStatus ResolveAxis(TfLiteContext* context, const TfLiteNode* node, const char* op,
                         OpData* data) {
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  const TfLiteTensor* axis = internal::InputAt(context, node, 1);
  const int rank = internal::NumDims(input);
  int64_t a = axis->type == kTfLiteInt32 ? axis->data.i32[0] : axis->data.i64[0];
  if (a < -rank || a >= rank) {
    TF_LITE_KERNEL_LOG(context, "%s: axis %lld is out of range for an input of rank %d", op,
                       static_cast<long long>(a), rank);
    return kTfLiteError;
  }
  if (a < 0) a += rank;
  data->outer = data->inner = 1;
  std::vector<int> shape;
  for (int d = 0; d < rank; ++d) {
    if (d < a) data->outer *= internal::Dim(input, d);
    if (d > a) data->inner *= internal::Dim(input, d);
    if (d != a) shape.push_back(internal::Dim(input, d));
  }
  data->axis_size = internal::Dim(input, static_cast<int>(a));
  return context->ResizeTensor(
      context, internal::OutputAt(context, node, 0),
      internal::MakeIntArray(shape.data(), static_cast<int>(shape.size())).release());
}

template <bool kMax>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const char* op = kMax ? "ARG_MAX" : "ARG_MIN";
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor* inputs[2];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInputsAndOutput(context, node, op, 2, inputs, &output));
  const TfLiteTensor *input = inputs[0], *axis = inputs[1];
  if (!internal::TypeIn(input->type, {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16,
                                      kTfLiteInt32, kTfLiteInt64, kTfLiteBool})) {
    return internal::UnsupportedType(context, op, "input", input->type);
  }
  if (axis->type != kTfLiteInt32 && axis->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, op, "axis", axis->type);
  }
  if (internal::NumElements(axis) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: axis must hold exactly one value, got %lld", op,
                       static_cast<long long>(internal::NumElements(axis)));
    return kTfLiteError;
  }
  if (output->type != kTfLiteInt32 && output->type != kTfLiteInt64) {
    return internal::UnsupportedType(context, op, "output", output->type);
  }
  if (!internal::IsConstantOrPersistent(axis)) {
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResolveAxis(context, node, op, static_cast<OpData*>(node->user_data));
}

template <bool kMax, typename T, typename Index>
void ArgMinMax(const OpData& d, const T* in, Index* out) {
  for (int64_t o = 0; o < d.outer; ++o) {
    for (int64_t i = 0; i < d.inner; ++i) {
      const T* p = in + o * d.axis_size * d.inner + i;
      int64_t best = 0;
      for (int64_t k = 1; k < d.axis_size; ++k) {
        const T v = internal::LoadElement(p, k * d.inner);
        const T b = internal::LoadElement(p, best * d.inner);
        const bool better = kMax ? (v > b) : (v < b);
        if (better) best = k;
      }
      out[o * d.inner + i] = static_cast<Index>(best);
    }
  }
}

template <bool kMax, typename T>
void Dispatch(const OpData& d, const TfLiteTensor* input, TfLiteTensor* output) {
  const T* in = static_cast<const T*>(input->data.data);
  if (output->type == kTfLiteInt32) {
    ArgMinMax<kMax>(d, in, output->data.i32);
  } else {
    ArgMinMax<kMax>(d, in, output->data.i64);
  }
}

template <bool kMax>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* d = static_cast<OpData*>(node->user_data);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  if (internal::IsDynamic(output)) {
    TF_LITE_ENSURE_OK(context, ResolveAxis(context, node, kMax ? "ARG_MAX" : "ARG_MIN", d));
  }
  const TfLiteTensor* input = internal::InputAt(context, node, 0);
  switch (input->type) {
    case kTfLiteFloat32:
      Dispatch<kMax, float>(*d, input, output);
      break;
    case kTfLiteUInt8:
      Dispatch<kMax, uint8_t>(*d, input, output);
      break;
    case kTfLiteInt8:
      Dispatch<kMax, int8_t>(*d, input, output);
      break;
    case kTfLiteInt16:
      Dispatch<kMax, int16_t>(*d, input, output);
      break;
    case kTfLiteInt32:
      Dispatch<kMax, int32_t>(*d, input, output);
      break;
    case kTfLiteInt64:
      Dispatch<kMax, int64_t>(*d, input, output);
      break;
    default:
      Dispatch<kMax, bool>(*d, input, output);
      break;
  }
  return kTfLiteOk;
}

template <bool kMax>
const TfLiteRegistration* Register() {
  return internal::OpDataRegistration<OpData, Prepare<kMax>, Eval<kMax>>();
}

}  // namespace

const TfLiteRegistration* Register_ARG_MAX() { return Register<true>(); }
const TfLiteRegistration* Register_ARG_MIN() { return Register<false>(); }

}  // namespace kernels
}  // namespace tflite_c

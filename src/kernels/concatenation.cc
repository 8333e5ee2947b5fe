// CONCATENATION: joins its inputs along `axis` (negative counts from the
// end). All inputs share type and rank; their other dimensions must match.
// Any fixed-size element type, or packed INT4 (two values per byte, low
// nibble first; op version 5, as upstream); scalars are joined into a vector.
//
// Quantized inputs: a UINT8 or INT8 input whose scale or zero point differs
// from the output's is requantized, out = round(in * s_in / s_out + b) with
// the bias folding both zero points, in float exactly as upstream's UINT8
// kernel (upstream rejects such INT8 inputs; accepting them is harmless).
// INT16 inputs must have zero point 0 and are copied unchanged.
//
// The fused activation clamps FLOAT32 and 8-bit outputs (upstream accepts
// only NONE). When every input is constant the result is computed once in
// Prepare into a persistent read-only output.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/internal/quant_validate.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "CONCATENATION";

struct OpData {
  int axis = 0;
  size_t element_bytes = 0;
  bool requantize = false;  // some 8-bit input needs rescaling
  bool folded = false;      // computed in Prepare
  bool int4 = false;        // packed INT4 values
  int32_t act_min = 0, act_max = 0;
};

TfLiteStatus CheckQuantization(TfLiteContext* context, TfLiteNode* node, OpData* data,
                               const TfLiteTensor* output) {
  const TfLiteType type = output->type;
  data->requantize = false;
  for (int i = 0; i < internal::NumInputs(node); ++i) {
    const TfLiteTensor* t = internal::InputAt(context, node, i);
    if (type == kTfLiteInt16 && t->params.zero_point != 0) {
      TF_LITE_KERNEL_LOG(context, "%s: INT16 input %d must have zero point 0, has %d", kOp, i,
                         t->params.zero_point);
      return kTfLiteError;
    }
    if ((type == kTfLiteUInt8 || type == kTfLiteInt8) &&
        (t->params.scale != output->params.scale ||
         t->params.zero_point != output->params.zero_point)) {
      data->requantize = true;
    }
  }
  if (type == kTfLiteInt16 && output->params.zero_point != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: INT16 output must have zero point 0, has %d", kOp,
                       output->params.zero_point);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

template <typename T>
void CopyRequantized(const T* in, int64_t n, const TfLiteTensor* input, const TfLiteTensor* output,
                     int32_t lo, int32_t hi, T* out) {
  const float scale = input->params.scale * (1.0f / output->params.scale);
  const float bias = -static_cast<float>(input->params.zero_point) * scale;
  const int32_t out_zp = output->params.zero_point;
  for (int64_t j = 0; j < n; ++j) {
    const int32_t v = static_cast<int32_t>(std::round(in[j] * scale + bias)) + out_zp;
    out[j] = static_cast<T>(std::min(hi, std::max(lo, v)));
  }
}

// Copies one input's slab for one outer index, rescaling when needed.
void CopySlab(const OpData& data, const TfLiteTensor* input, const TfLiteTensor* output,
              const char* src, int64_t n, char* dst) {
  if (n == 0) return;  // an empty input may have no buffer at all
  const bool rescale = data.requantize && (input->params.scale != output->params.scale ||
                                           input->params.zero_point != output->params.zero_point);
  if (!rescale) {
    std::memcpy(dst, src, n * data.element_bytes);
  } else if (output->type == kTfLiteUInt8) {
    CopyRequantized(reinterpret_cast<const uint8_t*>(src), n, input, output, data.act_min,
                    data.act_max, reinterpret_cast<uint8_t*>(dst));
  } else {
    CopyRequantized(reinterpret_cast<const int8_t*>(src), n, input, output, data.act_min,
                    data.act_max, reinterpret_cast<int8_t*>(dst));
  }
}

TfLiteStatus ComputeInt4(TfLiteContext* context, TfLiteNode* node, const OpData& data) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "output", output));
  const int rank = internal::NumDims(output);
  const int64_t outer = internal::DimsProduct(output->dims, 0, data.axis);
  const int64_t inner = internal::DimsProduct(output->dims, data.axis + 1, rank);
  const int64_t out_row = internal::NumElements(output) / std::max<int64_t>(outer, 1);
  auto* out = reinterpret_cast<uint8_t*>(output->data.raw);
  std::memset(out, 0, static_cast<size_t>((internal::NumElements(output) + 1) / 2));
  for (int i = 0, offset = 0; i < internal::NumInputs(node); ++i) {
    const TfLiteTensor* input = internal::InputAt(context, node, i);
    TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "input", input));
    const int64_t row = internal::NumDims(input) == 0 ? 1 : internal::Dim(input, data.axis) * inner;
    const auto* in = reinterpret_cast<const uint8_t*>(input->data.raw_const);
    for (int64_t o = 0; o < outer; ++o) {
      internal::CopyInt4(in, o * row, out, o * out_row + offset, row);
    }
    offset += static_cast<int>(row);
  }
  return kTfLiteOk;
}

TfLiteStatus Compute(TfLiteContext* context, TfLiteNode* node) {
  const auto& data = *static_cast<const OpData*>(node->user_data);
  // Nothing to copy (and empty tensors may have no buffer at all).
  if (internal::NumElements(internal::OutputAt(context, node, 0)) == 0) return kTfLiteOk;
  if (data.int4) return ComputeInt4(context, node, data);
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rank = internal::NumDims(output);
  const int64_t outer = internal::DimsProduct(output->dims, 0, data.axis);
  const int64_t inner = internal::DimsProduct(output->dims, data.axis + 1, rank);
  const int64_t out_row = internal::NumElements(output) / std::max<int64_t>(outer, 1);
  const size_t es = data.element_bytes;
  for (int i = 0, offset = 0; i < internal::NumInputs(node); ++i) {
    const TfLiteTensor* input = internal::InputAt(context, node, i);
    const int64_t row = internal::NumDims(input) == 0 ? 1 : internal::Dim(input, data.axis) * inner;
    for (int64_t o = 0; o < outer; ++o) {
      CopySlab(data, input, output, input->data.raw + o * row * es, row,
               output->data.raw + (o * out_row + offset) * es);
    }
    offset += static_cast<int>(row);
  }

  const TfLiteFusedActivation act = params->activation;
  if (act == kTfLiteActNone) return kTfLiteOk;
  const int64_t n = internal::NumElements(output);
  if (output->type == kTfLiteFloat32) {
    internal::ApplyRangeInPlace(output->data.f, n, internal::GetActivationRange<float>(act));
  } else if (output->type == kTfLiteUInt8) {
    internal::ApplyRangeInPlace<uint8_t>(output->data.uint8, n,
                                         {static_cast<uint8_t>(data.act_min),
                                          static_cast<uint8_t>(data.act_max)});
  } else {
    internal::ApplyRangeInPlace<int8_t>(output->data.int8, n,
                                        {static_cast<int8_t>(data.act_min),
                                         static_cast<int8_t>(data.act_max)});
  }
  return kTfLiteOk;
}

// Every input matches the first one's type and, outside the axis, its shape.
// Sets *axis_size to the output's size along the axis and *all_constant when
// every input is constant (the result can be folded in Prepare).
TfLiteStatus CheckInputShapes(TfLiteContext* context, TfLiteNode* node, const OpData& data,
                              const TfLiteTensor* t0, int* axis_size, bool* all_constant) {
  const TfLiteType type = t0->type;
  const int rank = internal::NumDims(t0);
  int64_t axis_sum = 0;
  *all_constant = true;
  for (int i = 0; i < internal::NumInputs(node); ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &t));
    if (t->type != type) {
      return internal::TypeMismatch(context, kOp, "input", t->type, "first input", type);
    }
    if (internal::NumDims(t) != rank) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d has rank %d, the first input rank %d", kOp, i,
                         internal::NumDims(t), rank);
      return kTfLiteError;
    }
    for (int d = 0; d < rank; ++d) {
      if (d != data.axis && internal::Dim(t, d) != internal::Dim(t0, d)) {
        char a[96], b[96];
        TF_LITE_KERNEL_LOG(context,
                           "%s: input %d shape %s does not match the first input %s outside "
                           "axis %d",
                           kOp, i, internal::ShapeToString(t->dims, a, sizeof(a)),
                           internal::ShapeToString(t0->dims, b, sizeof(b)), data.axis);
        return kTfLiteError;
      }
    }
    axis_sum += rank == 0 ? 1 : internal::Dim(t, data.axis);
    *all_constant = *all_constant && internal::IsConstantOrPersistent(t);
  }
  if (axis_sum > std::numeric_limits<int>::max()) {
    TF_LITE_KERNEL_LOG(context, "%s: output axis size is too large", kOp);
    return kTfLiteError;
  }
  *axis_size = static_cast<int>(axis_sum);
  return kTfLiteOk;
}

// The fused activation (float and 8-bit only) and the quantized checks.
TfLiteStatus PrepareActivation(TfLiteContext* context, TfLiteNode* node,
                               const TfLiteConcatenationParams* params, TfLiteType type,
                               const TfLiteTensor* output, OpData* data) {
  if (params->activation != kTfLiteActNone && type != kTfLiteFloat32 && type != kTfLiteUInt8 &&
      type != kTfLiteInt8) {
    TF_LITE_KERNEL_LOG(context, "%s: a fused activation is not supported for type %s", kOp,
                       TfLiteTypeGetName(type));
    return kTfLiteError;
  }
  if (type == kTfLiteUInt8 || type == kTfLiteInt8 || type == kTfLiteInt16) {
    TF_LITE_ENSURE_OK(context, CheckQuantization(context, node, data, output));
    TF_LITE_ENSURE_OK(context,
                      internal::QuantizedActivationRange(context, kOp, params->activation, output,
                                                         &data->act_min, &data->act_max));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kOp));
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  const int num_inputs = internal::NumInputs(node);
  if (num_inputs < 1 || internal::NumOutputs(node) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: expected at least 1 input and 1 output, got %d and %d", kOp,
                       num_inputs, internal::NumOutputs(node));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_OK(context, internal::CheckNodeQuantization(context, node, kOp));
  const TfLiteTensor* t0;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &t0));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  const TfLiteType type = t0->type;
  data->int4 = type == kTfLiteInt4;
  data->element_bytes = 0;
  if (!data->int4) {
    TF_LITE_ENSURE_OK(context,
                      internal::GetElementBytes(context, kOp, "input", type, &data->element_bytes));
  }
  if (output->type != type) {
    return internal::TypeMismatch(context, kOp, "input", type, "output", output->type);
  }
  const int rank = internal::NumDims(t0);
  // Scalars are joined as if they were vectors of one element.
  TF_LITE_ENSURE_OK(context, internal::NormalizeAxis(context, kOp, params->axis,
                                                     std::max(rank, 1), &data->axis));

  internal::IntArrayPtr shape = rank == 0 ? internal::MakeIntArray({0})
                                          : internal::IntArrayPtr(TfLiteIntArrayCopy(t0->dims));
  bool all_constant = true;
  TF_LITE_ENSURE_OK(context, CheckInputShapes(context, node, *data, t0,
                                              &shape->data[data->axis], &all_constant));
  TF_LITE_ENSURE_OK(context, PrepareActivation(context, node, params, type, output, data));

  data->folded = all_constant;
  if (all_constant) internal::SetTensorToPersistentRo(output);
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, shape.release()));
  return all_constant ? Compute(context, node) : kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  if (static_cast<const OpData*>(node->user_data)->folded) return kTfLiteOk;
  return Compute(context, node);
}

}  // namespace

const TfLiteRegistration* Register_CONCATENATION() {
  static const TfLiteRegistration r = internal::MakeRegistration(
      internal::InitOpData<OpData>, internal::FreeOpData<OpData>, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

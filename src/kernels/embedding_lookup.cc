// EMBEDDING_LOOKUP (lookup, value): output row i is row lookup[i] of
// `value` (rank >= 2); lookup is 1-D INT32 and an index outside the rows
// fails Invoke. Same-type lookups copy rows of any fixed-size type. Hybrid
// lookups (INT8 or UINT8 value, FLOAT32 output) scale each byte, read as a
// signed int8 as upstream does, by the value's scale (one per row when
// quantized per channel on dimension 0); the zero point must be 0. Packed
// INT4 values (two per byte, low nibble first; op version 4) are always
// hybrid: sign-extended and scaled the same way into a FLOAT32 output.
#include <cstring>

#include "src/kernels/internal/int4_copy.h"
#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "EMBEDDING_LOOKUP";

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

bool IsHybrid(const TfLiteTensor* value, const TfLiteTensor* output) {
  return output->type == kTfLiteFloat32 &&
         (value->type == kTfLiteInt8 || value->type == kTfLiteUInt8 ||
          value->type == kTfLiteInt4);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *lookup, *value;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &lookup));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &value));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kOp, "lookup", lookup, kTfLiteInt32));
  if (internal::NumDims(lookup) != 1 || internal::NumDims(value) < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: lookup must be 1-D and value at least 2-D", kOp);
    return kTfLiteError;
  }
  if (value->type == kTfLiteInt4 && output->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: INT4 value with a %s output is not supported (needs FLOAT32)",
                       kOp, TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  size_t element_bytes;
  if (value->type != kTfLiteInt4) {
    TF_LITE_ENSURE_OK(
        context, internal::GetElementBytes(context, kOp, "value", value->type, &element_bytes));
  }
  if (IsHybrid(value, output)) {
    const TfLiteAffineQuantization* q = Affine(value);
    const bool per_row = q != nullptr && q->scale != nullptr && q->scale->size > 1;
    if ((q != nullptr && q->zero_point != nullptr && q->zero_point->size > 0 &&
         q->zero_point->data[0] != 0) ||
        (per_row && (q->quantized_dimension != 0 || q->scale->size != internal::Dim(value, 0)))) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: hybrid value needs zero point 0 and one scale per tensor or row",
                         kOp);
      return kTfLiteError;
    }
  } else if (output->type != value->type) {
    return internal::TypeMismatch(context, kOp, "value", value->type, "output", output->type);
  }
  internal::IntArrayPtr shape(TfLiteIntArrayCopy(value->dims));
  shape->data[0] = internal::Dim(lookup, 0);
  return context->ResizeTensor(context, output, shape.release());
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* lookup = internal::InputAt(context, node, 0);
  const TfLiteTensor* value = internal::InputAt(context, node, 1);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const int rows = internal::Dim(value, 0);
  const int64_t cols = internal::DimsProduct(value->dims, 1, internal::NumDims(value));
  const bool hybrid = IsHybrid(value, output);
  const size_t es = internal::ElementBytes(value->type);
  const TfLiteAffineQuantization* q = Affine(value);
  if (value->type == kTfLiteInt4) {
    TF_LITE_ENSURE_OK(context, internal::CheckInt4Bytes(context, kOp, "value", value));
  }
  for (int i = 0; i < internal::Dim(lookup, 0); ++i) {
    const int32_t idx = lookup->data.i32[i];
    if (idx < 0 || idx >= rows) {
      TF_LITE_KERNEL_LOG(context, "%s: index %d is out of range [0, %d)", kOp, idx, rows);
      return kTfLiteError;
    }
    if (!hybrid) {
      std::memcpy(output->data.raw + i * cols * es, value->data.raw + idx * cols * es, cols * es);
      continue;
    }
    const float scale = q != nullptr && q->scale != nullptr && q->scale->size > 1
                            ? q->scale->data[idx]
                            : value->params.scale;
    float* out = output->data.f + i * cols;
    if (value->type == kTfLiteInt4) {
      const auto* packed = reinterpret_cast<const uint8_t*>(value->data.raw_const);
      const int64_t first = idx * cols;
      for (int64_t j = 0; j < cols; ++j) out[j] = internal::Int4Value(packed, first + j) * scale;
      continue;
    }
    const int8_t* in = reinterpret_cast<const int8_t*>(value->data.raw) + idx * cols;
    for (int64_t j = 0; j < cols; ++j) out[j] = in[j] * scale;
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_EMBEDDING_LOOKUP() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

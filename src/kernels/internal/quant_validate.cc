#include "src/kernels/internal/quant_validate.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace tflite_c {
namespace kernels {
namespace internal {

bool ZeroPointRange(TfLiteType type, int32_t* lo, int32_t* hi) {
  switch (type) {
    case kTfLiteInt4:
      *lo = -8;
      *hi = 7;
      return true;
    case kTfLiteInt8:
      *lo = -128;
      *hi = 127;
      return true;
    case kTfLiteUInt8:
      *lo = 0;
      *hi = 255;
      return true;
    case kTfLiteInt16:
      *lo = -32768;
      *hi = 32767;
      return true;
    default:
      return false;
  }
}

namespace {

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  if (t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
}

}  // namespace

TfLiteStatus CheckQuantization(TfLiteContext* context, const char* op, const char* what,
                               const TfLiteTensor* t) {
  const TfLiteAffineQuantization* affine = Affine(t);
  if (affine == nullptr || affine->scale == nullptr || affine->scale->size == 0) {
    return kTfLiteOk;
  }
  const int scales = affine->scale->size;
  const int zero_points = affine->zero_point != nullptr ? affine->zero_point->size : 0;
  if (zero_points != scales) {
    TF_LITE_KERNEL_LOG(context, "%s: %s has %d scales and %d zero points", op, what, scales,
                       zero_points);
    return kTfLiteError;
  }
  if (scales > 1) {
    const int rank = t->dims != nullptr ? t->dims->size : 0;
    const int dim = affine->quantized_dimension;
    if (dim < 0 || dim >= rank) {
      TF_LITE_KERNEL_LOG(context, "%s: %s quantized_dimension %d is outside its rank %d", op, what,
                         dim, rank);
      return kTfLiteError;
    }
    if (t->dims->data[dim] != scales) {
      TF_LITE_KERNEL_LOG(context, "%s: %s has %d scales for %d channels along dimension %d", op,
                         what, scales, t->dims->data[dim], dim);
      return kTfLiteError;
    }
  }
  int32_t lo = 0, hi = 0;
  const bool quantized_type = ZeroPointRange(t->type, &lo, &hi);
  for (int i = 0; i < scales; ++i) {
    const float scale = affine->scale->data[i];
    if (quantized_type ? !(scale > 0.0f && std::isfinite(scale))
                       : !(scale >= 0.0f && std::isfinite(scale))) {
      TF_LITE_KERNEL_LOG(context, "%s: %s scale %g must be %s", op, what,
                         static_cast<double>(scale),
                         quantized_type ? "positive and finite" : "finite and not negative");
      return kTfLiteError;
    }
    // Kernels negate zero points and fold them into int32 sums; a value
    // outside the element type would overflow there.
    const int32_t zp = affine->zero_point->data[i];
    if (quantized_type && (zp < lo || zp > hi)) {
      TF_LITE_KERNEL_LOG(context, "%s: %s zero point %d is outside the %s range [%d, %d]", op, what,
                         zp, TfLiteTypeGetName(t->type), lo, hi);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckNodeQuantization(TfLiteContext* context, const TfLiteNode* node, const char* op) {
  char what[32];
  const TfLiteIntArray* lists[2] = {node->inputs, node->outputs};
  for (int l = 0; l < 2; ++l) {
    if (lists[l] == nullptr) continue;
    for (int i = 0; i < lists[l]->size; ++i) {
      const int index = lists[l]->data[i];
      if (index < 0 || static_cast<size_t>(index) >= context->tensors_size) continue;
      const TfLiteTensor* t = &context->tensors[index];
      if (Affine(t) == nullptr) continue;
      snprintf(what, sizeof(what), "%s %d", l == 0 ? "input" : "output", i);
      TF_LITE_ENSURE_OK(context, CheckQuantization(context, op, what, t));
    }
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

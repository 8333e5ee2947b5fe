#include "src/kernels/internal/checked_math.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus CheckPositive(TfLiteContext* context, const char* op, const char* what,
                           int64_t value) {
  if (value > 0) return kTfLiteOk;
  TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s must be positive, got %lld", op, what,
                           static_cast<long long>(value));
  return kTfLiteError;
}

TfLiteStatus MulDim(TfLiteContext* context, const char* op, const char* what, int64_t a, int64_t b,
                    int* out) {
  int64_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product) || product > kMaxDim) {
    TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s %lld * %lld overflows", op, what,
                             static_cast<long long>(a), static_cast<long long>(b));
    return kTfLiteError;
  }
  *out = static_cast<int>(product);
  return kTfLiteOk;
}

TfLiteStatus AddDims(TfLiteContext* context, const char* op, const char* what, int64_t a, int64_t b,
                     int64_t c, int* out) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum) || __builtin_add_overflow(sum, c, &sum) || sum < 0 ||
      sum > kMaxDim) {
    if (c == 0) {
      TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s %lld + %lld overflows", op, what,
                               static_cast<long long>(a), static_cast<long long>(b));
    } else {
      TF_LITE_MAYBE_KERNEL_LOG(context, "%s: %s %lld + %lld + %lld overflows", op, what,
                               static_cast<long long>(a), static_cast<long long>(b),
                               static_cast<long long>(c));
    }
    return kTfLiteError;
  }
  *out = static_cast<int>(sum);
  return kTfLiteOk;
}

bool SpreadExtent(int64_t count, int64_t spacing, int64_t* out) {
  int64_t v;
  if (__builtin_mul_overflow(count - 1, spacing, &v) || __builtin_add_overflow(v, 1, &v)) {
    return false;
  }
  *out = v;
  return true;
}

bool AddEdges(int64_t extent, int64_t low, int64_t high, int64_t* out) {
  int64_t v;
  if (__builtin_add_overflow(extent, low, &v) || __builtin_add_overflow(v, high, &v)) return false;
  *out = v;
  return true;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// RANGE (start, limit, delta): the scalars start, start + delta, ... up to
// but excluding limit, as a 1-D tensor. INT32, INT64 or FLOAT32, all three
// inputs and the output of one type. delta must be non-zero and point from
// start toward limit. Non-constant inputs make the output dynamic.
#include <cmath>
#include <cstdlib>
#include <limits>

#include "src/kernels/internal/index_util.h"
#include "src/kernels/internal/type_set.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "RANGE";

template <typename T>
TfLiteStatus Count(TfLiteContext* context, T start, T limit, T delta, int64_t* count) {
  if (delta == T(0) || (start > limit && delta > T(0)) || (start < limit && delta < T(0))) {
    TF_LITE_KERNEL_LOG(context, "%s: delta must be non-zero and point from start to limit", kOp);
    return kTfLiteError;
  }
  double n;
  if constexpr (std::is_integral_v<T>) {
    const T span = start < limit ? limit - start : start - limit;
    const T step = delta < 0 ? -delta : delta;
    n = static_cast<double>(span / step + (span % step != 0));
  } else {
    n = std::ceil(std::abs((static_cast<double>(limit) - start) / delta));
  }
  if (!(n <= std::numeric_limits<int>::max())) {
    TF_LITE_KERNEL_LOG(context, "%s: the range holds too many elements", kOp);
    return kTfLiteError;
  }
  *count = static_cast<int64_t>(n);
  return kTfLiteOk;
}

template <typename T>
const T& Scalar(const TfLiteContext* context, const TfLiteNode* node, int i) {
  return *reinterpret_cast<const T*>(internal::InputAt(context, node, i)->data.raw);
}

// Calls fn(T{}) with T the C++ type of the (checked) range type.
template <typename Fn>
TfLiteStatus WithRangeType(TfLiteType type, Fn&& fn) {
  switch (type) {
    case kTfLiteInt32: return fn(int32_t{});
    case kTfLiteInt64: return fn(int64_t{});
    default: return fn(float{});
  }
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  return WithRangeType(output->type, [&](auto t) {
    using T = decltype(t);
    int64_t n;
    TF_LITE_ENSURE_OK(context, Count<T>(context, Scalar<T>(context, node, 0),
                                        Scalar<T>(context, node, 1), Scalar<T>(context, node, 2),
                                        &n));
    return internal::ResizeOutput(context, output, {static_cast<int>(n)});
  });
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 3, 3, 1));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if (!internal::TypeIn(output->type, {kTfLiteInt32, kTfLiteInt64, kTfLiteFloat32})) {
    return internal::UnsupportedType(context, kOp, "output", output->type);
  }
  bool known = true;
  for (int i = 0; i < 3; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, i, kOp, &t));
    if (t->type != output->type) {
      return internal::TypeMismatch(context, kOp, "input", t->type, "output", output->type);
    }
    if (internal::NumElements(t) != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d must be a scalar", kOp, i);
      return kTfLiteError;
    }
    known = known && internal::IsConstantOrPersistent(t);
  }
  return internal::ResizeOrDefer(context, node, known, ResizeOutput);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  TF_LITE_ENSURE_OK(context, internal::ResizeIfDynamic(context, node, ResizeOutput));
  return WithRangeType(output->type, [&](auto t) {
    using T = decltype(t);
    const T start = Scalar<T>(context, node, 0), delta = Scalar<T>(context, node, 2);
    T* out = reinterpret_cast<T*>(output->data.raw);
    for (int64_t i = 0; i < internal::NumElements(output); ++i) {
      out[i] = static_cast<T>(start + static_cast<T>(i) * delta);
    }
    return kTfLiteOk;
  });
}

}  // namespace

const TfLiteRegistration* Register_RANGE() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

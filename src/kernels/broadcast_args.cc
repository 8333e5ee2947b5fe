// BROADCAST_ARGS (s0, s1): the shape two tensors of shapes s0 and s1
// broadcast to, NumPy-style. s0, s1 and the output are 1-D INT32 or INT64
// of one type; incompatible shapes fail Invoke.
#include <algorithm>
#include <vector>

#include "src/kernels/internal/layout_util.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "BROADCAST_ARGS";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *s0, *s1;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kOp, &s0));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kOp, &s1));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kOp, &output));
  if ((s0->type != kTfLiteInt32 && s0->type != kTfLiteInt64) || s1->type != s0->type ||
      output->type != s0->type || internal::NumDims(s0) != 1 || internal::NumDims(s1) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: inputs and output must be 1-D, all INT32 or all INT64", kOp);
    return kTfLiteError;
  }
  return internal::ResizeOutput(context, output,
                                {std::max(internal::Dim(s0, 0), internal::Dim(s1, 0))});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  std::vector<int64_t> a, b;
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "s0",
                                                     internal::InputAt(context, node, 0), &a));
  TF_LITE_ENSURE_OK(context, internal::ReadIntValues(context, kOp, "s1",
                                                     internal::InputAt(context, node, 1), &b));
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  const size_t n = std::max(a.size(), b.size());
  a.insert(a.begin(), n - a.size(), 1);
  b.insert(b.begin(), n - b.size(), 1);
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: sizes %lld and %lld of dimension %zu do not broadcast",
                         kOp, static_cast<long long>(a[i]), static_cast<long long>(b[i]), i);
      return kTfLiteError;
    }
    const int64_t d = a[i] == 1 ? b[i] : a[i];
    if (output->type == kTfLiteInt64) {
      output->data.i64[i] = d;
    } else {
      output->data.i32[i] = static_cast<int32_t>(d);
    }
  }
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_BROADCAST_ARGS() {
  static const TfLiteRegistration r = internal::MakeRegistration(nullptr, nullptr, Prepare, Eval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c

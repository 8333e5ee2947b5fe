// DIV: out = activation(x / y), broadcasting x against y. FLOAT32 (IEEE
// division) and INT32 (truncating; a zero divisor fails at Invoke).
#include <cstdint>
#include <limits>

#include "src/kernels/internal/activation.h"
#include "src/kernels/internal/broadcast_nary.h"
#include "src/kernels/register_elementwise.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

constexpr char kOp[] = "DIV";

struct DivOp {
  static constexpr const char* kName = kOp;
  static constexpr internal::TypeSet kTypes = {kTfLiteFloat32, kTfLiteInt32};
  static TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node,
                           const internal::BroadcastOpData& data);
};

TfLiteStatus DivOp::Eval(TfLiteContext* context, TfLiteNode* node,
                         const internal::BroadcastOpData& data) {
  const auto* params = static_cast<const TfLiteDivParams*>(node->builtin_data);
  const TfLiteFusedActivation activation = params ? params->activation : kTfLiteActNone;
  const TfLiteTensor* divisor = internal::InputAt(context, node, 1);
  if (divisor->type == kTfLiteFloat32) {
    const auto range = internal::GetActivationRange<float>(activation);
    internal::EvalSameTypeBinaryOp<float>(
        context, node, data, [range](float a, float b) { return internal::ApplyRange(a / b, range); });
    return kTfLiteOk;
  }
  const int32_t* d = divisor->data.i32;
  for (int64_t i = 0, n = internal::NumElements(divisor); i < n; ++i) {
    if (d[i] == 0) {
      TF_LITE_KERNEL_LOG(context, "%s: INT32 division by zero (divisor element %lld)", kOp,
                         static_cast<long long>(i));
      return kTfLiteError;
    }
  }
  const auto range = internal::GetActivationRange<int32_t>(activation);
  internal::EvalSameTypeBinaryOp<int32_t>(context, node, data, [range](int32_t a, int32_t b) {
    // INT32_MIN / -1 overflows; wrap it like two's-complement negation.
    const int32_t q = (b == -1) ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a / b;
    return internal::ApplyRange(q, range);
  });
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_DIV() { return internal::RegisterSameTypeBinaryOp<DivOp>(); }

}  // namespace kernels
}  // namespace tflite_c

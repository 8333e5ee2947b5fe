#include "src/kernels/internal/binary_op.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareBinaryOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                             QuantBinaryKind kind, TfLiteFusedActivation activation,
                             bool pot_scale_int16) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor* a;
  const TfLiteTensor* b;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &a));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 1, op, &b));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &out));

  if (a->type != kTfLiteFloat32 && a->type != kTfLiteInt32 && a->type != kTfLiteInt64 &&
      !IsQuantizedType(a->type)) {
    return UnsupportedType(context, op, "input", a->type);
  }
  if (b->type != a->type) return TypeMismatch(context, op, "input 0", a->type, "input 1", b->type);
  // Upstream gives a quantized op's output the inputs' type whatever the
  // model declares (some converted models declare FLOAT32).
  if (IsQuantizedType(a->type)) out->type = a->type;
  if (out->type != a->type) return TypeMismatch(context, op, "input", a->type, "output", out->type);

  if (a->dims->size > kMaxBroadcastRank || b->dims->size > kMaxBroadcastRank) {
    TF_LITE_KERNEL_LOG(context, "%s: inputs of rank %d and %d exceed the supported rank %d", op,
                       a->dims->size, b->dims->size, kMaxBroadcastRank);
    return kTfLiteError;
  }
  IntArrayPtr shape = BroadcastShape(a->dims, b->dims);
  if (shape == nullptr) {
    char sa[96], sb[96];
    TF_LITE_KERNEL_LOG(context, "%s: shapes %s and %s are not broadcastable", op,
                       ShapeToString(a->dims, sa, sizeof(sa)),
                       ShapeToString(b->dims, sb, sizeof(sb)));
    return kTfLiteError;
  }
  auto* data = static_cast<BinaryOpData*>(node->user_data);
  if (IsQuantizedType(a->type)) {
    TF_LITE_ENSURE_OK(context, PrepareQuantBinary(context, op, kind, a, b, out, activation,
                                                  pot_scale_int16, &data->quant));
  }
  data->plan = MakeBroadcastPlan(a->dims, b->dims, shape.get());
  return context->ResizeTensor(context, out, shape.release());
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

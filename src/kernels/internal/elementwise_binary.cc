#include "src/kernels/internal/elementwise_binary.h"

#include <algorithm>
#include <cstdio>

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus PrepareBroadcastOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                                int first, int count, BroadcastOpData* data) {
  const TfLiteTensor* inputs[kMaxNaryInputs];
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  int rank = 0;
  for (int i = 0; i < count; ++i) {
    TF_LITE_ENSURE_OK(context, GetInput(context, node, first + i, op, &inputs[i]));
    if (NumDims(inputs[i]) > kMaxBroadcastRank) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d has rank %d; at most %d is supported", op,
                         first + i, NumDims(inputs[i]), kMaxBroadcastRank);
      return kTfLiteError;
    }
    rank = std::max(rank, NumDims(inputs[i]));
  }

  IntArrayPtr shape(TfLiteIntArrayCreate(rank));
  for (int d = 0; d < rank; ++d) {
    int size = 1;
    for (int i = 0; i < count; ++i) {
      const int k = d - (rank - NumDims(inputs[i]));
      const int n = k < 0 ? 1 : Dim(inputs[i], k);
      if (n == size || n == 1) continue;
      if (size != 1) {
        char shapes[kMaxNaryInputs][96];
        for (int j = 0; j < count; ++j) ShapeToString(inputs[j]->dims, shapes[j], 96);
        TF_LITE_KERNEL_LOG(context, "%s: input shapes %s, %s%s%s are not broadcastable", op,
                           shapes[0], count > 1 ? shapes[1] : "", count > 2 ? ", " : "",
                           count > 2 ? shapes[2] : "");
        return kTfLiteError;
      }
      size = n;
    }
    shape->data[d] = size;
  }

  NaryBroadcast& b = data->nary;
  b = NaryBroadcast();
  b.num_inputs = count;
  b.rank = rank;
  for (int i = 0; i < count; ++i) {
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int k = d - (rank - NumDims(inputs[i]));
      const int n = k < 0 ? 1 : Dim(inputs[i], k);
      b.strides[i][d] = n == 1 ? 0 : stride;
      stride *= n;
    }
  }
  for (int d = 0; d < rank; ++d) b.dims[d] = shape->data[d];
  if (count >= 2) data->plan = MakeBroadcastPlan(inputs[0]->dims, inputs[1]->dims, shape.get());
  return context->ResizeTensor(context, output, shape.release());
}

namespace {

// Refuses inputs 0 and 1 of different shapes (ops that do not broadcast).
TfLiteStatus CheckSameShapeInputs(TfLiteContext* context, const BinaryOpSpec& spec,
                                  const TfLiteTensor* a, const TfLiteTensor* b) {
  if (SameShape(a->dims, b->dims)) return kTfLiteOk;
  char shape_a[96], shape_b[96];
  ShapeToString(a->dims, shape_a, sizeof(shape_a));
  ShapeToString(b->dims, shape_b, sizeof(shape_b));
  if (spec.input_names != nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: %s shape %s and %s shape %s differ", spec.name,
                       spec.input_names[0], shape_a, spec.input_names[1], shape_b);
  } else {
    TF_LITE_KERNEL_LOG(context, "%s: operand shapes %s and %s differ", spec.name, shape_a,
                       shape_b);
  }
  return kTfLiteError;
}

}  // namespace

TfLiteStatus PrepareBinaryOp(TfLiteContext* context, TfLiteNode* node, const BinaryOpSpec& spec,
                             BroadcastOpData* data) {
  const char* op = spec.name;
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor* a;
  const TfLiteTensor* b;
  TfLiteTensor* out;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &a));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 1, op, &b));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &out));
  if (!TypeIn(a->type, spec.types)) return UnsupportedType(context, op, "input", a->type);
  if (b->type != a->type) {
    const bool named = spec.input_names != nullptr;
    return TypeMismatch(context, op, named ? spec.input_names[0] : "input 0", a->type,
                        named ? spec.input_names[1] : "input 1", b->type);
  }
  if (spec.output_type != kTfLiteNoType) {
    if (out->type != spec.output_type) return UnsupportedType(context, op, "output", out->type);
  } else {
    if (spec.quantized_output_takes_input_type && IsQuantizedType(a->type)) out->type = a->type;
    if (out->type != a->type) {
      return TypeMismatch(context, op, "input", a->type, "output", out->type);
    }
  }
  if (!spec.broadcasts) TF_LITE_ENSURE_OK(context, CheckSameShapeInputs(context, spec, a, b));
  return PrepareBroadcastOp(context, node, op, 0, 2, data);
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

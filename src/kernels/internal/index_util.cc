#include "src/kernels/internal/index_util.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "src/kernels/internal/layout_util.h"

namespace tflite_c {
namespace kernels {
namespace internal {

TfLiteStatus GetUnaryTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                             const TfLiteTensor** input, TfLiteTensor** output) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, input));
  return GetOutput(context, node, 0, op, output);
}

TfLiteStatus GetMovableUnaryTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                    const TfLiteTensor** input, TfLiteTensor** output) {
  TF_LITE_ENSURE_OK(context, GetUnaryTensors(context, node, op, input, output));
  size_t element_bytes;
  return CheckSameMovableType(context, op, *input, *output, &element_bytes);
}

TfLiteStatus ReadAxisInput(TfLiteContext* context, TfLiteNode* node, int i, const char* op,
                           int rank, int* axis) {
  std::vector<int> values;
  TF_LITE_ENSURE_OK(context,
                    ReadIntValues(context, op, "axis", InputAt(context, node, i), &values));
  if (values.size() != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: axis must hold one value, has %zu", op, values.size());
    return kTfLiteError;
  }
  return NormalizeAxis(context, op, values[0], rank, axis);
}

TfLiteStatus CheckSameMovableType(TfLiteContext* context, const char* op,
                                  const TfLiteTensor* input, const TfLiteTensor* output,
                                  size_t* element_bytes) {
  if (output->type != input->type) {
    return TypeMismatch(context, op, "input", input->type, "output", output->type);
  }
  return GetElementBytes(context, op, "input", input->type, element_bytes);
}

TfLiteStatus CheckPaddingValue(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                               const TfLiteTensor* padding, const TfLiteTensor* output) {
  size_t element_bytes;
  TF_LITE_ENSURE_OK(context, CheckSameMovableType(context, op, input, output, &element_bytes));
  if (padding->type != input->type) {
    return TypeMismatch(context, op, "input", input->type, "padding_value", padding->type);
  }
  if (NumElements(padding) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: padding_value must hold one element", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareGatherOp(TfLiteContext* context, TfLiteNode* node, const char* op,
                             int num_inputs, const char* params, GatherPlanFn plan) {
  auto* data = static_cast<GatherOpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, num_inputs, num_inputs, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, GetInput(context, node, 0, op, &input));
  TF_LITE_ENSURE_OK(context, GetOutput(context, node, 0, op, &output));
  TF_LITE_ENSURE_OK(context,
                    CheckSameMovableType(context, op, input, output, &data->element_bytes));
  TF_LITE_ENSURE_OK(context, CheckLayoutRank(context, op, "input", input));
  bool known = true;
  for (int i = 1; i < num_inputs; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_OK(context, GetInput(context, node, i, op, &t));
    if ((t->type != kTfLiteInt32 && t->type != kTfLiteInt64) || NumDims(t) != 1) {
      TF_LITE_KERNEL_LOG(context, "%s: %s must be 1-D INT32 or INT64", op, params);
      return kTfLiteError;
    }
    known = known && IsConstantOrPersistent(t);
  }
  return FinishGatherPrepare(context, node, data, known, plan);
}

TfLiteStatus ResizeOrDefer(TfLiteContext* context, TfLiteNode* node, bool known, ResizeFn resize) {
  if (known) return resize(context, node);
  SetTensorToDynamic(OutputAt(context, node, 0));
  return kTfLiteOk;
}

TfLiteStatus ResizeIfDynamic(TfLiteContext* context, TfLiteNode* node, ResizeFn resize) {
  return IsDynamic(OutputAt(context, node, 0)) ? resize(context, node) : kTfLiteOk;
}

TfLiteStatus CheckLayoutRank(TfLiteContext* context, const char* op, const char* what,
                             const TfLiteTensor* t) {
  if (NumDims(t) <= kMaxLayoutRank) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: %s rank %d is above the maximum %d", op, what, NumDims(t),
                     kMaxLayoutRank);
  return kTfLiteError;
}

TfLiteStatus ResizeOutputToShapeInput(TfLiteContext* context, TfLiteNode* node, int i,
                                      const char* op, const char* what) {
  std::vector<int> dims;
  TF_LITE_ENSURE_OK(context, ReadIntValues(context, op, what, InputAt(context, node, i), &dims));
  for (int d : dims) {
    if (d < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: %s holds negative size %d", op, what, d);
      return kTfLiteError;
    }
  }
  return context->ResizeTensor(context, OutputAt(context, node, 0),
                               MakeIntArray(dims.data(), static_cast<int>(dims.size())).release());
}

TfLiteStatus CopyInputBytes(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = InputAt(context, node, 0);
  TfLiteTensor* output = OutputAt(context, node, 0);
  // Never more than the output holds, whatever the input's buffer size.
  const size_t bytes = std::min(input->bytes, output->bytes);
  if (bytes > 0 && output->data.raw != input->data.raw) {
    std::memcpy(output->data.raw, input->data.raw, bytes);
  }
  return kTfLiteOk;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

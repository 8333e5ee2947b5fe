#include "src/kernels/internal/kernel_util.h"

#include <cstdio>

#include "src/kernels/internal/quant_validate.h"

namespace tflite_c {
namespace kernels {
namespace internal {

IntArrayPtr MakeIntArray(const int* values, int size) {
  IntArrayPtr array(TfLiteIntArrayCreate(size));
  if (array == nullptr) return array;
  for (int i = 0; i < size; ++i) array->data[i] = values[i];
  return array;
}

IntArrayPtr MakeIntArray(std::initializer_list<int> values) {
  return MakeIntArray(values.begin(), static_cast<int>(values.size()));
}

TfLiteStatus CheckArity(TfLiteContext* context, const TfLiteNode* node, const char* op,
                        int min_inputs, int max_inputs, int outputs) {
  const int in = NumInputs(node);
  if (in >= min_inputs && in <= max_inputs && NumOutputs(node) == outputs) {
    return CheckNodeQuantization(context, node, op);
  }
  if (min_inputs == max_inputs) {
    TF_LITE_KERNEL_LOG(context, "%s: expected %d inputs and %d outputs, got %d and %d", op,
                       min_inputs, outputs, in, NumOutputs(node));
  } else {
    TF_LITE_KERNEL_LOG(context, "%s: expected %d to %d inputs and %d outputs, got %d and %d", op,
                       min_inputs, max_inputs, outputs, in, NumOutputs(node));
  }
  return kTfLiteError;
}

TfLiteStatus RequireParams(TfLiteContext* context, const TfLiteNode* node, const char* op) {
  if (node->builtin_data != nullptr) return kTfLiteOk;
  TF_LITE_KERNEL_LOG(context, "%s: the node has no builtin parameters (builtin_data is null)", op);
  return kTfLiteError;
}

const TfLiteTensor* GetOptionalInput(const TfLiteContext* context, const TfLiteNode* node, int i) {
  if (i < 0 || i >= node->inputs->size) return nullptr;
  const int index = node->inputs->data[i];
  if (index < 0 || static_cast<size_t>(index) >= context->tensors_size) return nullptr;
  return &context->tensors[index];
}

TfLiteStatus GetInput(TfLiteContext* context, const TfLiteNode* node, int i, const char* op,
                      const TfLiteTensor** tensor) {
  *tensor = GetOptionalInput(context, node, i);
  if (*tensor == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: input %d is missing (node has %d inputs)", op, i,
                       node->inputs->size);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus GetOutput(TfLiteContext* context, const TfLiteNode* node, int i, const char* op,
                       TfLiteTensor** tensor) {
  *tensor = nullptr;
  if (i >= 0 && i < node->outputs->size) {
    const int index = node->outputs->data[i];
    if (index >= 0 && static_cast<size_t>(index) < context->tensors_size) {
      *tensor = &context->tensors[index];
    }
  }
  if (*tensor == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: output %d is missing (node has %d outputs)", op, i,
                       node->outputs->size);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus GetOnlyInputOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                                const TfLiteTensor** input, TfLiteTensor** output) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  return GetInputsAndOutput(context, node, op, 1, input, output);
}

TfLiteStatus GetInputsAndOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                                int num_inputs, const TfLiteTensor** inputs,
                                TfLiteTensor** output) {
  for (int i = 0; i < num_inputs; ++i) {
    TF_LITE_ENSURE_OK(context, GetInput(context, node, i, op, &inputs[i]));
  }
  return GetOutput(context, node, 0, op, output);
}

int64_t NumElements(const TfLiteIntArray* dims) {
  int64_t n = 1;
  for (int i = 0; i < dims->size; ++i) n *= dims->data[i];
  return n;
}

bool SameShape(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  return TfLiteIntArrayEqual(a, b) != 0;
}

const char* ShapeToString(const TfLiteIntArray* dims, char* buffer, int buffer_size) {
  if (buffer_size <= 0) return buffer;
  int used = std::snprintf(buffer, buffer_size, "[");
  for (int i = 0; i < dims->size && used < buffer_size; ++i) {
    used += std::snprintf(buffer + used, buffer_size - used, i == 0 ? "%d" : ",%d", dims->data[i]);
  }
  if (used < buffer_size) std::snprintf(buffer + used, buffer_size - used, "]");
  buffer[buffer_size - 1] = '\0';
  return buffer;
}

TfLiteStatus ResizeOutputLike(TfLiteContext* context, TfLiteTensor* output,
                              const TfLiteIntArray* dims) {
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(dims));
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output,
                          std::initializer_list<int> dims) {
  return context->ResizeTensor(context, output, MakeIntArray(dims).release());
}

void SetTensorToDynamic(TfLiteTensor* t) {
  if (t->allocation_type != kTfLiteDynamic) {
    // Arena memory is not ours to keep: forget it, Eval will allocate.
    TfLiteTensorDataFree(t);
    t->data.raw = nullptr;
    t->allocation_type = kTfLiteDynamic;
  }
}

TfLiteStatus UnsupportedType(TfLiteContext* context, const char* op, const char* what,
                             TfLiteType type) {
  TF_LITE_KERNEL_LOG(context, "%s: %s type %s is not supported", op, what, TfLiteTypeGetName(type));
  return kTfLiteError;
}

TfLiteStatus ExpectType(TfLiteContext* context, const char* op, const char* what,
                        const TfLiteTensor* t, TfLiteType expected) {
  if (t == nullptr || t->type == expected) return kTfLiteOk;
  return UnsupportedType(context, op, what, t->type);
}

TfLiteStatus TypeMismatch(TfLiteContext* context, const char* op, const char* what_a, TfLiteType a,
                          const char* what_b, TfLiteType b) {
  TF_LITE_KERNEL_LOG(context, "%s: %s type %s does not match %s type %s", op, what_a,
                     TfLiteTypeGetName(a), what_b, TfLiteTypeGetName(b));
  return kTfLiteError;
}

TfLiteRegistration MakeRegistration(void* (*init)(TfLiteContext*, const char*, size_t),
                                    void (*free)(TfLiteContext*, void*),
                                    TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
                                    TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*)) {
  TfLiteRegistration r{};
  r.init = init;
  r.free = free;
  r.prepare = prepare;
  r.invoke = invoke;
  return r;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

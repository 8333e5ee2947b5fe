/* An external delegate plugin that is deliberately wrong: it takes the
 * first float32 ADD node (no fused activation, same-size inputs) and
 * computes a + b + 1. inference_diff must report the error. */
#include <stddef.h>
#include <stdlib.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/delegates/external/external_delegate_interface.h"

typedef struct {
  int a, b, out;
} WrongAdd;

static void* KernelInit(TfLiteContext* context, const char* buffer, size_t length) {
  const TfLiteDelegateParams* params = (const TfLiteDelegateParams*)buffer;
  TfLiteNode* node = NULL;
  TfLiteRegistration* reg = NULL;
  WrongAdd* k;
  (void)length;
  if (params->nodes_to_replace->size != 1 ||
      context->GetNodeAndRegistration(context, params->nodes_to_replace->data[0], &node, &reg) !=
          kTfLiteOk) {
    return NULL;
  }
  k = (WrongAdd*)malloc(sizeof(WrongAdd));
  if (k == NULL) return NULL;
  k->a = node->inputs->data[0];
  k->b = node->inputs->data[1];
  k->out = node->outputs->data[0];
  return k;
}

static void KernelFree(TfLiteContext* context, void* data) {
  (void)context;
  free(data);
}

static TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode* node) {
  const WrongAdd* k = (const WrongAdd*)node->user_data;
  const TfLiteTensor* a;
  const TfLiteTensor* b;
  TfLiteTensor* out;
  size_t i, n;
  if (k == NULL) return kTfLiteError;
  a = &context->tensors[k->a];
  b = &context->tensors[k->b];
  out = &context->tensors[k->out];
  n = out->bytes / sizeof(float);
  if (a->bytes != out->bytes || b->bytes != out->bytes) return kTfLiteError;
  for (i = 0; i < n; ++i) out->data.f[i] = a->data.f[i] + b->data.f[i] + 1.0f;
  return kTfLiteOk;
}

static TfLiteStatus Prepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  TfLiteIntArray* plan = NULL;
  TfLiteRegistration kernel = {0};
  int i;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;
  for (i = 0; i < plan->size; ++i) {
    TfLiteNode* node = NULL;
    TfLiteRegistration* reg = NULL;
    const TfLiteAddParams* params;
    TfLiteIntArray* take;
    TfLiteStatus status;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) continue;
    if (reg->builtin_code != kTfLiteBuiltinAdd || node->inputs->size != 2) continue;
    params = (const TfLiteAddParams*)node->builtin_data;
    if (params != NULL && params->activation != kTfLiteActNone) continue;
    if (context->tensors[node->inputs->data[0]].type != kTfLiteFloat32 ||
        context->tensors[node->inputs->data[0]].bytes !=
            context->tensors[node->inputs->data[1]].bytes ||
        context->tensors[node->inputs->data[0]].bytes !=
            context->tensors[node->outputs->data[0]].bytes) {
      continue;
    }
    kernel.init = KernelInit;
    kernel.free = KernelFree;
    kernel.invoke = KernelInvoke;
    kernel.builtin_code = kTfLiteBuiltinDelegate;
    kernel.custom_name = "WrongAddDelegate";
    take = TfLiteIntArrayCreate(1);
    take->data[0] = plan->data[i];
    status = context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, take, delegate);
    TfLiteIntArrayFree(take);
    return status;
  }
  return kTfLiteOk;
}

TfLiteDelegate* tflite_plugin_create_delegate(const char* const* keys, const char* const* values,
                                              size_t n, void (*report_error)(const char*)) {
  TfLiteDelegate* d = (TfLiteDelegate*)calloc(1, sizeof(TfLiteDelegate));
  (void)keys, (void)values, (void)n, (void)report_error;
  if (d == NULL) return NULL;
  d->Prepare = Prepare;
  d->flags = kTfLiteDelegateFlagsNone;
  return d;
}

void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) { free(delegate); }

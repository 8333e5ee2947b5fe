/* A delegate written in plain C99 against the public headers only, the way
 * upstream-era delegates fill TfLiteDelegate by hand (no C++ helpers):
 *
 *   Prepare: GetExecutionPlan + GetNodeAndRegistration pick float32 ADD nodes
 *            (two same-shape inputs, no fused activation), previews the
 *            partitioning, then ReplaceNodeSubsetsWithDelegateKernels.
 *   Kernel:  init records each node's tensors; tensors produced and consumed
 *            only inside the partition get buffers of the kernel's own (the
 *            runtime gives them no memory); invoke computes the adds.
 *
 * Run on shared/models tflite_add.tflite with its golden input; the outputs
 * must equal those of the CPU kernels bit for bit. Also checks the external
 * delegate C API's failure path from C.
 * Exit status: 0 pass, 1 fail, 77 skip (model file absent). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif
#define MODEL TFLITE_C_SHARED_DIR "/models/files/tflite_add.tflite"
#define INPUT TFLITE_C_SHARED_DIR "/models/golden/tflite_add/input_0.bin"

#include "c_check.h"

/* ---- the delegate --------------------------------------------------------- */

typedef struct DelegateStats {
  int nodes_claimed;
  int partitions_previewed;
  int kernels_alive;
  int invokes;
} DelegateStats;

typedef struct AddStep {
  int in0, in1, out;
} AddStep;

typedef struct Kernel {
  DelegateStats* stats;
  int num_steps;
  AddStep* steps;
  /* Own buffers, one per step; NULL for steps whose output leaves the
   * partition (those use the runtime's memory). */
  float** own;
  size_t* own_count;
} Kernel;

static int Contains(const TfLiteIntArray* a, int v) {
  int i;
  for (i = 0; i < a->size; ++i) {
    if (a->data[i] == v) return 1;
  }
  return 0;
}

static size_t NumElements(const TfLiteTensor* t) {
  size_t n = 1;
  int i;
  for (i = 0; i < t->dims->size; ++i) n *= (size_t)t->dims->data[i];
  return n;
}

static int SameDims(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  int i;
  if (a->size != b->size) return 0;
  for (i = 0; i < a->size; ++i) {
    if (a->data[i] != b->data[i]) return 0;
  }
  return 1;
}

static void KernelFree(TfLiteContext* context, void* buffer) {
  Kernel* k = (Kernel*)buffer;
  int i;
  (void)context;
  if (k == NULL) return;
  for (i = 0; i < k->num_steps; ++i) free(k->own[i]);
  free(k->own);
  free(k->own_count);
  free(k->steps);
  k->stats->kernels_alive--;
  free(k);
}

static void* KernelInit(TfLiteContext* context, const char* buffer, size_t length) {
  const TfLiteDelegateParams* params = (const TfLiteDelegateParams*)buffer;
  Kernel* k = (Kernel*)calloc(1, sizeof(Kernel));
  int i;
  (void)length;
  if (k == NULL) return NULL;
  k->stats = (DelegateStats*)params->delegate->data_;
  k->stats->kernels_alive++;
  k->num_steps = params->nodes_to_replace->size;
  k->steps = (AddStep*)calloc((size_t)k->num_steps, sizeof(AddStep));
  k->own = (float**)calloc((size_t)k->num_steps, sizeof(float*));
  k->own_count = (size_t*)calloc((size_t)k->num_steps, sizeof(size_t));
  if (k->steps == NULL || k->own == NULL || k->own_count == NULL) {
    KernelFree(context, k);
    return NULL;
  }
  for (i = 0; i < k->num_steps; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, params->nodes_to_replace->data[i], &node,
                                        &reg) != kTfLiteOk) {
      KernelFree(context, k);
      return NULL;
    }
    k->steps[i].in0 = node->inputs->data[0];
    k->steps[i].in1 = node->inputs->data[1];
    k->steps[i].out = node->outputs->data[0];
    if (!Contains(params->output_tensors, k->steps[i].out)) {
      const TfLiteTensor* t = &context->tensors[k->steps[i].out];
      k->own_count[i] = NumElements(t);
      k->own[i] = (float*)calloc(k->own_count[i] ? k->own_count[i] : 1, sizeof(float));
      if (k->own[i] == NULL) {
        KernelFree(context, k);
        return NULL;
      }
    }
  }
  return k;
}

/* Where tensor `t` lives while the partition runs. */
static float* Data(const Kernel* k, TfLiteContext* context, int t) {
  int i;
  for (i = 0; i < k->num_steps; ++i) {
    if (k->steps[i].out == t && k->own[i] != NULL) return k->own[i];
  }
  return context->tensors[t].data.f;
}

static TfLiteStatus KernelPrepare(TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == NULL) {
    context->ReportError(context, "plain C delegate: kernel init failed");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

static TfLiteStatus KernelInvoke(TfLiteContext* context, TfLiteNode* node) {
  Kernel* k = (Kernel*)node->user_data;
  int i;
  k->stats->invokes++;
  for (i = 0; i < k->num_steps; ++i) {
    const float* a = Data(k, context, k->steps[i].in0);
    const float* b = Data(k, context, k->steps[i].in1);
    float* out = Data(k, context, k->steps[i].out);
    size_t n = NumElements(&context->tensors[k->steps[i].out]);
    size_t j;
    if (a == NULL || b == NULL || out == NULL) return kTfLiteDelegateError;
    for (j = 0; j < n; ++j) out[j] = a[j] + b[j];
  }
  return kTfLiteOk;
}

static int Supported(TfLiteContext* context, const TfLiteNode* node,
                     const TfLiteRegistration* reg) {
  const TfLiteAddParams* params = (const TfLiteAddParams*)node->builtin_data;
  const TfLiteTensor* a;
  const TfLiteTensor* b;
  const TfLiteTensor* out;
  if (reg->builtin_code != kTfLiteBuiltinAdd) return 0;
  if (node->inputs->size != 2 || node->outputs->size != 1) return 0;
  if (params != NULL && params->activation != kTfLiteActNone) return 0;
  a = &context->tensors[node->inputs->data[0]];
  b = &context->tensors[node->inputs->data[1]];
  out = &context->tensors[node->outputs->data[0]];
  if (a->type != kTfLiteFloat32 || b->type != kTfLiteFloat32 || out->type != kTfLiteFloat32) {
    return 0;
  }
  return SameDims(a->dims, b->dims) && SameDims(a->dims, out->dims);
}

static TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  DelegateStats* stats = (DelegateStats*)delegate->data_;
  TfLiteIntArray* plan;
  TfLiteIntArray* claimed;
  TfLiteDelegateParams* preview = NULL;
  TfLiteRegistration kernel;
  TfLiteStatus status;
  int i;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteError;
  claimed = TfLiteIntArrayCreate(plan->size);
  if (claimed == NULL) return kTfLiteError;
  claimed->size = 0;
  for (i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) {
      TfLiteIntArrayFree(claimed);
      return kTfLiteError;
    }
    if (Supported(context, node, reg)) claimed->data[claimed->size++] = plan->data[i];
  }
  stats->nodes_claimed = claimed->size;
  status = context->PreviewDelegatePartitioning(context, claimed, &preview,
                                                &stats->partitions_previewed);
  if (status == kTfLiteOk) {
    memset(&kernel, 0, sizeof(kernel));
    kernel.init = KernelInit;
    kernel.free = KernelFree;
    kernel.prepare = KernelPrepare;
    kernel.invoke = KernelInvoke;
    kernel.custom_name = "PlainCAddDelegate";
    kernel.version = 1;
    status = context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, claimed, delegate);
  }
  TfLiteIntArrayFree(claimed);
  return status;
}

/* ---- running -------------------------------------------------------------- */

static char* ReadAll(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* data;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc(n > 0 ? (size_t)n : 1);
  if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* Runs the model with `delegate` (may be NULL); returns a malloc'd copy of
 * output 0 and its size, or NULL. */
static float* Run(TfLiteModel* model, TfLiteDelegate* delegate, const char* input,
                  size_t input_size, size_t* out_bytes) {
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreter* interpreter;
  const TfLiteTensor* out;
  float* result = NULL;
  CapturedErrors errors;
  ResetCapturedErrors(&errors);
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &errors);
  if (delegate != NULL) {
    TfLiteInterpreterOptionsAddDelegate(options, (TfLiteOpaqueDelegate*)delegate);
  }
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  CHECK(interpreter != NULL);
  if (interpreter == NULL) {
    fprintf(stderr, "tflite: %s", errors.text);
    return NULL;
  }
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  CHECK(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), input,
                                   input_size) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  *out_bytes = TfLiteTensorByteSize(out);
  result = (float*)malloc(*out_bytes);
  if (result != NULL) {
    CHECK(TfLiteTensorCopyToBuffer(out, result, *out_bytes) == kTfLiteOk);
  }
  if (errors.calls > 0) fprintf(stderr, "tflite: %s", errors.text);
  TfLiteInterpreterDelete(interpreter);
  return result;
}

static void CheckExternalDelegateFailure(void) {
  TfLiteExternalDelegateOptions o =
      TfLiteExternalDelegateOptionsDefault("/nonexistent/libplain_c_delegate.so");
  CHECK(o.count == 0);
  CHECK(o.insert(&o, "key", "value") == kTfLiteOk);
  CHECK(o.count == 1);
  CHECK(TfLiteExternalDelegateCreate(&o) == NULL); /* prints why */
  TfLiteExternalDelegateDelete(NULL);
}

int main(void) {
  DelegateStats stats;
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  size_t model_size = 0, input_size = 0, cpu_bytes = 0, del_bytes = 0;
  char* model_bytes;
  char* input;
  TfLiteModel* model;
  float* cpu;
  float* del;

  CheckExternalDelegateFailure();

  model_bytes = ReadAll(MODEL, &model_size);
  input = ReadAll(INPUT, &input_size);
  if (model_bytes == NULL || input == NULL) {
    fprintf(stderr, "plain_c_delegate_test: %s or its golden input is absent; skipping\n", MODEL);
    free(model_bytes);
    free(input);
    return g_failures ? 1 : 77;
  }
  model = TfLiteModelCreate(model_bytes, model_size);
  CHECK(model != NULL);
  if (model == NULL) return 1;

  memset(&stats, 0, sizeof(stats));
  delegate.data_ = &stats;
  delegate.Prepare = DelegatePrepare;
  delegate.flags = kTfLiteDelegateFlagsNone;

  cpu = Run(model, NULL, input, input_size, &cpu_bytes);
  del = Run(model, &delegate, input, input_size, &del_bytes);
  CHECK(stats.nodes_claimed >= 1);
  CHECK(stats.partitions_previewed == 1);
  CHECK(stats.invokes == 1);
  CHECK(stats.kernels_alive == 0); /* freed with the interpreter */
  CHECK(cpu != NULL && del != NULL && cpu_bytes == del_bytes && cpu_bytes > 0);
  if (cpu != NULL && del != NULL && cpu_bytes == del_bytes) {
    CHECK(memcmp(cpu, del, cpu_bytes) == 0);
  }
  printf("plain_c_delegate_test: %d ADD node(s) delegated in %d partition(s)\n",
         stats.nodes_claimed, stats.partitions_previewed);

  free(cpu);
  free(del);
  TfLiteModelDelete(model);
  free(model_bytes);
  free(input);
  if (g_failures) fprintf(stderr, "plain_c_delegate_test: %d check(s) failed\n", g_failures);
  return g_failures ? 1 : 0;
}

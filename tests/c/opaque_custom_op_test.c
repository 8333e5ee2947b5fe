/* Black-box test of the opaque extension API (tensorflow/lite/c/c_api_opaque.h)
 * from plain C99, public headers only:
 *   - TfLiteOperator and TfLiteOpaqueTensorBuilder handles, and the NULL
 *     handling of the opaque accessors (no interpreter needed);
 *   - a custom "Sinh" kernel written only against TfLiteOpaque* accessors,
 *     registered with TfLiteInterpreterOptionsAddOperator and run on
 *     shared/models tflite_custom_sinh.tflite (x [1] float32 -> Identity).
 * Exit status: 0 pass, 1 fail, 77 skip (the model file is absent and
 * everything that did not need it passed). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif
#define SINH_MODEL TFLITE_C_SHARED_DIR "/models/files/tflite_custom_sinh.tflite"

#include "c_check.h"

/* sinh without libm: the Taylor series converges quickly for small |x|. */
static double SeriesSinh(double x) {
  double term = x, sum = x;
  int k;
  for (k = 1; k < 40; ++k) {
    term *= x * x / ((2.0 * k) * (2.0 * k + 1.0));
    sum += term;
  }
  return sum;
}

static double Abs(double v) { return v < 0 ? -v : v; }

/* ---- the kernel ---------------------------------------------------------- */

typedef struct SinhState {
  int prepares;
  int invokes;
} SinhState;

static int g_user_tag = 99;
static SinhState* g_state; /* the live kernel state, for the checks below */
static int g_frees;
static int g_graph_checks_ok;

static void* SinhInit(TfLiteOpaqueContext* context, const char* buffer, size_t length) {
  SinhState* s = (SinhState*)calloc(1, sizeof(SinhState));
  (void)context;
  (void)buffer;
  (void)length;
  g_state = s;
  return s;
}

static void SinhFree(TfLiteOpaqueContext* context, void* data) {
  (void)context;
  if (data == g_state) g_state = NULL;
  free(data);
  ++g_frees;
}

static TfLiteStatus SinhPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  SinhState* s = (SinhState*)TfLiteOpaqueNodeGetUserData(node);
  const TfLiteOpaqueTensor* input;
  TfLiteOpaqueTensor* output;
  TfLiteIntArray* shape;
  TfLiteOpaqueNode* self = NULL;
  TfLiteOperator* op = NULL;
  const int* ids = NULL;
  int n = 0, i;

  TF_LITE_OPAQUE_ENSURE(context, s != NULL);
  ++s->prepares;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfInputs(node), 1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfOutputs(node), 1);
  input = TfLiteOpaqueNodeGetInput(context, node, 0);
  output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE(context, input != NULL && output != NULL);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(input), kTfLiteFloat32);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(output), kTfLiteFloat32);

  /* What the graph looks like from inside. */
  g_graph_checks_ok = 1;
  if (TfLiteOpaqueContextGetNumNodes(context) != 1) g_graph_checks_ok = 0;
  if (TfLiteOpaqueContextGetInputs(context, &ids, &n) != kTfLiteOk || n != 1 ||
      ids[0] != TfLiteOpaqueNodeGetInputTensorIndex(node, 0)) {
    g_graph_checks_ok = 0;
  }
  if (TfLiteOpaqueContextGetOutputs(context, &ids, &n) != kTfLiteOk || n != 1 ||
      ids[0] != TfLiteOpaqueNodeGetOutputTensorIndex(node, 0)) {
    g_graph_checks_ok = 0;
  }
  if (TfLiteOpaqueContextGetNodeAndRegistration(context, 0, &self, &op) != kTfLiteOk ||
      self != node || TfLiteOperatorGetBuiltInCode(op) != kTfLiteBuiltinCustom ||
      TfLiteOperatorGetCustomName(op) == NULL ||
      strcmp(TfLiteOperatorGetCustomName(op), "Sinh") != 0 ||
      TfLiteOperatorGetUserData(op) != &g_user_tag) {
    g_graph_checks_ok = 0;
  }
  if (TfLiteOpaqueContextGetOpaqueTensor(context, -1) != NULL) g_graph_checks_ok = 0;

  shape = TfLiteIntArrayCreate(TfLiteOpaqueTensorNumDims(input));
  TF_LITE_OPAQUE_ENSURE(context, shape != NULL);
  for (i = 0; i < shape->size; ++i) shape->data[i] = TfLiteOpaqueTensorDim(input, i);
  return TfLiteOpaqueContextResizeTensor(context, output, shape);
}

static TfLiteStatus SinhInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  SinhState* s = (SinhState*)TfLiteOpaqueNodeGetUserData(node);
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const float* in = (const float*)TfLiteOpaqueTensorData(input);
  float* out = (float*)TfLiteOpaqueTensorData(output);
  size_t count = TfLiteOpaqueTensorByteSize(input) / sizeof(float);
  size_t i;
  TF_LITE_OPAQUE_ENSURE(context, in != NULL && out != NULL);
  TF_LITE_OPAQUE_ENSURE(context, TfLiteOpaqueTensorByteSize(output) == count * sizeof(float));
  for (i = 0; i < count; ++i) out[i] = (float)SeriesSinh(in[i]);
  ++s->invokes;
  return kTfLiteOk;
}

/* ---- tests --------------------------------------------------------------- */

static void TestHandlesWithoutInterpreter(void) {
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Sinh", 3, &g_user_tag);
  TfLiteOpaqueTensorBuilder* b;
  TfLiteQuantizationParams qp;
  const int* ids = NULL;
  int n = 0;
  size_t bytes = 0;
  int32_t v = 0;
  const char* str = NULL;

  CHECK(op != NULL);
  CHECK(TfLiteOperatorGetBuiltInCode(op) == kTfLiteBuiltinCustom);
  CHECK(strcmp(TfLiteOperatorGetCustomName(op), "Sinh") == 0);
  CHECK(TfLiteOperatorGetVersion(op) == 3);
  CHECK(TfLiteOperatorGetUserData(op) == &g_user_tag);
  TfLiteOperatorDelete(op);

  b = TfLiteOpaqueTensorBuilderCreate();
  CHECK(b != NULL);
  qp.scale = 0.5f;
  qp.zero_point = 1;
  CHECK(TfLiteOpaqueTensorBuilderSetQuantizationParams(
            TfLiteOpaqueTensorBuilderSetAllocationType(
                TfLiteOpaqueTensorBuilderSetType(b, kTfLiteFloat32), kTfLiteArenaRw),
            qp) == b);
  TfLiteOpaqueTensorBuilderDelete(b);

  /* NULL handles give the documented failure values. */
  CHECK(TfLiteOpaqueTensorType(NULL) == kTfLiteNoType);
  CHECK(TfLiteOpaqueTensorNumDims(NULL) == -1);
  CHECK(TfLiteOpaqueTensorData(NULL) == NULL);
  CHECK(TfLiteOpaqueTensorByteSize(NULL) == 0);
  CHECK(TfLiteOpaqueTensorName(NULL) == NULL);
  CHECK(TfLiteOpaqueTensorGetNumDimsSignature(NULL, &v) == kTfLiteError);
  CHECK(TfLiteOpaqueTensorGetStringCount(NULL) == -1);
  CHECK(TfLiteOpaqueTensorGetString(NULL, 0, &str, &n) == kTfLiteError);
  CHECK(TfLiteOpaqueTensorWriteString(NULL, "x", 1) == kTfLiteError);
  CHECK(TfLiteOpaqueNodeNumberOfInputs(NULL) == -1);
  CHECK(TfLiteOpaqueNodeGetInputTensorIndex(NULL, 0) == -1);
  CHECK(TfLiteOpaqueNodeInputs(NULL, &ids, &n) == kTfLiteError);
  CHECK(TfLiteOpaqueContextGetInputs(NULL, &ids, &n) == kTfLiteError);
  CHECK(TfLiteOpaqueContextGetNumTensors(NULL) == 0);
  CHECK(TfLiteOpaqueContextGetOpaqueTensor(NULL, 0) == NULL);
  CHECK(TfLiteOpaqueContextAddTensor(NULL, NULL, NULL) == kTfLiteError);
  CHECK(TfLiteOpaqueContextGetSizeOfType(NULL, kTfLiteInt16, &bytes) == kTfLiteOk);
  CHECK(bytes == 2);
  CHECK(TfLiteOpaqueDelegateGetData(NULL) == NULL);
}

/* Returns 0 when run, 77 when the model is absent. */
static int TestSinhModel(void) {
  TfLiteModel* model;
  TfLiteOperator* op;
  TfLiteInterpreterOptions* options;
  TfLiteInterpreter* interpreter;
  const float inputs[3] = {0.5f, -1.25f, 2.0f};
  int i;
  FILE* f = fopen(SINH_MODEL, "rb");
  if (f == NULL) return 77;
  fclose(f);

  model = TfLiteModelCreateFromFile(SINH_MODEL);
  CHECK(model != NULL);
  if (model == NULL) return 0;
  op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Sinh", 1, &g_user_tag);
  TfLiteOperatorSetInit(op, SinhInit);
  TfLiteOperatorSetFree(op, SinhFree);
  TfLiteOperatorSetPrepare(op, SinhPrepare);
  TfLiteOperatorSetInvoke(op, SinhInvoke);
  options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsAddOperator(options, op);
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  CHECK(interpreter != NULL);
  if (interpreter != NULL) {
    CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
    CHECK(g_graph_checks_ok == 1);
    for (i = 0; i < 3; ++i) {
      float out = 0;
      TfLiteTensor* in_tensor = TfLiteInterpreterGetInputTensor(interpreter, 0);
      CHECK(TfLiteTensorCopyFromBuffer(in_tensor, &inputs[i], sizeof(float)) == kTfLiteOk);
      CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
      CHECK(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), &out,
                                     sizeof(float)) == kTfLiteOk);
      CHECK(Abs(out - SeriesSinh(inputs[i])) <= 1e-5 * (1.0 + Abs(SeriesSinh(inputs[i]))));
    }
    CHECK(g_state != NULL && g_state->invokes == 3 && g_state->prepares >= 1);
    TfLiteInterpreterDelete(interpreter);
    CHECK(g_frees == 1);
  }
  TfLiteOperatorDelete(op);
  TfLiteModelDelete(model);
  return 0;
}

int main(void) {
  int sinh_status;
  TestHandlesWithoutInterpreter();
  sinh_status = TestSinhModel();
  if (g_failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", g_failures);
    return 1;
  }
  if (sinh_status == 77) {
    fprintf(stderr, "skipped: %s not found\n", SINH_MODEL);
    return 77;
  }
  printf("opaque_custom_op_test: all checks passed\n");
  return 0;
}

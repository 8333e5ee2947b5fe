/* The "Custom operators" guide's C code path, with the guide's own (older)
 * names, from plain C99 against the public headers only:
 *
 *   TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, name, version),
 *   ...SetInit / SetFree / SetPrepare / SetInvoke / SetAsyncKernel,
 *   ...GetBuiltInCode / GetCustomName / GetVersion / Delete,
 *   TfLiteInterpreterOptionsAddRegistrationExternal.
 *
 * The op is the guide's ATAN, with the guide's slips fixed (see
 * examples/custom_op_atan/README.md). It runs on an embedded model (x [2, 3]
 * float32 -> ATAN -> y, written by tests/examples/atan_model_writer.cc) and
 * checks init/prepare/invoke/free are called in upstream's order.
 * Also checks that 2.19's four-argument Create spelling still compiles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"

#include "c_check.h"

/* x [2, 3] float32 -> CUSTOM "ATAN" -> y [2, 3]. The union aligns the bytes. */
static const union {
  unsigned char bytes[300];
  double align;
} kAtanModel = {{
  0x18, 0x00, 0x00, 0x00, 0x54, 0x46, 0x4c, 0x33, 0x00, 0x00, 0x0e, 0x00,
  0x14, 0x00, 0x04, 0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x10, 0x00,
  0x0e, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xdc, 0x00, 0x00, 0x00,
  0x18, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x08, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x14, 0x00,
  0x04, 0x00, 0x08, 0x00, 0x0c, 0x00, 0x10, 0x00, 0x0c, 0x00, 0x00, 0x00,
  0x50, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x0a, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x04, 0x00, 0x08, 0x00,
  0x0a, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
  0x34, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xe0, 0xff, 0xff, 0xff,
  0x10, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x79, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
  0x03, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x0c, 0x00, 0x04, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x78, 0x00, 0x00, 0x00,
  0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x10, 0x00,
  0x07, 0x00, 0x08, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x0c, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x20, 0x08, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x41, 0x54, 0x41, 0x4e, 0x00, 0x00, 0x00, 0x00
}};

/* ---- the op, as the guide writes it (C version) ------------------------- */

/* What happened, in order: 'i'nit, 'p'repare, 'v' invoke, 'f'ree. */
static char g_calls[32];
static size_t g_num_calls;
static void Record(char c) {
  if (g_num_calls + 1 < sizeof(g_calls)) g_calls[g_num_calls++] = c;
}

typedef struct MyCustomOpData {
  int magic;
} MyCustomOpData;

static void* MyCustomOpInit(TfLiteOpaqueContext* context, const char* buffer,
                            size_t length) {
  MyCustomOpData* data = (MyCustomOpData*)malloc(sizeof(MyCustomOpData));
  (void)context;
  (void)buffer;
  (void)length;
  Record('i');
  if (data != NULL) data->magic = 1234;
  return data;
}

static void MyCustomOpFree(TfLiteOpaqueContext* context, void* buffer) {
  (void)context;
  Record('f');
  CHECK(buffer != NULL && ((MyCustomOpData*)buffer)->magic == 1234);
  free(buffer);
}

static TfLiteStatus MyCustomOpPrepare(TfLiteOpaqueContext* context,
                                      TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* input;
  TfLiteOpaqueTensor* output;
  TfLiteIntArray* output_size;
  int num_dims, i;
  MyCustomOpData* data = (MyCustomOpData*)TfLiteOpaqueNodeGetUserData(node);

  Record('p');
  TF_LITE_OPAQUE_ENSURE(context, data != NULL && data->magic == 1234);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfInputs(node), 1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfOutputs(node), 1);
  input = TfLiteOpaqueNodeGetInput(context, node, 0);
  output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(input), kTfLiteFloat32);

  num_dims = TfLiteOpaqueTensorNumDims(input);
  output_size = TfLiteIntArrayCreate(num_dims);
  for (i = 0; i < num_dims; ++i) {
    output_size->data[i] = TfLiteOpaqueTensorDim(input, i);
  }
  return TfLiteOpaqueContextResizeTensor(context, output, output_size);
}

static TfLiteStatus MyCustomOpInvoke(TfLiteOpaqueContext* context,
                                     TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const float* input_data = (const float*)TfLiteOpaqueTensorData(input);
  float* output_data = (float*)TfLiteOpaqueTensorData(output);
  size_t count = 1, i;
  int num_dims = TfLiteOpaqueTensorNumDims(input), d;

  Record('v');
  for (d = 0; d < num_dims; ++d) count *= (size_t)TfLiteOpaqueTensorDim(input, d);
  for (i = 0; i < count; ++i) output_data[i] = atanf(input_data[i]);
  return kTfLiteOk;
}

static struct TfLiteAsyncKernel* MyCustomOpAsyncKernel(TfLiteOpaqueContext* context,
                                                       TfLiteOpaqueNode* node) {
  (void)context;
  (void)node;
  Record('a'); /* never expected: the CPU runtime has no async kernels */
  return NULL;
}

static TfLiteRegistrationExternal* MyCustomOpCreate(void) {
  TfLiteRegistrationExternal* r =
      TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "ATAN", /*version=*/1);
  TfLiteRegistrationExternalSetInit(r, MyCustomOpInit);
  TfLiteRegistrationExternalSetFree(r, MyCustomOpFree);
  TfLiteRegistrationExternalSetPrepare(r, MyCustomOpPrepare);
  TfLiteRegistrationExternalSetInvoke(r, MyCustomOpInvoke);
  TfLiteRegistrationExternalSetAsyncKernel(r, MyCustomOpAsyncKernel);
  return r;
}

static TfLiteRegistrationExternal* MyCustomOpRegistrationExternal(void) {
  /* Singleton instance, intentionally never destroyed. */
  static TfLiteRegistrationExternal* my_custom_op = NULL;
  if (my_custom_op == NULL) my_custom_op = MyCustomOpCreate();
  return my_custom_op;
}

/* ---- tests --------------------------------------------------------------- */

static void TestAccessors(void) {
  const TfLiteRegistrationExternal* r = MyCustomOpRegistrationExternal();
  static int tag;
  TfLiteRegistrationExternal* with_data;
  /* The old type is the new type: no cast between them. */
  const TfLiteOperator* as_operator = r;

  CHECK(r != NULL);
  CHECK(TfLiteRegistrationExternalGetBuiltInCode(r) == kTfLiteBuiltinCustom);
  CHECK(strcmp(TfLiteRegistrationExternalGetCustomName(r), "ATAN") == 0);
  CHECK(TfLiteRegistrationExternalGetVersion(r) == 1);
  CHECK(TfLiteOperatorGetVersion(as_operator) == 1);
  CHECK(TfLiteOperatorGetUserData(as_operator) == NULL);

  /* 2.19's alias took a fourth argument (user_data); that spelling works too. */
  with_data = TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "WithData", 3, &tag);
  CHECK(with_data != NULL);
  CHECK(TfLiteOperatorGetUserData(with_data) == &tag);
  CHECK(TfLiteRegistrationExternalGetVersion(with_data) == 3);
  TfLiteRegistrationExternalDelete(with_data);

  /* Builtin overrides have no custom name. */
  with_data = TfLiteRegistrationExternalCreate(kTfLiteBuiltinAdd, NULL, 2);
  CHECK(TfLiteRegistrationExternalGetBuiltInCode(with_data) == kTfLiteBuiltinAdd);
  CHECK(TfLiteRegistrationExternalGetCustomName(with_data) == NULL);
  TfLiteRegistrationExternalDelete(with_data);

  /* NULL: documented failure values, no crash. */
  CHECK(TfLiteRegistrationExternalGetCustomName(NULL) == NULL);
  CHECK(TfLiteRegistrationExternalGetVersion(NULL) == -1);
  TfLiteRegistrationExternalDelete(NULL);
  TfLiteRegistrationExternalSetInit(NULL, MyCustomOpInit);
  TfLiteRegistrationExternalSetFree(NULL, MyCustomOpFree);
  TfLiteRegistrationExternalSetPrepare(NULL, MyCustomOpPrepare);
  TfLiteRegistrationExternalSetInvoke(NULL, MyCustomOpInvoke);
  TfLiteRegistrationExternalSetAsyncKernel(NULL, MyCustomOpAsyncKernel);
}

static void TestRunsModel(void) {
  TfLiteModel* model = TfLiteModelCreate(kAtanModel.bytes, sizeof(kAtanModel.bytes));
  TfLiteInterpreterOptions* options;
  TfLiteInterpreter* interpreter;
  const float x[6] = {-8.0f, -1.0f, 0.0f, 0.5f, 2.2f, 201.0f};
  float y[6];
  int i;
  CapturedErrors reports;

  ResetCapturedErrors(&reports);
  CHECK(model != NULL);
  if (model == NULL) return;

  /* Without the op the model is refused: ATAN is not built in. */
  options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &reports);
  interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter != NULL) {
    CHECK(TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk);
    TfLiteInterpreterDelete(interpreter);
  }
  CHECK(reports.calls > 0);
  CHECK(g_num_calls == 0);

  /* NULL arguments are reported, not fatal. */
  TfLiteInterpreterOptionsAddRegistrationExternal(NULL, MyCustomOpRegistrationExternal());
  TfLiteInterpreterOptionsAddRegistrationExternal(options, NULL);

  TfLiteInterpreterOptionsAddRegistrationExternal(options, MyCustomOpRegistrationExternal());
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  CHECK(interpreter != NULL);
  if (interpreter == NULL) {
    TfLiteModelDelete(model);
    return;
  }
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  CHECK(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x,
                                   sizeof(x)) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  CHECK(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), y,
                                 sizeof(y)) == kTfLiteOk);
  for (i = 0; i < 6; ++i) CHECK(y[i] == atanf(x[i]));
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);

  /* One node: init at creation, prepare at allocation, one invoke per
   * Invoke, free when the interpreter goes. */
  g_calls[g_num_calls] = '\0';
  if (strcmp(g_calls, "ipvvf") != 0) {
    fprintf(stderr, "callback order %s, expected ipvvf\n", g_calls);
    ++g_failures;
  }
}

int main(void) {
  TestAccessors();
  TestRunsModel();
  if (g_failures) fprintf(stderr, "%d check(s) failed\n", g_failures);
  return g_failures ? 1 : 0;
}

/* Black-box conformance test of the public C API (tensorflow/lite/c/c_api.h),
 * written in plain C99 against upstream TensorFlow Lite 2.19's documented
 * contract, on real models from shared/models:
 *   java_add.tflite                     y = 3x, input [1,8,8,3] float32
 *   java_add_unknown_dimensions.tflite  y = 2x, resizable input
 *   tflite_multi_signatures.tflite      signatures "add" (x+2) and "sub" (x-3)
 * Exit status: 0 pass, 1 fail, 77 skip (shared model folder absent). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "c_check.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif
#define MODELS TFLITE_C_SHARED_DIR "/models/files/"
#define GOLDEN TFLITE_C_SHARED_DIR "/models/golden/"

/* ---- file helpers ------------------------------------------------------------------ */
static void* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  void* data = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
      data = malloc((size_t)n + 1);
      if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
      }
      *size = (size_t)n;
    }
  }
  fclose(f);
  return data;
}

static bool FileExists(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* |a - e| <= atol + rtol * |e| for every element. */
static bool AllClose(const float* actual, const float* expected, size_t n, float atol, float rtol) {
  for (size_t i = 0; i < n; ++i) {
    if (!(fabsf(actual[i] - expected[i]) <= atol + rtol * fabsf(expected[i]))) {
      fprintf(stderr, "  element %zu: got %g, expected %g\n", i, (double)actual[i], (double)expected[i]);
      return false;
    }
  }
  return true;
}

/* ---- tests -------------------------------------------------------------------------- */
static void TestVersion(void) {
  const char* v = TfLiteVersion();
  REQUIRE(v != NULL);
  CHECK(strncmp(v, "2.19", 4) == 0);
  CHECK(TfLiteSchemaVersion() == 3);
  const char* ext = TfLiteExtensionApisVersion();
  REQUIRE(ext != NULL);
  CHECK(ext[0] != '\0');
}

static void TestOptions(void) {
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  REQUIRE(options != NULL);
  TfLiteInterpreterOptionsSetNumThreads(options, 2);
  TfLiteInterpreterOptions* copy = TfLiteInterpreterOptionsCopy(options);
  CHECK(copy != NULL);
  CHECK(copy != options);
  CHECK(TfLiteInterpreterOptionsEnableCancellation(options, true) == kTfLiteOk);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteInterpreterOptionsDelete(copy);
}

/* Checks the java_add interpreter end to end: metadata, golden run, outputs
 * read via pointer and via copy. */
static void RunJavaAdd(TfLiteInterpreter* interpreter) {
  REQUIRE(TfLiteInterpreterGetInputTensorCount(interpreter) == 1);
  REQUIRE(TfLiteInterpreterGetOutputTensorCount(interpreter) == 1);
  const int* in_idx = TfLiteInterpreterInputTensorIndices(interpreter);
  const int* out_idx = TfLiteInterpreterOutputTensorIndices(interpreter);
  REQUIRE(in_idx != NULL && out_idx != NULL);
  CHECK(in_idx[0] == 1);
  CHECK(out_idx[0] == 2);

  REQUIRE(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  REQUIRE(input != NULL);
  CHECK(TfLiteInterpreterGetTensor(interpreter, in_idx[0]) == input);
  CHECK(TfLiteTensorType(input) == kTfLiteFloat32);
  REQUIRE(TfLiteTensorNumDims(input) == 4);
  CHECK(TfLiteTensorDim(input, 0) == 1);
  CHECK(TfLiteTensorDim(input, 1) == 8);
  CHECK(TfLiteTensorDim(input, 2) == 8);
  CHECK(TfLiteTensorDim(input, 3) == 3);
  CHECK(TfLiteTensorByteSize(input) == 192 * sizeof(float));
  CHECK(TfLiteTensorData(input) != NULL);
  REQUIRE(TfLiteTensorName(input) != NULL);
  CHECK(strcmp(TfLiteTensorName(input), "input") == 0);
  TfLiteQuantizationParams qp = TfLiteTensorQuantizationParams(input);
  CHECK(qp.scale == 0.0f && qp.zero_point == 0);

  size_t in_size = 0, out_size = 0;
  float* golden_in = (float*)ReadFile(GOLDEN "java_add/input_0.bin", &in_size);
  float* golden_out = (float*)ReadFile(GOLDEN "java_add/output_0.bin", &out_size);
  if (!golden_in || !golden_out || in_size != 768 || out_size != 768) {
    free(golden_in);
    free(golden_out);
    REQUIRE(!"golden files of java_add readable and 768 bytes");
  }
  CHECK(TfLiteTensorCopyFromBuffer(input, golden_in, in_size) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);

  const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  if (output) {
    CHECK(TfLiteInterpreterGetTensor(interpreter, out_idx[0]) == output);
    CHECK(TfLiteTensorType(output) == kTfLiteFloat32);
    CHECK(TfLiteTensorNumDims(output) == 4);
    CHECK(TfLiteTensorByteSize(output) == out_size);
    CHECK(TfLiteTensorName(output) && strcmp(TfLiteTensorName(output), "output") == 0);
    float result[192];
    CHECK(TfLiteTensorCopyToBuffer(output, result, sizeof(result)) == kTfLiteOk);
    CHECK(AllClose(result, golden_out, 192, 0.000299f, 0.001f));
    const float* direct = (const float*)TfLiteTensorData(output);
    CHECK(direct != NULL && memcmp(direct, result, sizeof(result)) == 0);
    /* A second Invoke with the same input gives the same output. */
    CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
    CHECK(memcmp(TfLiteTensorData(output), result, sizeof(result)) == 0);
  } else {
    CHECK(output != NULL);
  }
  free(golden_in);
  free(golden_out);
}

static void TestCreateFromFile(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetNumThreads(options, 2);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  /* Both may go right after creation (documented upstream). */
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  RunJavaAdd(interpreter);
  TfLiteInterpreterDelete(interpreter);
}

static void TestCreateFromBuffer(void) {
  size_t size = 0;
  void* data = ReadFile(MODELS "java_add.tflite", &size);
  REQUIRE(data != NULL);
  TfLiteModel* model = TfLiteModelCreate(data, size);
  CHECK(model != NULL);
  CapturedErrors rep;
  ResetCapturedErrors(&rep);
  TfLiteModel* model2 = TfLiteModelCreateWithErrorReporter(data, size, CaptureError, &rep);
  CHECK(model2 != NULL);
  CHECK(rep.calls == 0);
  if (model) {
    /* No options at all is allowed. The buffer must outlive the interpreter. */
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
    CHECK(interpreter != NULL);
    if (interpreter) RunJavaAdd(interpreter);
    TfLiteInterpreterDelete(interpreter);
  }
  if (model2) {
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model2, NULL);
    CHECK(interpreter != NULL);
    if (interpreter) RunJavaAdd(interpreter);
    TfLiteInterpreterDelete(interpreter);
  }
  TfLiteModelDelete(model);
  TfLiteModelDelete(model2);
  free(data);
}

static void CheckScaled(const TfLiteTensor* out, const float* in, size_t n, float scale) {
  float expected[256];
  REQUIRE(n <= 256);
  for (size_t i = 0; i < n; ++i) expected[i] = scale * in[i];
  REQUIRE(out != NULL);
  REQUIRE(TfLiteTensorByteSize(out) == n * sizeof(float));
  CHECK(AllClose((const float*)TfLiteTensorData(out), expected, n, 1e-6f, 1e-6f));
}

static void TestResize(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add_unknown_dimensions.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  REQUIRE(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);

  /* Default shape: the golden run. */
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  REQUIRE(input != NULL);
  REQUIRE(TfLiteTensorNumDims(input) == 4);
  CHECK(TfLiteTensorDim(input, 3) == 3);
  size_t in_size = 0, out_size = 0;
  float* golden_in = (float*)ReadFile(GOLDEN "java_add_unknown_dimensions/input_0.bin", &in_size);
  float* golden_out = (float*)ReadFile(GOLDEN "java_add_unknown_dimensions/output_0.bin", &out_size);
  if (golden_in && golden_out && in_size == 36 && out_size == 36) {
    CHECK(TfLiteTensorCopyFromBuffer(input, golden_in, in_size) == kTfLiteOk);
    CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
    const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    CHECK(output != NULL && TfLiteTensorByteSize(output) == out_size &&
          AllClose((const float*)TfLiteTensorData(output), golden_out, 9, 0.000186f, 0.001f));
  } else {
    CHECK(!"golden files of java_add_unknown_dimensions readable");
  }
  free(golden_in);
  free(golden_out);

  /* Grow, run, shrink, run: outputs follow the new shapes. */
  const int grown[4] = {1, 2, 3, 5};
  const int shrunk[4] = {1, 1, 1, 2};
  const int* shapes[2] = {grown, shrunk};
  for (int s = 0; s < 2; ++s) {
    REQUIRE(TfLiteInterpreterResizeInputTensor(interpreter, 0, shapes[s], 4) == kTfLiteOk);
    REQUIRE(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
    input = TfLiteInterpreterGetInputTensor(interpreter, 0);
    REQUIRE(input != NULL);
    size_t n = (size_t)(shapes[s][1] * shapes[s][2] * shapes[s][3]);
    CHECK(TfLiteTensorDim(input, 3) == shapes[s][3]);
    REQUIRE(TfLiteTensorByteSize(input) == n * sizeof(float));
    float data[32];
    for (size_t i = 0; i < n; ++i) data[i] = 0.25f * (float)i - 1.0f;
    CHECK(TfLiteTensorCopyFromBuffer(input, data, n * sizeof(float)) == kTfLiteOk);
    CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
    const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    REQUIRE(output != NULL);
    REQUIRE(TfLiteTensorNumDims(output) == 4);
    CHECK(TfLiteTensorDim(output, 1) == shapes[s][1]);
    CHECK(TfLiteTensorDim(output, 3) == shapes[s][3]);
    CheckScaled(output, data, n, 2.0f);
  }
  /* Resizing an input index that does not exist fails. */
  CHECK(TfLiteInterpreterResizeInputTensor(interpreter, 1, grown, 4) != kTfLiteOk);
  CHECK(TfLiteInterpreterResizeInputTensor(interpreter, -1, grown, 4) != kTfLiteOk);
  TfLiteInterpreterDelete(interpreter);
}

static bool ReadGolden(const char* path, float* out, size_t n) {
  size_t size = 0;
  float* data = (float*)ReadFile(path, &size);
  bool ok = data && size == n * sizeof(float);
  if (ok) memcpy(out, data, size);
  free(data);
  return ok;
}

/* Runs one signature of tflite_multi_signatures on its golden input. */
static void RunSignature(TfLiteSignatureRunner* runner, const char* golden_dir) {
  char in_path[512], out_path[512];
  snprintf(in_path, sizeof(in_path), "%s/input_0.bin", golden_dir);
  snprintf(out_path, sizeof(out_path), "%s/output_0.bin", golden_dir);
  float in[1], expected[1], got[1];
  REQUIRE(ReadGolden(in_path, in, 1) && ReadGolden(out_path, expected, 1));

  REQUIRE(TfLiteSignatureRunnerAllocateTensors(runner) == kTfLiteOk);
  TfLiteTensor* x = TfLiteSignatureRunnerGetInputTensor(runner, "x");
  REQUIRE(x != NULL);
  CHECK(TfLiteTensorType(x) == kTfLiteFloat32);
  CHECK(TfLiteTensorNumDims(x) == 1 && TfLiteTensorDim(x, 0) == 1);
  CHECK(TfLiteTensorCopyFromBuffer(x, in, sizeof(in)) == kTfLiteOk);
  CHECK(TfLiteSignatureRunnerInvoke(runner) == kTfLiteOk);
  const TfLiteTensor* y = TfLiteSignatureRunnerGetOutputTensor(runner, "output_0");
  REQUIRE(y != NULL);
  CHECK(TfLiteTensorCopyToBuffer(y, got, sizeof(got)) == kTfLiteOk);
  CHECK(AllClose(got, expected, 1, 0.000226f, 0.001f));
}

static void TestSignatures(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "tflite_multi_signatures.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);

  REQUIRE(TfLiteInterpreterGetSignatureCount(interpreter) == 2);
  const char* k0 = TfLiteInterpreterGetSignatureKey(interpreter, 0);
  const char* k1 = TfLiteInterpreterGetSignatureKey(interpreter, 1);
  REQUIRE(k0 != NULL && k1 != NULL);
  CHECK(strcmp(k0, "add") == 0);
  CHECK(strcmp(k1, "sub") == 0);
  CHECK(TfLiteInterpreterGetSignatureKey(interpreter, 2) == NULL);
  CHECK(TfLiteInterpreterGetSignatureKey(interpreter, -1) == NULL);
  CHECK(TfLiteInterpreterGetSignatureRunner(interpreter, "no_such_signature") == NULL);

  TfLiteSignatureRunner* add = TfLiteInterpreterGetSignatureRunner(interpreter, "add");
  TfLiteSignatureRunner* sub = TfLiteInterpreterGetSignatureRunner(interpreter, "sub");
  if (add && sub) {
    CHECK(TfLiteSignatureRunnerGetInputCount(add) == 1);
    CHECK(TfLiteSignatureRunnerGetOutputCount(add) == 1);
    const char* in_name = TfLiteSignatureRunnerGetInputName(add, 0);
    const char* out_name = TfLiteSignatureRunnerGetOutputName(add, 0);
    CHECK(in_name && strcmp(in_name, "x") == 0);
    CHECK(out_name && strcmp(out_name, "output_0") == 0);
    CHECK(TfLiteSignatureRunnerGetInputName(add, 1) == NULL);
    CHECK(TfLiteSignatureRunnerGetInputName(add, -1) == NULL);
    CHECK(TfLiteSignatureRunnerGetOutputName(add, 1) == NULL);
    CHECK(TfLiteSignatureRunnerGetOutputName(add, -1) == NULL);
    CHECK(TfLiteSignatureRunnerGetInputTensor(add, "nope") == NULL);
    CHECK(TfLiteSignatureRunnerGetOutputTensor(add, "nope") == NULL);

    RunSignature(add, GOLDEN "tflite_multi_signatures");
    RunSignature(sub, GOLDEN "tflite_multi_signatures/signature_1");
    /* The signatures keep separate state: "add" still works after "sub" ran. */
    RunSignature(add, GOLDEN "tflite_multi_signatures");

    /* Resize a signature input (upstream's c_test.c does the same). */
    const int dims[1] = {2};
    CHECK(TfLiteSignatureRunnerResizeInputTensor(add, "nope", dims, 1) != kTfLiteOk);
    CHECK(TfLiteSignatureRunnerResizeInputTensor(add, "x", dims, 1) == kTfLiteOk);
    CHECK(TfLiteSignatureRunnerAllocateTensors(add) == kTfLiteOk);
    TfLiteTensor* x = TfLiteSignatureRunnerGetInputTensor(add, "x");
    float in[2] = {2.0f, 4.0f}, out[2] = {0, 0};
    if (x) {
      CHECK(TfLiteTensorByteSize(x) == sizeof(in));
      CHECK(TfLiteTensorCopyFromBuffer(x, in, sizeof(in)) == kTfLiteOk);
      CHECK(TfLiteSignatureRunnerInvoke(add) == kTfLiteOk);
      const TfLiteTensor* y = TfLiteSignatureRunnerGetOutputTensor(add, "output_0");
      CHECK(y != NULL && TfLiteTensorCopyToBuffer(y, out, sizeof(out)) == kTfLiteOk);
      CHECK(out[0] == 4.0f && out[1] == 6.0f);
    } else {
      CHECK(x != NULL);
    }
  } else {
    CHECK(add != NULL);
    CHECK(sub != NULL);
  }
  TfLiteSignatureRunnerDelete(add);
  TfLiteSignatureRunnerDelete(sub);
  TfLiteInterpreterDelete(interpreter);
}

/* A NULL signature key selects the signature of subgraph 0 or, in a model
 * without signatures, a placeholder signature over the model's inputs and
 * outputs named after their tensors (upstream Interpreter::GetSignatureRunner). */
static void TestDefaultSignatureRunner(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterGetSignatureCount(interpreter) == 0);
  TfLiteSignatureRunner* runner = TfLiteInterpreterGetSignatureRunner(interpreter, NULL);
  if (runner) {
    CHECK(TfLiteSignatureRunnerGetInputCount(runner) == 1);
    CHECK(TfLiteSignatureRunnerGetOutputCount(runner) == 1);
    const char* in_name = TfLiteSignatureRunnerGetInputName(runner, 0);
    const char* out_name = TfLiteSignatureRunnerGetOutputName(runner, 0);
    CHECK(in_name && strcmp(in_name, "input") == 0);
    CHECK(out_name && strcmp(out_name, "output") == 0);
    CHECK(TfLiteSignatureRunnerAllocateTensors(runner) == kTfLiteOk);
    TfLiteTensor* x = TfLiteSignatureRunnerGetInputTensor(runner, "input");
    float in[192];
    for (int i = 0; i < 192; ++i) in[i] = (float)(i % 13) - 6.0f;
    if (x) {
      CHECK(TfLiteTensorCopyFromBuffer(x, in, sizeof(in)) == kTfLiteOk);
      CHECK(TfLiteSignatureRunnerInvoke(runner) == kTfLiteOk);
      CheckScaled(TfLiteSignatureRunnerGetOutputTensor(runner, "output"), in, 192, 3.0f);
    } else {
      CHECK(x != NULL);
    }
    TfLiteSignatureRunnerDelete(runner);
  } else {
    CHECK(runner != NULL);
  }
  TfLiteInterpreterDelete(interpreter);

  model = TfLiteModelCreateFromFile(MODELS "tflite_multi_signatures.tflite");
  REQUIRE(model != NULL);
  interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  runner = TfLiteInterpreterGetSignatureRunner(interpreter, NULL);
  if (runner) {
    RunSignature(runner, GOLDEN "tflite_multi_signatures"); /* "add" runs subgraph 0 */
    TfLiteSignatureRunnerDelete(runner);
  } else {
    CHECK(runner != NULL);
  }
  TfLiteInterpreterDelete(interpreter);
}

static void TestCopyErrors(void) {
  TfLiteInterpreter* interpreter = NULL;
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  REQUIRE(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  REQUIRE(input != NULL && output != NULL);
  float buf[193];
  memset(buf, 0, sizeof(buf));
  CHECK(TfLiteTensorCopyFromBuffer(input, buf, 191 * sizeof(float)) == kTfLiteError);
  CHECK(TfLiteTensorCopyFromBuffer(input, buf, 193 * sizeof(float)) == kTfLiteError);
  CHECK(TfLiteTensorCopyFromBuffer(input, buf, 0) == kTfLiteError);
  CHECK(TfLiteTensorCopyToBuffer(output, buf, 191 * sizeof(float)) == kTfLiteError);
  CHECK(TfLiteTensorCopyToBuffer(output, buf, 193 * sizeof(float)) == kTfLiteError);
  CHECK(TfLiteTensorCopyFromBuffer(input, buf, 192 * sizeof(float)) == kTfLiteOk);
  CHECK(TfLiteTensorCopyToBuffer(output, buf, 192 * sizeof(float)) == kTfLiteOk);
  TfLiteInterpreterDelete(interpreter);
}

static void TestOutOfRangeIndices(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterGetInputTensor(interpreter, 1) == NULL);
  CHECK(TfLiteInterpreterGetInputTensor(interpreter, -1) == NULL);
  CHECK(TfLiteInterpreterGetInputTensor(interpreter, INT32_MAX) == NULL);
  CHECK(TfLiteInterpreterGetOutputTensor(interpreter, 1) == NULL);
  CHECK(TfLiteInterpreterGetOutputTensor(interpreter, -1) == NULL);
  CHECK(TfLiteInterpreterGetTensor(interpreter, -1) == NULL);
  CHECK(TfLiteInterpreterGetTensor(interpreter, 1000000) == NULL);
  CHECK(TfLiteInterpreterGetSignatureCount(interpreter) == 0);
  CHECK(TfLiteInterpreterGetSignatureKey(interpreter, 0) == NULL);
  TfLiteInterpreterDelete(interpreter);
}

static void TestNullArguments(void) {
  const int dims[1] = {1};
  float buf[4];

  /* Creation functions refuse NULL. */
  CHECK(TfLiteModelCreate(NULL, 0) == NULL);
  CHECK(TfLiteModelCreate(NULL, 100) == NULL);
  CHECK(TfLiteModelCreateFromFile(NULL) == NULL);
  CapturedErrors rep;
  ResetCapturedErrors(&rep);
  CHECK(TfLiteModelCreateWithErrorReporter(NULL, 0, CaptureError, &rep) == NULL);
  CHECK(TfLiteModelCreateFromFileWithErrorReporter(NULL, CaptureError, &rep) == NULL);
  CHECK(TfLiteInterpreterCreate(NULL, NULL) == NULL);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  CHECK(TfLiteInterpreterCreate(NULL, options) == NULL);
  TfLiteInterpreterOptionsDelete(options);

  /* Deleting NULL is a no-op (documented upstream). */
  TfLiteModelDelete(NULL);
  TfLiteInterpreterOptionsDelete(NULL);
  TfLiteInterpreterDelete(NULL);
  TfLiteSignatureRunnerDelete(NULL);

  /* Everything that takes an interpreter. */
  CHECK(TfLiteInterpreterGetInputTensorCount(NULL) <= 0);
  CHECK(TfLiteInterpreterGetOutputTensorCount(NULL) <= 0);
  CHECK(TfLiteInterpreterInputTensorIndices(NULL) == NULL);
  CHECK(TfLiteInterpreterOutputTensorIndices(NULL) == NULL);
  CHECK(TfLiteInterpreterGetInputTensor(NULL, 0) == NULL);
  CHECK(TfLiteInterpreterGetOutputTensor(NULL, 0) == NULL);
  CHECK(TfLiteInterpreterGetTensor(NULL, 0) == NULL);
  CHECK(TfLiteInterpreterResizeInputTensor(NULL, 0, dims, 1) != kTfLiteOk);
  CHECK(TfLiteInterpreterAllocateTensors(NULL) != kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(NULL) != kTfLiteOk);
  CHECK(TfLiteInterpreterCancel(NULL) != kTfLiteOk);
  CHECK(TfLiteInterpreterGetSignatureCount(NULL) <= 0);
  CHECK(TfLiteInterpreterGetSignatureKey(NULL, 0) == NULL);
  CHECK(TfLiteInterpreterGetSignatureRunner(NULL, "add") == NULL);

  /* Signature runners. */
  CHECK(TfLiteSignatureRunnerGetInputCount(NULL) == 0);
  CHECK(TfLiteSignatureRunnerGetOutputCount(NULL) == 0);
  CHECK(TfLiteSignatureRunnerGetInputName(NULL, 0) == NULL);
  CHECK(TfLiteSignatureRunnerGetOutputName(NULL, 0) == NULL);
  CHECK(TfLiteSignatureRunnerGetInputTensor(NULL, "x") == NULL);
  CHECK(TfLiteSignatureRunnerGetOutputTensor(NULL, "x") == NULL);
  CHECK(TfLiteSignatureRunnerResizeInputTensor(NULL, "x", dims, 1) != kTfLiteOk);
  CHECK(TfLiteSignatureRunnerAllocateTensors(NULL) != kTfLiteOk);
  CHECK(TfLiteSignatureRunnerInvoke(NULL) != kTfLiteOk);

  /* Tensors. */
  CHECK(TfLiteTensorType(NULL) == kTfLiteNoType);
  CHECK(TfLiteTensorNumDims(NULL) == -1);
  CHECK(TfLiteTensorByteSize(NULL) == 0);
  CHECK(TfLiteTensorData(NULL) == NULL);
  CHECK(TfLiteTensorName(NULL) == NULL);
  TfLiteQuantizationParams qp = TfLiteTensorQuantizationParams(NULL);
  CHECK(qp.scale == 0.0f && qp.zero_point == 0);
  CHECK(TfLiteTensorCopyFromBuffer(NULL, buf, sizeof(buf)) == kTfLiteError);
  CHECK(TfLiteTensorCopyToBuffer(NULL, buf, sizeof(buf)) == kTfLiteError);

  /* Options setters ignore a NULL options object. */
  TfLiteInterpreterOptionsSetNumThreads(NULL, 2);
  TfLiteInterpreterOptionsSetErrorReporter(NULL, CaptureError, NULL);
  CHECK(TfLiteInterpreterOptionsEnableCancellation(NULL, true) != kTfLiteOk);
  CHECK(TfLiteInterpreterOptionsCopy(NULL) == NULL);

  /* NULL pointers inside otherwise valid calls. */
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "tflite_multi_signatures.tflite");
  REQUIRE(model != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterResizeInputTensor(interpreter, 0, NULL, 1) != kTfLiteOk);
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  REQUIRE(input != NULL);
  CHECK(TfLiteTensorCopyFromBuffer(input, NULL, TfLiteTensorByteSize(input)) == kTfLiteError);
  CHECK(TfLiteTensorCopyToBuffer(input, NULL, TfLiteTensorByteSize(input)) == kTfLiteError);
  TfLiteSignatureRunner* add = TfLiteInterpreterGetSignatureRunner(interpreter, "add");
  REQUIRE(add != NULL);
  CHECK(TfLiteSignatureRunnerGetInputTensor(add, NULL) == NULL);
  CHECK(TfLiteSignatureRunnerGetOutputTensor(add, NULL) == NULL);
  CHECK(TfLiteSignatureRunnerResizeInputTensor(add, NULL, dims, 1) != kTfLiteOk);
  CHECK(TfLiteSignatureRunnerResizeInputTensor(add, "x", NULL, 1) != kTfLiteOk);
  TfLiteSignatureRunnerDelete(add);
  TfLiteInterpreterDelete(interpreter);
}

static void TestBadModels(void) {
  CapturedErrors rep;

  /* A file that does not exist: NULL, and the reporter says why. */
  ResetCapturedErrors(&rep);
  TfLiteModel* model = TfLiteModelCreateFromFileWithErrorReporter(
      MODELS "this_file_does_not_exist.tflite", CaptureError, &rep);
  CHECK(model == NULL);
  CHECK(rep.calls >= 1);
  CHECK(rep.text[0] != '\0');
  TfLiteModelDelete(model);
  CHECK(TfLiteModelCreateFromFile(MODELS "this_file_does_not_exist.tflite") == NULL);

  /* A directory is not a model either. */
  ResetCapturedErrors(&rep);
  model = TfLiteModelCreateFromFileWithErrorReporter(MODELS, CaptureError, &rep);
  CHECK(model == NULL);
  TfLiteModelDelete(model);

  /* Garbage bytes, an empty buffer, a truncated model. */
  unsigned char garbage[256];
  for (size_t i = 0; i < sizeof(garbage); ++i) garbage[i] = (unsigned char)(i * 37u + 11u);
  ResetCapturedErrors(&rep);
  model = TfLiteModelCreateWithErrorReporter(garbage, sizeof(garbage), CaptureError, &rep);
  CHECK(model == NULL);
  CHECK(rep.calls >= 1);
  TfLiteModelDelete(model);
  CHECK(TfLiteModelCreate(garbage, sizeof(garbage)) == NULL);
  CHECK(TfLiteModelCreate(garbage, 0) == NULL);

  size_t size = 0;
  unsigned char* good = (unsigned char*)ReadFile(MODELS "java_add.tflite", &size);
  REQUIRE(good != NULL);
  for (size_t cut = 0; cut < size; cut += 7) {
    model = TfLiteModelCreate(good, cut);
    if (model) {
      /* Accepting a prefix is only tolerable if it then fails cleanly. */
      TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
      if (interpreter) (void)TfLiteInterpreterAllocateTensors(interpreter);
      TfLiteInterpreterDelete(interpreter);
      TfLiteModelDelete(model);
    }
    CHECK(cut > 8 || model == NULL);
  }
  free(good);

  /* The manifest's known-bad files. */
  const char* bad[] = {"java_invalid_model.tflite", "tflite_test_model_broken.tflite",
                       "tflite_no_subgraphs.tflite"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char path[512];
    snprintf(path, sizeof(path), "%s%s", MODELS, bad[i]);
    model = TfLiteModelCreateFromFile(path);
    TfLiteInterpreter* interpreter = model ? TfLiteInterpreterCreate(model, NULL) : NULL;
    if (interpreter) {
      fprintf(stderr, "  %s: accepted by TfLiteInterpreterCreate\n", bad[i]);
    }
    CHECK(interpreter == NULL);
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
}

static void TestInvokeBeforeAllocate(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  CapturedErrors rep;
  ResetCapturedErrors(&rep);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  /* Upstream: kTfLiteError and exactly one report,
   * "Invoke called on model that is not ready." */
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteError);
  CHECK(rep.calls == 1);
  CHECK(strcmp(rep.text, "Invoke called on model that is not ready.\n") == 0);
  if (rep.calls != 1) fprintf(stderr, "  reporter got: %s\n", rep.text);
  /* ... and the interpreter still works once allocated. */
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  TfLiteInterpreterDelete(interpreter);
}

static void TestCancellation(void) {
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);

  /* Not enabled: Cancel reports an error, Invoke is unaffected. */
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterCancel(interpreter) == kTfLiteError);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  TfLiteInterpreterDelete(interpreter);

  /* Enabled: Cancel succeeds; it only affects in-flight invocations, so a
   * later Invoke runs normally (upstream resets the flag when Invoke starts). */
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  CHECK(TfLiteInterpreterOptionsEnableCancellation(options, true) == kTfLiteOk);
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterCancel(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterCancel(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterCancel(interpreter) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  TfLiteInterpreterDelete(interpreter);

  /* Enabling and disabling again leaves it disabled. */
  options = TfLiteInterpreterOptionsCreate();
  CHECK(TfLiteInterpreterOptionsEnableCancellation(options, true) == kTfLiteOk);
  CHECK(TfLiteInterpreterOptionsEnableCancellation(options, false) == kTfLiteOk);
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterCancel(interpreter) == kTfLiteError);
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
}

static void TestErrorReporterOnInterpreter(void) {
  /* A copy of the options carries the error reporter of the original, and the
   * interpreter keeps using it after both options objects are gone. */
  TfLiteModel* model = TfLiteModelCreateFromFile(MODELS "java_add.tflite");
  REQUIRE(model != NULL);
  CapturedErrors rep;
  ResetCapturedErrors(&rep);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &rep);
  TfLiteInterpreterOptions* copy = TfLiteInterpreterOptionsCopy(options);
  TfLiteInterpreterOptionsDelete(options);
  REQUIRE(copy != NULL);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, copy);
  TfLiteInterpreterOptionsDelete(copy);
  TfLiteModelDelete(model);
  REQUIRE(interpreter != NULL);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteError);
  CHECK(rep.calls >= 1);
  TfLiteInterpreterDelete(interpreter);
}

int main(void) {
  if (!FileExists(MODELS "java_add.tflite")) {
    printf("c_api_conformance_test: skipped: %s not found\n", MODELS "java_add.tflite");
    return 77;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  struct {
    const char* name;
    void (*fn)(void);
  } tests[] = {
      {"Version", TestVersion},
      {"Options", TestOptions},
      {"CreateFromFile", TestCreateFromFile},
      {"CreateFromBuffer", TestCreateFromBuffer},
      {"Resize", TestResize},
      {"Signatures", TestSignatures},
      {"DefaultSignatureRunner", TestDefaultSignatureRunner},
      {"CopyErrors", TestCopyErrors},
      {"OutOfRangeIndices", TestOutOfRangeIndices},
      {"NullArguments", TestNullArguments},
      {"BadModels", TestBadModels},
      {"InvokeBeforeAllocate", TestInvokeBeforeAllocate},
      {"Cancellation", TestCancellation},
      {"ErrorReporterOnInterpreter", TestErrorReporterOnInterpreter},
  };
  int failed_tests = 0;
  size_t n = sizeof(tests) / sizeof(tests[0]);
  for (size_t i = 0; i < n; ++i) {
    int before = g_failures;
    printf("[ RUN  ] %s\n", tests[i].name);
    tests[i].fn();
    int ok = g_failures == before;
    failed_tests += !ok;
    printf("[ %s ] %s\n", ok ? " OK " : "FAIL", tests[i].name);
  }
  printf("%d checks, %d failed; %d passed, %d failed\n", g_checks, g_failures,
         (int)n - failed_tests, failed_tests);
  return g_failures == 0 ? 0 : 1;
}

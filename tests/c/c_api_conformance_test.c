/* Black-box conformance test of the public C API (tensorflow/lite/c/c_api.h),
 * written in plain C99 against upstream TensorFlow Lite 2.19's documented
 * contract, on real models from shared/models:
 *   java_add.tflite                     y = 3x, input [1,8,8,3] float32
 *   java_add_unknown_dimensions.tflite  y = 2x, resizable input
 *   tflite_multi_signatures.tflite      signatures "add" (x+2) and "sub" (x-3)
 * The working paths: version, options, models from file and buffer, resizing,
 * signatures. The error paths are in c_api_error_paths_test.c.
 * Exit status: 0 pass, 1 fail, 77 skip (shared model folder absent). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "c_check.h"
#include "c_model_tests.h"

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

int main(void) {
  static const ModelTest tests[] = {
      {"Version", TestVersion},
      {"Options", TestOptions},
      {"CreateFromFile", TestCreateFromFile},
      {"CreateFromBuffer", TestCreateFromBuffer},
      {"Resize", TestResize},
      {"Signatures", TestSignatures},
      {"DefaultSignatureRunner", TestDefaultSignatureRunner},
  };
  return RunModelTests("c_api_conformance_test", MODELS "java_add.tflite", tests,
                       sizeof(tests) / sizeof(tests[0]));
}

/* Black-box conformance test of the public C API's error paths
 * (tensorflow/lite/c/c_api.h), written in plain C99 against upstream
 * TensorFlow Lite 2.19's documented contract, on real models from
 * shared/models: copy errors, out-of-range indices, NULL arguments, bad
 * models, Invoke before AllocateTensors, cancellation and the interpreter's
 * error reporter. The working paths are in c_api_conformance_test.c.
 * Exit status: 0 pass, 1 fail, 77 skip (shared model folder absent). */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "c_check.h"
#include "c_model_tests.h"

/* ---- tests -------------------------------------------------------------------------- */

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
  static const ModelTest tests[] = {
      {"CopyErrors", TestCopyErrors},
      {"OutOfRangeIndices", TestOutOfRangeIndices},
      {"NullArguments", TestNullArguments},
      {"BadModels", TestBadModels},
      {"InvokeBeforeAllocate", TestInvokeBeforeAllocate},
      {"Cancellation", TestCancellation},
      {"ErrorReporterOnInterpreter", TestErrorReporterOnInterpreter},
  };
  return RunModelTests("c_api_error_paths_test", MODELS "java_add.tflite", tests,
                       sizeof(tests) / sizeof(tests[0]));
}

/* The last-error and buffer-copy extensions of tflite_c_experimental.h, from
 * plain C99 with no error reporter installed:
 *   TfLiteGetLastCreateError      why the last create on this thread failed
 *   TfLiteInterpreterGetLastError the interpreter's last call's messages
 *   TfLiteModelCreateCopy         the caller's buffer may go right away
 * Uses shared/models/files/java_add.tflite (y = 3x, [1,8,8,3] float32).
 * Exit status: 0 pass, 1 fail, 77 skip (shared model folder absent). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif
#define JAVA_ADD TFLITE_C_SHARED_DIR "/models/files/java_add.tflite"

#include "c_check.h"

static void* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  void* data;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  data = malloc((size_t)n);
  if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

static void TestCreateErrors(void) {
  static const char garbage[40] = "not a flatbuffer, not even close to one";
  CHECK(TfLiteModelCreate(garbage, sizeof(garbage)) == NULL);
  CHECK(strlen(TfLiteGetLastCreateError()) > 0);
  CHECK(TfLiteModelCreateFromFile("/no/such/model.tflite") == NULL);
  CHECK(strstr(TfLiteGetLastCreateError(), "/no/such/model.tflite") != NULL);
  CHECK(TfLiteInterpreterCreate(NULL, NULL) == NULL);
  CHECK(strcmp(TfLiteGetLastCreateError(), "TfLiteInterpreterCreate: model is NULL") == 0);
}

static void TestCopyAndLastError(void) {
  size_t size = 0;
  void* bytes = ReadFile(JAVA_ADD, &size);
  TfLiteModel* model;
  TfLiteInterpreterOptions* options;
  TfLiteInterpreter* interpreter;
  float input[1 * 8 * 8 * 3];
  const float* output;
  int i;

  CHECK(bytes != NULL);
  if (bytes == NULL) return;
  model = TfLiteModelCreateCopy(bytes, size);
  memset(bytes, 0x5a, size); /* the model must not look at these any more */
  free(bytes);
  CHECK(model != NULL);
  CHECK(strcmp(TfLiteGetLastCreateError(), "") == 0);
  if (model == NULL) return;

  /* A NULL delegate in the options fails creation, as upstream. */
  options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsAddDelegate(options, NULL);
  CHECK(TfLiteInterpreterCreate(model, options) == NULL);
  CHECK(strcmp(TfLiteGetLastCreateError(), "Null delegate.") == 0);
  TfLiteInterpreterOptionsDelete(options);

  interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model); /* the interpreter keeps the copy alive */
  CHECK(interpreter != NULL);
  if (interpreter == NULL) return;
  CHECK(strcmp(TfLiteInterpreterGetLastError(interpreter), "") == 0);
  CHECK(TfLiteInterpreterGetInputTensor(interpreter, 3) == NULL);
  CHECK(strstr(TfLiteInterpreterGetLastError(interpreter), "input index 3 out of range") != NULL);
  CHECK(TfLiteInterpreterGetLastError(NULL) == NULL);

  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  for (i = 0; i < 8 * 8 * 3; ++i) input[i] = (float)i;
  CHECK(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), input,
                                   sizeof(input)) == kTfLiteOk);
  CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
  output = (const float*)TfLiteTensorData(TfLiteInterpreterGetOutputTensor(interpreter, 0));
  CHECK(output != NULL);
  if (output != NULL) {
    CHECK(output[0] == 0.0f);
    CHECK(output[5] == 15.0f);
    CHECK(output[191] == 573.0f);
  }
  TfLiteInterpreterDelete(interpreter);
}

int main(void) {
  FILE* f = fopen(JAVA_ADD, "rb");
  if (f == NULL) {
    printf("SKIP: %s not found (shared models absent)\n", JAVA_ADD);
    return 77;
  }
  fclose(f);
  TestCreateErrors();
  TestCopyAndLastError();
  if (g_failures != 0) {
    fprintf(stderr, "c_api_last_error_test: %d check(s) failed\n", g_failures);
    return 1;
  }
  printf("c_api_last_error_test: OK\n");
  return 0;
}

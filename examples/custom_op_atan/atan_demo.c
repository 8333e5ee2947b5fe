/* Runs a model that contains the ATAN custom op and checks every output
 * element against atanf():
 *
 *   atan_demo MODEL.tflite
 *
 * The model's first input and first output are float32 of any shape. The
 * model runs twice: with its own input shape, then with the input resized to
 * [7], which exercises the op's Prepare (the output follows the input).
 * Exit status 0 when every element matches. */
#include <math.h>
#include <stdio.h>

#include "atan_op.h"
#include "tensorflow/lite/c/c_api.h"

static int RunOnce(TfLiteInterpreter* interpreter) {
  TfLiteTensor* input;
  const TfLiteTensor* output;
  size_t n, i;
  float* x;
  const float* y;
  int bad = 0;

  if (TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) return 1;
  input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  x = (float*)TfLiteTensorData(input);
  n = TfLiteTensorByteSize(input) / sizeof(float);
  for (i = 0; i < n; ++i) x[i] = -10.0f + 20.0f * (float)i / (float)(n > 1 ? n - 1 : 1);
  if (TfLiteInterpreterInvoke(interpreter) != kTfLiteOk) return 1;

  output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  y = (const float*)TfLiteTensorData(output);
  if (TfLiteTensorByteSize(output) != n * sizeof(float)) {
    fprintf(stderr, "output has %zu bytes, expected %zu\n", TfLiteTensorByteSize(output),
            n * sizeof(float));
    return 1;
  }
  for (i = 0; i < n; ++i) {
    if (fabsf(y[i] - atanf(x[i])) > 1e-6f) {
      fprintf(stderr, "element %zu: atan(%g) = %g, got %g\n", i, x[i], atanf(x[i]), y[i]);
      ++bad;
    }
  }
  printf("ATAN on %zu elements: %s\n", n, bad ? "MISMATCH" : "ok");
  return bad != 0;
}

int main(int argc, char** argv) {
  TfLiteModel* model;
  TfLiteInterpreterOptions* options;
  TfLiteInterpreter* interpreter;
  const int new_shape[1] = {7};
  int status;

  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.tflite\n", argv[0]);
    return 2;
  }
  model = TfLiteModelCreateFromFile(argv[1]);
  if (model == NULL) return 1;

  options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsAddRegistrationExternal(options, AtanOpRegistrationExternal());
  interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options); /* the interpreter keeps what it needs */
  if (interpreter == NULL) {
    TfLiteModelDelete(model);
    return 1;
  }

  status = RunOnce(interpreter);
  if (status == 0) {
    status = TfLiteInterpreterResizeInputTensor(interpreter, 0, new_shape, 1) != kTfLiteOk ||
             RunOnce(interpreter);
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
  return status;
}

/* A minimal application built against an INSTALLED tflite-c (see
 * run_install_test.sh). It must compile as plain C99 with nothing but the
 * installed headers, link by name, and run.
 * With a model path argument it also loads, allocates and runs that model. */
#include <stdio.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"

int main(int argc, char** argv) {
  const char* version = TfLiteVersion();
  if (version == NULL || version[0] == '\0') {
    fprintf(stderr, "consumer: empty TfLiteVersion()\n");
    return 1;
  }
  printf("consumer: TfLiteVersion() = %s\n", version);

  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (options == NULL) {
    fprintf(stderr, "consumer: TfLiteInterpreterOptionsCreate returned NULL\n");
    return 1;
  }
  TfLiteInterpreterOptionsSetNumThreads(options, 1);

  int rc = 0;
  if (argc > 1) {
    TfLiteModel* model = TfLiteModelCreateFromFile(argv[1]);
    TfLiteInterpreter* interpreter = model ? TfLiteInterpreterCreate(model, options) : NULL;
    if (interpreter == NULL ||
        TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk ||
        TfLiteInterpreterInvoke(interpreter) != kTfLiteOk) {
      fprintf(stderr, "consumer: running %s failed\n", argv[1]);
      rc = 1;
    } else {
      printf("consumer: ran %s (%d inputs, %d outputs)\n", argv[1],
             (int)TfLiteInterpreterGetInputTensorCount(interpreter),
             (int)TfLiteInterpreterGetOutputTensorCount(interpreter));
    }
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  TfLiteInterpreterOptionsDelete(options);
  return rc;
}

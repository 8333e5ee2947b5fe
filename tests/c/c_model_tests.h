/* Shared by the plain-C conformance tests on the shared models
 * (c_api_conformance_test.c, c_api_error_paths_test.c): where the models and
 * golden files are, reading a file, and the main loop that runs the named
 * test functions, prints one line per test and maps the result to the exit
 * status (0 pass, 1 fail, 77 skip when the shared model folder is absent).
 * Include after c_check.h. */
#ifndef TFLITE_C_TESTS_C_C_MODEL_TESTS_H_
#define TFLITE_C_TESTS_C_C_MODEL_TESTS_H_

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "c_check.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif
#define MODELS TFLITE_C_SHARED_DIR "/models/files/"
#define GOLDEN TFLITE_C_SHARED_DIR "/models/golden/"

/* ---- file helpers ------------------------------------------------------------------ */
static inline void* ReadFile(const char* path, size_t* size) {
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

static inline bool FileExists(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}


typedef struct {
  const char* name;
  void (*fn)(void);
} ModelTest;

/* Runs `tests` in order; `program` names the executable in the skip message,
 * `required` is the model whose absence skips the whole program. */
static inline int RunModelTests(const char* program, const char* required, const ModelTest* tests,
                                size_t n) {
  if (!FileExists(required)) {
    printf("%s: skipped: %s not found\n", program, required);
    return 77;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  int failed_tests = 0;
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

#endif /* TFLITE_C_TESTS_C_C_MODEL_TESTS_H_ */

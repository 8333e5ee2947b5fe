/* The plain-C tests' one assertion: CHECK(cond) prints the failed condition
   with its place and counts it in g_failures; main returns non-zero when any
   failed. Each test is a single translation unit, so the counter is static. */
#ifndef TFLITE_C_TESTS_C_C_CHECK_H_
#define TFLITE_C_TESTS_C_C_CHECK_H_

#include <stdio.h>

static int g_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

#endif /* TFLITE_C_TESTS_C_C_CHECK_H_ */

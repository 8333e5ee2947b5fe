/* The plain-C tests' shared helpers.
   CHECK(cond) prints the failed condition with its place and counts it in
   g_failures (and every check in g_checks); REQUIRE(cond) also returns from
   the current (void) function. main returns non-zero when any failed. Each
   test is a single translation unit, so the counters are static.
   CaptureError is the error-reporter callback: it counts the messages and
   keeps their text, one per line, in the CapturedErrors passed as user_data. */
#ifndef TFLITE_C_TESTS_C_C_CHECK_H_
#define TFLITE_C_TESTS_C_C_CHECK_H_

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int g_failures;
static int g_checks;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++g_checks;                                                                \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)
#define REQUIRE(cond)                                                            \
  do {                                                                           \
    ++g_checks;                                                                  \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                              \
      return;                                                                    \
    }                                                                            \
  } while (0)

typedef struct {
  int calls;
  char text[2048]; /* as much of the messages as fits */
} CapturedErrors;

static inline void CaptureError(void* user_data, const char* format, va_list args) {
  CapturedErrors* e = (CapturedErrors*)user_data;
  size_t len = strlen(e->text);
  ++e->calls;
  if (len + 2 < sizeof(e->text)) {
    vsnprintf(e->text + len, sizeof(e->text) - len - 1, format, args);
    len = strlen(e->text);
    e->text[len] = '\n';
    e->text[len + 1] = '\0';
  }
}

static inline void ResetCapturedErrors(CapturedErrors* e) { memset(e, 0, sizeof(*e)); }

#endif /* TFLITE_C_TESTS_C_C_CHECK_H_ */

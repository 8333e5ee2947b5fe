// An ErrorReporter that keeps every message, for tests that check what the
// library said.
#ifndef TFLITE_C_TESTS_UTIL_CAPTURING_REPORTER_H_
#define TFLITE_C_TESTS_UTIL_CAPTURING_REPORTER_H_

#include <cstdarg>
#include <cstdio>
#include <string>

#include "src/core/error_reporter.h"

namespace tflite_c {

class CapturingReporter : public ErrorReporter {
 public:
  void Report(const char* format, va_list args) override {
    char buf[1024];
    vsnprintf(buf, sizeof(buf), format, args);
    text += buf;
    text += "\n";
  }
  std::string text;
};

}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_CAPTURING_REPORTER_H_

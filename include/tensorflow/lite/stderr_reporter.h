// tflite::StderrReporter and DefaultErrorReporter() (libtflite_cc).
#ifndef TENSORFLOW_LITE_STDERR_REPORTER_H_
#define TENSORFLOW_LITE_STDERR_REPORTER_H_

#include <cstdarg>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace tflite {

// Writes every report to stderr, followed by a newline.
class TFLITE_CC_EXPORT StderrReporter : public ErrorReporter {
 public:
  int Report(const char* format, va_list args) override;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_STDERR_REPORTER_H_

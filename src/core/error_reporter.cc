#include "src/core/error_reporter.h"

#include <cstdio>
#include <cstring>

namespace tflite_c {

void ErrorReporter::Reportf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  Report(format, args);
  va_end(args);
}

namespace {
class StderrReporter : public ErrorReporter {
 public:
  void Report(const char* format, va_list args) override {
    std::vfprintf(stderr, format, args);
    std::fputc('\n', stderr);
  }
};
}  // namespace

ErrorReporter* DefaultErrorReporter() {
  static StderrReporter reporter;
  return &reporter;
}

void RecordingErrorReporter::Report(const char* format, va_list args) {
  size_t used = 0;
  if (new_call_) {
    new_call_ = false;
  } else {
    used = std::strlen(last_);
    if (used > 0 && used + 1 < sizeof(last_)) last_[used++] = '\n';
  }
  if (used + 1 < sizeof(last_)) {
    va_list copy;
    va_copy(copy, args);
    std::vsnprintf(last_ + used, sizeof(last_) - used, format, copy);
    va_end(copy);
  }
  if (has_callback_) {
    forward_.Report(format, args);
  } else {
    DefaultErrorReporter()->Report(format, args);
  }
}

void CallbackErrorReporter::Report(const char* format, va_list args) {
  if (cb_ != nullptr) cb_(user_data_, format, args);
}

}  // namespace tflite_c

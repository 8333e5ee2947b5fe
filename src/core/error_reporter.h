// Internal error reporting. Every failure path in the library reports a
// human-readable message through one of these before returning an error.
#ifndef TFLITE_C_SRC_CORE_ERROR_REPORTER_H_
#define TFLITE_C_SRC_CORE_ERROR_REPORTER_H_

#include <cstdarg>

namespace tflite_c {

class ErrorReporter {
 public:
  virtual ~ErrorReporter() = default;
  virtual void Report(const char* format, va_list args) = 0;

  // printf-style convenience wrapper.
  void Reportf(const char* format, ...)
#if defined(__GNUC__)
      __attribute__((format(printf, 2, 3)))
#endif
      ;
};

// Writes to stderr. Used when the caller installs no reporter (upstream's
// default behaviour is also to print to stderr).
ErrorReporter* DefaultErrorReporter();

// Forwards to a C callback `void (*)(void* user_data, const char* fmt, va_list)`
// as used by TfLiteInterpreterOptionsSetErrorReporter and
// TfLiteModelCreateWithErrorReporter.
class CallbackErrorReporter : public ErrorReporter {
 public:
  using Callback = void (*)(void* user_data, const char* format, va_list args);
  CallbackErrorReporter(Callback cb, void* user_data) : cb_(cb), user_data_(user_data) {}
  void Report(const char* format, va_list args) override;

 private:
  Callback cb_;
  void* user_data_;
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_ERROR_REPORTER_H_

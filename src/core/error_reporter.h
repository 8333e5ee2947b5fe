// Internal error reporting. Every failure path in the library reports a
// human-readable message through one of these before returning an error.
#ifndef TFLITE_C_SRC_CORE_ERROR_REPORTER_H_
#define TFLITE_C_SRC_CORE_ERROR_REPORTER_H_

#include <cstdarg>
#include <cstddef>

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

// The reporter of the C API's handles: forwards each message to a C
// callback (or, when none is installed, to DefaultErrorReporter()) and keeps
// the messages of the last call that reported anything, joined by newlines
// and truncated to kMaxMessage - 1 bytes, for TfLiteInterpreterGetLastError /
// TfLiteGetLastCreateError. BeginCall() marks the start of a C API call: the
// next message replaces what is kept instead of being appended. Reporting
// never allocates.
class RecordingErrorReporter : public ErrorReporter {
 public:
  static constexpr size_t kMaxMessage = 1024;
  RecordingErrorReporter(CallbackErrorReporter::Callback cb, void* user_data)
      : forward_(cb, user_data), has_callback_(cb != nullptr) {}
  void Report(const char* format, va_list args) override;
  void BeginCall() { new_call_ = true; }
  // "" until something is reported.
  const char* last() const { return last_; }

 private:
  CallbackErrorReporter forward_;
  bool has_callback_;
  bool new_call_ = true;
  char last_[kMaxMessage] = "";
};

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_ERROR_REPORTER_H_

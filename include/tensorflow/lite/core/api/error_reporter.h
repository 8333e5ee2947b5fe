// tflite::ErrorReporter: where the C++ API sends human-readable errors.
//
// Part of tflite-c's C++ layer (libtflite_cc). Source compatible with
// TensorFlow Lite 2.19's class of the same name; not ABI compatible.
#ifndef TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_
#define TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_

#include <cstdarg>

// Marks the classes and functions libtflite_cc.so exports.
#ifndef TFLITE_CC_EXPORT
#if defined(__GNUC__)
#define TFLITE_CC_EXPORT __attribute__((visibility("default")))
#else
#define TFLITE_CC_EXPORT
#endif
#endif

namespace tflite {

// Subclass and implement Report(format, args) to route messages elsewhere
// (a log, a test buffer). The return value is ignored by the library.
class TFLITE_CC_EXPORT ErrorReporter {
 public:
  virtual ~ErrorReporter() = default;
  virtual int Report(const char* format, va_list args) = 0;
  // printf-style helpers over Report(format, va_list).
  int Report(const char* format, ...);
  // `unused` exists for source compatibility with older callers.
  int ReportError(void* unused, const char* format, ...);
};

// The process-wide reporter that writes to stderr.
TFLITE_CC_EXPORT ErrorReporter* DefaultErrorReporter();

}  // namespace tflite

// Reports through `reporter` (an ErrorReporter*), if it is not null.
#ifndef TF_LITE_STRIP_ERROR_STRINGS
#define TF_LITE_REPORT_ERROR(reporter, ...)                                  \
  do {                                                                       \
    if ((reporter) != nullptr) {                                             \
      static_cast<::tflite::ErrorReporter*>(reporter)->Report(__VA_ARGS__); \
    }                                                                        \
  } while (false)
#else
#define TF_LITE_REPORT_ERROR(reporter, ...) \
  do {                                      \
    (void)(reporter);                       \
  } while (false)
#endif

#endif  // TENSORFLOW_LITE_CORE_API_ERROR_REPORTER_H_

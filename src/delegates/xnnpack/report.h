// Internal to the XNNPACK delegate: the one way it reports a problem.
//
//   return Report(context, "cannot reshape input tensor %d", t);
//
// prints "XNNPACK delegate: cannot reshape input tensor 7" through the
// context's error reporter, or to stderr when there is no context (creating
// the delegate, the weight cache file). Report returns kTfLiteError, so a
// failing step reports and returns in one statement; warnings ignore it.
// OpBuilder::Fail is Report with the node's number, and silent while the
// builder only checks whether a node is supported.
#ifndef TFLITE_C_SRC_DELEGATES_XNNPACK_REPORT_H_
#define TFLITE_C_SRC_DELEGATES_XNNPACK_REPORT_H_

#include <cstdarg>
#include <cstdio>
#include <string>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace xnnpack {

// printf into a string (no length limit: paths can be long).
inline std::string FormatMessage(const char* format, va_list args) {
  va_list measure;
  va_copy(measure, args);
  const int n = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (n <= 0) return std::string();
  std::string text(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(&text[0], text.size(), format, args);
  text.resize(static_cast<size_t>(n));
  return text;
}

inline TfLiteStatus Report(TfLiteContext* context, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

inline TfLiteStatus Report(TfLiteContext* context, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = FormatMessage(format, args);
  va_end(args);
  if (context != nullptr && context->ReportError != nullptr) {
    context->ReportError(context, "XNNPACK delegate: %s", text.c_str());
  } else {
    std::fprintf(stderr, "XNNPACK delegate: %s\n", text.c_str());
  }
  return kTfLiteError;
}

}  // namespace xnnpack
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_DELEGATES_XNNPACK_REPORT_H_

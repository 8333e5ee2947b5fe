#include "src/core/exception_guard.h"

#include <cstdio>
#include <exception>
#include <new>

namespace tflite_c {

const char* DescribeCurrentException(char* buffer, size_t size) noexcept {
  if (size == 0) return buffer;
  buffer[0] = '\0';
  const char* text = "unknown exception";
  try {
    throw;
  } catch (const std::bad_alloc&) {
    text = "out of memory";
  } catch (const std::exception& e) {
    text = e.what() != nullptr ? e.what() : "std::exception";
  } catch (...) {
  }
  std::snprintf(buffer, size, "%s", text);
  return buffer;
}

void ReportCurrentException(ErrorReporter* reporter, const char* where) noexcept {
  char text[256];
  DescribeCurrentException(text, sizeof(text));
  if (reporter == nullptr) reporter = DefaultErrorReporter();
  try {
    reporter->Reportf("%s: %s", where != nullptr ? where : "tflite-c", text);
  } catch (...) {
    // A reporter that throws has nowhere else to go.
  }
}

}  // namespace tflite_c

#include "src/core/exception_guard.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

namespace tflite_c {

const char* DescribeCurrentException(char* buffer, size_t size) noexcept {
  if (size == 0) return buffer;
  buffer[0] = '\0';
  const char* text = "unknown exception";
  const char* detail = nullptr;
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    // A subclass may say more (e.g. which allocation limit was exceeded).
    text = "out of memory";
    const char* what = e.what();
    const std::bad_alloc plain;
    if (what != nullptr && what[0] != '\0' && std::strcmp(what, plain.what()) != 0) {
      detail = what;
    }
  } catch (const std::exception& e) {
    text = e.what() != nullptr ? e.what() : "std::exception";
  } catch (...) {
  }
  if (detail != nullptr) {
    std::snprintf(buffer, size, "%s (%s)", text, detail);
  } else {
    std::snprintf(buffer, size, "%s", text);
  }
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

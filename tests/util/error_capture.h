// The tests' one error-reporter callback for the C API
// (TfLiteInterpreterOptionsSetErrorReporter, TfLiteModelCreateWithErrorReporter):
// appends each message and a newline to the std::string passed as user_data.
//
//   std::string log;
//   TfLiteInterpreterOptionsSetErrorReporter(options, testing::CaptureError, &log);
//
// Plain-C tests use CaptureError in tests/c/c_check.h.
// RefusedAsTooBig reads such a log for a tensor refused for its size.
#ifndef TFLITE_C_TESTS_UTIL_ERROR_CAPTURE_H_
#define TFLITE_C_TESTS_UTIL_ERROR_CAPTURE_H_

#include <cstdarg>
#include <string>

namespace tflite_c {
namespace testing {

void CaptureError(void* user_data, const char* format, va_list args);

// Whether `log` refuses a tensor as too big: it contains `limit_text` (e.g.
// "more than the allocation limit"), or, on 32-bit targets, where a tensor of
// 4 GiB or more cannot even be sized, the shape check's "byte size overflow".
inline bool RefusedAsTooBig(const std::string& log, const char* limit_text) {
  if (log.find(limit_text) != std::string::npos) return true;
  return sizeof(size_t) < 8 && log.find("byte size overflow") != std::string::npos;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_ERROR_CAPTURE_H_

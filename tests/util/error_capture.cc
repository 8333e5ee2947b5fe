#include "tests/util/error_capture.h"

#include <cstdio>
#include <string>

namespace tflite_c {
namespace testing {

void CaptureError(void* user_data, const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  char small[1024];
  const int n = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (n < 0) return;
  auto* log = static_cast<std::string*>(user_data);
  if (static_cast<size_t>(n) < sizeof small) {
    *log += small;
  } else {  // a long message: format it again at its full length
    std::string big(static_cast<size_t>(n) + 1, '\0');
    std::vsnprintf(&big[0], big.size(), format, args);
    big.resize(static_cast<size_t>(n));
    *log += big;
  }
  *log += "\n";
}

}  // namespace testing
}  // namespace tflite_c

// The one place where C++ exceptions stop. Nothing may cross the C ABI
// (a C caller cannot catch, and an exception unwinding through C frames
// aborts the process), so:
//   * every exported C function that can throw runs its body through GuardC,
//     which turns any exception into an error message and a fallback return
//     value: those that allocate (std containers, strings, operator new) or
//     run kernels and delegates. Entry points that only read or write fields,
//     compare, or use malloc / new (std::nothrow) cannot throw and are left
//     bare (the accessors of c_api_opaque.cc, c_api_tensor.cc, operator.cc,
//     registration_external.cc, common.cc);
//   * the TfLiteContext callbacks that allocate (subgraph_context.cc) are C
//     entry points too, and guarded the same way;
//   * every call from our code into a callback that may throw (kernel
//     init/free/prepare/invoke, TfLiteOperator callbacks, delegate Prepare,
//     CopyFromBufferHandle, FreeBufferHandle) goes through GuardC
//     (src/core/subgraph_invoke.cc, subgraph_delegation.cc, subgraph.cc).
// Code between a guard and the throw must be exception-safe (RAII owners),
// so that nothing leaks: tests/c_api/alloc_failure_test.cc checks it.
// std::bad_alloc is reported as "out of memory" (followed by its what() in
// parentheses when a subclass overrides it, e.g. to name an allocation limit),
// any other std::exception by its what(), anything else as "unknown exception".
#ifndef TFLITE_C_SRC_CORE_EXCEPTION_GUARD_H_
#define TFLITE_C_SRC_CORE_EXCEPTION_GUARD_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "src/core/error_reporter.h"

namespace tflite_c {

// Must be called inside a catch block. Writes a short description of the
// exception being handled ("out of memory", what(), "unknown exception") to
// `buffer` (always terminated) and returns it. Never throws.
const char* DescribeCurrentException(char* buffer, size_t size) noexcept;

// Must be called inside a catch block. Reports "<where>: <description>"
// through `reporter` (the default reporter when null). Never throws.
void ReportCurrentException(ErrorReporter* reporter, const char* where) noexcept;

// `where` names the failing call in the message: a string, or, when building
// it costs something, a callable `const char* (char* buffer, size_t size)`
// that GuardC only calls once an exception was caught.
template <typename Where>
const char* WhereText(Where&& where, char* buffer, size_t size) noexcept {
  if constexpr (std::is_invocable_v<Where, char*, size_t>) {
    try {
      return where(buffer, size);
    } catch (...) {
      return "tflite-c";
    }
  } else {
    return where;
  }
}

// Runs `body` and returns its result; if it throws, reports the exception
// (ReportCurrentException) and returns `fallback` instead.
template <typename R, typename Where, typename Body>
R GuardC(ErrorReporter* reporter, Where&& where, R fallback, Body&& body) noexcept {
  try {
    return std::forward<Body>(body)();
  } catch (...) {
    char buffer[160];
    ReportCurrentException(reporter, WhereText(where, buffer, sizeof(buffer)));
    return fallback;
  }
}

// The same for a body returning nothing.
template <typename Where, typename Body>
void GuardC(ErrorReporter* reporter, Where&& where, Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
  } catch (...) {
    char buffer[160];
    ReportCurrentException(reporter, WhereText(where, buffer, sizeof(buffer)));
  }
}

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_EXCEPTION_GUARD_H_

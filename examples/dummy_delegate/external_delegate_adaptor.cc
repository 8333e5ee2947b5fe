// The dummy delegate as an external delegate library: load it with
// TfLiteExternalDelegateCreate (or a tool's --external_delegate_path) and
// pass options as strings, e.g. --external_delegate_options='error_during_invoke:true'.
//
// Keys: allowed_builtin_code (int), error_during_init, error_during_prepare,
// error_during_invoke (true/false/1/0), max_delegated_partitions,
// min_nodes_per_partition (int). An unknown key or a bad value fails
// creation with a message through report_error.
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "examples/dummy_delegate/dummy_delegate.h"
#include "tensorflow/lite/delegates/external/external_delegate_interface.h"

namespace {

void Report(void (*report_error)(const char*), const std::string& message) {
  if (report_error != nullptr) report_error(message.c_str());
}

bool ParseBool(const char* s, bool* out) {
  if (std::strcmp(s, "true") == 0 || std::strcmp(s, "1") == 0) {
    *out = true;
  } else if (std::strcmp(s, "false") == 0 || std::strcmp(s, "0") == 0) {
    *out = false;
  } else {
    return false;
  }
  return true;
}

bool ParseInt(const char* s, int* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < INT_MIN || v > INT_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

bool SetOption(DummyDelegateOptions* o, const char* key, const char* value, bool* known) {
  *known = true;
  if (std::strcmp(key, "allowed_builtin_code") == 0) return ParseInt(value, &o->allowed_builtin_code);
  if (std::strcmp(key, "error_during_init") == 0) return ParseBool(value, &o->error_during_init);
  if (std::strcmp(key, "error_during_prepare") == 0) return ParseBool(value, &o->error_during_prepare);
  if (std::strcmp(key, "error_during_invoke") == 0) return ParseBool(value, &o->error_during_invoke);
  if (std::strcmp(key, "max_delegated_partitions") == 0) {
    return ParseInt(value, &o->max_delegated_partitions);
  }
  if (std::strcmp(key, "min_nodes_per_partition") == 0) {
    return ParseInt(value, &o->min_nodes_per_partition);
  }
  *known = false;
  return false;
}

}  // namespace

extern "C" {

TFL_EXTERNAL_DELEGATE_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(
    const char* const* options_keys, const char* const* options_values, size_t num_options,
    void (*report_error)(const char*)) {
  DummyDelegateOptions options = TfLiteDummyDelegateOptionsDefault();
  for (size_t i = 0; i < num_options; ++i) {
    const char* key = options_keys[i];
    const char* value = options_values[i];
    if (key == nullptr || value == nullptr) {
      Report(report_error, "dummy delegate: option " + std::to_string(i) + " is NULL");
      return nullptr;
    }
    bool known = false;
    if (!SetOption(&options, key, value, &known)) {
      Report(report_error, known ? "dummy delegate: invalid value '" + std::string(value) +
                                       "' for option '" + key + "'"
                                 : "dummy delegate: unknown option '" + std::string(key) + "'");
      return nullptr;
    }
  }
  return TfLiteDummyDelegateCreate(&options);
}

TFL_EXTERNAL_DELEGATE_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) {
  TfLiteDummyDelegateDelete(delegate);
}

}  // extern "C"

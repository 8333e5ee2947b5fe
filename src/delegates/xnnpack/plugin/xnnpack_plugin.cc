// The XNNPACK delegate as an external delegate library
// (libtflite_c_xnnpack_delegate.so): load it with TfLiteExternalDelegateCreate
// or a tool's --external_delegate_path, and pass options as strings, e.g.
//   --external_delegate_options='num_threads:2;force_fp16:true'
//
// Keys (each also accepted with an "xnnpack_" prefix, as the benchmark
// tool's --xnnpack_* flags spell them):
//   num_threads                   int >= 0 (0 or 1: no thread pool)
//   force_fp16                    bool: TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16
//   qs8, qu8                      bool: quantized paths (default true)
//   dynamic_fully_connected, variable_operators, transient_indirection_buffer,
//   enable_latest_operators, enable_subgraph_reshaping,
//   slow_consistent_arithmetic, disable_subgraph_reshaping,
//   disable_dynamically_quantized_ops
//                                 bool: the flag of the same name
//   flags                         uint32 (decimal or 0x...): replaces all the
//                                 TFLITE_XNNPACK_DELEGATE_FLAG_* bits
//   runtime_flags                 uint32: XNN_FLAG_* bits for XNNPACK
//   weight_cache_file_path        path of the file-backed weight cache
//   weight_cache_lock_memory      bool
// Booleans are true/false/1/0. An unknown key or a bad value fails creation
// with a message through report_error.
//
// The library only uses the C API of libtflite_c (TfLiteXNNPackDelegate*).
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "tensorflow/lite/delegates/external/external_delegate_interface.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

namespace {

void Report(void (*report_error)(const char*), const std::string& message) {
  if (report_error != nullptr) report_error(("XNNPACK delegate: " + message).c_str());
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

bool ParseUnsigned(const char* s, unsigned long long max, unsigned long long* out) {
  if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (end == s || *end != '\0' || errno != 0 || v > max) return false;
  *out = v;
  return true;
}

struct FlagName {
  const char* key;
  uint32_t bit;
};

constexpr FlagName kFlagNames[] = {
    {"force_fp16", TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16},
    {"qs8", TFLITE_XNNPACK_DELEGATE_FLAG_QS8},
    {"qu8", TFLITE_XNNPACK_DELEGATE_FLAG_QU8},
    {"dynamic_fully_connected", TFLITE_XNNPACK_DELEGATE_FLAG_DYNAMIC_FULLY_CONNECTED},
    {"variable_operators", TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS},
    {"transient_indirection_buffer", TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER},
    {"enable_latest_operators", TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_LATEST_OPERATORS},
    {"enable_subgraph_reshaping", TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_SUBGRAPH_RESHAPING},
    {"slow_consistent_arithmetic", TFLITE_XNNPACK_DELEGATE_FLAG_SLOW_CONSISTENT_ARITHMETIC},
    {"disable_subgraph_reshaping", TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_SUBGRAPH_RESHAPING},
    {"disable_dynamically_quantized_ops",
     TFLITE_XNNPACK_DELEGATE_FLAG_DISABLE_DYNAMICALLY_QUANTIZED_OPS},
};

// Applies one option; `known` tells an unknown key from a bad value.
bool SetOption(TfLiteXNNPackDelegateOptions* o, std::string* path, const char* key,
               const char* value, bool* known) {
  *known = true;
  if (std::strncmp(key, "xnnpack_", 8) == 0) key += 8;
  unsigned long long n = 0;
  if (std::strcmp(key, "num_threads") == 0) {
    if (!ParseUnsigned(value, INT32_MAX, &n)) return false;
    o->num_threads = static_cast<int32_t>(n);
    return true;
  }
  if (std::strcmp(key, "flags") == 0) {
    if (!ParseUnsigned(value, UINT32_MAX, &n)) return false;
    o->flags = static_cast<uint32_t>(n);
    return true;
  }
  if (std::strcmp(key, "runtime_flags") == 0) {
    if (!ParseUnsigned(value, UINT32_MAX, &n)) return false;
    o->runtime_flags = static_cast<uint32_t>(n);
    return true;
  }
  if (std::strcmp(key, "weight_cache_file_path") == 0) {
    if (value[0] == '\0') return false;
    *path = value;
    return true;
  }
  if (std::strcmp(key, "weight_cache_lock_memory") == 0) {
    return ParseBool(value, &o->weight_cache_lock_memory);
  }
  for (const FlagName& f : kFlagNames) {
    if (std::strcmp(key, f.key) != 0) continue;
    bool on = false;
    if (!ParseBool(value, &on)) return false;
    o->flags = on ? (o->flags | f.bit) : (o->flags & ~f.bit);
    return true;
  }
  *known = false;
  return false;
}

}  // namespace

extern "C" {

TFL_EXTERNAL_DELEGATE_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(
    const char* const* options_keys, const char* const* options_values, size_t num_options,
    void (*report_error)(const char*)) {
  TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
  std::string path;  // the delegate copies it
  if (num_options > 0 && (options_keys == nullptr || options_values == nullptr)) {
    Report(report_error, "option arrays are NULL");
    return nullptr;
  }
  for (size_t i = 0; i < num_options; ++i) {
    const char* key = options_keys[i];
    const char* value = options_values[i];
    if (key == nullptr || value == nullptr) {
      Report(report_error, "option " + std::to_string(i) + " is NULL");
      return nullptr;
    }
    bool known = false;
    if (!SetOption(&options, &path, key, value, &known)) {
      Report(report_error, known ? "invalid value '" + std::string(value) + "' for option '" +
                                       key + "'"
                                 : "unknown option '" + std::string(key) + "'");
      return nullptr;
    }
  }
  if (!path.empty()) options.weight_cache_file_path = path.c_str();
  TfLiteDelegate* d = TfLiteXNNPackDelegateCreate(&options);
  if (d == nullptr) {
    Report(report_error, "cannot be created (not built into libtflite_c, or XNNPACK does not "
                         "support this CPU)");
  }
  return d;
}

TFL_EXTERNAL_DELEGATE_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) {
  TfLiteXNNPackDelegateDelete(delegate);
}

}  // extern "C"

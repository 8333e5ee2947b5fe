// Small helpers shared by inference_diff and model_inspector: splitting a
// flag value into items and turning --external_delegate_options
// ("key1:value1;key2:value2") into TfLiteExternalDelegateOptions.
// (benchmark_model keeps its own Split: it keeps empty items and only warns
// about malformed options, as upstream's tool does.)
#ifndef TFLITE_C_TOOLS_COMMON_TOOL_UTIL_H_
#define TFLITE_C_TOOLS_COMMON_TOOL_UTIL_H_

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/external/external_delegate.h"

namespace tflite_c_tools {

// Items of `s` separated by `delim`; empty items are dropped.
inline std::vector<std::string> SplitNonEmpty(const std::string& s, char delim) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, delim)) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// Adds each "key:value" item of the ';'-separated `spec` to `options`. The
// option strings are kept in `keys` and `values`, which must outlive
// TfLiteExternalDelegateCreate. On a malformed item or too many options,
// prints an ERROR line to stderr and returns false.
inline bool AddExternalDelegateOptions(const std::string& spec,
                                       TfLiteExternalDelegateOptions* options,
                                       std::vector<std::string>* keys,
                                       std::vector<std::string>* values) {
  const std::vector<std::string> items = SplitNonEmpty(spec, ';');
  // No reallocation below: options keeps pointers into these strings.
  keys->reserve(keys->size() + items.size());
  values->reserve(values->size() + items.size());
  for (const std::string& item : items) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos) {
      std::cerr << "ERROR: malformed external delegate option '" << item
                << "' (expected key:value)\n";
      return false;
    }
    keys->push_back(item.substr(0, colon));
    values->push_back(item.substr(colon + 1));
    if (options->insert(options, keys->back().c_str(), values->back().c_str()) != kTfLiteOk) {
      std::cerr << "ERROR: too many external delegate options\n";
      return false;
    }
  }
  return true;
}

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_TOOL_UTIL_H_

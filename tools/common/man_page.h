// --help of the C++ tools in man-page form: the tool's usual usage text
// ("usage: ..." lines, then a "...:" line and its flag list) split into
// SYNOPSIS and OPTIONS, framed by NAME, EXAMPLES and EXIT STATUS. The usage text itself is
// unchanged, so error paths that print it stay as they were.
#ifndef TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_
#define TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_

#include <algorithm>
#include <sstream>
#include <string>

namespace tflite_c_tools {

inline std::string ManPage(const std::string& name_line, const std::string& usage,
                           const std::string& examples, const std::string& exit_status) {
  // SYNOPSIS: the lines before the first one ending in ':' ("Flags:").
  size_t split = std::string::npos;
  for (size_t start = 0; start < usage.size();) {
    size_t eol = usage.find('\n', start);
    if (eol == std::string::npos) eol = usage.size();
    if (start > 0 && eol > start && usage[eol - 1] == ':') {
      split = start;
      break;
    }
    start = eol + 1;
  }
  if (split == std::string::npos) split = std::min(usage.size(), usage.find('\n') + 1);
  const std::string synopsis = usage.substr(0, split);
  const std::string options = usage.substr(split);
  std::ostringstream m;
  m << "NAME\n    " << name_line << "\n\nSYNOPSIS\n" << synopsis << "\nOPTIONS\n" << options
    << "\nEXAMPLES\n" << examples << "\nEXIT STATUS\n    " << exit_status << "\n";
  return m.str();
}

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_

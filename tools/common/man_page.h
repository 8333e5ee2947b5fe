// --help of the C++ tools in man-page form: the tool's usual usage text
// (first line "usage: ...", then its flag list) split into SYNOPSIS and
// OPTIONS, framed by NAME, EXAMPLES and EXIT STATUS. The usage text itself is
// unchanged, so error paths that print it stay as they were.
#ifndef TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_
#define TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_

#include <sstream>
#include <string>

namespace tflite_c_tools {

inline std::string ManPage(const std::string& name_line, const std::string& usage,
                           const std::string& examples, const std::string& exit_status) {
  const size_t eol = usage.find('\n');
  const std::string synopsis = eol == std::string::npos ? usage : usage.substr(0, eol + 1);
  const std::string options = eol == std::string::npos ? "" : usage.substr(eol + 1);
  std::ostringstream m;
  m << "NAME\n    " << name_line << "\n\nSYNOPSIS\n" << synopsis << "\nOPTIONS\n" << options
    << "\nEXAMPLES\n" << examples << "\nEXIT STATUS\n    " << exit_status << "\n";
  return m.str();
}

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_MAN_PAGE_H_

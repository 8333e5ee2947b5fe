// tflite_c_list_ops [-o FILE] MODEL.tflite...: the union of the operators the
// models need, one name per line, sorted (CONV_2D, CUSTOM:<name>, ...), to
// stdout or FILE. The same
// reader as "model_inspector --list_ops" (op_list.h), without the library:
// the selective build runs it before the library it configures exists.
// Exit status: 0 ok, 1 an unreadable or invalid model, 2 no model given.
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "model_inspector/op_list.h"

int main(int argc, char** argv) {
  int first = 1;
  const char* output = nullptr;
  if (argc > 2 && std::string(argv[1]) == "-o") {
    output = argv[2];
    first = 3;
  }
  if (first >= argc) {
    std::cerr << "usage: " << argv[0] << " [-o FILE] MODEL.tflite...\n";
    return 2;
  }
  std::set<std::string> names;
  for (int i = first; i < argc; ++i) {
    std::string error;
    if (!tflite_c_tools::AddModelOperatorNames(argv[i], &names, &error)) {
      std::cerr << "ERROR: " << error << "\n";
      return 1;
    }
  }
  std::ofstream file;
  if (output != nullptr) {
    file.open(output);
    if (!file) {
      std::cerr << "ERROR: cannot write " << output << "\n";
      return 1;
    }
  }
  std::ostream& out = output != nullptr ? file : std::cout;
  for (const std::string& name : names) out << name << "\n";
  out.flush();
  return out ? 0 : 1;
}

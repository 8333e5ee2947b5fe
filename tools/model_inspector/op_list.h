// The operators a .tflite model needs, by name: one reader shared by
// "model_inspector --list_ops" and tflite_c_list_ops, the helper the
// selective build (cmake/selective_build.cmake) runs on
// TFLITE_C_SELECTED_MODELS. Needs only the generated schema header.
//
// Names: builtin operators as the schema spells them (CONV_2D, ADD, ...),
// custom operators as CUSTOM:<custom_code>. Versions are not listed: a
// selected operator gets its kernel's whole version range.
#ifndef TFLITE_C_TOOLS_MODEL_INSPECTOR_OP_LIST_H_
#define TFLITE_C_TOOLS_MODEL_INSPECTOR_OP_LIST_H_

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "schema_generated.h"

namespace tflite_c_tools {

// The name of operator code `oc` in the form described above; codes outside
// the schema's enum give "UNKNOWN:<code>".
inline std::string OperatorCodeName(const tflite::OperatorCode* oc) {
  const int32_t code = std::max<int32_t>(oc->deprecated_builtin_code(), oc->builtin_code());
  if (code == tflite::BuiltinOperator_CUSTOM) {
    return "CUSTOM:" + (oc->custom_code() ? oc->custom_code()->str() : std::string());
  }
  if (code < tflite::BuiltinOperator_MIN || code > tflite::BuiltinOperator_MAX) {
    return "UNKNOWN:" + std::to_string(code);
  }
  const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
  return name != nullptr && *name != '\0' ? name : "UNKNOWN:" + std::to_string(code);
}

// Adds to `names` the operators used by the nodes of every subgraph of the
// model in `path`. False (and `error` set) when the file cannot be read or
// is not a valid TFLite flatbuffer.
inline bool AddModelOperatorNames(const std::string& path, std::set<std::string>* names,
                                  std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (bytes.empty() || !tflite::VerifyModelBuffer(verifier)) {
    *error = path + " is not a valid TFLite flatbuffer";
    return false;
  }
  const tflite::Model* model = tflite::GetModel(bytes.data());
  const auto* codes = model->operator_codes();
  const auto* subgraphs = model->subgraphs();
  for (uint32_t s = 0; subgraphs != nullptr && s < subgraphs->size(); ++s) {
    const auto* ops = subgraphs->Get(s)->operators();
    for (uint32_t o = 0; ops != nullptr && o < ops->size(); ++o) {
      const uint32_t index = ops->Get(o)->opcode_index();
      if (codes == nullptr || index >= codes->size()) {
        *error = path + ": an operator's code index is out of range";
        return false;
      }
      names->insert(OperatorCodeName(codes->Get(index)));
    }
  }
  return true;
}

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_MODEL_INSPECTOR_OP_LIST_H_

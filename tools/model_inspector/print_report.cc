// model_inspector's reports: plain text for people, JSON for scripts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model_inspector/inspection.h"

namespace tflite_c_inspector {
namespace {

// ---- a small JSON / text writer --------------------------------------------------

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

template <typename T, typename F>
std::string JsonArray(const std::vector<T>& items, F fn) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + fn(items[i]);
  return out + "]";
}

std::string IntList(const std::vector<int64_t>& v, const char* open = "[", const char* close = "]") {
  std::string out = open;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + close;
}

// "[0-3,7,9-12]": node lists in the text report.
std::string Ranges(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (i ? "," : "") + std::to_string(v[i]);
    if (j > i) out += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return out + "]";
}

std::string TensorText(const TensorInfo& t) {
  std::ostringstream s;
  s << "[" << t.index << "] " << (t.name.empty() ? "(unnamed)" : t.name) << "  " << t.type << " "
    << IntList(t.shape);
  if (!t.shape_signature.empty() && t.shape_signature != t.shape) {
    s << " signature " << IntList(t.shape_signature);
  }
  if (!t.scale.empty()) {
    s << "  quantization: scale=";
    for (size_t i = 0; i < t.scale.size() && i < 4; ++i) s << (i ? "," : "") << t.scale[i];
    if (t.scale.size() > 4) s << ",… (" << t.scale.size() << " channels)";
    s << " zero_point=";
    for (size_t i = 0; i < t.zero_point.size() && i < 4; ++i) s << (i ? "," : "") << t.zero_point[i];
    if (t.zero_point.size() > 4) s << ",…";
    if (t.scale.size() > 1) s << " axis=" << t.quantized_dimension;
  }
  if (t.is_variable) s << "  (variable)";
  return s.str();
}

std::string TensorJson(const TensorInfo& t) {
  std::ostringstream s;
  s << "{\"index\": " << t.index << ", \"name\": " << JsonString(t.name)
    << ", \"type\": " << JsonString(t.type) << ", \"shape\": " << IntList(t.shape, "[", "]")
    << ", \"shape_signature\": " << IntList(t.shape_signature.empty() ? t.shape : t.shape_signature)
    << ", \"is_variable\": " << (t.is_variable ? "true" : "false") << ", \"quantization\": ";
  if (t.scale.empty()) {
    s << "null";
  } else {
    s << "{\"scale\": "
      << JsonArray(t.scale, [](double v) { return JsonNumber(v); })
      << ", \"zero_point\": " << IntList(t.zero_point)
      << ", \"quantized_dimension\": " << t.quantized_dimension << "}";
  }
  s << "}";
  return s.str();
}

std::string PreviewJson(const Preview& p) {
  std::ostringstream o;
  o << "{\"delegate\": " << JsonString(p.delegate)
    << ", \"applied\": " << (p.applied ? "true" : "false") << ", \"subgraphs\": [";
  for (size_t s = 0; s < p.subgraphs.size(); ++s) {
    const SubgraphPlan& sp = p.subgraphs[s];
    o << (s ? "," : "") << "\n    {\"delegate_kernels\": "
      << JsonArray(sp.kernels,
                   [](const DelegateKernel& k) {
                     return "{\"node\": " + std::to_string(k.node) +
                            ", \"name\": " + JsonString(k.name) +
                            ", \"nodes\": " + IntList(k.nodes) + "}";
                   })
      << ",\n     \"cpu_nodes\": "
      << JsonArray(sp.cpu_nodes, [](const CpuNode& n) {
           return "{\"node\": " + std::to_string(n.node) + ", \"op\": " + JsonString(n.op) + "}";
         })
      << "}";
  }
  o << "],\n    \"messages\": " << JsonArray(p.messages, JsonString) << "}";
  return o.str();
}

void PrintStructure(const Report& r) {
  std::cout << "Model: " << r.path << " (" << r.size << " bytes, schema version " << r.version
            << ")\n";
  if (!r.description.empty()) std::cout << "Description: " << r.description << "\n";
  std::cout << "\nSubgraphs: " << r.subgraphs.size() << "\n";
  for (const SubgraphInfo& sg : r.subgraphs) {
    std::cout << "  Subgraph " << sg.index << (sg.name.empty() ? "" : " \"" + sg.name + "\"")
              << ": " << sg.num_tensors << " tensors, " << sg.num_operators << " operators\n";
    std::cout << "    Inputs (" << sg.inputs.size() << "):\n";
    for (const TensorInfo& t : sg.inputs) std::cout << "      " << TensorText(t) << "\n";
    std::cout << "    Outputs (" << sg.outputs.size() << "):\n";
    for (const TensorInfo& t : sg.outputs) std::cout << "      " << TensorText(t) << "\n";
  }
  std::cout << "\nSignatures: " << r.signatures.size() << "\n";
  for (const SignatureInfo& s : r.signatures) {
    std::cout << "  \"" << s.key << "\" (subgraph " << s.subgraph << ")\n";
    std::cout << "    inputs:";
    for (const auto& [name, t] : s.inputs) std::cout << " " << name << "->" << t;
    std::cout << "\n    outputs:";
    for (const auto& [name, t] : s.outputs) std::cout << " " << name << "->" << t;
    std::cout << "\n";
  }
}

void PrintOperators(const Report& r) {
  int total = 0;
  for (const auto& kv : r.ops) total += kv.second.count;
  std::cout << "\nOperators: " << total << " in " << r.ops.size() << " kinds\n";
  std::cout << "  count  op (version)\n";
  std::vector<std::pair<OpKey, OpStat>> sorted(r.ops.begin(), r.ops.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  for (const auto& [key, stat] : sorted) {
    char line[256];
    std::snprintf(line, sizeof(line), "  %5d  %s%s (v%d)", stat.count, key.custom ? "CUSTOM " : "",
                  key.name.c_str(), key.version);
    std::cout << line << "\n";
  }
  std::vector<std::pair<OpKey, OpStat>> missing;
  for (const auto& kv : r.ops) {
    if (!kv.second.supported) missing.push_back(kv);
  }
  std::cout << "\nNot runnable by this build: " << (missing.empty() ? "none" : "") << "\n";
  for (const auto& [key, stat] : missing) {
    std::cout << "  " << (key.custom ? "CUSTOM " : "") << key.name << " (v" << key.version
              << "), " << stat.count << " node(s): " << stat.reason << "\n";
  }
}

void PrintPreview(const Preview& p) {
  std::cout << "\nDelegate partition preview (" << p.delegate << "):";
  if (!p.applied) std::cout << " the interpreter could not be created";
  std::cout << "\n";
  for (size_t i = 0; i < p.subgraphs.size(); ++i) {
    const SubgraphPlan& sp = p.subgraphs[i];
    int taken = 0;
    for (const DelegateKernel& k : sp.kernels) taken += static_cast<int>(k.nodes.size());
    std::cout << "  Subgraph " << i << ": " << sp.kernels.size() << " delegate kernel(s) take "
              << taken << " node(s); " << sp.cpu_nodes.size() << " node(s) stay on the CPU\n";
    for (const DelegateKernel& k : sp.kernels) {
      std::cout << "    node " << k.node << " " << k.name << " <- nodes " << Ranges(k.nodes)
                << "\n";
    }
    for (const CpuNode& n : sp.cpu_nodes) {
      std::cout << "    node " << n.node << " " << n.op << " (CPU)\n";
    }
  }
  if (!p.messages.empty()) {
    std::cout << "  Messages from the runtime and the delegate:\n";
    for (const std::string& m : p.messages) std::cout << "    " << m << "\n";
  }
}

}  // namespace

void PrintText(const Report& r) {
  PrintStructure(r);
  PrintOperators(r);
  if (r.preview.requested) PrintPreview(r.preview);
}

void PrintJson(const Report& r) {
  std::ostringstream o;
  o << "{\n  \"model\": {\"path\": " << JsonString(r.path) << ", \"size_bytes\": " << r.size
    << ", \"schema_version\": " << r.version << ", \"description\": " << JsonString(r.description)
    << "},\n";
  o << "  \"subgraphs\": [";
  for (size_t i = 0; i < r.subgraphs.size(); ++i) {
    const SubgraphInfo& sg = r.subgraphs[i];
    o << (i ? "," : "") << "\n    {\"index\": " << sg.index << ", \"name\": " << JsonString(sg.name)
      << ", \"num_tensors\": " << sg.num_tensors << ", \"num_operators\": " << sg.num_operators
      << ",\n     \"inputs\": " << JsonArray(sg.inputs, TensorJson)
      << ",\n     \"outputs\": " << JsonArray(sg.outputs, TensorJson) << "}";
  }
  o << "\n  ],\n  \"signatures\": [";
  auto names = [](const std::vector<std::pair<std::string, int>>& v) {
    return JsonArray(v, [](const std::pair<std::string, int>& p) {
      return "{\"name\": " + JsonString(p.first) + ", \"tensor\": " + std::to_string(p.second) + "}";
    });
  };
  for (size_t i = 0; i < r.signatures.size(); ++i) {
    const SignatureInfo& s = r.signatures[i];
    o << (i ? "," : "") << "\n    {\"key\": " << JsonString(s.key) << ", \"subgraph\": "
      << s.subgraph << ", \"inputs\": " << names(s.inputs) << ", \"outputs\": " << names(s.outputs)
      << "}";
  }
  o << "\n  ],\n  \"operators\": [";
  size_t i = 0;
  for (const auto& [key, stat] : r.ops) {
    o << (i++ ? "," : "") << "\n    {\"op\": " << JsonString(key.name)
      << ", \"custom\": " << (key.custom ? "true" : "false") << ", \"version\": " << key.version
      << ", \"count\": " << stat.count << ", \"supported\": " << (stat.supported ? "true" : "false");
    if (!stat.supported) o << ", \"reason\": " << JsonString(stat.reason);
    o << "}";
  }
  o << "\n  ],\n  \"delegate_preview\": ";
  if (!r.preview.requested) {
    o << "null";
  } else {
    o << PreviewJson(r.preview);
  }
  o << "\n}\n";
  std::cout << o.str();
}

}  // namespace tflite_c_inspector

// model_inspector: what is inside a .tflite model and how this build would
// run it — subgraphs, signatures, inputs/outputs (name, type, shape,
// quantization), the operator histogram with versions, the operators this
// build has no kernel for, and, given a delegate, the partition preview:
// which nodes each delegate kernel takes and which stay on the CPU, with
// whatever the delegate reported while deciding.
//
//   model_inspector [--json] [--use_xnnpack] [--external_delegate_path=lib.so
//                   [--external_delegate_options='k1:v1;k2:v2']] model.tflite
//   model_inspector --list_ops model.tflite...
//
// --list_ops prints only the operators the models need, one per line
// (CONV_2D, CUSTOM:<name>; op_list.h), the input of a selective build.
//
// The model is loaded (and verified) through the public C API; its structure
// is read from the flatbuffer with the generated schema; kernel availability
// comes from the library's own builtin resolver (this tool links the
// library's objects statically). Exit status: 0 ok, 1 bad flags or a model
// that cannot be loaded.

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "schema_generated.h"
#include "src/core/op_resolver.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "common/delegate_registry.h"
#include "common/man_page.h"
#include "model_inspector/op_list.h"
#include "common/tool_util.h"

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

// ---- what is collected -----------------------------------------------------------

struct TensorInfo {
  int index = -1;
  std::string name;
  std::string type;
  std::vector<int64_t> shape;
  std::vector<int64_t> shape_signature;
  std::vector<double> scale;
  std::vector<int64_t> zero_point;
  int quantized_dimension = 0;
  bool is_variable = false;
};

struct SubgraphInfo {
  int index = 0;
  std::string name;
  int num_tensors = 0;
  int num_operators = 0;
  std::vector<TensorInfo> inputs, outputs;
};

struct SignatureInfo {
  std::string key;
  int subgraph = 0;
  std::vector<std::pair<std::string, int>> inputs, outputs;
};

struct OpKey {
  std::string name;  // builtin name or custom op name
  bool custom = false;
  int code = 0;
  int version = 1;
  bool operator<(const OpKey& o) const {
    return std::tie(name, custom, version) < std::tie(o.name, o.custom, o.version);
  }
};

struct OpStat {
  int count = 0;
  bool supported = true;
  std::string reason;
};

struct DelegateKernel {
  int node = 0;
  std::string name;
  std::vector<int64_t> nodes;
};

struct CpuNode {
  int node = 0;
  std::string op;
};

struct SubgraphPlan {
  std::vector<DelegateKernel> kernels;
  std::vector<CpuNode> cpu_nodes;
};

struct Preview {
  bool requested = false;
  std::string delegate;
  bool applied = false;
  std::vector<SubgraphPlan> subgraphs;  // in the order the runtime offered them
  std::vector<std::string> messages;
};

// ---- model reading -----------------------------------------------------------------

int32_t BuiltinCode(const tflite::OperatorCode* oc) {
  return std::max<int32_t>(oc->deprecated_builtin_code(), oc->builtin_code());
}

template <typename V>
std::vector<int64_t> ToVector(const V* v) {
  std::vector<int64_t> out;
  if (v != nullptr) {
    for (auto x : *v) out.push_back(static_cast<int64_t>(x));
  }
  return out;
}

TensorInfo DescribeTensor(const tflite::SubGraph* sg, int index) {
  TensorInfo t;
  t.index = index;
  const auto* tensors = sg->tensors();
  if (tensors == nullptr || index < 0 || static_cast<uint32_t>(index) >= tensors->size()) {
    t.name = "<invalid tensor index>";
    return t;
  }
  const tflite::Tensor* fb = tensors->Get(index);
  t.name = fb->name() ? fb->name()->str() : "";
  const char* type = tflite::EnumNameTensorType(fb->type());
  t.type = (type && *type) ? type : "UNKNOWN";
  t.shape = ToVector(fb->shape());
  t.shape_signature = ToVector(fb->shape_signature());
  t.is_variable = fb->is_variable();
  if (const tflite::QuantizationParameters* q = fb->quantization()) {
    if (q->scale()) {
      for (float s : *q->scale()) t.scale.push_back(s);
    }
    t.zero_point = ToVector(q->zero_point());
    t.quantized_dimension = q->quantized_dimension();
  }
  return t;
}

// ---- partition preview ---------------------------------------------------------------

// A do-nothing delegate applied after the real one: it reads each subgraph's
// execution plan through the public TfLiteContext. Delegate kernel nodes
// carry TfLiteDelegateParams (the nodes they replaced) as builtin_data.
TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  auto* preview = static_cast<Preview*>(delegate->data_);
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteOk;
  SubgraphPlan& sp = preview->subgraphs.emplace_back();
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) continue;
    if (node->delegate != nullptr) {
      DelegateKernel k;
      k.node = plan->data[i];
      k.name = reg->custom_name ? reg->custom_name : "(unnamed delegate kernel)";
      const auto* params = static_cast<const TfLiteDelegateParams*>(node->builtin_data);
      if (params != nullptr && params->nodes_to_replace != nullptr) {
        for (int j = 0; j < params->nodes_to_replace->size; ++j) {
          k.nodes.push_back(params->nodes_to_replace->data[j]);
        }
      }
      sp.kernels.push_back(std::move(k));
    } else {
      const char* name = reg->custom_name ? reg->custom_name
                                          : tflite_c::BuiltinOperatorName(reg->builtin_code);
      sp.cpu_nodes.push_back({plan->data[i], name ? name : "UNKNOWN"});
    }
  }
  return kTfLiteOk;
}

void CaptureMessage(void* user_data, const char* format, va_list args) {
  char buf[2048];
  std::vsnprintf(buf, sizeof(buf), format, args);
  static_cast<Preview*>(user_data)->messages.push_back(buf);
}

// The delegate comes from the tools' delegate registrar
// (tools/common/delegate_registry.h).
bool RunPreview(TfLiteModel* model, const tflite_c_tools::ProvidedDelegate& chosen,
                const tflite_c_tools::ToolParams& params, Preview* preview) {
  TfLiteDelegate* delegate = chosen.delegate;
  preview->delegate = chosen.provider == "EXTERNAL" ? params.GetString("external_delegate_path")
                                                    : chosen.provider;
  TfLiteDelegate probe = TfLiteDelegateCreate();
  probe.data_ = preview;
  probe.Prepare = ProbePrepare;
  probe.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureMessage, preview);
  TfLiteInterpreterOptionsAddDelegate(options, delegate);
  TfLiteInterpreterOptionsAddDelegate(options, &probe);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  preview->applied = interpreter != nullptr;
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  return true;
}

// ---- output ---------------------------------------------------------------------------

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

struct Report {
  std::string path;
  size_t size = 0;
  uint32_t version = 0;
  std::string description;
  std::vector<SubgraphInfo> subgraphs;
  std::vector<SignatureInfo> signatures;
  std::map<OpKey, OpStat> ops;
  Preview preview;
};

void PrintText(const Report& r) {
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
  if (!r.preview.requested) return;
  std::cout << "\nDelegate partition preview (" << r.preview.delegate << "):";
  if (!r.preview.applied) std::cout << " the interpreter could not be created";
  std::cout << "\n";
  for (size_t i = 0; i < r.preview.subgraphs.size(); ++i) {
    const SubgraphPlan& sp = r.preview.subgraphs[i];
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
  if (!r.preview.messages.empty()) {
    std::cout << "  Messages from the runtime and the delegate:\n";
    for (const std::string& m : r.preview.messages) std::cout << "    " << m << "\n";
  }
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
    o << "{\"delegate\": " << JsonString(r.preview.delegate)
      << ", \"applied\": " << (r.preview.applied ? "true" : "false") << ", \"subgraphs\": [";
    for (size_t s = 0; s < r.preview.subgraphs.size(); ++s) {
      const SubgraphPlan& sp = r.preview.subgraphs[s];
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
    o << "],\n    \"messages\": " << JsonArray(r.preview.messages, JsonString) << "}";
  }
  o << "\n}\n";
  std::cout << o.str();
}

std::string UsageText(const char* argv0) {
  std::ostringstream u;
  u << "usage: " << argv0
    << " [--json] [--use_xnnpack] [--external_delegate_path=lib.so "
       "[--external_delegate_options='k1:v1;k2:v2']] model.tflite\n";
  u << "       " << argv0 << " --list_ops model.tflite...   (operators needed, one per line)\n";
  u << "Delegate flags (one delegate at a time):\n";
  for (const auto& p : tflite_c_tools::DelegateRegistry::Get().AllParams()) {
    u << "  --" << p.name << "=" << p.default_value << "\t" << p.help << "\n";
  }
  return u.str();
}

void Usage(const char* argv0) { std::cerr << UsageText(argv0); }

void ManPage(const char* argv0) {
  std::cerr << tflite_c_tools::ManPage(
      "model_inspector - show a .tflite model's structure, operators and kernel "
      "coverage, and a delegate's partition",
      UsageText(argv0),
      "    model_inspector model.tflite\n"
      "    model_inspector --json --use_xnnpack model.tflite\n"
      "    model_inspector --list_ops a.tflite b.tflite   (ops for -DTFLITE_C_SELECTED_OPS)\n",
      "0 ok, 1 bad flags or a model that cannot be loaded.");
}

void ReportLoadError(void* user_data, const char* format, va_list args) {
  char buf[2048];
  std::vsnprintf(buf, sizeof(buf), format, args);
  auto* text = static_cast<std::string*>(user_data);
  *text += (text->empty() ? "" : "; ") + std::string(buf);
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  bool list_ops = false;              // --list_ops: several models allowed
  std::vector<std::string> list_paths;
  std::string path;
  // Delegate flags: those of every provider of the tools' registrar
  // (--use_xnnpack, --external_delegate_path, ...).
  tflite_c_tools::ToolParams params;
  tflite_c_tools::DelegateRegistry::Get().DefineParams(&params);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool matched = false;
    std::string error;
    if (!params.ParseArg(arg, i, &matched, &error)) {
      std::cerr << "ERROR: " << error << "\n";
      Usage(argv[0]);
      return 1;
    }
    if (matched) continue;
    if (arg == "--list_ops") {
      list_ops = true;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--help" || arg == "-h") {
      ManPage(argv[0]);
      return 0;
    } else if (arg.rfind("--", 0) == 0 || (!path.empty() && !list_ops)) {
      std::cerr << "ERROR: unexpected argument: " << arg << "\n";
      Usage(argv[0]);
      return 1;
    } else {
      if (!path.empty()) list_paths.push_back(path);
      path = arg;
    }
  }
  if (list_ops && !path.empty()) {
    list_paths.push_back(path);
    std::set<std::string> names;
    for (const std::string& p : list_paths) {
      std::string error;
      if (!tflite_c_tools::AddModelOperatorNames(p, &names, &error)) {
        std::cerr << "ERROR: " << error << "\n";
        return 1;
      }
    }
    for (const std::string& name : names) std::cout << name << "\n";
    return 0;
  }
  if (path.empty()) {
    Usage(argv[0]);
    return 1;
  }
  tflite_c_tools::DelegateList delegates;
  {
    std::string error;
    if (!tflite_c_tools::DelegateRegistry::Get().CreateDelegates(params, &delegates, &error)) {
      std::cerr << "ERROR: " << error << "\n";
      return 1;
    }
  }
  if (delegates.size() > 1) {
    std::cerr << "ERROR: preview one delegate at a time (--use_xnnpack or "
                 "--external_delegate_path)\n";
    return 1;
  }
  // The preview shows exactly the chosen delegate, not the library default.
  setenv("TFLITE_C_DISABLE_XNNPACK", "1", 1);

  // Load and verify through the library, as an application would.
  std::string load_error;
  TfLiteModel* model =
      TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), ReportLoadError, &load_error);
  if (model == nullptr) {
    std::cerr << "ERROR: " << path << " is not a loadable TFLite model"
              << (load_error.empty() ? "" : ": " + load_error) << "\n";
    return 1;
  }
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (bytes.empty() || !tflite::VerifyModelBuffer(verifier)) {
    std::cerr << "ERROR: " << path << " is not a valid TFLite flatbuffer\n";
    TfLiteModelDelete(model);
    return 1;
  }
  const tflite::Model* fb = tflite::GetModel(bytes.data());

  Report r;
  r.path = path;
  r.size = bytes.size();
  r.version = fb->version();
  r.description = fb->description() ? fb->description()->str() : "";
  const auto* subgraphs = fb->subgraphs();
  const auto* codes = fb->operator_codes();
  tflite_c::MutableOpResolver resolver;
  tflite_c::RegisterBuiltinKernels(&resolver);
  tflite_c::RegisterMediaPipeKernels(&resolver);
  for (uint32_t s = 0; subgraphs != nullptr && s < subgraphs->size(); ++s) {
    const tflite::SubGraph* sg = subgraphs->Get(s);
    SubgraphInfo info;
    info.index = static_cast<int>(s);
    info.name = sg->name() ? sg->name()->str() : "";
    info.num_tensors = sg->tensors() ? static_cast<int>(sg->tensors()->size()) : 0;
    info.num_operators = sg->operators() ? static_cast<int>(sg->operators()->size()) : 0;
    if (sg->inputs()) {
      for (int32_t t : *sg->inputs()) info.inputs.push_back(DescribeTensor(sg, t));
    }
    if (sg->outputs()) {
      for (int32_t t : *sg->outputs()) info.outputs.push_back(DescribeTensor(sg, t));
    }
    r.subgraphs.push_back(std::move(info));
    for (uint32_t o = 0; sg->operators() != nullptr && o < sg->operators()->size(); ++o) {
      const tflite::Operator* op = sg->operators()->Get(o);
      OpKey key;
      if (codes == nullptr || op->opcode_index() >= codes->size()) {
        key.name = "<invalid opcode index>";
        r.ops[key].count++;
        r.ops[key].supported = false;
        r.ops[key].reason = "the operator code index is out of range";
        continue;
      }
      const tflite::OperatorCode* oc = codes->Get(op->opcode_index());
      key.code = BuiltinCode(oc);
      key.version = oc->version();
      key.custom = key.code == tflite::BuiltinOperator_CUSTOM;
      key.name = key.custom ? (oc->custom_code() ? oc->custom_code()->str() : "")
                            : tflite_c::BuiltinOperatorName(key.code);
      OpStat& stat = r.ops[key];
      stat.count++;
      if (stat.count > 1) continue;
      const TfLiteRegistration* reg = key.custom ? resolver.FindOp(key.name.c_str(), key.version)
                                                 : resolver.FindOp(key.code, key.version);
      if (reg != nullptr) continue;
      stat.supported = false;
      // Is any version of it there?
      const auto builtin_ranges = resolver.BuiltinVersionRanges();
      const auto custom_ranges = resolver.CustomVersionRanges();
      if (key.custom) {
        auto it = custom_ranges.find(key.name);
        stat.reason = it == custom_ranges.end()
                          ? "no kernel for this custom op (a delegate or the application must "
                            "provide it)"
                          : "version " + std::to_string(key.version) + " not supported (this build: v" +
                                std::to_string(it->second.first) + "-v" +
                                std::to_string(it->second.second) + ")";
      } else {
        auto it = builtin_ranges.find(key.code);
        stat.reason = it == builtin_ranges.end()
                          ? "no kernel in this build"
                          : "version " + std::to_string(key.version) + " not supported (this build: v" +
                                std::to_string(it->second.first) + "-v" +
                                std::to_string(it->second.second) + ")";
      }
    }
  }
  if (const auto* sigs = fb->signature_defs()) {
    for (const tflite::SignatureDef* sd : *sigs) {
      SignatureInfo s;
      s.key = sd->signature_key() ? sd->signature_key()->str() : "";
      s.subgraph = static_cast<int>(sd->subgraph_index());
      if (sd->inputs()) {
        for (const tflite::TensorMap* m : *sd->inputs()) {
          s.inputs.emplace_back(m->name() ? m->name()->str() : "", static_cast<int>(m->tensor_index()));
        }
      }
      if (sd->outputs()) {
        for (const tflite::TensorMap* m : *sd->outputs()) {
          s.outputs.emplace_back(m->name() ? m->name()->str() : "",
                                 static_cast<int>(m->tensor_index()));
        }
      }
      r.signatures.push_back(std::move(s));
    }
  }
  int status = 0;
  if (!delegates.empty()) {
    r.preview.requested = true;
    if (!RunPreview(model, delegates.items()[0], params, &r.preview)) status = 1;
  }
  TfLiteModelDelete(model);
  if (status != 0) return status;
  if (json) {
    PrintJson(r);
  } else {
    PrintText(r);
  }
  return 0;
}

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
//
// Files: inspection.h (the findings and the steps), model_reader.cc,
// partition_preview.cc, print_report.cc, this file (command line, main).

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "schema_generated.h"
#include "common/delegate_registry.h"
#include "common/man_page.h"
#include "model_inspector/inspection.h"
#include "model_inspector/op_list.h"

namespace tflite_c_inspector {
namespace {

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

struct CommandLine {
  bool json = false;
  bool list_ops = false;  // --list_ops: several models allowed
  std::vector<std::string> list_paths;
  std::string path;
  // Delegate flags: those of every provider of the tools' registrar
  // (--use_xnnpack, --external_delegate_path, ...).
  tflite_c_tools::ToolParams params;
};

// Returns -1 to go on, else the exit status (after the usage or man page).
int ParseArgs(int argc, char** argv, CommandLine* cl) {
  tflite_c_tools::DelegateRegistry::Get().DefineParams(&cl->params);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool matched = false;
    std::string error;
    if (!cl->params.ParseArg(arg, i, &matched, &error)) {
      std::cerr << "ERROR: " << error << "\n";
      Usage(argv[0]);
      return 1;
    }
    if (matched) continue;
    if (arg == "--list_ops") {
      cl->list_ops = true;
    } else if (arg == "--json") {
      cl->json = true;
    } else if (arg == "--help" || arg == "-h") {
      ManPage(argv[0]);
      return 0;
    } else if (arg.rfind("--", 0) == 0 || (!cl->path.empty() && !cl->list_ops)) {
      std::cerr << "ERROR: unexpected argument: " << arg << "\n";
      Usage(argv[0]);
      return 1;
    } else {
      if (!cl->path.empty()) cl->list_paths.push_back(cl->path);
      cl->path = arg;
    }
  }
  return -1;
}

// --list_ops: the operators every model needs, one per line.
int ListOps(const std::vector<std::string>& paths) {
  std::set<std::string> names;
  for (const std::string& p : paths) {
    std::string error;
    if (!tflite_c_tools::AddModelOperatorNames(p, &names, &error)) {
      std::cerr << "ERROR: " << error << "\n";
      return 1;
    }
  }
  for (const std::string& name : names) std::cout << name << "\n";
  return 0;
}

// The report of one model, with the preview of `delegates` (at most one).
int Inspect(const CommandLine& cl, const tflite_c_tools::DelegateList& delegates) {
  const std::string& path = cl.path;
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
  Report r;
  r.path = path;
  r.size = bytes.size();
  DescribeModel(tflite::GetModel(bytes.data()), &r);
  int status = 0;
  if (!delegates.empty()) {
    r.preview.requested = true;
    if (!RunPreview(model, delegates.items()[0], cl.params, &r.preview)) status = 1;
  }
  TfLiteModelDelete(model);
  if (status != 0) return status;
  if (cl.json) {
    PrintJson(r);
  } else {
    PrintText(r);
  }
  return 0;
}

}  // namespace
}  // namespace tflite_c_inspector

int main(int argc, char** argv) {
  using namespace tflite_c_inspector;  // NOLINT: the tool's own steps
  CommandLine cl;
  const int parsed = ParseArgs(argc, argv, &cl);
  if (parsed >= 0) return parsed;
  if (cl.list_ops && !cl.path.empty()) {
    cl.list_paths.push_back(cl.path);
    return ListOps(cl.list_paths);
  }
  if (cl.path.empty()) {
    Usage(argv[0]);
    return 1;
  }
  tflite_c_tools::DelegateList delegates;
  {
    std::string error;
    if (!tflite_c_tools::DelegateRegistry::Get().CreateDelegates(cl.params, &delegates, &error)) {
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
  return Inspect(cl, delegates);
}

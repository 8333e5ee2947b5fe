// The delegate providers every tool has: XNNPACK and external delegates
// (tools/common/delegate_registry.h).
#include <string>
#include <vector>

#include "common/delegate_registry.h"
#include "common/tool_util.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

namespace tflite_c_tools {
namespace {

// --use_xnnpack: the XNNPACK delegate built into the library, with
// --num_threads threads (when the tool defines it) and optionally fp16.
class XnnpackProvider : public DelegateProvider {
 public:
  std::string Name() const override { return "XNNPACK"; }
  std::vector<ParamSpec> Params() const override {
    return {{"use_xnnpack", ParamType::kBool, "false", "apply the XNNPACK delegate", "Use xnnpack"},
            {"xnnpack_force_fp16", ParamType::kBool, "false", "force fp16 inference in XNNPACK",
             "xnnpack_force_fp16"},
            {"xnnpack_weight_cache_file_path", ParamType::kString, "",
             "XNNPACK weight cache file (packed weights saved there, reused by later runs)",
             "xnnpack_weight_cache_file_path"},
            {"xnnpack_runtime_flags", ParamType::kInt, "0", "extra XNNPACK runtime flags",
             "Extra flags for XNNPACK runtime"}};
  }
  bool CreateDelegate(const ToolParams& params, ProvidedDelegate* out,
                      std::string* error) const override {
    if (!params.GetBool("use_xnnpack")) return true;
    TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
    if (params.Defined("num_threads") && params.GetInt("num_threads") > 0) {
      options.num_threads = params.GetInt("num_threads");
    }
    if (params.GetBool("xnnpack_force_fp16")) options.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16;
    // The delegate copies the path; the string need not outlive the call.
    const std::string cache_path = params.GetString("xnnpack_weight_cache_file_path");
    if (!cache_path.empty()) options.weight_cache_file_path = cache_path.c_str();
    options.runtime_flags = static_cast<uint32_t>(params.GetInt("xnnpack_runtime_flags"));
    out->delegate = TfLiteXNNPackDelegateCreate(&options);
    if (out->delegate == nullptr) {
      *error = "the XNNPACK delegate is not available in this build or on this CPU";
      return false;
    }
    out->deleter = TfLiteXNNPackDelegateDelete;
    out->description = "XNNPACK";
    out->position = params.Position("use_xnnpack");
    return true;
  }
};

// --external_delegate_path: a delegate loaded from a shared library
// (tflite_plugin_create_delegate), with --external_delegate_options.
class ExternalProvider : public DelegateProvider {
 public:
  std::string Name() const override { return "EXTERNAL"; }
  std::vector<ParamSpec> Params() const override {
    return {{"external_delegate_path", ParamType::kString, "",
             "shared library of an external delegate", "External delegate path"},
            {"external_delegate_options", ParamType::kString, "",
             "options of the external delegate, 'key1:value1;key2:value2'",
             "External delegate options"}};
  }
  bool CreateDelegate(const ToolParams& params, ProvidedDelegate* out,
                      std::string* error) const override {
    const std::string path = params.GetString("external_delegate_path");
    if (path.empty()) return true;
    TfLiteExternalDelegateOptions options = TfLiteExternalDelegateOptionsDefault(path.c_str());
    std::vector<std::string> keys, values;  // must outlive the Create call
    if (!AddExternalDelegateOptions(params.GetString("external_delegate_options"), &options, &keys,
                                    &values)) {
      *error = "bad --external_delegate_options";
      return false;
    }
    out->delegate = TfLiteExternalDelegateCreate(&options);
    if (out->delegate == nullptr) {
      *error = "Failed to create the external delegate from " + path + ".";
      return false;
    }
    out->deleter = TfLiteExternalDelegateDelete;
    out->description = "external delegate " + path;
    out->position = params.Position("external_delegate_path");
    return true;
  }
};

}  // namespace
}  // namespace tflite_c_tools

using tflite_c_tools::ExternalProvider;
using tflite_c_tools::XnnpackProvider;
TFLITE_C_REGISTER_DELEGATE_PROVIDER(XnnpackProvider);
TFLITE_C_REGISTER_DELEGATE_PROVIDER(ExternalProvider);

// The dummy delegate as a delegate provider of the tools' registrar
// (tools/common/delegate_registry.h): compiled into
// benchmark_model_plus_dummy_delegate, inference_diff_plus_dummy_delegate
// and model_inspector_plus_dummy_delegate, it adds the flag
// --use_dummy_delegate (the guide's DummyDelegateProvider).
#include <string>
#include <vector>

#include "common/delegate_registry.h"
#include "examples/dummy_delegate/dummy_delegate.h"

namespace {

class DummyDelegateProvider : public tflite_c_tools::DelegateProvider {
 public:
  std::string Name() const override { return "DummyDelegate"; }
  std::vector<tflite_c_tools::ParamSpec> Params() const override {
    return {{"use_dummy_delegate", tflite_c_tools::ParamType::kBool, "false",
             "use the dummy delegate (examples/dummy_delegate)", "Use dummy test delegate"}};
  }
  bool CreateDelegate(const tflite_c_tools::ToolParams& params,
                      tflite_c_tools::ProvidedDelegate* out, std::string* error) const override {
    if (!params.GetBool("use_dummy_delegate")) return true;
    const DummyDelegateOptions options = TfLiteDummyDelegateOptionsDefault();
    out->delegate = TfLiteDummyDelegateCreate(&options);
    if (out->delegate == nullptr) {
      *error = "cannot create the dummy delegate";
      return false;
    }
    out->deleter = TfLiteDummyDelegateDelete;
    out->description = "dummy delegate";
    out->position = params.Position("use_dummy_delegate");
    return true;
  }
};

}  // namespace

TFLITE_C_REGISTER_DELEGATE_PROVIDER(DummyDelegateProvider);

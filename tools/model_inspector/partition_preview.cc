// model_inspector's partition preview: which nodes each delegate kernel of
// the chosen delegate takes and which stay on the CPU, with whatever the
// runtime and the delegate reported while deciding.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>

#include "common/plan_probe.h"
#include "model_inspector/inspection.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/c/c_api_experimental.h"

namespace tflite_c_inspector {
namespace {

// A do-nothing delegate applied after the real one: it reads each subgraph's
// execution plan through the public TfLiteContext. Delegate kernel nodes
// carry TfLiteDelegateParams (the nodes they replaced) as builtin_data.
TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  SubgraphPlan& sp = static_cast<Preview*>(delegate->data_)->subgraphs.emplace_back();
  tflite_c_tools::ForEachPlanNode(context, [&](int index, TfLiteNode* node,
                                               TfLiteRegistration* reg) {
    if (node->delegate == nullptr) {
      const char* name = reg->custom_name ? reg->custom_name
                                          : tflite_c::BuiltinOperatorName(reg->builtin_code);
      sp.cpu_nodes.push_back({index, name ? name : "UNKNOWN"});
      return;
    }
    DelegateKernel k;
    k.node = index;
    k.name = reg->custom_name ? reg->custom_name : "(unnamed delegate kernel)";
    const auto* params = static_cast<const TfLiteDelegateParams*>(node->builtin_data);
    if (params != nullptr && params->nodes_to_replace != nullptr) {
      for (int j = 0; j < params->nodes_to_replace->size; ++j) {
        k.nodes.push_back(params->nodes_to_replace->data[j]);
      }
    }
    sp.kernels.push_back(std::move(k));
  });
  return kTfLiteOk;
}

void CaptureMessage(void* user_data, const char* format, va_list args) {
  char buf[2048];
  std::vsnprintf(buf, sizeof(buf), format, args);
  static_cast<Preview*>(user_data)->messages.push_back(buf);
}

}  // namespace

// The delegate comes from the tools' delegate registrar
// (tools/common/delegate_registry.h).
bool RunPreview(TfLiteModel* model, const tflite_c_tools::ProvidedDelegate& chosen,
                const tflite_c_tools::ToolParams& params, Preview* preview) {
  TfLiteDelegate* delegate = chosen.delegate;
  preview->delegate = chosen.provider == "EXTERNAL" ? params.GetString("external_delegate_path")
                                                    : chosen.provider;
  TfLiteDelegate probe = tflite_c_tools::MakePlanProbe(preview, ProbePrepare);
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

}  // namespace tflite_c_inspector

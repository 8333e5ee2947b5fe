// model_inspector's partition preview: which nodes each delegate kernel of
// the chosen delegate takes and which stay on the CPU, with whatever the
// runtime and the delegate reported while deciding.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>

#include "model_inspector/inspection.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/c/c_api_experimental.h"

namespace tflite_c_inspector {
namespace {

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

}  // namespace

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

}  // namespace tflite_c_inspector

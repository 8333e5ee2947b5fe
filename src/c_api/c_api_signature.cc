// The signature part of the stable C API: TfLiteInterpreterGetSignature*
// and the TfLiteSignatureRunner* entry points. Like the rest of c_api.cc,
// every entry point tolerates NULL and out-of-range arguments, and those that
// allocate or run kernels let no exception out (GuardC).
#include <memory>
#include <new>
#include <vector>

#include "src/c_api/c_api_internal.h"
#include "tensorflow/lite/core/c/c_api.h"

using tflite_c::GuardC;
using tflite_c::ReporterOf;
using tflite_c::ReportNull;

namespace {

tflite_c::ErrorReporter* RunnerReporter(const TfLiteSignatureRunner* runner) {
  return ReporterOf(runner != nullptr ? runner->interpreter : nullptr);
}

// Tensor index for a signature name, or -1 (reported).
int SignatureTensor(const TfLiteSignatureRunner* runner, const char* name, bool input) {
  const auto& map = input ? runner->signature->inputs : runner->signature->outputs;
  if (name == nullptr) {
    runner->subgraph->ReportError("%s name is NULL", input ? "Input" : "Output");
    return -1;
  }
  auto it = map.find(name);
  if (it == map.end()) {
    runner->subgraph->ReportError("%s name %s was not found", input ? "Input" : "Output", name);
    return -1;
  }
  return it->second;
}

// names[index], or NULL when `index` is out of range.
const char* NameAt(const std::vector<const char*>& names, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= names.size()) return nullptr;
  return names[index];
}

}  // namespace

extern "C" {

int32_t TfLiteInterpreterGetSignatureCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetSignatureCount", "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->signatures().size());
}

const char* TfLiteInterpreterGetSignatureKey(const TfLiteInterpreter* interpreter,
                                             int32_t signature_index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetSignatureKey", "interpreter");
    return nullptr;
  }
  const auto& sigs = interpreter->impl->signatures();
  if (signature_index < 0 || static_cast<size_t>(signature_index) >= sigs.size()) return nullptr;
  return sigs[signature_index].key.c_str();
}

TfLiteSignatureRunner* TfLiteInterpreterGetSignatureRunner(const TfLiteInterpreter* interpreter,
                                                           const char* signature_key) {
  return GuardC(ReporterOf(interpreter), __func__, static_cast<TfLiteSignatureRunner*>(nullptr),
                [&]() -> TfLiteSignatureRunner* {
    if (interpreter == nullptr) {
      ReportNull("TfLiteInterpreterGetSignatureRunner", "interpreter");
      return nullptr;
    }
    const tflite_c::SignatureInfo* sig = interpreter->impl->ResolveSignature(signature_key);
    if (sig == nullptr) return nullptr;
    tflite_c::Subgraph* sg = interpreter->impl->subgraph(sig->subgraph_index);
    if (sg == nullptr) return nullptr;
    auto runner = std::make_unique<TfLiteSignatureRunner>();
    runner->interpreter = const_cast<TfLiteInterpreter*>(interpreter);
    runner->signature = sig;
    runner->subgraph = sg;
    for (const auto& kv : sig->inputs) runner->input_names.push_back(kv.first.c_str());
    for (const auto& kv : sig->outputs) runner->output_names.push_back(kv.first.c_str());
    return runner.release();
  });
}

size_t TfLiteSignatureRunnerGetInputCount(const TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetInputCount", "signature_runner");
    return 0;
  }
  return signature_runner->input_names.size();
}

const char* TfLiteSignatureRunnerGetInputName(const TfLiteSignatureRunner* signature_runner,
                                              int32_t input_index) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetInputName", "signature_runner");
    return nullptr;
  }
  return NameAt(signature_runner->input_names, input_index);
}

TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(TfLiteSignatureRunner* signature_runner,
                                                    const char* input_name,
                                                    const int* input_dims,
                                                    int32_t input_dims_size) {
  return GuardC(RunnerReporter(signature_runner), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (signature_runner == nullptr) {
      ReportNull("TfLiteSignatureRunnerResizeInputTensor", "signature_runner");
      return kTfLiteError;
    }
    const int t = SignatureTensor(signature_runner, input_name, true);
    if (t < 0) return kTfLiteError;
    if (input_dims_size < 0 || (input_dims_size > 0 && input_dims == nullptr)) {
      signature_runner->subgraph->ReportError(
          "TfLiteSignatureRunnerResizeInputTensor: invalid dims");
      return kTfLiteError;
    }
    std::vector<int> dims(input_dims, input_dims + input_dims_size);
    return signature_runner->subgraph->ResizeInputTensor(t, dims);
  });
}

TfLiteStatus TfLiteSignatureRunnerAllocateTensors(TfLiteSignatureRunner* signature_runner) {
  return GuardC(RunnerReporter(signature_runner), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (signature_runner == nullptr) {
      ReportNull("TfLiteSignatureRunnerAllocateTensors", "signature_runner");
      return kTfLiteError;
    }
    return signature_runner->subgraph->AllocateTensors();
  });
}

TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(TfLiteSignatureRunner* signature_runner,
                                                  const char* input_name) {
  return GuardC(RunnerReporter(signature_runner), __func__, static_cast<TfLiteTensor*>(nullptr),
                [&]() -> TfLiteTensor* {
    if (signature_runner == nullptr) {
      ReportNull("TfLiteSignatureRunnerGetInputTensor", "signature_runner");
      return nullptr;
    }
    const int t = SignatureTensor(signature_runner, input_name, true);
    return t < 0 ? nullptr : signature_runner->subgraph->tensor(t);
  });
}

TfLiteStatus TfLiteSignatureRunnerInvoke(TfLiteSignatureRunner* signature_runner) {
  return GuardC(RunnerReporter(signature_runner), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (signature_runner == nullptr) {
      ReportNull("TfLiteSignatureRunnerInvoke", "signature_runner");
      return kTfLiteError;
    }
    tflite_c::Subgraph* sg = signature_runner->subgraph;
    TF_LITE_ENSURE_STATUS(signature_runner->interpreter->impl->InvokeSubgraph(sg->index()));
    if (!signature_runner->interpreter->allow_buffer_handle_output) {
      for (int t : sg->outputs()) {
        TF_LITE_ENSURE_STATUS(tflite_c::EnsureTensorDataIsReadable(sg, t));
      }
    }
    return kTfLiteOk;
  });
}

size_t TfLiteSignatureRunnerGetOutputCount(const TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetOutputCount", "signature_runner");
    return 0;
  }
  return signature_runner->output_names.size();
}

const char* TfLiteSignatureRunnerGetOutputName(const TfLiteSignatureRunner* signature_runner,
                                               int32_t output_index) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetOutputName", "signature_runner");
    return nullptr;
  }
  return NameAt(signature_runner->output_names, output_index);
}

const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name) {
  return GuardC(RunnerReporter(signature_runner), __func__,
                static_cast<const TfLiteTensor*>(nullptr),
                [&]() -> const TfLiteTensor* {
    if (signature_runner == nullptr) {
      ReportNull("TfLiteSignatureRunnerGetOutputTensor", "signature_runner");
      return nullptr;
    }
    const int t = SignatureTensor(signature_runner, output_name, false);
    return t < 0 ? nullptr : signature_runner->subgraph->tensor(t);
  });
}

void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner) {
  delete signature_runner;
}

}  // extern "C"

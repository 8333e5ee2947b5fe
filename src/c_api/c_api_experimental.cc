// Experimental C API (tensorflow/lite/core/c/c_api_experimental.h).
#include "tensorflow/lite/core/c/c_api_experimental.h"

#include <vector>

#include "src/c_api/c_api_internal.h"

using tflite_c::GuardC;
using tflite_c::ReporterOf;
using tflite_c::ReportNull;

extern "C" {

TfLiteStatus TfLiteInterpreterResetVariableTensors(TfLiteInterpreter* interpreter) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr) {
      ReportNull("TfLiteInterpreterResetVariableTensors", "interpreter");
      return kTfLiteError;
    }
    return interpreter->impl->ResetVariableTensors();
  });
}

int32_t TfLiteInterpreterGetVariableTensorCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetVariableTensorCount", "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->primary().variables().size());
}

TfLiteTensor* TfLiteInterpreterGetVariableTensor(const TfLiteInterpreter* interpreter,
                                                 int32_t variable_index) {
  return GuardC(ReporterOf(interpreter), __func__, static_cast<TfLiteTensor*>(nullptr),
                [&]() -> TfLiteTensor* {
    if (interpreter == nullptr) {
      ReportNull("TfLiteInterpreterGetVariableTensor", "interpreter");
      return nullptr;
    }
    const auto& vars = interpreter->impl->primary().variables();
    if (variable_index < 0 || static_cast<size_t>(variable_index) >= vars.size()) return nullptr;
    return interpreter->impl->primary().tensor(vars[variable_index]);
  });
}

void TfLiteInterpreterOptionsAddBuiltinOp(TfLiteInterpreterOptions* options,
                                          TfLiteBuiltinOperator op,
                                          const TfLiteRegistration* registration,
                                          int32_t min_version, int32_t max_version) {
  GuardC(nullptr, __func__, [&] {
    if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsAddBuiltinOp", "options");
    if (registration == nullptr) {
      return ReportNull("TfLiteInterpreterOptionsAddBuiltinOp", "registration");
    }
    options->op_resolver.AddBuiltin(op, registration, min_version, max_version);
  });
}

void TfLiteInterpreterOptionsAddCustomOp(TfLiteInterpreterOptions* options, const char* name,
                                         const TfLiteRegistration* registration,
                                         int32_t min_version, int32_t max_version) {
  GuardC(nullptr, __func__, [&] {
    if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsAddCustomOp", "options");
    if (name == nullptr) return ReportNull("TfLiteInterpreterOptionsAddCustomOp", "name");
    if (registration == nullptr) {
      return ReportNull("TfLiteInterpreterOptionsAddCustomOp", "registration");
    }
    options->op_resolver.AddCustom(name, registration, min_version, max_version);
  });
}

void TfLiteInterpreterOptionsSetOpResolverExternal(
    TfLiteInterpreterOptions* options,
    const TfLiteOperator* (*find_builtin_op)(void* user_data, int op, int version),
    const TfLiteOperator* (*find_custom_op)(void* user_data, const char* custom_op, int version),
    void* op_resolver_user_data) {
  if (options == nullptr) {
    return ReportNull("TfLiteInterpreterOptionsSetOpResolverExternal", "options");
  }
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op_external = find_builtin_op;
  options->callbacks.find_custom_op_external = find_custom_op;
  options->callbacks.user_data = op_resolver_user_data;
}

void TfLiteInterpreterOptionsSetOpResolverExternalWithFallback(
    TfLiteInterpreterOptions* options,
    const TfLiteOperator* (*find_builtin_op_external)(void* user_data, int op, int version),
    const TfLiteOperator* (*find_custom_op_external)(void* user_data, const char* custom_op,
                                                     int version),
    const TfLiteRegistration* (*find_builtin_op)(void* user_data, TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* op, int version),
    void* op_resolver_user_data) {
  if (options == nullptr) {
    return ReportNull("TfLiteInterpreterOptionsSetOpResolverExternalWithFallback", "options");
  }
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op_external = find_builtin_op_external;
  options->callbacks.find_custom_op_external = find_custom_op_external;
  options->callbacks.find_builtin_op = find_builtin_op;
  options->callbacks.find_custom_op = find_custom_op;
  options->callbacks.user_data = op_resolver_user_data;
}

void TfLiteInterpreterOptionsSetOpResolver(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration* (*find_builtin_op)(void* user_data, TfLiteBuiltinOperator op,
                                                 int version),
    const TfLiteRegistration* (*find_custom_op)(void* user_data, const char* custom_op,
                                                int version),
    void* op_resolver_user_data) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetOpResolver", "options");
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op = find_builtin_op;
  options->callbacks.find_custom_op = find_custom_op;
  options->callbacks.user_data = op_resolver_user_data;
}

void TfLiteInterpreterOptionsSetOpResolverV3(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V3* (*find_builtin_op_v3)(void* user_data, TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V3* (*find_custom_op_v3)(void* user_data, const char* op,
                                                      int version),
    void* op_resolver_user_data) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetOpResolverV3", "options");
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op_v3 = find_builtin_op_v3;
  options->callbacks.find_custom_op_v3 = find_custom_op_v3;
  options->callbacks.user_data = op_resolver_user_data;
}

void TfLiteInterpreterOptionsSetOpResolverV2(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V2* (*find_builtin_op_v2)(void* user_data, TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V2* (*find_custom_op_v2)(void* user_data, const char* op,
                                                      int version),
    void* op_resolver_user_data) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetOpResolverV2", "options");
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op_v2 = find_builtin_op_v2;
  options->callbacks.find_custom_op_v2 = find_custom_op_v2;
  options->callbacks.user_data = op_resolver_user_data;
}

void TfLiteInterpreterOptionsSetOpResolverV1(
    TfLiteInterpreterOptions* options,
    const TfLiteRegistration_V1* (*find_builtin_op_v1)(void* user_data, TfLiteBuiltinOperator op,
                                                       int version),
    const TfLiteRegistration_V1* (*find_custom_op_v1)(void* user_data, const char* op,
                                                      int version),
    void* op_resolver_user_data) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetOpResolverV1", "options");
  options->callbacks = TfLiteOpResolverCallbacks{};
  options->callbacks.find_builtin_op_v1 = find_builtin_op_v1;
  options->callbacks.find_custom_op_v1 = find_custom_op_v1;
  options->callbacks.user_data = op_resolver_user_data;
}

TfLiteInterpreter* TfLiteInterpreterCreateWithSelectedOps(const TfLiteModel* model,
                                                          const TfLiteInterpreterOptions* options) {
  return tflite_c::CreateInterpreter(model, options, /*with_builtin_kernels=*/false);
}

void TfLiteInterpreterOptionsSetUseNNAPI(TfLiteInterpreterOptions* options, bool enable) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetUseNNAPI", "options");
  options->use_nnapi = enable;
}

void TfLiteInterpreterOptionsSetEnableDelegateFallback(TfLiteInterpreterOptions* options,
                                                       bool enable) {
  if (options == nullptr) {
    return ReportNull("TfLiteInterpreterOptionsSetEnableDelegateFallback", "options");
  }
  options->enable_delegate_fallback = enable;
}

void TfLiteSetAllowBufferHandleOutput(const TfLiteInterpreter* interpreter,
                                      bool allow_buffer_handle_output) {
  if (interpreter == nullptr) return ReportNull("TfLiteSetAllowBufferHandleOutput", "interpreter");
  const_cast<TfLiteInterpreter*>(interpreter)->allow_buffer_handle_output =
      allow_buffer_handle_output;
}

TfLiteStatus TfLiteInterpreterModifyGraphWithDelegate(const TfLiteInterpreter* interpreter,
                                                      TfLiteDelegate* delegate) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr) {
      ReportNull("TfLiteInterpreterModifyGraphWithDelegate", "interpreter");
      return kTfLiteError;
    }
    return tflite_c::ModifyGraphWithDelegate(interpreter->impl.get(), delegate);
  });
}

int32_t TfLiteInterpreterGetInputTensorIndex(const TfLiteInterpreter* interpreter,
                                             int32_t input_index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetInputTensorIndex", "interpreter");
    return -1;
  }
  const auto& v = interpreter->impl->primary().inputs();
  if (input_index < 0 || static_cast<size_t>(input_index) >= v.size()) return -1;
  return v[input_index];
}

int32_t TfLiteInterpreterGetOutputTensorIndex(const TfLiteInterpreter* interpreter,
                                              int32_t output_index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetOutputTensorIndex", "interpreter");
    return -1;
  }
  const auto& v = interpreter->impl->primary().outputs();
  if (output_index < 0 || static_cast<size_t>(output_index) >= v.size()) return -1;
  return v[output_index];
}

TfLiteStatus TfLiteInterpreterSetCustomAllocationForTensor(
    TfLiteInterpreter* interpreter, int tensor_index, const TfLiteCustomAllocation* allocation,
    int64_t flags) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr || allocation == nullptr) {
      ReportNull("TfLiteInterpreterSetCustomAllocationForTensor",
                 interpreter ? "allocation" : "interpreter");
      return kTfLiteError;
    }
    return interpreter->impl->primary().SetCustomAllocationForTensor(tensor_index, *allocation,
                                                                     flags);
  });
}

TfLiteStatus TfLiteInterpreterSetBufferHandle(TfLiteInterpreter* interpreter,
                                              TfLiteTensor* tensor,
                                              TfLiteBufferHandle buffer_handle,
                                              TfLiteOpaqueDelegate* delegate) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr || tensor == nullptr) {
      ReportNull("TfLiteInterpreterSetBufferHandle", interpreter ? "tensor" : "interpreter");
      return kTfLiteError;
    }
    auto* d = reinterpret_cast<TfLiteDelegate*>(delegate);
    // The tensor must be one of this interpreter's.
    tflite_c::Subgraph& sg = interpreter->impl->primary();
    if (sg.tensors_size() == 0 || tensor < sg.tensor(0) ||
        tensor > sg.tensor(static_cast<int>(sg.tensors_size() - 1))) {
      sg.ReportError("TfLiteInterpreterSetBufferHandle: tensor is not in the primary subgraph");
      return kTfLiteError;
    }
    if (tensor->delegate != nullptr && tensor->delegate != d) {
      sg.ReportError("TfLiteInterpreterSetBufferHandle: tensor is bound to another delegate");
      return kTfLiteError;
    }
    if (tensor->buffer_handle != kTfLiteNullBufferHandle && tensor->delegate != nullptr &&
        tensor->delegate->FreeBufferHandle != nullptr && tensor->buffer_handle != buffer_handle) {
      tensor->delegate->FreeBufferHandle(sg.context(), tensor->delegate, &tensor->buffer_handle);
    }
    tensor->delegate = d;
    tensor->buffer_handle = buffer_handle;
    return kTfLiteOk;
  });
}

TfLiteStatus TfLiteInterpreterGetBufferHandle(TfLiteInterpreter* interpreter, int tensor_index,
                                              TfLiteBufferHandle* buffer_handle,
                                              TfLiteOpaqueDelegate** delegate) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr || buffer_handle == nullptr || delegate == nullptr) {
      ReportNull("TfLiteInterpreterGetBufferHandle",
                 interpreter ? "output argument" : "interpreter");
      return kTfLiteError;
    }
    TfLiteTensor* t = interpreter->impl->primary().tensor(tensor_index);
    if (t == nullptr) {
      interpreter->impl->primary().ReportError(
          "TfLiteInterpreterGetBufferHandle: tensor index %d out of range", tensor_index);
      return kTfLiteError;
    }
    *buffer_handle = t->buffer_handle;
    *delegate = reinterpret_cast<TfLiteOpaqueDelegate*>(t->delegate);
    return kTfLiteOk;
  });
}

TfLiteStatus TfLiteInterpreterEnsureTensorDataIsReadable(TfLiteInterpreter* interpreter,
                                                         int tensor_index) {
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&]() -> TfLiteStatus {
    if (interpreter == nullptr) {
      ReportNull("TfLiteInterpreterEnsureTensorDataIsReadable", "interpreter");
      return kTfLiteError;
    }
    tflite_c::Subgraph& sg = interpreter->impl->primary();
    if (sg.tensor(tensor_index) == nullptr) {
      sg.ReportError("TfLiteInterpreterEnsureTensorDataIsReadable: tensor index %d out of range",
                     tensor_index);
      return kTfLiteError;
    }
    return tflite_c::EnsureTensorDataIsReadable(&sg, tensor_index);
  });
}

TfLiteStatus TfLiteSignatureRunnerCancel(TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerCancel", "signature_runner");
    return kTfLiteError;
  }
  return signature_runner->interpreter->impl->Cancel();
}

void TfLiteInterpreterOptionsSetTelemetryProfiler(TfLiteInterpreterOptions* options,
                                                  struct TfLiteTelemetryProfilerStruct* profiler) {
  if (options == nullptr) {
    return ReportNull("TfLiteInterpreterOptionsSetTelemetryProfiler", "options");
  }
  // Interpreters created from `options` report per-op Invoke events to it
  // (src/core/profiler.h).
  options->telemetry_profiler = profiler;
}

}  // extern "C"

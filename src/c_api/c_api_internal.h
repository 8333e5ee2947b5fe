// Definitions behind the opaque C API handles. The handles are thin: each
// wraps a core object and whatever the C contract needs on top.
#ifndef TFLITE_C_SRC_C_API_C_API_INTERNAL_H_
#define TFLITE_C_SRC_C_API_C_API_INTERNAL_H_

#include <cstdarg>
#include <memory>
#include <vector>

#include "src/core/error_reporter.h"
#include "src/core/exception_guard.h"
#include "src/core/interpreter.h"
#include "src/core/model.h"
#include "src/core/op_resolver.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"

struct TfLiteModel {
  std::shared_ptr<const tflite_c::Model> impl;
};

// Op lookup callbacks installed with TfLiteInterpreterOptionsSetOpResolver*.
struct TfLiteOpResolverCallbacks {
  void* user_data = nullptr;
  const TfLiteRegistration* (*find_builtin_op)(void*, TfLiteBuiltinOperator, int) = nullptr;
  const TfLiteRegistration* (*find_custom_op)(void*, const char*, int) = nullptr;
  const TfLiteRegistration_V1* (*find_builtin_op_v1)(void*, TfLiteBuiltinOperator, int) = nullptr;
  const TfLiteRegistration_V1* (*find_custom_op_v1)(void*, const char*, int) = nullptr;
  const TfLiteRegistration_V2* (*find_builtin_op_v2)(void*, TfLiteBuiltinOperator, int) = nullptr;
  const TfLiteRegistration_V2* (*find_custom_op_v2)(void*, const char*, int) = nullptr;
  const TfLiteRegistration_V3* (*find_builtin_op_v3)(void*, TfLiteBuiltinOperator, int) = nullptr;
  const TfLiteRegistration_V3* (*find_custom_op_v3)(void*, const char*, int) = nullptr;
  const TfLiteOperator* (*find_builtin_op_external)(void*, int, int) = nullptr;
  const TfLiteOperator* (*find_custom_op_external)(void*, const char*, int) = nullptr;

  bool any() const {
    return find_builtin_op || find_custom_op || find_builtin_op_v1 || find_custom_op_v1 ||
           find_builtin_op_v2 || find_custom_op_v2 || find_builtin_op_v3 || find_custom_op_v3 ||
           find_builtin_op_external || find_custom_op_external;
  }
};

struct TfLiteInterpreterOptions {
  static constexpr int kDefaultNumThreads = -1;
  int num_threads = kDefaultNumThreads;
  std::vector<TfLiteDelegate*> delegates;
  void (*error_reporter)(void*, const char*, va_list) = nullptr;
  void* error_reporter_user_data = nullptr;
  tflite_c::MutableOpResolver op_resolver;         // AddBuiltinOp / AddCustomOp
  std::vector<const TfLiteOperator*> operators;    // AddOperator
  TfLiteOpResolverCallbacks callbacks;
  bool enable_cancellation = false;
  bool use_nnapi = false;
  bool enable_delegate_fallback = false;
  struct TfLiteTelemetryProfilerStruct* telemetry_profiler = nullptr;
  void* profiler = nullptr;  // tflite::Profiler*, tflite_c_experimental.h
  int64_t max_while_iterations = 0;  // tflite_c_experimental.h; 0 = no limit
  int64_t max_allocation_bytes = 0;  // tflite_c_experimental.h; 0 = the default
  int use_xnnpack = -1;  // tflite_c_experimental.h; -1: on unless TFLITE_C_DISABLE_XNNPACK
};

struct TfLiteInterpreter {
  std::shared_ptr<const tflite_c::Model> model;
  // Everything the interpreter reports goes through here: to the options'
  // error reporter (or stderr), and kept for TfLiteInterpreterGetLastError.
  std::unique_ptr<tflite_c::RecordingErrorReporter> reporter;
  // The default XNNPACK delegate (src/c_api/default_xnnpack.h); declared
  // before `impl` so that it outlives the interpreter using it.
  std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)> default_delegate{nullptr, nullptr};
  std::unique_ptr<tflite_c::Interpreter> impl;
  bool enable_delegate_fallback = false;
  bool allow_buffer_handle_output = false;
};

struct TfLiteSignatureRunner {
  TfLiteInterpreter* interpreter = nullptr;
  const tflite_c::SignatureInfo* signature = nullptr;
  tflite_c::Subgraph* subgraph = nullptr;
  std::vector<const char*> input_names;   // point into *signature
  std::vector<const char*> output_names;
};

namespace tflite_c {

// Reports "<function>: <argument> is NULL" through the default reporter (the
// C API entry points' answer to a NULL handle, which has no reporter of its own).
void ReportNull(const char* function, const char* argument);

// The reporter of `interpreter`, or DefaultErrorReporter() when it is null
// (for GuardC in entry points taking an interpreter). Also starts a new call
// for TfLiteInterpreterGetLastError: entry points call it on entry.
ErrorReporter* ReporterOf(const TfLiteInterpreter* interpreter);

// The thread's reason for the last failed TfLiteModelCreate* /
// TfLiteInterpreterCreate* (TfLiteGetLastCreateError). Each create call
// clears it first; SetLastCreateError(nullptr or "") clears it too.
void SetLastCreateError(const char* message);
const char* LastCreateError();

// Wraps a verified model into its C handle; nullptr (after recording why in
// the thread's create error) when `model` is null.
TfLiteModel* WrapModel(std::unique_ptr<const Model> model, RecordingErrorReporter* reporter);

// Shared by TfLiteInterpreterCreate and TfLiteInterpreterCreateWithSelectedOps.
TfLiteInterpreter* CreateInterpreter(const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options,
                                     bool with_builtin_kernels);

// Copies delegate-held data back to the CPU buffer of tensor `index` of
// `subgraph` if it is stale.
TfLiteStatus EnsureTensorDataIsReadable(Subgraph* subgraph, int index);

// Applies `delegate` to every subgraph of `interpreter`.
TfLiteStatus ModifyGraphWithDelegate(Interpreter* interpreter, TfLiteDelegate* delegate);

// Whether any subgraph of `interpreter` has a delegate applied.
bool HasDelegates(Interpreter* interpreter);

// Removes every delegate from every subgraph of `interpreter`.
TfLiteStatus RemoveAllDelegates(Interpreter* interpreter);

// Delegate fallback at Invoke (TfLiteInterpreterOptionsSetEnableDelegateFallback).
TfLiteStatus InvokeWithCpuFallback(Interpreter* interpreter);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_C_API_C_API_INTERNAL_H_

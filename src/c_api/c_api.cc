// The stable C API (tensorflow/lite/core/c/c_api.h) over the core objects.
// Every entry point tolerates NULL and out-of-range arguments: it returns
// NULL / an error status and says why through an error reporter.
#include "tensorflow/lite/core/c/c_api.h"

#include <cstring>
#include <new>
#include <vector>

#include "src/c_api/c_api_internal.h"
#include "src/c_api/default_xnnpack.h"
#include "src/core/interpreter_builder.h"
#include "src/core/operator_internal.h"
#include "src/core/subgraph_access.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace {

constexpr char kVersion[] = "2.19.0";

void ReportNull(const char* function, const char* argument) {
  DefaultErrorReporter()->Reportf("%s: %s is NULL", function, argument);
}

ErrorReporter* ReporterOf(const TfLiteInterpreter* interpreter) {
  return interpreter->impl->reporter();
}

// Looks ops up through the callbacks installed on the options, converting
// older registration structs into the current one.
class CallbackOpResolver : public OpResolver {
 public:
  explicit CallbackOpResolver(const TfLiteOpResolverCallbacks& cb) : cb_(cb) {}

  const TfLiteRegistration* FindOp(int32_t code, int version) const override {
    const auto op = static_cast<TfLiteBuiltinOperator>(code);
    if (cb_.find_builtin_op_external) {
      if (const TfLiteOperator* ext = cb_.find_builtin_op_external(cb_.user_data, code, version)) {
        return Keep(RegistrationFromOperator(ext));
      }
    }
    if (cb_.find_builtin_op) {
      if (const TfLiteRegistration* r = cb_.find_builtin_op(cb_.user_data, op, version)) return r;
    }
    if (cb_.find_builtin_op_v3) {
      if (const auto* r = cb_.find_builtin_op_v3(cb_.user_data, op, version)) return Keep(Upgrade(*r));
    }
    if (cb_.find_builtin_op_v2) {
      if (const auto* r = cb_.find_builtin_op_v2(cb_.user_data, op, version)) return Keep(Upgrade(*r));
    }
    if (cb_.find_builtin_op_v1) {
      if (const auto* r = cb_.find_builtin_op_v1(cb_.user_data, op, version)) return Keep(Upgrade(*r));
    }
    return nullptr;
  }

  const TfLiteRegistration* FindOp(const char* name, int version) const override {
    if (cb_.find_custom_op_external) {
      if (const TfLiteOperator* ext = cb_.find_custom_op_external(cb_.user_data, name, version)) {
        return Keep(RegistrationFromOperator(ext));
      }
    }
    if (cb_.find_custom_op) {
      if (const TfLiteRegistration* r = cb_.find_custom_op(cb_.user_data, name, version)) return r;
    }
    if (cb_.find_custom_op_v3) {
      if (const auto* r = cb_.find_custom_op_v3(cb_.user_data, name, version)) return Keep(Upgrade(*r));
    }
    if (cb_.find_custom_op_v2) {
      if (const auto* r = cb_.find_custom_op_v2(cb_.user_data, name, version)) return Keep(Upgrade(*r));
    }
    if (cb_.find_custom_op_v1) {
      if (const auto* r = cb_.find_custom_op_v1(cb_.user_data, name, version)) return Keep(Upgrade(*r));
    }
    return nullptr;
  }

 private:
  // The older structs are prefixes of the current one.
  template <typename Old>
  static TfLiteRegistration Upgrade(const Old& old) {
    TfLiteRegistration r{};
    static_assert(sizeof(Old) <= sizeof(TfLiteRegistration), "registration layout");
    std::memcpy(&r, &old, sizeof(Old));
    return r;
  }
  const TfLiteRegistration* Keep(const TfLiteRegistration& r) const {
    kept_.push_back(std::make_unique<TfLiteRegistration>(r));
    return kept_.back().get();
  }

  TfLiteOpResolverCallbacks cb_;
  mutable std::vector<std::unique_ptr<TfLiteRegistration>> kept_;
};

const MutableOpResolver& BuiltinResolver() {
  static const MutableOpResolver* resolver = [] {
    auto* r = new MutableOpResolver();
    RegisterBuiltinKernels(r);
    RegisterMediaPipeKernels(r);  // custom ops, see mediapipe_ops.h
    return r;
  }();
  return *resolver;
}

}  // namespace

TfLiteInterpreter* CreateInterpreter(const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options,
                                     bool with_builtin_kernels) {
  if (model == nullptr || model->impl == nullptr) {
    ReportNull("TfLiteInterpreterCreate", "model");
    return nullptr;
  }
  std::unique_ptr<ErrorReporter> owned_reporter;
  if (options != nullptr && options->error_reporter != nullptr) {
    owned_reporter = std::make_unique<CallbackErrorReporter>(options->error_reporter,
                                                             options->error_reporter_user_data);
  }
  ErrorReporter* reporter = owned_reporter ? owned_reporter.get() : DefaultErrorReporter();

  MutableOpResolver resolver;
  if (with_builtin_kernels) resolver.AddAll(BuiltinResolver());
  if (options != nullptr) {
    resolver.AddAll(options->op_resolver);
    for (const TfLiteOperator* op : options->operators) {
      const TfLiteRegistration reg = RegistrationFromOperator(op);
      if (op->custom_name != nullptr) {
        resolver.AddCustom(op->custom_name, &reg, op->version, op->version);
      } else {
        resolver.AddBuiltin(op->builtin_code, &reg, op->version, op->version);
      }
    }
  }
  std::unique_ptr<CallbackOpResolver> callback_resolver;
  const OpResolver* chosen = &resolver;
  if (options != nullptr && options->callbacks.any()) {
    callback_resolver = std::make_unique<CallbackOpResolver>(options->callbacks);
    chosen = callback_resolver.get();
  }

  std::unique_ptr<Interpreter> interpreter;
  if (BuildInterpreter(model->impl, *chosen, reporter, &interpreter) != kTfLiteOk) {
    return nullptr;
  }
  if (options != nullptr) {
    if (options->num_threads != TfLiteInterpreterOptions::kDefaultNumThreads) {
      interpreter->SetNumThreads(options->num_threads);
    }
    if (options->max_while_iterations > 0) {
      ControlFlowStateOf(interpreter->primary().context())->max_while_iterations =
          options->max_while_iterations;
    }
    if (options->use_nnapi) {
      reporter->Reportf("NNAPI is not available on this platform; running on the CPU.");
    }
    // Profilers first, as upstream: delegates see context->profiler.
    if (options->telemetry_profiler != nullptr) {
      SetTelemetryProfiler(interpreter->shared(), options->telemetry_profiler);
    }
    if (options->profiler != nullptr) {
      SetProfiler(interpreter->shared(), static_cast<tflite::Profiler*>(options->profiler));
    }
    const size_t num_delegates = options->delegates.size();
    for (size_t i = 0; i < num_delegates; ++i) {
      const TfLiteStatus s = ModifyGraphWithDelegate(interpreter.get(), options->delegates[i]);
      if (s == kTfLiteOk) continue;
      // Only a delegate's own failure is recoverable: kTfLiteError means the
      // graph itself could not be prepared, which the CPU cannot fix either.
      const bool delegate_failed = s == kTfLiteDelegateError || s == kTfLiteApplicationError;
      if (!options->enable_delegate_fallback || !delegate_failed) return nullptr;
      // A failed delegate already undid every delegate of its subgraph; undo
      // the others too, so the whole model runs on CPU kernels.
      reporter->Reportf(
          "Delegate %zu of %zu could not be applied; delegate fallback is enabled, so the "
          "model runs on CPU kernels only.",
          i + 1, num_delegates);
      if (RemoveAllDelegates(interpreter.get()) != kTfLiteOk) return nullptr;
      break;
    }
    if (options->enable_cancellation) interpreter->EnableCancellation();
  }
  DefaultDelegatePtr default_delegate(nullptr, nullptr);
  if (with_builtin_kernels &&
      ApplyDefaultXnnpack(interpreter.get(), options, &default_delegate) != kTfLiteOk) {
    interpreter.reset();  // before the delegate it may use
    return nullptr;
  }
  auto* result = new (std::nothrow) TfLiteInterpreter;
  if (result == nullptr) {
    interpreter.reset();
    return nullptr;
  }
  result->default_delegate = std::move(default_delegate);
  result->model = model->impl;
  result->owned_reporter = std::move(owned_reporter);
  result->impl = std::move(interpreter);
  result->enable_delegate_fallback = options != nullptr && options->enable_delegate_fallback;
  return result;
}

bool HasDelegates(Interpreter* interpreter) {
  for (size_t i = 0; i < interpreter->subgraphs_size(); ++i) {
    if (interpreter->subgraph(static_cast<int>(i))->HasDelegates()) return true;
  }
  return false;
}

TfLiteStatus RemoveAllDelegates(Interpreter* interpreter) {
  for (size_t i = 0; i < interpreter->subgraphs_size(); ++i) {
    TF_LITE_ENSURE_STATUS(interpreter->subgraph(static_cast<int>(i))->RemoveAllDelegates());
  }
  return kTfLiteOk;
}

// Upstream's InvokeWithCPUFallback: after a failed Invoke with delegates
// applied, remove every delegate and run again on CPU kernels, keeping the
// caller's input data (re-planning memory may move the input buffers).
// Returns kTfLiteDelegateError when the CPU run succeeded (outputs are valid,
// the delegates are gone), else the CPU run's status.
TfLiteStatus InvokeWithCpuFallback(Interpreter* interpreter) {
  interpreter->reporter()->Reportf(
      "Invoke() failed in the presence of delegation. Retrying without.");
  Subgraph& sg = interpreter->primary();
  std::vector<std::vector<char>> saved;
  for (int t : sg.inputs()) {
    TF_LITE_ENSURE_STATUS(sg.EnsureTensorDataIsReadable(t));
    const TfLiteTensor* tensor = sg.tensor(t);
    const char* raw = tensor->data.raw_const;
    saved.emplace_back(raw, raw == nullptr ? raw : raw + tensor->bytes);
  }
  TF_LITE_ENSURE_STATUS(RemoveAllDelegates(interpreter));
  TF_LITE_ENSURE_STATUS(interpreter->AllocateTensors());
  for (size_t i = 0; i < saved.size(); ++i) {
    TfLiteTensor* tensor = sg.tensor(sg.inputs()[i]);
    if (tensor->data.raw != nullptr && tensor->bytes == saved[i].size() && !saved[i].empty()) {
      std::memcpy(tensor->data.raw, saved[i].data(), saved[i].size());
    }
  }
  TF_LITE_ENSURE_STATUS(interpreter->Invoke());
  return kTfLiteDelegateError;
}

TfLiteStatus EnsureTensorDataIsReadable(Subgraph* subgraph, int index) {
  return subgraph->EnsureTensorDataIsReadable(index);
}

TfLiteStatus ModifyGraphWithDelegate(Interpreter* interpreter, TfLiteDelegate* delegate) {
  if (delegate == nullptr) {
    interpreter->reporter()->Reportf("ModifyGraphWithDelegate: delegate is NULL");
    return kTfLiteDelegateError;
  }
  // Like upstream, the delegate is offered every subgraph, primary first.
  for (size_t i = 0; i < interpreter->subgraphs_size(); ++i) {
    const TfLiteStatus s =
        interpreter->subgraph(static_cast<int>(i))->ModifyGraphWithDelegate(delegate);
    if (s != kTfLiteOk) return s;
  }
  return kTfLiteOk;
}

}  // namespace tflite_c

using tflite_c::DefaultErrorReporter;
using tflite_c::ReportNull;

extern "C" {

const char* TfLiteVersion(void) { return tflite_c::kVersion; }
const char* TfLiteExtensionApisVersion(void) { return tflite_c::kVersion; }
int TfLiteSchemaVersion(void) { return 3; }

// ---- model -------------------------------------------------------------------

TfLiteModel* TfLiteModelCreateWithErrorReporter(const void* model_data, size_t model_size,
                                                void (*reporter)(void* user_data,
                                                                 const char* format,
                                                                 va_list args),
                                                void* user_data) {
  tflite_c::CallbackErrorReporter callback(reporter, user_data);
  tflite_c::ErrorReporter* r = reporter ? &callback : DefaultErrorReporter();
  std::unique_ptr<tflite_c::Model> m = tflite_c::Model::FromBuffer(model_data, model_size, r);
  if (m == nullptr) return nullptr;
  return new (std::nothrow) TfLiteModel{std::shared_ptr<const tflite_c::Model>(std::move(m))};
}

TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size) {
  return TfLiteModelCreateWithErrorReporter(model_data, model_size, nullptr, nullptr);
}

TfLiteModel* TfLiteModelCreateFromFileWithErrorReporter(
    const char* model_path, void (*reporter)(void* user_data, const char* format, va_list args),
    void* user_data) {
  tflite_c::CallbackErrorReporter callback(reporter, user_data);
  tflite_c::ErrorReporter* r = reporter ? &callback : DefaultErrorReporter();
  if (model_path == nullptr) {
    r->Reportf("TfLiteModelCreateFromFile: model_path is NULL");
    return nullptr;
  }
  std::unique_ptr<tflite_c::Model> m = tflite_c::Model::FromFile(model_path, r);
  if (m == nullptr) return nullptr;
  return new (std::nothrow) TfLiteModel{std::shared_ptr<const tflite_c::Model>(std::move(m))};
}

TfLiteModel* TfLiteModelCreateFromFile(const char* model_path) {
  return TfLiteModelCreateFromFileWithErrorReporter(model_path, nullptr, nullptr);
}

void TfLiteModelDelete(TfLiteModel* model) { delete model; }

// ---- options -----------------------------------------------------------------

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void) {
  return new (std::nothrow) TfLiteInterpreterOptions;
}

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCopy(const TfLiteInterpreterOptions* from) {
  if (from == nullptr) {
    ReportNull("TfLiteInterpreterOptionsCopy", "from");
    return nullptr;
  }
  return new (std::nothrow) TfLiteInterpreterOptions(*from);
}

void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options) { delete options; }

void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options,
                                           int32_t num_threads) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetNumThreads", "options");
  options->num_threads = num_threads;
}

void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                         TfLiteOpaqueDelegate* delegate) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsAddDelegate", "options");
  if (delegate == nullptr) return ReportNull("TfLiteInterpreterOptionsAddDelegate", "delegate");
  options->delegates.push_back(reinterpret_cast<TfLiteDelegate*>(delegate));
}

void TfLiteInterpreterOptionsSetErrorReporter(TfLiteInterpreterOptions* options,
                                              void (*reporter)(void* user_data,
                                                               const char* format,
                                                               va_list args),
                                              void* user_data) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsSetErrorReporter", "options");
  options->error_reporter = reporter;
  options->error_reporter_user_data = user_data;
}

void TfLiteInterpreterOptionsAddOperator(TfLiteInterpreterOptions* options,
                                         TfLiteOperator* registration) {
  if (options == nullptr) return ReportNull("TfLiteInterpreterOptionsAddOperator", "options");
  if (registration == nullptr) {
    return ReportNull("TfLiteInterpreterOptionsAddOperator", "registration");
  }
  options->operators.push_back(registration);
}

TfLiteStatus TfLiteInterpreterOptionsEnableCancellation(TfLiteInterpreterOptions* options,
                                                        bool enable) {
  if (options == nullptr) {
    ReportNull("TfLiteInterpreterOptionsEnableCancellation", "options");
    return kTfLiteError;
  }
  options->enable_cancellation = enable;
  return kTfLiteOk;
}

// ---- interpreter -------------------------------------------------------------

TfLiteInterpreter* TfLiteInterpreterCreate(const TfLiteModel* model,
                                           const TfLiteInterpreterOptions* optional_options) {
  return tflite_c::CreateInterpreter(model, optional_options, /*with_builtin_kernels=*/true);
}

void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter) { delete interpreter; }

int32_t TfLiteInterpreterGetInputTensorCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetInputTensorCount", "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->primary().inputs().size());
}

const int* TfLiteInterpreterInputTensorIndices(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterInputTensorIndices", "interpreter");
    return nullptr;
  }
  return interpreter->impl->primary().inputs().data();
}

TfLiteTensor* TfLiteInterpreterGetInputTensor(const TfLiteInterpreter* interpreter,
                                              int32_t input_index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetInputTensor", "interpreter");
    return nullptr;
  }
  const auto& inputs = interpreter->impl->primary().inputs();
  if (input_index < 0 || static_cast<size_t>(input_index) >= inputs.size()) {
    tflite_c::ReporterOf(interpreter)->Reportf(
        "TfLiteInterpreterGetInputTensor: input index %d out of range [0, %zu)", input_index,
        inputs.size());
    return nullptr;
  }
  return interpreter->impl->primary().tensor(inputs[input_index]);
}

TfLiteStatus TfLiteInterpreterResizeInputTensor(TfLiteInterpreter* interpreter,
                                                int32_t input_index, const int* input_dims,
                                                int32_t input_dims_size) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterResizeInputTensor", "interpreter");
    return kTfLiteError;
  }
  tflite_c::Subgraph& sg = interpreter->impl->primary();
  if (input_index < 0 || static_cast<size_t>(input_index) >= sg.inputs().size()) {
    sg.ReportError("TfLiteInterpreterResizeInputTensor: input index %d out of range [0, %zu)",
                   input_index, sg.inputs().size());
    return kTfLiteError;
  }
  if (input_dims_size < 0 || (input_dims_size > 0 && input_dims == nullptr)) {
    sg.ReportError("TfLiteInterpreterResizeInputTensor: invalid dims (size %d)", input_dims_size);
    return kTfLiteError;
  }
  std::vector<int> dims(input_dims, input_dims + input_dims_size);
  return sg.ResizeInputTensor(sg.inputs()[input_index], dims);
}

TfLiteStatus TfLiteInterpreterAllocateTensors(TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterAllocateTensors", "interpreter");
    return kTfLiteError;
  }
  return interpreter->impl->AllocateTensors();
}

TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterInvoke", "interpreter");
    return kTfLiteError;
  }
  TfLiteStatus s = interpreter->impl->Invoke();
  if (s != kTfLiteOk && s != kTfLiteCancelled && interpreter->enable_delegate_fallback &&
      tflite_c::HasDelegates(interpreter->impl.get())) {
    // kTfLiteDelegateError here means: the outputs are valid, computed on CPU.
    return tflite_c::InvokeWithCpuFallback(interpreter->impl.get());
  }
  if (s != kTfLiteOk) return s;
  if (!interpreter->allow_buffer_handle_output) {
    tflite_c::Subgraph& sg = interpreter->impl->primary();
    for (int t : sg.outputs()) TF_LITE_ENSURE_STATUS(tflite_c::EnsureTensorDataIsReadable(&sg, t));
  }
  return kTfLiteOk;
}

int32_t TfLiteInterpreterGetOutputTensorCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetOutputTensorCount", "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->primary().outputs().size());
}

const int* TfLiteInterpreterOutputTensorIndices(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterOutputTensorIndices", "interpreter");
    return nullptr;
  }
  return interpreter->impl->primary().outputs().data();
}

const TfLiteTensor* TfLiteInterpreterGetOutputTensor(const TfLiteInterpreter* interpreter,
                                                     int32_t output_index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetOutputTensor", "interpreter");
    return nullptr;
  }
  const auto& outputs = interpreter->impl->primary().outputs();
  if (output_index < 0 || static_cast<size_t>(output_index) >= outputs.size()) {
    tflite_c::ReporterOf(interpreter)->Reportf(
        "TfLiteInterpreterGetOutputTensor: output index %d out of range [0, %zu)", output_index,
        outputs.size());
    return nullptr;
  }
  return interpreter->impl->primary().tensor(outputs[output_index]);
}

TfLiteTensor* TfLiteInterpreterGetTensor(const TfLiteInterpreter* interpreter, int index) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetTensor", "interpreter");
    return nullptr;
  }
  TfLiteTensor* t = interpreter->impl->primary().tensor(index);
  if (t == nullptr) {
    tflite_c::ReporterOf(interpreter)->Reportf("TfLiteInterpreterGetTensor: index %d out of range",
                                               index);
  }
  return t;
}

TfLiteStatus TfLiteInterpreterCancel(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterCancel", "interpreter");
    return kTfLiteError;
  }
  return interpreter->impl->Cancel();
}

// ---- signatures --------------------------------------------------------------

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
  if (interpreter == nullptr) {
    ReportNull("TfLiteInterpreterGetSignatureRunner", "interpreter");
    return nullptr;
  }
  const tflite_c::SignatureInfo* sig = interpreter->impl->ResolveSignature(signature_key);
  if (sig == nullptr) return nullptr;
  tflite_c::Subgraph* sg = interpreter->impl->subgraph(sig->subgraph_index);
  if (sg == nullptr) return nullptr;
  auto* runner = new (std::nothrow) TfLiteSignatureRunner;
  if (runner == nullptr) return nullptr;
  runner->interpreter = const_cast<TfLiteInterpreter*>(interpreter);
  runner->signature = sig;
  runner->subgraph = sg;
  for (const auto& kv : sig->inputs) runner->input_names.push_back(kv.first.c_str());
  for (const auto& kv : sig->outputs) runner->output_names.push_back(kv.first.c_str());
  return runner;
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
  if (input_index < 0 || static_cast<size_t>(input_index) >= signature_runner->input_names.size()) {
    return nullptr;
  }
  return signature_runner->input_names[input_index];
}

namespace {
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
}  // namespace

TfLiteStatus TfLiteSignatureRunnerResizeInputTensor(TfLiteSignatureRunner* signature_runner,
                                                    const char* input_name,
                                                    const int* input_dims,
                                                    int32_t input_dims_size) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerResizeInputTensor", "signature_runner");
    return kTfLiteError;
  }
  const int t = SignatureTensor(signature_runner, input_name, true);
  if (t < 0) return kTfLiteError;
  if (input_dims_size < 0 || (input_dims_size > 0 && input_dims == nullptr)) {
    signature_runner->subgraph->ReportError("TfLiteSignatureRunnerResizeInputTensor: invalid dims");
    return kTfLiteError;
  }
  std::vector<int> dims(input_dims, input_dims + input_dims_size);
  return signature_runner->subgraph->ResizeInputTensor(t, dims);
}

TfLiteStatus TfLiteSignatureRunnerAllocateTensors(TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerAllocateTensors", "signature_runner");
    return kTfLiteError;
  }
  return signature_runner->subgraph->AllocateTensors();
}

TfLiteTensor* TfLiteSignatureRunnerGetInputTensor(TfLiteSignatureRunner* signature_runner,
                                                  const char* input_name) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetInputTensor", "signature_runner");
    return nullptr;
  }
  const int t = SignatureTensor(signature_runner, input_name, true);
  return t < 0 ? nullptr : signature_runner->subgraph->tensor(t);
}

TfLiteStatus TfLiteSignatureRunnerInvoke(TfLiteSignatureRunner* signature_runner) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerInvoke", "signature_runner");
    return kTfLiteError;
  }
  tflite_c::Subgraph* sg = signature_runner->subgraph;
  TF_LITE_ENSURE_STATUS(signature_runner->interpreter->impl->InvokeSubgraph(sg->index()));
  if (!signature_runner->interpreter->allow_buffer_handle_output) {
    for (int t : sg->outputs()) TF_LITE_ENSURE_STATUS(tflite_c::EnsureTensorDataIsReadable(sg, t));
  }
  return kTfLiteOk;
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
  if (output_index < 0 ||
      static_cast<size_t>(output_index) >= signature_runner->output_names.size()) {
    return nullptr;
  }
  return signature_runner->output_names[output_index];
}

const TfLiteTensor* TfLiteSignatureRunnerGetOutputTensor(
    const TfLiteSignatureRunner* signature_runner, const char* output_name) {
  if (signature_runner == nullptr) {
    ReportNull("TfLiteSignatureRunnerGetOutputTensor", "signature_runner");
    return nullptr;
  }
  const int t = SignatureTensor(signature_runner, output_name, false);
  return t < 0 ? nullptr : signature_runner->subgraph->tensor(t);
}

void TfLiteSignatureRunnerDelete(TfLiteSignatureRunner* signature_runner) {
  delete signature_runner;
}

// ---- tensors -------------------------------------------------------------------

TfLiteType TfLiteTensorType(const TfLiteTensor* tensor) {
  return tensor ? tensor->type : kTfLiteNoType;
}

int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->dims == nullptr) return -1;
  return tensor->dims->size;
}

int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index) {
  if (tensor == nullptr || tensor->dims == nullptr || dim_index < 0 ||
      dim_index >= tensor->dims->size) {
    return -1;
  }
  return tensor->dims->data[dim_index];
}

size_t TfLiteTensorByteSize(const TfLiteTensor* tensor) { return tensor ? tensor->bytes : 0; }

void* TfLiteTensorData(const TfLiteTensor* tensor) { return tensor ? tensor->data.raw : nullptr; }

const char* TfLiteTensorName(const TfLiteTensor* tensor) { return tensor ? tensor->name : nullptr; }

TfLiteQuantizationParams TfLiteTensorQuantizationParams(const TfLiteTensor* tensor) {
  if (tensor == nullptr) return TfLiteQuantizationParams{0.0f, 0};
  return tensor->params;
}

TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor, const void* input_data,
                                        size_t input_data_size) {
  if (tensor == nullptr || (input_data == nullptr && input_data_size > 0)) {
    ReportNull("TfLiteTensorCopyFromBuffer", tensor ? "input_data" : "tensor");
    return kTfLiteError;
  }
  if (tensor->bytes != input_data_size) {
    DefaultErrorReporter()->Reportf(
        "TfLiteTensorCopyFromBuffer: tensor '%s' has %zu bytes, buffer has %zu",
        tensor->name ? tensor->name : "", tensor->bytes, input_data_size);
    return kTfLiteError;
  }
  if (input_data_size == 0) return kTfLiteOk;
  if (tensor->data.raw == nullptr) {
    DefaultErrorReporter()->Reportf(
        "TfLiteTensorCopyFromBuffer: tensor '%s' has no memory (call AllocateTensors first)",
        tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  if (tensor->allocation_type == kTfLiteMmapRo) {
    DefaultErrorReporter()->Reportf("TfLiteTensorCopyFromBuffer: tensor '%s' is read-only",
                                    tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  std::memcpy(tensor->data.raw, input_data, input_data_size);
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* tensor, void* output_data,
                                      size_t output_data_size) {
  if (tensor == nullptr || (output_data == nullptr && output_data_size > 0)) {
    ReportNull("TfLiteTensorCopyToBuffer", tensor ? "output_data" : "tensor");
    return kTfLiteError;
  }
  if (tensor->bytes != output_data_size) {
    DefaultErrorReporter()->Reportf(
        "TfLiteTensorCopyToBuffer: tensor '%s' has %zu bytes, buffer has %zu",
        tensor->name ? tensor->name : "", tensor->bytes, output_data_size);
    return kTfLiteError;
  }
  if (output_data_size == 0) return kTfLiteOk;
  if (tensor->data.raw == nullptr) {
    DefaultErrorReporter()->Reportf("TfLiteTensorCopyToBuffer: tensor '%s' has no data",
                                    tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  std::memcpy(output_data, tensor->data.raw, output_data_size);
  return kTfLiteOk;
}

}  // extern "C"

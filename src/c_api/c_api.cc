// The stable C API (tensorflow/lite/core/c/c_api.h) over the core objects.
// Every entry point tolerates NULL and out-of-range arguments: it returns
// NULL / an error status and says why through an error reporter. The
// signature runner lives in c_api_signature.cc, the tensor accessors in
// c_api_tensor.cc, the interpreter options in c_api_options.cc.
#include "tensorflow/lite/core/c/c_api.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "src/c_api/c_api_internal.h"
#include "src/c_api/default_xnnpack.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "src/core/interpreter_builder.h"
#include "src/core/operator_internal.h"
#include "src/core/subgraph_access.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"
#include "src/kernels/register.h"

namespace tflite_c {
namespace {

constexpr char kVersion[] = "2.19.0";

// Looks ops up through the callbacks installed on the options, converting
// older registration structs into the current one.
class CallbackOpResolver : public OpResolver {
 public:
  explicit CallbackOpResolver(const TfLiteOpResolverCallbacks& cb) : cb_(cb) {}

  const TfLiteRegistration* FindOp(int32_t code, int version) const override {
    return Find(static_cast<TfLiteBuiltinOperator>(code), code, version,
                cb_.find_builtin_op_external, cb_.find_builtin_op, cb_.find_builtin_op_v3,
                cb_.find_builtin_op_v2, cb_.find_builtin_op_v1);
  }

  const TfLiteRegistration* FindOp(const char* name, int version) const override {
    return Find(name, name, version, cb_.find_custom_op_external, cb_.find_custom_op,
                cb_.find_custom_op_v3, cb_.find_custom_op_v2, cb_.find_custom_op_v1);
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

  // Asks the installed callbacks, newest kind first: TfLiteOperator, the
  // current registration struct, then V3, V2 and V1.
  template <typename Key, typename ExternalKey>
  const TfLiteRegistration* Find(Key key, ExternalKey external_key, int version,
                                 const TfLiteOperator* (*external)(void*, ExternalKey, int),
                                 const TfLiteRegistration* (*current)(void*, Key, int),
                                 const TfLiteRegistration_V3* (*v3)(void*, Key, int),
                                 const TfLiteRegistration_V2* (*v2)(void*, Key, int),
                                 const TfLiteRegistration_V1* (*v1)(void*, Key, int)) const {
    if (external != nullptr) {
      if (const TfLiteOperator* ext = external(cb_.user_data, external_key, version)) {
        return Keep(RegistrationFromOperator(ext));
      }
    }
    if (current != nullptr) {
      if (const TfLiteRegistration* r = current(cb_.user_data, key, version)) return r;
    }
    if (const TfLiteRegistration* r = FindOlder(v3, key, version)) return r;
    if (const TfLiteRegistration* r = FindOlder(v2, key, version)) return r;
    return FindOlder(v1, key, version);
  }
  template <typename Old, typename Key>
  const TfLiteRegistration* FindOlder(const Old* (*callback)(void*, Key, int), Key key,
                                      int version) const {
    if (callback == nullptr) return nullptr;
    const Old* r = callback(cb_.user_data, key, version);
    return r != nullptr ? Keep(Upgrade(*r)) : nullptr;
  }

  TfLiteOpResolverCallbacks cb_;
  mutable std::vector<std::unique_ptr<TfLiteRegistration>> kept_;
};

const MutableOpResolver& BuiltinResolver() {
  static const MutableOpResolver* resolver = [] {
    // Owned until complete: if registration throws (out of memory), nothing
    // leaks and the next call tries again.
    auto r = std::make_unique<MutableOpResolver>();
    RegisterBuiltinKernels(r.get());
    RegisterMediaPipeKernels(r.get());  // custom ops, see mediapipe_ops.h
    return r.release();
  }();
  return *resolver;
}

}  // namespace

void ReportNull(const char* function, const char* argument) {
  DefaultErrorReporter()->Reportf("%s: %s is NULL", function, argument);
}

ErrorReporter* ReporterOf(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr || interpreter->impl == nullptr) return DefaultErrorReporter();
  if (interpreter->reporter != nullptr) interpreter->reporter->BeginCall();
  return interpreter->impl->reporter();
}

namespace {
thread_local char last_create_error[RecordingErrorReporter::kMaxMessage] = "";
}  // namespace

void SetLastCreateError(const char* message) {
  std::snprintf(last_create_error, sizeof(last_create_error), "%s",
                message != nullptr ? message : "");
}

const char* LastCreateError() { return last_create_error; }

TfLiteModel* WrapModel(std::unique_ptr<const Model> model, RecordingErrorReporter* reporter) {
  if (model == nullptr) {
    SetLastCreateError(reporter->last()[0] != '\0' ? reporter->last() : "model creation failed");
    return nullptr;
  }
  return new TfLiteModel{std::shared_ptr<const Model>(std::move(model))};
}

namespace {

// TfLiteInterpreterCreate's work; may throw (CreateInterpreter catches).
// Moves `reporter` into the result on success.
TfLiteInterpreter* BuildCInterpreter(const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options,
                                     bool with_builtin_kernels,
                                     std::unique_ptr<RecordingErrorReporter>* owned_reporter) {
  RecordingErrorReporter* reporter = owned_reporter->get();
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
    if (options->max_allocation_bytes > 0) {
      interpreter->shared()->memory->set_limit(
          static_cast<size_t>(options->max_allocation_bytes));
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
      // As upstream, a NULL delegate added to the options makes creation
      // fail, fallback or not: the caller meant to apply something.
      if (options->delegates[i] == nullptr) {
        reporter->Reportf("Null delegate.");
        return nullptr;
      }
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
  auto result = std::make_unique<TfLiteInterpreter>();
  result->default_delegate = std::move(default_delegate);
  result->model = model->impl;
  result->reporter = std::move(*owned_reporter);
  result->impl = std::move(interpreter);
  result->enable_delegate_fallback = options != nullptr && options->enable_delegate_fallback;
  return result.release();
}

}  // namespace

TfLiteInterpreter* CreateInterpreter(const TfLiteModel* model,
                                     const TfLiteInterpreterOptions* options,
                                     bool with_builtin_kernels) {
  SetLastCreateError(nullptr);
  if (model == nullptr || model->impl == nullptr) {
    ReportNull("TfLiteInterpreterCreate", "model");
    SetLastCreateError("TfLiteInterpreterCreate: model is NULL");
    return nullptr;
  }
  std::unique_ptr<RecordingErrorReporter> reporter(new (std::nothrow) RecordingErrorReporter(
      options != nullptr ? options->error_reporter : nullptr,
      options != nullptr ? options->error_reporter_user_data : nullptr));
  if (reporter == nullptr) {
    DefaultErrorReporter()->Reportf("TfLiteInterpreterCreate: out of memory");
    SetLastCreateError("TfLiteInterpreterCreate: out of memory");
    return nullptr;
  }
  TfLiteInterpreter* result = GuardC<TfLiteInterpreter*>(
      reporter.get(), "TfLiteInterpreterCreate", nullptr,
      [&] { return BuildCInterpreter(model, options, with_builtin_kernels, &reporter); });
  if (result == nullptr) {
    SetLastCreateError(reporter->last()[0] != '\0' ? reporter->last()
                                                    : "TfLiteInterpreterCreate failed");
  }
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
    interpreter->reporter()->Reportf("Null delegate.");
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
using tflite_c::GuardC;
using tflite_c::ReporterOf;
using tflite_c::ReportNull;

namespace {

// TfLiteModelCreate* share this: one reporter that records what it forwards,
// the thread's create error cleared first and set on failure.
template <typename Load>
TfLiteModel* CreateModel(const char* where,
                         void (*reporter)(void* user_data, const char* format, va_list args),
                         void* user_data, Load&& load) {
  tflite_c::SetLastCreateError(nullptr);
  tflite_c::RecordingErrorReporter recorder(reporter, user_data);
  TfLiteModel* model = GuardC<TfLiteModel*>(&recorder, where, nullptr, [&] {
    return tflite_c::WrapModel(load(static_cast<tflite_c::ErrorReporter*>(&recorder)),
                               &recorder);
  });
  if (model == nullptr && tflite_c::LastCreateError()[0] == '\0') {
    tflite_c::SetLastCreateError(recorder.last());
  }
  return model;
}

}  // namespace

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
  return CreateModel(__func__, reporter, user_data, [&](tflite_c::ErrorReporter* r) {
    return tflite_c::Model::FromBuffer(model_data, model_size, r);
  });
}

TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size) {
  return TfLiteModelCreateWithErrorReporter(model_data, model_size, nullptr, nullptr);
}

TfLiteModel* TfLiteModelCreateFromFileWithErrorReporter(
    const char* model_path, void (*reporter)(void* user_data, const char* format, va_list args),
    void* user_data) {
  return CreateModel(__func__, reporter, user_data,
                     [&](tflite_c::ErrorReporter* r) -> std::unique_ptr<tflite_c::Model> {
                       if (model_path == nullptr) {
                         r->Reportf("TfLiteModelCreateFromFile: model_path is NULL");
                         return nullptr;
                       }
                       return tflite_c::Model::FromFile(model_path, r);
                     });
}

TfLiteModel* TfLiteModelCreateFromFile(const char* model_path) {
  return TfLiteModelCreateFromFileWithErrorReporter(model_path, nullptr, nullptr);
}

TfLiteModel* TfLiteModelCreateCopy(const void* model_data, size_t model_size) {
  return TfLiteModelCreateCopyWithErrorReporter(model_data, model_size, nullptr, nullptr);
}

TfLiteModel* TfLiteModelCreateCopyWithErrorReporter(const void* model_data, size_t model_size,
                                                    void (*reporter)(void* user_data,
                                                                     const char* format,
                                                                     va_list args),
                                                    void* user_data) {
  return CreateModel(__func__, reporter, user_data, [&](tflite_c::ErrorReporter* r) {
    return tflite_c::Model::FromBufferCopy(model_data, model_size, r);
  });
}

void TfLiteModelDelete(TfLiteModel* model) { delete model; }

// ---- interpreter -------------------------------------------------------------

TfLiteInterpreter* TfLiteInterpreterCreate(const TfLiteModel* model,
                                           const TfLiteInterpreterOptions* optional_options) {
  return tflite_c::CreateInterpreter(model, optional_options, /*with_builtin_kernels=*/true);
}

void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter) {
  // Kernel and delegate free callbacks run here; an exception from one is
  // reported, and the rest of the teardown still happens in the destructors.
  GuardC(ReporterOf(interpreter), __func__, [&] { delete interpreter; });
}

int32_t TfLiteInterpreterGetInputTensorCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->primary().inputs().size());
}

const int* TfLiteInterpreterInputTensorIndices(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return nullptr;
  }
  return interpreter->impl->primary().inputs().data();
}

TfLiteTensor* TfLiteInterpreterGetInputTensor(const TfLiteInterpreter* interpreter,
                                              int32_t input_index) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return nullptr;
  }
  const auto& inputs = interpreter->impl->primary().inputs();
  if (input_index < 0 || static_cast<size_t>(input_index) >= inputs.size()) {
    ReporterOf(interpreter)->Reportf("%s: input index %d out of range [0, %zu)", __func__,
                                     input_index, inputs.size());
    return nullptr;
  }
  return interpreter->impl->primary().tensor(inputs[input_index]);
}

TfLiteStatus TfLiteInterpreterResizeInputTensor(TfLiteInterpreter* interpreter,
                                                int32_t input_index, const int* input_dims,
                                                int32_t input_dims_size) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return kTfLiteError;
  }
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&] {
    tflite_c::Subgraph& sg = interpreter->impl->primary();
    if (input_index < 0 || static_cast<size_t>(input_index) >= sg.inputs().size()) {
      sg.ReportError("TfLiteInterpreterResizeInputTensor: input index %d out of range [0, %zu)",
                     input_index, sg.inputs().size());
      return kTfLiteError;
    }
    if (input_dims_size < 0 || (input_dims_size > 0 && input_dims == nullptr)) {
      sg.ReportError("TfLiteInterpreterResizeInputTensor: invalid dims (size %d)",
                     input_dims_size);
      return kTfLiteError;
    }
    std::vector<int> dims(input_dims, input_dims + input_dims_size);
    return sg.ResizeInputTensor(sg.inputs()[input_index], dims);
  });
}

TfLiteStatus TfLiteInterpreterAllocateTensors(TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return kTfLiteError;
  }
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError,
                [&] { return interpreter->impl->AllocateTensors(); });
}

TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return kTfLiteError;
  }
  return GuardC(ReporterOf(interpreter), __func__, kTfLiteError, [&] {
    TfLiteStatus s = interpreter->impl->Invoke();
    if (s != kTfLiteOk && s != kTfLiteCancelled && interpreter->enable_delegate_fallback &&
        tflite_c::HasDelegates(interpreter->impl.get())) {
      // kTfLiteDelegateError here means: the outputs are valid, computed on CPU.
      return tflite_c::InvokeWithCpuFallback(interpreter->impl.get());
    }
    if (s != kTfLiteOk) return s;
    if (!interpreter->allow_buffer_handle_output) {
      tflite_c::Subgraph& sg = interpreter->impl->primary();
      for (int t : sg.outputs()) {
        TF_LITE_ENSURE_STATUS(tflite_c::EnsureTensorDataIsReadable(&sg, t));
      }
    }
    return kTfLiteOk;
  });
}

int32_t TfLiteInterpreterGetOutputTensorCount(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return 0;
  }
  return static_cast<int32_t>(interpreter->impl->primary().outputs().size());
}

const int* TfLiteInterpreterOutputTensorIndices(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return nullptr;
  }
  return interpreter->impl->primary().outputs().data();
}

const TfLiteTensor* TfLiteInterpreterGetOutputTensor(const TfLiteInterpreter* interpreter,
                                                     int32_t output_index) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return nullptr;
  }
  const auto& outputs = interpreter->impl->primary().outputs();
  if (output_index < 0 || static_cast<size_t>(output_index) >= outputs.size()) {
    ReporterOf(interpreter)->Reportf("%s: output index %d out of range [0, %zu)", __func__,
                                     output_index, outputs.size());
    return nullptr;
  }
  return interpreter->impl->primary().tensor(outputs[output_index]);
}

TfLiteTensor* TfLiteInterpreterGetTensor(const TfLiteInterpreter* interpreter, int index) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return nullptr;
  }
  TfLiteTensor* t = interpreter->impl->primary().tensor(index);
  if (t == nullptr) ReporterOf(interpreter)->Reportf("%s: index %d out of range", __func__, index);
  return t;
}

TfLiteStatus TfLiteInterpreterCancel(const TfLiteInterpreter* interpreter) {
  if (interpreter == nullptr) {
    ReportNull(__func__, "interpreter");
    return kTfLiteError;
  }
  return interpreter->impl->Cancel();
}

}  // extern "C"

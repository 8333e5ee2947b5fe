// tflite::InterpreterBuilder: the core's BuildInterpreter, then the
// builder's thread count and delegates, as TfLiteInterpreterCreate does.
#include "tensorflow/lite/interpreter_builder.h"

#include <utility>

#include "src/c_api/c_api_internal.h"
#include "src/cc/cc_internal.h"
#include "src/core/interpreter.h"
#include "src/core/interpreter_builder.h"

namespace tflite {

InterpreterBuilder::InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                                       const InterpreterOptions* /*options_experimental*/)
    : model_(model),
      op_resolver_(op_resolver),
      error_reporter_(model.error_reporter() ? model.error_reporter() : DefaultErrorReporter()) {}

InterpreterBuilder::~InterpreterBuilder() = default;

TfLiteStatus InterpreterBuilder::SetNumThreads(int num_threads) {
  if (num_threads < -1) {
    TF_LITE_REPORT_ERROR(error_reporter_,
                         "num_threads should be >= 0 or just -1 to let the library choose; "
                         "got %d",
                         num_threads);
    return kTfLiteError;
  }
  num_threads_ = num_threads;
  return kTfLiteOk;
}

void InterpreterBuilder::AddDelegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) {
    TF_LITE_REPORT_ERROR(error_reporter_, "InterpreterBuilder::AddDelegate: delegate is null");
    return;
  }
  delegates_.push_back(delegate);
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter,
                                            int num_threads) {
  TF_LITE_ENSURE_STATUS(SetNumThreads(num_threads));
  return (*this)(interpreter);
}

TfLiteStatus InterpreterBuilder::operator()(std::unique_ptr<Interpreter>* interpreter) {
  if (interpreter == nullptr) {
    TF_LITE_REPORT_ERROR(error_reporter_, "InterpreterBuilder: interpreter is null");
    return kTfLiteError;
  }
  interpreter->reset();
  if (!model_.initialized()) {
    TF_LITE_REPORT_ERROR(error_reporter_, "InterpreterBuilder: the model is not initialized");
    return kTfLiteError;
  }
  std::unique_ptr<Interpreter> result(new Interpreter(tflite_c::CcAccess::Core(model_), error_reporter_));
  result->reporter_adapter_.reset(new Interpreter::ReporterAdapter(error_reporter_));
  const tflite_c::ForwardingOpResolver resolver(op_resolver_);
  TF_LITE_ENSURE_STATUS(tflite_c::BuildInterpreter(tflite_c::CcAccess::Core(model_), resolver,
                                                   result->reporter_adapter_.get(),
                                                   &result->impl_));
  if (num_threads_ != -1) result->impl_->SetNumThreads(num_threads_);
  for (TfLiteDelegate* delegate : delegates_) {
    const TfLiteStatus s = result->ModifyGraphWithDelegate(delegate);
    if (s != kTfLiteOk) return s;
  }
  *interpreter = std::move(result);
  return kTfLiteOk;
}

}  // namespace tflite

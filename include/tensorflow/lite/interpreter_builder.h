// tflite::InterpreterBuilder: builds a tflite::Interpreter from a
// FlatBufferModel and an OpResolver (libtflite_cc).
//
//   tflite::ops::builtin::BuiltinOpResolver resolver;
//   std::unique_ptr<tflite::Interpreter> interpreter;
//   if (tflite::InterpreterBuilder(*model, resolver)(&interpreter) != kTfLiteOk) ...
#ifndef TENSORFLOW_LITE_INTERPRETER_BUILDER_H_
#define TENSORFLOW_LITE_INTERPRETER_BUILDER_H_

#include <memory>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"

namespace tflite {

// Accepted for source compatibility; no option is interpreted yet.
class TFLITE_CC_EXPORT InterpreterOptions {
 public:
  InterpreterOptions() = default;
};

class TFLITE_CC_EXPORT InterpreterBuilder {
 public:
  // `model` and `op_resolver` must outlive the call operator; the model's
  // bytes are kept alive by the interpreters built from it.
  InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver,
                     const InterpreterOptions* options_experimental = nullptr);
  ~InterpreterBuilder();
  InterpreterBuilder(const InterpreterBuilder&) = delete;
  InterpreterBuilder& operator=(const InterpreterBuilder&) = delete;

  // Builds a fresh interpreter into *interpreter; on failure *interpreter is
  // reset to null and the status says why (kTfLiteUnresolvedOps for a
  // builtin op without a kernel, kTfLiteDelegateError for a failed delegate).
  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter);
  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter, int num_threads);

  // -1 lets the library choose. kTfLiteError for other values below 1.
  TfLiteStatus SetNumThreads(int num_threads);
  // Applied, in order, by the call operator; the caller keeps `delegate`
  // alive for the interpreter's lifetime.
  void AddDelegate(TfLiteDelegate* delegate);
  void AddDelegate(TfLiteOpaqueDelegateStruct* delegate) {
    AddDelegate(reinterpret_cast<TfLiteDelegate*>(delegate));
  }

 private:
  const FlatBufferModel& model_;
  const OpResolver& op_resolver_;
  ErrorReporter* error_reporter_;
  int num_threads_ = -1;
  std::vector<TfLiteDelegate*> delegates_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_INTERPRETER_BUILDER_H_

// Glue between the C++ API's types and the core's (libtflite_cc only).
#ifndef TFLITE_C_SRC_CC_CC_INTERNAL_H_
#define TFLITE_C_SRC_CC_CC_INTERNAL_H_

#include <cstdarg>
#include <memory>

#include "src/core/error_reporter.h"
#include "src/core/op_resolver.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace tflite_c {

// Lets the core report through a caller's tflite::ErrorReporter.
class ForwardingErrorReporter : public ErrorReporter {
 public:
  explicit ForwardingErrorReporter(tflite::ErrorReporter* target) : target_(target) {}
  void Report(const char* format, va_list args) override { target_->Report(format, args); }

 private:
  tflite::ErrorReporter* target_;
};

// Lets the core look ops up in a caller's tflite::OpResolver (which may be
// a user subclass, so every lookup goes through its virtual FindOp).
class ForwardingOpResolver : public OpResolver {
 public:
  explicit ForwardingOpResolver(const tflite::OpResolver& target) : target_(target) {}
  const TfLiteRegistration* FindOp(int32_t builtin_code, int version) const override {
    return target_.FindOp(static_cast<tflite::BuiltinOperator>(builtin_code), version);
  }
  const TfLiteRegistration* FindOp(const char* custom_name, int version) const override {
    return target_.FindOp(custom_name, version);
  }

 private:
  const tflite::OpResolver& target_;
};

// The only way from the C++ API's public classes to the core objects behind
// them: their accessors are private, with this struct their one friend, so
// a user of the installed headers cannot reach internal types.
struct CcAccess {
  static Interpreter* Core(const tflite::Interpreter& interpreter) { return interpreter.impl(); }
  static const std::shared_ptr<const Model>& Core(const tflite::FlatBufferModel& model) {
    return model.impl();
  }
  static MutableOpResolver* Core(tflite::MutableOpResolver& resolver) {
    return resolver.mutable_impl();
  }
};

}  // namespace tflite_c

namespace tflite {

class Interpreter::ReporterAdapter : public tflite_c::ForwardingErrorReporter {
 public:
  using ForwardingErrorReporter::ForwardingErrorReporter;
};

}  // namespace tflite

#endif  // TFLITE_C_SRC_CC_CC_INTERNAL_H_

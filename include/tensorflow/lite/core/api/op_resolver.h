// tflite::OpResolver: maps an operator of the model (builtin code or custom
// name, plus version) to the kernel that runs it (libtflite_cc).
#ifndef TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_
#define TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_

#include <cstdint>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite {

// The schema's operator enum. Declared here without its enumerators so that
// this header does not need the generated schema; a value is any
// TfLiteBuiltinOperator code, e.g.
// static_cast<tflite::BuiltinOperator>(kTfLiteBuiltinAdd). Including
// schema_generated.h as well completes the same type.
enum BuiltinOperator : int32_t;

class TFLITE_CC_EXPORT OpResolver {
 public:
  virtual ~OpResolver() = default;
  // nullptr when no kernel is registered for the operator and version.
  virtual const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const = 0;
  virtual const TfLiteRegistration* FindOp(const char* op, int version) const = 0;
  // Whether ops other than the standard builtins may be resolved.
  virtual bool MayContainUserDefinedOps() const { return true; }
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_

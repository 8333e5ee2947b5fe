// tflite::OpResolver: maps an operator of the model (builtin code or custom
// name, plus version) to the kernel that runs it (libtflite_cc).
#ifndef TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_
#define TENSORFLOW_LITE_CORE_API_OP_RESOLVER_H_

#include <cstdint>

#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/c/common.h"
// tflite::BuiltinOperator and its enumerators (BuiltinOperator_ADD, ...).
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite {

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

// tflite::MutableOpResolver: an op resolver filled at run time (libtflite_cc).
#ifndef TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_
#define TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_

#include <memory>

#include "tensorflow/lite/core/api/op_resolver.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
class MutableOpResolver;  // the core's table, shared with the C API
struct CcAccess;           // libtflite_cc's own way in (src/cc/cc_internal.h)
}  // namespace tflite_c

namespace tflite {

// Registrations are copied in, so the caller's struct need not outlive the
// resolver. A later registration of the same (op, version) replaces the
// earlier one.
class TFLITE_CC_EXPORT MutableOpResolver : public OpResolver {
 public:
  MutableOpResolver();
  MutableOpResolver(const MutableOpResolver& other);
  MutableOpResolver& operator=(const MutableOpResolver& other);
  ~MutableOpResolver() override;

  const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const override;
  const TfLiteRegistration* FindOp(const char* op, int version) const override;

  void AddBuiltin(tflite::BuiltinOperator op, const TfLiteRegistration* registration,
                  int version = 1);
  void AddBuiltin(tflite::BuiltinOperator op, const TfLiteRegistration* registration,
                  int min_version, int max_version);
  void AddCustom(const char* name, const TfLiteRegistration* registration, int version = 1);
  void AddCustom(const char* name, const TfLiteRegistration* registration, int min_version,
                 int max_version);
  // A TfLiteOperator (the stable-ABI op description, see
  // core/c/operator.h); it is registered for its own builtin code or custom
  // name and version. The operator must outlive the resolver.
  void AddOp(const TfLiteOperator* op);
  // Every registration of `other`, replacing entries with the same key.
  void AddAll(const MutableOpResolver& other);


 private:
  friend struct tflite_c::CcAccess;
  // The core table.
  const tflite_c::MutableOpResolver& impl() const { return *impl_; }
  tflite_c::MutableOpResolver* mutable_impl() { return impl_.get(); }

  std::unique_ptr<tflite_c::MutableOpResolver> impl_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_MUTABLE_OP_RESOLVER_H_

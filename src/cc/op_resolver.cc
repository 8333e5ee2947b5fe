// tflite::MutableOpResolver and BuiltinOpResolver over the core's table.
#include "tensorflow/lite/mutable_op_resolver.h"

#include "src/cc/cc_internal.h"
#include "src/core/op_resolver.h"
#include "src/core/operator_internal.h"
#include "src/kernels/mediapipe/mediapipe_ops.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/kernels/register.h"

namespace tflite {

MutableOpResolver::MutableOpResolver() : impl_(new tflite_c::MutableOpResolver) {}

MutableOpResolver::MutableOpResolver(const MutableOpResolver& other)
    : OpResolver(other), impl_(new tflite_c::MutableOpResolver(*other.impl_)) {}

MutableOpResolver& MutableOpResolver::operator=(const MutableOpResolver& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}

MutableOpResolver::~MutableOpResolver() = default;

const TfLiteRegistration* MutableOpResolver::FindOp(tflite::BuiltinOperator op,
                                                    int version) const {
  return impl_->FindOp(static_cast<int32_t>(op), version);
}

const TfLiteRegistration* MutableOpResolver::FindOp(const char* op, int version) const {
  if (op == nullptr) return nullptr;
  return impl_->FindOp(op, version);
}

void MutableOpResolver::AddBuiltin(tflite::BuiltinOperator op,
                                   const TfLiteRegistration* registration, int version) {
  AddBuiltin(op, registration, version, version);
}

void MutableOpResolver::AddBuiltin(tflite::BuiltinOperator op,
                                   const TfLiteRegistration* registration, int min_version,
                                   int max_version) {
  if (registration == nullptr) return;
  impl_->AddBuiltin(static_cast<int32_t>(op), registration, min_version, max_version);
}

void MutableOpResolver::AddCustom(const char* name, const TfLiteRegistration* registration,
                                  int version) {
  AddCustom(name, registration, version, version);
}

void MutableOpResolver::AddCustom(const char* name, const TfLiteRegistration* registration,
                                  int min_version, int max_version) {
  if (name == nullptr || registration == nullptr) return;
  impl_->AddCustom(name, registration, min_version, max_version);
}

void MutableOpResolver::AddOp(const TfLiteOperator* op) {
  if (op == nullptr) return;
  // The same adaptation TfLiteInterpreterOptionsAddOperator uses.
  const TfLiteRegistration reg = tflite_c::RegistrationFromOperator(op);
  if (op->custom_name != nullptr) {
    impl_->AddCustom(op->custom_name, &reg, op->version, op->version);
  } else {
    impl_->AddBuiltin(op->builtin_code, &reg, op->version, op->version);
  }
}

void MutableOpResolver::AddAll(const MutableOpResolver& other) { impl_->AddAll(*other.impl_); }

namespace ops {
namespace builtin {

BuiltinOpResolver::BuiltinOpResolver() {
  // Filled once, then copied: the same kernels TfLiteInterpreterCreate uses.
  static const tflite_c::MutableOpResolver* const kBuiltins = [] {
    auto* r = new tflite_c::MutableOpResolver;
    tflite_c::RegisterBuiltinKernels(r);
    tflite_c::RegisterMediaPipeKernels(r);
    return r;
  }();
  tflite_c::CcAccess::Core(*this)->AddAll(*kBuiltins);
}

}  // namespace builtin
}  // namespace ops
}  // namespace tflite

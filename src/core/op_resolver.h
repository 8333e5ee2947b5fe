// Maps (builtin code | custom name, version) to a kernel registration.
#ifndef TFLITE_C_SRC_CORE_OP_RESOLVER_H_
#define TFLITE_C_SRC_CORE_OP_RESOLVER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {

class OpResolver {
 public:
  virtual ~OpResolver() = default;
  // Returns nullptr when no kernel is registered for that code and version.
  virtual const TfLiteRegistration* FindOp(int32_t builtin_code, int version) const = 0;
  virtual const TfLiteRegistration* FindOp(const char* custom_name, int version) const = 0;
};

// A resolver whose table is filled at run time. Registrations are copied in;
// the copy's builtin_code/custom_name/version fields are filled in.
class MutableOpResolver : public OpResolver {
 public:
  MutableOpResolver() = default;
  // Copies re-point custom_name at the copy's own key strings.
  MutableOpResolver(const MutableOpResolver& other) : OpResolver() { AddAll(other); }
  MutableOpResolver& operator=(const MutableOpResolver& other) {
    if (this != &other) {
      builtins_.clear();
      customs_.clear();
      AddAll(other);
    }
    return *this;
  }

  const TfLiteRegistration* FindOp(int32_t builtin_code, int version) const override;
  const TfLiteRegistration* FindOp(const char* custom_name, int version) const override;

  // Registers `reg` for every version in [min_version, max_version].
  void AddBuiltin(int32_t builtin_code, const TfLiteRegistration* reg, int min_version = 1,
                  int max_version = 1);
  void AddCustom(const char* name, const TfLiteRegistration* reg, int min_version = 1,
                 int max_version = 1);
  // Adds every entry of `other`, overriding entries with the same key.
  void AddAll(const MutableOpResolver& other);

  // Builtin codes that have at least one registered version (sorted).
  std::map<int32_t, std::pair<int, int>> BuiltinVersionRanges() const;
  // Custom op names with their lowest and highest registered version.
  std::map<std::string, std::pair<int, int>> CustomVersionRanges() const;

 private:
  std::map<std::pair<int32_t, int>, TfLiteRegistration> builtins_;
  std::map<std::pair<std::string, int>, TfLiteRegistration> customs_;
};

// Upstream's name of a builtin operator code ("CONV_2D"), or "UNKNOWN".
const char* BuiltinOperatorName(int32_t builtin_code);

}  // namespace tflite_c

#endif  // TFLITE_C_SRC_CORE_OP_RESOLVER_H_

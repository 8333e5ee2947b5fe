#include "src/core/op_resolver.h"

#include <algorithm>

#include "schema_generated.h"

namespace tflite_c {

const TfLiteRegistration* MutableOpResolver::FindOp(int32_t builtin_code, int version) const {
  auto it = builtins_.find({builtin_code, version});
  return it == builtins_.end() ? nullptr : &it->second;
}

const TfLiteRegistration* MutableOpResolver::FindOp(const char* custom_name, int version) const {
  if (custom_name == nullptr) return nullptr;
  auto it = customs_.find({std::string(custom_name), version});
  return it == customs_.end() ? nullptr : &it->second;
}

void MutableOpResolver::AddBuiltin(int32_t builtin_code, const TfLiteRegistration* reg,
                                   int min_version, int max_version) {
  if (reg == nullptr) return;
  for (int v = min_version; v <= max_version; ++v) {
    TfLiteRegistration copy = *reg;
    copy.builtin_code = builtin_code;
    copy.custom_name = nullptr;
    copy.version = v;
    builtins_[{builtin_code, v}] = copy;
  }
}

void MutableOpResolver::AddCustom(const char* name, const TfLiteRegistration* reg,
                                  int min_version, int max_version) {
  if (reg == nullptr || name == nullptr) return;
  for (int v = min_version; v <= max_version; ++v) {
    auto key = std::make_pair(std::string(name), v);
    TfLiteRegistration copy = *reg;
    copy.builtin_code = 32;  // kTfLiteBuiltinCustom
    copy.version = v;
    auto& slot = customs_[key];
    slot = copy;
    // Point at the key string owned by the map, which outlives the entry.
    slot.custom_name = customs_.find(key)->first.first.c_str();
  }
}

void MutableOpResolver::AddAll(const MutableOpResolver& other) {
  for (const auto& kv : other.builtins_) builtins_[kv.first] = kv.second;
  for (const auto& kv : other.customs_) {
    auto& slot = customs_[kv.first];
    slot = kv.second;
    slot.custom_name = customs_.find(kv.first)->first.first.c_str();
  }
}

namespace {

// Folds (key, version) entries into key -> [lowest, highest] version.
template <typename Key, typename Entries>
std::map<Key, std::pair<int, int>> VersionRanges(const Entries& entries) {
  std::map<Key, std::pair<int, int>> out;
  for (const auto& kv : entries) {
    const int version = kv.first.second;
    auto inserted = out.emplace(kv.first.first, std::make_pair(version, version));
    if (!inserted.second) {
      auto& range = inserted.first->second;
      range.first = std::min(range.first, version);
      range.second = std::max(range.second, version);
    }
  }
  return out;
}

}  // namespace

std::map<int32_t, std::pair<int, int>> MutableOpResolver::BuiltinVersionRanges() const {
  return VersionRanges<int32_t>(builtins_);
}

std::map<std::string, std::pair<int, int>> MutableOpResolver::CustomVersionRanges() const {
  return VersionRanges<std::string>(customs_);
}

const char* BuiltinOperatorName(int32_t builtin_code) {
  if (builtin_code < tflite::BuiltinOperator_MIN || builtin_code > tflite::BuiltinOperator_MAX) {
    return "UNKNOWN";
  }
  const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(builtin_code));
  return (name == nullptr || *name == '\0') ? "UNKNOWN" : name;
}

}  // namespace tflite_c

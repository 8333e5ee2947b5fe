#include "common/delegate_registry.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <set>

namespace tflite_c_tools {

namespace {

bool Valid(ParamType type, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  switch (type) {
    case ParamType::kBool:
      return v == "true" || v == "false" || v == "1" || v == "0";
    case ParamType::kInt: {
      const long long n = std::strtoll(v.c_str(), &end, 10);
      return !v.empty() && *end == '\0' && errno == 0 && n >= INT_MIN && n <= INT_MAX;
    }
    case ParamType::kString:
      return true;
  }
  return false;
}

}  // namespace

// ---- ToolParams -------------------------------------------------------------------

void ToolParams::Define(const ParamSpec& spec) {
  if (values_.count(spec.name) != 0) return;
  values_[spec.name] = Value{spec.type, spec.default_value, false, -1};
}

bool ToolParams::Set(const std::string& name, const std::string& value, int position,
                     std::string* error) {
  auto it = values_.find(name);
  if (it == values_.end()) {
    if (error) *error = "unknown flag --" + name;
    return false;
  }
  if (!Valid(it->second.type, value)) {
    if (error) *error = "bad flag value: --" + name + "=" + value;
    return false;
  }
  it->second.value = value;
  it->second.set = true;
  it->second.position = position;
  return true;
}

bool ToolParams::ParseArg(const std::string& arg, int position, bool* matched,
                          std::string* error) {
  *matched = false;
  if (arg.rfind("--", 0) != 0) return true;
  const size_t eq = arg.find('=');
  const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  auto it = values_.find(name);
  if (it == values_.end()) return true;
  std::string value;
  if (eq != std::string::npos) {
    value = arg.substr(eq + 1);
  } else if (it->second.type == ParamType::kBool) {
    value = "true";
  } else {
    return true;  // not of this form; the tool decides
  }
  *matched = true;
  return Set(name, value, position, error);
}

bool ToolParams::GetBool(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && (it->second.value == "true" || it->second.value == "1");
}

int ToolParams::GetInt(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? 0 : std::atoi(it->second.value.c_str());
}

std::string ToolParams::GetString(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::string() : it->second.value;
}

bool ToolParams::IsSet(const std::string& name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second.set;
}

int ToolParams::Position(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? -1 : it->second.position;
}

// ---- DelegateList ---------------------------------------------------------------------

DelegateList::~DelegateList() {
  for (auto it = items_.rbegin(); it != items_.rend(); ++it) {
    if (it->delegate != nullptr && it->deleter != nullptr) it->deleter(it->delegate);
  }
}

// ---- DelegateRegistry -------------------------------------------------------------------

DelegateRegistry& DelegateRegistry::Get() {
  static DelegateRegistry* registry = new DelegateRegistry;  // never destroyed
  return *registry;
}

void DelegateRegistry::Register(std::unique_ptr<DelegateProvider> provider) {
  if (provider == nullptr || Find(provider->Name()) != nullptr) return;
  providers_.push_back(std::move(provider));
}

const DelegateProvider* DelegateRegistry::Find(const std::string& name) const {
  for (const auto& p : providers_) {
    if (p->Name() == name) return p.get();
  }
  return nullptr;
}

std::vector<ParamSpec> DelegateRegistry::AllParams() const {
  std::vector<ParamSpec> out;
  std::set<std::string> seen;
  for (const auto& p : providers_) {
    for (const ParamSpec& spec : p->Params()) {
      if (seen.insert(spec.name).second) out.push_back(spec);
    }
  }
  return out;
}

void DelegateRegistry::DefineParams(ToolParams* params) const {
  for (const ParamSpec& spec : AllParams()) params->Define(spec);
}

bool DelegateRegistry::CreateDelegates(const ToolParams& params, DelegateList* out,
                                       std::string* error) const {
  std::vector<ProvidedDelegate> created;
  auto release = [&created] {
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      if (it->delegate != nullptr && it->deleter != nullptr) it->deleter(it->delegate);
    }
  };
  for (const auto& p : providers_) {
    ProvidedDelegate d;
    d.provider = p->Name();
    std::string why;
    if (!p->CreateDelegate(params, &d, &why)) {
      release();
      if (error) *error = why.empty() ? "cannot create the " + p->Name() + " delegate" : why;
      return false;
    }
    if (d.delegate != nullptr) created.push_back(std::move(d));
  }
  std::stable_sort(created.begin(), created.end(),
                   [](const ProvidedDelegate& a, const ProvidedDelegate& b) {
                     return a.position < b.position;
                   });
  for (ProvidedDelegate& d : created) out->Add(std::move(d));
  return true;
}

}  // namespace tflite_c_tools

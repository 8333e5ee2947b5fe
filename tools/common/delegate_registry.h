// The delegate registrar of the tools (benchmark_model, inference_diff,
// model_inspector): each delegate provider declares its command-line flags
// and creates its delegate from their values; the tools parse the flags of
// every registered provider and apply the delegates they ask for, without
// knowing any provider. The same idea as upstream's
// tools/delegates/DelegateProvider registry, with its own (smaller) design.
//
// Built-in providers (tools/common/*_provider.cc): XNNPACK (--use_xnnpack,
// --xnnpack_force_fp16; reads --num_threads) and external delegates
// (--external_delegate_path, --external_delegate_options). A tool linked
// with examples/dummy_delegate/dummy_delegate_provider.cc also has
// --use_dummy_delegate (benchmark_model_plus_dummy_delegate & co.).
//
// A provider registers itself from a source file compiled into the tool:
//   class MyProvider : public tflite_c_tools::DelegateProvider { ... };
//   TFLITE_C_REGISTER_DELEGATE_PROVIDER(MyProvider);
#ifndef TFLITE_C_TOOLS_COMMON_DELEGATE_REGISTRY_H_
#define TFLITE_C_TOOLS_COMMON_DELEGATE_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"

namespace tflite_c_tools {

enum class ParamType { kBool, kInt, kString };

// One flag of a provider: --<name>=<value>.
struct ParamSpec {
  std::string name;
  ParamType type;
  std::string default_value;
  std::string help;
  std::string log;  // upstream's parameter log description ("" = not logged)
};

// Flag values as a tool parsed them. Unset flags read as their defaults.
class ToolParams {
 public:
  // Declares a flag (its default applies until Set).
  void Define(const ParamSpec& spec);
  bool Defined(const std::string& name) const { return values_.count(name) != 0; }
  // Checks `value` against the flag's type; false (with a message in
  // *error) when it does not parse. `position`: argv index, for ordering.
  bool Set(const std::string& name, const std::string& value, int position, std::string* error);
  // Parses "--name=value" (or "--name" for a boolean flag) if it names a
  // defined flag: *matched tells whether it did; false on a bad value.
  bool ParseArg(const std::string& arg, int position, bool* matched, std::string* error);

  bool GetBool(const std::string& name) const;
  int GetInt(const std::string& name) const;
  std::string GetString(const std::string& name) const;
  bool IsSet(const std::string& name) const;
  int Position(const std::string& name) const;  // -1 when not given

 private:
  struct Value {
    ParamType type;
    std::string value;
    bool set = false;
    int position = -1;
  };
  std::map<std::string, Value> values_;
};

using DelegateDeleter = void (*)(TfLiteDelegate*);

// A delegate a provider created, with what the tools print about it.
struct ProvidedDelegate {
  std::string provider;     // "XNNPACK", "EXTERNAL", "DUMMY"
  std::string description;  // e.g. "external delegate /path/lib.so"
  TfLiteDelegate* delegate = nullptr;
  DelegateDeleter deleter = nullptr;
  int position = -1;        // argv index of the flag that asked for it
};

// Owns the delegates it holds (deleted in reverse order).
class DelegateList {
 public:
  DelegateList() = default;
  DelegateList(const DelegateList&) = delete;
  DelegateList& operator=(const DelegateList&) = delete;
  ~DelegateList();
  void Add(ProvidedDelegate d) { items_.push_back(std::move(d)); }
  const std::vector<ProvidedDelegate>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  // Hands the delegates (and the duty to delete them) to the caller.
  std::vector<ProvidedDelegate> Release() { return std::move(items_); }
  size_t size() const { return items_.size(); }

 private:
  std::vector<ProvidedDelegate> items_;
};

class DelegateProvider {
 public:
  virtual ~DelegateProvider() = default;
  virtual std::string Name() const = 0;
  virtual std::vector<ParamSpec> Params() const = 0;
  // Creates the delegate `params` ask for. Returns true with out->delegate
  // null when they ask for none; false (with a message) when the delegate
  // was asked for but cannot be created.
  virtual bool CreateDelegate(const ToolParams& params, ProvidedDelegate* out,
                              std::string* error) const = 0;
};

class DelegateRegistry {
 public:
  static DelegateRegistry& Get();
  void Register(std::unique_ptr<DelegateProvider> provider);
  const std::vector<std::unique_ptr<DelegateProvider>>& providers() const { return providers_; }
  const DelegateProvider* Find(const std::string& name) const;
  // Defines every provider's flags in `params` (a flag two providers share,
  // such as num_threads, once).
  void DefineParams(ToolParams* params) const;
  // Every provider's flags, in registration order, without repeats.
  std::vector<ParamSpec> AllParams() const;
  // The delegates `params` ask for, ordered by the position of their flags
  // on the command line (as upstream applies them). False with a message on
  // the first failure (delegates created so far are released).
  bool CreateDelegates(const ToolParams& params, DelegateList* out, std::string* error) const;

 private:
  std::vector<std::unique_ptr<DelegateProvider>> providers_;
};

namespace internal {
template <typename T>
bool RegisterProvider() {
  DelegateRegistry::Get().Register(std::make_unique<T>());
  return true;
}
}  // namespace internal

}  // namespace tflite_c_tools

#define TFLITE_C_REGISTER_DELEGATE_PROVIDER(T)                            \
  static const bool tflite_c_delegate_provider_##T##_registered [[maybe_unused]] = \
      ::tflite_c_tools::internal::RegisterProvider<T>()

#endif  // TFLITE_C_TOOLS_COMMON_DELEGATE_REGISTRY_H_

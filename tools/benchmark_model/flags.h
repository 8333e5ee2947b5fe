// benchmark_model's flags: upstream's names, types, defaults and log lines,
// driven by one table (flags.cc).
#ifndef TFLITE_C_TOOLS_BENCHMARK_MODEL_FLAGS_H_
#define TFLITE_C_TOOLS_BENCHMARK_MODEL_FLAGS_H_

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace tflite_c_bench {

enum class FlagType { kInt, kFloat, kBool, kString };

// How far this build honours a flag.
enum class Support {
  kFull,      // implemented
  kNoEffect,  // accepted for compatibility; setting it changes nothing here
};

struct Flag {
  std::string name;
  FlagType type;
  std::string value;  // current value, in text form
  std::string help;
  std::string def;    // default, for the usage text
  Support support = Support::kFull;
  bool set = false;   // given on the command line
  int position = -1;  // argv index it came from
};

class Flags {
 public:
  void Add(const std::string& name, FlagType type, const std::string& def, const std::string& help,
           Support support = Support::kFull) {
    index_[name] = flags_.size();
    flags_.push_back(Flag{name, type, def, help, def, support});
  }
  Flag* Find(const std::string& name) {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &flags_[it->second];
  }
  const Flag& Get(const std::string& name) const { return flags_[index_.at(name)]; }
  int32_t Int(const std::string& n) const { return std::atoi(Get(n).value.c_str()); }
  float Float(const std::string& n) const { return std::strtof(Get(n).value.c_str(), nullptr); }
  bool Bool(const std::string& n) const {
    const std::string& v = Get(n).value;
    return v == "true" || v == "1";
  }
  const std::string& Str(const std::string& n) const { return Get(n).value; }
  bool IsSet(const std::string& n) const { return Get(n).set; }
  void SetValue(const std::string& n, const std::string& v) { flags_[index_.at(n)].value = v; }
  const std::vector<Flag>& all() const { return flags_; }

 private:
  std::vector<Flag> flags_;
  std::map<std::string, size_t> index_;
};

// Defines every flag of the table.
void DefineFlags(Flags& f);
// Returns false (after printing why) for unknown flags and malformed values.
bool ParseFlags(int argc, char** argv, Flags& flags);
// The parameter log upstream prints before benchmarking.
void LogParams(const Flags& f);
// The usage text of --help and flag errors.
std::string Usage(const char* argv0, const Flags& flags);

}  // namespace tflite_c_bench

#endif  // TFLITE_C_TOOLS_BENCHMARK_MODEL_FLAGS_H_

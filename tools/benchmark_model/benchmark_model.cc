// benchmark_model: measures load time, first-inference time and steady-state
// latency of a .tflite model, with the command line and the log lines of
// TensorFlow Lite's tool of the same name, so that existing scripts and log
// parsers keep working. Written from scratch against nothing but the public C
// API (c_api.h, c_api_experimental.h, external_delegate.h): it is a consumer
// of the library like any application.
//
// Flags take the form --name=value (upstream's syntax). See README.md next to
// this file for the flags that are honoured and those that are only accepted.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "tensorflow/lite/profiling/telemetry/c/profiler.h"
#include "common/op_profile.h"
// The generated flatbuffer schema: subgraph names for the op profile.
#include "schema_generated.h"
// The XNNPACK delegate's header is optional (it lands with the delegate);
// its functions are looked up at run time so that this tool links against
// any build of the library.
#if __has_include("tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h")
#include <dlfcn.h>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#define TFLITE_C_HAVE_XNNPACK_HEADER 1
#endif

namespace {

// ---- logging: "INFO: " / "WARN: " on stdout, "ERROR: " on stderr -----------

class Log {
 public:
  enum Level { kInfo, kWarn, kError };
  explicit Log(Level level, bool enabled = true) : level_(level), enabled_(enabled) {}
  ~Log() {
    if (!enabled_) return;
    if (level_ == kError) {
      std::cerr << "ERROR: " << out_.str() << std::endl;
    } else {
      std::cout << (level_ == kInfo ? "INFO: " : "WARN: ") << out_.str() << std::endl;
    }
  }
  template <typename T>
  Log& operator<<(const T& v) {
    out_ << v;
    return *this;
  }
  Log& operator<<(std::ostream& (*manip)(std::ostream&)) {
    out_ << manip;
    return *this;
  }

 private:
  Level level_;
  bool enabled_;
  std::ostringstream out_;
};

#define LOG_INFO Log(Log::kInfo)
#define LOG_WARN Log(Log::kWarn)
#define LOG_ERROR Log(Log::kError)

void ErrorReporter(void*, const char* format, va_list args) {
  char buf[2048];
  vsnprintf(buf, sizeof(buf), format, args);
  LOG_ERROR << buf;
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void SleepSeconds(double s) {
  if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

// Resident-set high-water mark in KB (Linux getrusage), as upstream measures.
int64_t MaxRssKb() {
  rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return usage.ru_maxrss;
}

// ---- flags -------------------------------------------------------------------

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

bool ValidValue(FlagType type, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  switch (type) {
    case FlagType::kInt: {
      long long n = std::strtoll(v.c_str(), &end, 10);
      return !v.empty() && *end == '\0' && errno == 0 && n >= INT32_MIN && n <= INT32_MAX;
    }
    case FlagType::kFloat:
      std::strtod(v.c_str(), &end);
      return !v.empty() && *end == '\0' && errno == 0;
    case FlagType::kBool:
      return v == "true" || v == "false" || v == "1" || v == "0";
    case FlagType::kString:
      return true;
  }
  return false;
}

const char* TypeName(FlagType t) {
  switch (t) {
    case FlagType::kInt: return "int32";
    case FlagType::kFloat: return "float";
    case FlagType::kBool: return "bool";
    case FlagType::kString: return "string";
  }
  return "?";
}

std::string Usage(const char* argv0, const Flags& flags) {
  std::ostringstream u;
  u << "usage: " << argv0 << " <flags>\nFlags:\n";
  size_t width = 0;
  for (const Flag& f : flags.all()) width = std::max(width, f.name.size() + f.def.size() + 3);
  for (const Flag& f : flags.all()) {
    std::string col = "--" + f.name + "=" + f.def;
    col.resize(width, ' ');
    u << "\t" << col << "\t" << TypeName(f.type) << "\toptional\t" << f.help;
    if (f.support == Support::kNoEffect) u << " [accepted, no effect in tflite-c]";
    u << "\n";
  }
  return u.str();
}

// Every flag, in the order upstream logs them: name, type, default, usage
// text (nullptr: a second log line of a flag defined above), the description of its "INFO: <description>: [<value>]" line (nullptr:
// never logged) and how far this build honours it. One table drives the
// parser, the usage text and the parameter log.
struct FlagSpec {
  const char* name;
  FlagType type;
  const char* def;
  const char* help;
  const char* log;
  Support support;
};

constexpr Support kFull = Support::kFull;
constexpr Support kNo = Support::kNoEffect;
constexpr FlagType kInt = FlagType::kInt;
constexpr FlagType kFloat = FlagType::kFloat;
constexpr FlagType kBool = FlagType::kBool;
constexpr FlagType kStr = FlagType::kString;

const FlagSpec kFlagTable[] = {
    // Run control.
    {"num_runs", kInt, "50", "minimum number of timed runs (see min_secs, max_secs)",
     "Min num runs", kFull},
    {"min_secs", kFloat, "1", "keep running until at least this many seconds have passed",
     "Min runs duration (seconds)", kFull},
    {"max_secs", kFloat, "150", "start no new run after this many seconds",
     "Max runs duration (seconds)", kFull},
    {"run_delay", kFloat, "-1", "pause between runs, in seconds", "Inter-run delay (seconds)",
     kFull},
    {"run_frequency", kFloat, "-1", "run at this many runs per second (overrides run_delay)",
     "Number of prorated runs per second", kFull},
    {"num_threads", kInt, "-1", "number of threads (-1: library default)", "Num threads", kFull},
    {"use_caching", kBool, "false", "cache prepacked weights (ruy)", "Use caching", kNo},
    {"benchmark_name", kStr, "", "name of this benchmark", "Benchmark name", kFull},
    {"output_prefix", kStr, "", "prefix of the benchmark output", "Output prefix", kFull},
    {"warmup_runs", kInt, "1", "minimum number of untimed warm-up runs", "Min warmup runs", kFull},
    {"warmup_min_secs", kFloat, "0.5", "keep warming up for at least this many seconds",
     "Min warmup runs duration (seconds)", kFull},
    {"verbose", kBool, "false", "log every parameter, not only those given", nullptr, kFull},
    {"dry_run", kBool, "false", "load and allocate, but invoke nothing", "Run w/o invoking kernels",
     kFull},
    {"report_peak_memory_footprint", kBool, "false",
     "sample the memory footprint on a helper thread and report its peak",
     "Report the peak memory footprint", kFull},
    {"memory_footprint_check_interval_ms", kInt, "50",
     "sampling interval of report_peak_memory_footprint", "Memory footprint check interval (ms)",
     kFull},
    {"gpu_invoke_loop_times", kInt, "1", "GPU invoke loop iterations", nullptr, kNo},
    // Model and inputs.
    {"graph", kStr, "", "path of the .tflite model", "Graph", kFull},
    {"signature_to_run_for", kStr, "", "signature key to benchmark", "Signature to run", kFull},
    {"list_signatures", kBool, "false", "list the model's signatures and stop",
     "List signatures from the provided model", kFull},
    {"input_layer", kStr, "", "comma-separated input names", "Input layers", kFull},
    {"input_layer_shape", kStr, "", "':'-separated shapes, e.g. 1,224,224,3:1,20", "Input shapes",
     kFull},
    {"input_layer_value_range", kStr, "",
     "integer value ranges name,low,high separated by ':', both ends inclusive",
     "Input value ranges", kFull},
    {"input_layer_value_files", kStr, "",
     "name:file pairs separated by ',' (escape ':' in names as '::'); raw bytes",
     "Input value files", kFull},
    {"allow_fp16", kBool, "false", "allow fp16 precision for fp32 (no C API hook)", "Allow fp16",
     kNo},
    {"require_full_delegation", kBool, "false", "fail unless a delegate takes the whole graph",
     "Require full delegation", kFull},
    {"enable_op_profiling", kBool, "false", "print a per-operator profile of the timed runs",
     "Enable op profiling", kFull},
    {"op_profiling_output_mode", kStr, "stdout", "stdout or csv (proto is not supported)",
     "Op profiling output mode.", kFull},
    {"op_profiling_output_file", kStr, "", "write the op profile to this file instead of stdout",
     "Op profiling output file.", kFull},
    {"max_profiling_buffer_entries", kInt, "1024", "profiler buffer size",
     "Max initial profiling buffer entries", kNo},
    {"allow_dynamic_profiling_buffer_increase", kBool, "false", "grow profiler buffer",
     "Allow dynamic increase on profiling buffer entries", kNo},
    {"profiling_output_csv_file", kStr, "",
     "[deprecated] write the op profile as CSV to this file",
     "CSV File to export profiling data to", kFull},
    {"export_model_runtime_info", kBool, "false", "export runtime info proto",
     "Enable Model Runtime Info Export", kNo},
    {"model_runtime_info_output_file", kStr, "", "runtime info proto file",
     "Proto File to export model runtime info to", kNo},
    {"print_preinvoke_state", kBool, "false", "print tensors before the first invoke",
     "Print pre-invoke interpreter state", kFull},
    {"print_postinvoke_state", kBool, "false", "print tensors after the last invoke",
     "Print post-invoke interpreter state", kFull},
    {"release_dynamic_tensors", kBool, "false", "free dynamic tensors early",
     "Release dynamic tensor memory", kNo},
    {"optimize_memory_for_large_tensors", kInt, "0", "large tensor memory mode",
     "Optimize memory usage for large tensors", kNo},
    {"disable_delegate_clustering", kBool, "false", "no delegate clustering",
     "Disable delegate clustering", kNo},
    {"enable_builtin_cast_constant_cache", kBool, "false", "cache CAST of constants",
     "Constant CAST output cache", kNo},
    {"output_filepath", kStr, "", "write the outputs' raw bytes to this file",
     "File path to export outputs layer to", kFull},
    {"output_proto_filepath", kStr, "", "outputs as tf.Example proto",
     "File path to export outputs layer as tf example to", kNo},
    {"result_file_path", kStr, "", "binary proto result file",
     "File path to save the benchmark result in binary proto format", kNo},
    {"tensor_name_display_length", kInt, "25", "tensor name column width",
     "Tensor name display length", kFull},
    {"tensor_type_display_length", kInt, "15", "tensor type column width",
     "Tensor type display length", kFull},
    {"alloc_type_display_length", kInt, "18", "allocation type column width",
     "Tensor allocation type display length", kFull},
    // Default execution provider.
    {"help", kBool, "false", "print all flags", "print out all supported flags", kFull},
    // Logged a second time, by the CPU provider (no help text: not a new flag).
    {"num_threads", kInt, "-1", nullptr, "#threads used for CPU inference", kFull},
    {"max_delegated_partitions", kInt, "0", "max delegated partitions",
     "Max number of delegated partitions", kNo},
    {"min_nodes_per_partition", kInt, "0", "min nodes per delegated partition",
     "Min nodes per partition", kNo},
    {"first_delegate_node_index", kInt, "0", "first delegable node (debug)",
     "Index of the first node that could be delegated", kNo},
    {"last_delegate_node_index", kInt, "2147483647", "last delegable node (debug)",
     "Index of the last node that could be delegated", kNo},
    {"delegate_serialize_dir", kStr, "", "delegate serialization directory",
     "Directory for delegate serialization", kNo},
    {"delegate_serialize_token", kStr, "", "delegate serialization token",
     "Model-specific token/key for delegate serialization.", kNo},
    // XNNPACK provider.
    {"use_xnnpack", kBool, "false", "apply the XNNPACK delegate", "Use xnnpack", kFull},
    {"xnnpack_force_fp16", kBool, "false", "force fp16 inference in XNNPACK", "xnnpack_force_fp16",
     kFull},
    {"xnnpack_weight_cache_file_path", kStr, "", "XNNPACK weight cache file",
     "xnnpack_weight_cache_file_path", kNo},
    {"xnnpack_runtime_flags", kInt, "0", "extra XNNPACK runtime flags",
     "Extra flags for XNNPACK runtime", kNo},
    // External delegate provider.
    {"external_delegate_path", kStr, "", "shared library of an external delegate",
     "External delegate path", kFull},
    {"external_delegate_options", kStr, "",
     "options of the external delegate, 'key1:value1;key2:value2'", "External delegate options",
     kFull},
    // Delegates that do not exist in this build: false is fine, true is an error.
    {"use_gpu", kBool, "false", "GPU delegate (not available)", nullptr, kFull},
    {"use_nnapi", kBool, "false", "NNAPI delegate (not available)", nullptr, kFull},
    {"use_hexagon", kBool, "false", "Hexagon delegate (not available)", nullptr, kFull},
    {"use_coreml", kBool, "false", "Core ML delegate (not available)", nullptr, kFull},
};

void DefineFlags(Flags& f) {
  for (const FlagSpec& s : kFlagTable) {
    if (s.help != nullptr) f.Add(s.name, s.type, s.def, s.help, s.support);
  }
}

// Returns false (after printing why) for unknown flags and malformed values.
bool ParseFlags(int argc, char** argv, Flags& flags) {
  bool ok = true;
  std::string unknown;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    Flag* flag = nullptr;
    std::string value;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        flag = flags.Find(arg.substr(2, eq - 2));
        value = arg.substr(eq + 1);
      } else if (arg == "--help") {
        flag = flags.Find("help");
        value = "true";
      }
    }
    if (flag == nullptr) {
      unknown += (unknown.empty() ? "" : " ") + arg;
      continue;
    }
    if (!ValidValue(flag->type, value)) {
      LOG_ERROR << "Failed to parse flag '" << flag->name << "' against argv '" << arg << "'";
      ok = false;
      continue;
    }
    flag->value = value;
    flag->set = true;
    flag->position = i;
  }
  if (!unknown.empty()) {
    LOG_ERROR << "Unknown cmdline flags: " << unknown;
    ok = false;
  }
  return ok;
}

// Logs "<description>: [<value>]" when verbose or when the flag was given.
void LogParam(const Flags& flags, const char* name, const char* description, bool verbose) {
  const Flag& f = flags.Get(name);
  if (!verbose && !f.set) return;
  std::string v = f.value;
  if (f.type == FlagType::kBool) v = (v == "true" || v == "1") ? "1" : "0";
  if (f.type == FlagType::kFloat) {
    std::ostringstream s;
    s << std::strtof(v.c_str(), nullptr);
    v = s.str();
  }
  LOG_INFO << description << ": [" << v << "]";
}

void LogParams(const Flags& f) {
  const bool v = f.Bool("verbose");
  LOG_INFO << "Log parameter values verbosely: [" << v << "]";
  for (const FlagSpec& s : kFlagTable) {
    if (s.log == nullptr) continue;
    const std::string name = s.name;
    // The model and signature are always logged; list_signatures only when set.
    const bool always = name == "graph" || name == "signature_to_run_for";
    LogParam(f, s.name, s.log, always || (v && name != "list_signatures"));
  }
}

// ---- statistics ---------------------------------------------------------------
// Same summary and text form as the statistics line of upstream's tool.

class Stats {
 public:
  void Add(int64_t v) {
    if (values_.empty()) first_ = v;
    newest_ = v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    sum_ += v;
    squared_sum_ += static_cast<double>(v) * v;
    values_.push_back(v);
  }
  int64_t count() const { return static_cast<int64_t>(values_.size()); }
  int64_t first() const { return first_; }
  double avg() const { return values_.empty() ? 0.0 : static_cast<double>(sum_) / count(); }
  int64_t std_deviation() const {
    if (min_ == max_ || values_.empty()) return 0;
    return static_cast<int64_t>(std::sqrt(squared_sum_ / count() - avg() * avg()));
  }
  int64_t percentile(int p) const {
    if (values_.empty()) return 0;
    std::vector<int64_t> v = values_;
    size_t k = v.size() * p / 100;
    if (k >= v.size()) k = v.size() - 1;
    std::nth_element(v.begin(), v.begin() + k, v.end());
    return v[k];
  }
  std::string ToString() const {
    std::ostringstream s;
    if (values_.empty()) {
      s << "count=0";
    } else if (min_ == max_) {
      s << "count=" << count() << " curr=" << newest_;
      if (count() > 1) s << "(all same)";
    } else {
      s << "count=" << count() << " first=" << first_ << " curr=" << newest_ << " min=" << min_
        << " max=" << max_ << " avg=" << avg() << " std=" << std_deviation();
    }
    s << " p5=" << percentile(5) << " median=" << percentile(50) << " p95=" << percentile(95);
    return s.str();
  }

 private:
  std::vector<int64_t> values_;
  int64_t first_ = 0, newest_ = 0;
  int64_t min_ = std::numeric_limits<int64_t>::max();
  int64_t max_ = std::numeric_limits<int64_t>::min();
  int64_t sum_ = 0;
  double squared_sum_ = 0;
};

// Samples the RSS high-water mark on a helper thread.
class PeakMemoryMonitor {
 public:
  explicit PeakMemoryMonitor(int interval_ms) : interval_ms_(interval_ms) {}
  ~PeakMemoryMonitor() { Stop(); }
  void Start() {
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        peak_kb_ = std::max(peak_kb_.load(), MaxRssKb());
        std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms_));
      }
    });
  }
  void Stop() {
    if (!thread_.joinable()) return;
    stop_ = true;
    thread_.join();
    peak_kb_ = std::max(peak_kb_.load(), MaxRssKb());
  }
  double PeakMb() const { return peak_kb_.load() / 1024.0; }

 private:
  int interval_ms_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> peak_kb_{0};
  std::thread thread_;
};

// ---- inputs -------------------------------------------------------------------

struct InputLayerInfo {
  std::string name;
  std::vector<int> shape;
  bool has_range = false;
  int low = 0, high = 0;
  std::string file;
};

std::vector<std::string> Split(const std::string& s, char delim) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(delim, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

bool ParseIntStrict(const std::string& s, int* out) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

int FindLayer(std::vector<InputLayerInfo>& info, const std::string& name) {
  for (size_t i = 0; i < info.size(); ++i)
    if (info[i].name == name) return static_cast<int>(i);
  LOG_ERROR << "Cannot find the corresponding input_layer name(" << name << ") in --input_layer";
  return -1;
}

bool PopulateInputLayerInfo(const Flags& f, std::vector<InputLayerInfo>* info) {
  const std::vector<std::string> names = Split(f.Str("input_layer"), ',');
  const std::vector<std::string> shapes = Split(f.Str("input_layer_shape"), ':');
  if (names.size() != shapes.size()) {
    LOG_ERROR << "The number of items in --input_layer_shape (" << f.Str("input_layer_shape")
              << ", with " << shapes.size()
              << " items) must match the number of items in --input_layer ("
              << f.Str("input_layer") << ", with " << names.size()
              << " items). For example --input_layer=input1,input2 "
                 "--input_layer_shape=1,224,224,4:1,20";
    return false;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    InputLayerInfo in;
    in.name = names[i];
    for (const std::string& d : Split(shapes[i], ',')) {
      int dim;
      if (!ParseIntStrict(d, &dim)) {
        LOG_ERROR << "Incorrect size string specified: " << shapes[i];
        return false;
      }
      if (dim == -1) {
        LOG_ERROR << "Any unknown sizes in the shapes (-1's) must be replaced with the size you "
                     "want to benchmark with.";
        return false;
      }
      in.shape.push_back(dim);
    }
    info->push_back(in);
  }
  for (const std::string& item : Split(f.Str("input_layer_value_range"), ':')) {
    std::vector<std::string> p = Split(item, ',');
    if (p.size() != 3) {
      LOG_ERROR << "Wrong input value range item specified: " << item;
      return false;
    }
    int idx = FindLayer(*info, p[0]);
    if (idx < 0) return false;
    int low, high;
    if (!ParseIntStrict(p[1], &low) || !ParseIntStrict(p[2], &high) || low > high) {
      LOG_ERROR << "Wrong low and high value of the input value range specified: " << item;
      return false;
    }
    (*info)[idx].has_range = true;
    (*info)[idx].low = low;
    (*info)[idx].high = high;
  }
  for (const std::string& item : Split(f.Str("input_layer_value_files"), ',')) {
    // name:path, where "::" stands for a literal ':' on either side.
    int delim = -1;
    for (size_t i = 0; i + 1 < item.size(); ++i) {
      if (item[i] != ':') continue;
      if (item[i + 1] == ':') {
        ++i;
        continue;
      }
      if (delim != -1) {
        LOG_ERROR << item << " contains more than one delimiter.";
        return false;
      }
      delim = static_cast<int>(i);
    }
    if (delim == -1) {
      LOG_ERROR << "Wrong input value file item specified: " << item;
      return false;
    }
    auto unescape = [](std::string s) {
      for (size_t p = s.find("::"); p != std::string::npos; p = s.find("::", p + 1))
        s.erase(p, 1);
      return s;
    };
    int idx = FindLayer(*info, unescape(item.substr(0, delim)));
    if (idx < 0) return false;
    if ((*info)[idx].has_range) {
      LOG_WARN << "The input_name:" << (*info)[idx].name
               << " appears both in input_layer_value_files and input_layer_value_range. The "
                  "input_layer_value_range of the input_name will be ignored.";
    }
    (*info)[idx].file = unescape(item.substr(delim + 1));
  }
  return true;
}

size_t NumElements(const TfLiteTensor* t) {
  size_t n = 1;
  for (int i = 0; i < TfLiteTensorNumDims(t); ++i) n *= static_cast<size_t>(TfLiteTensorDim(t, i));
  return n;
}

// String tensor payload: count, count+1 offsets, then the bytes.
std::vector<char> PackStrings(const std::vector<std::string>& strings) {
  const int32_t n = static_cast<int32_t>(strings.size());
  size_t header = sizeof(int32_t) * (n + 2);
  size_t total = header;
  for (const auto& s : strings) total += s.size();
  std::vector<char> buf(total);
  std::memcpy(buf.data(), &n, sizeof(n));
  int32_t offset = static_cast<int32_t>(header);
  for (int32_t i = 0; i <= n; ++i) {
    std::memcpy(buf.data() + sizeof(int32_t) * (i + 1), &offset, sizeof(offset));
    if (i < n) {
      std::memcpy(buf.data() + offset, strings[i].data(), strings[i].size());
      offset += static_cast<int32_t>(strings[i].size());
    }
  }
  return buf;
}

template <typename T, typename Dist>
void FillRandom(std::vector<char>& out, size_t n, Dist dist, std::mt19937& rng) {
  out.resize(n * sizeof(T));
  T* p = reinterpret_cast<T*>(out.data());
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<T>(dist(rng));
}

// Random data in upstream's default ranges, or in the user's range.
bool MakeRandomData(const TfLiteTensor* t, const InputLayerInfo* info, std::mt19937& rng,
                    std::vector<char>* out) {
  const size_t n = NumElements(t);
  float low = 0, high = 0;
  const TfLiteType type = TfLiteTensorType(t);
  switch (type) {
    case kTfLiteFloat32: case kTfLiteFloat64: case kTfLiteComplex64:
      low = -0.5f; high = 0.5f; break;
    case kTfLiteInt64: case kTfLiteUInt64: case kTfLiteInt32: case kTfLiteUInt32:
      low = 0; high = 99; break;
    case kTfLiteUInt8: low = 0; high = 254; break;
    case kTfLiteInt8: low = -127; high = 127; break;
    default: break;
  }
  if (info && info->has_range) {
    low = static_cast<float>(info->low);
    high = static_cast<float>(info->high);
  }
  std::uniform_int_distribution<int64_t> ints(static_cast<int64_t>(low), static_cast<int64_t>(high));
  switch (type) {
    case kTfLiteFloat32: FillRandom<float>(*out, n, std::uniform_real_distribution<float>(low, high), rng); break;
    case kTfLiteFloat64: FillRandom<double>(*out, n, std::uniform_real_distribution<double>(low, high), rng); break;
    case kTfLiteComplex64: FillRandom<float>(*out, 2 * n, std::uniform_real_distribution<float>(low, high), rng); break;
    case kTfLiteFloat16: {
      // Random halves in [-0.5, 0.5]: sign, exponent 0..13 (< 1.0), random mantissa.
      out->resize(n * 2);
      uint16_t* p = reinterpret_cast<uint16_t*>(out->data());
      std::uniform_int_distribution<int> e(0, 13), m(0, 1023), s(0, 1);
      for (size_t i = 0; i < n; ++i)
        p[i] = static_cast<uint16_t>((s(rng) << 15) | (e(rng) << 10) | m(rng));
      break;
    }
    case kTfLiteInt64: FillRandom<int64_t>(*out, n, ints, rng); break;
    case kTfLiteUInt64: FillRandom<uint64_t>(*out, n, ints, rng); break;
    case kTfLiteInt32: FillRandom<int32_t>(*out, n, ints, rng); break;
    case kTfLiteUInt32: FillRandom<uint32_t>(*out, n, ints, rng); break;
    case kTfLiteInt16: FillRandom<int16_t>(*out, n, ints, rng); break;
    case kTfLiteUInt16: FillRandom<uint16_t>(*out, n, ints, rng); break;
    case kTfLiteUInt8: FillRandom<uint8_t>(*out, n, ints, rng); break;
    case kTfLiteInt8: FillRandom<int8_t>(*out, n, ints, rng); break;
    case kTfLiteBool:
      FillRandom<uint8_t>(*out, n, std::uniform_int_distribution<int>(0, 1), rng);
      break;
    case kTfLiteString:
      *out = PackStrings(std::vector<std::string>(
          n, "we're have some friends over saturday to hang out in the yard"));
      break;
    default:
      LOG_ERROR << "Don't know how to populate tensor " << TfLiteTensorName(t) << " of type "
                << TfLiteTypeGetName(type);
      return false;
  }
  return true;
}

bool LoadInputFile(const TfLiteTensor* t, const std::string& path, std::vector<char>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) {
    LOG_ERROR << "Failed to read the input_layer_value_file:" << path;
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (TfLiteTensorType(t) == kTfLiteString) {
    std::vector<std::string> strings;
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0) {
      strings.push_back(bytes);
    } else {
      std::string cur;
      std::istringstream ss(bytes);
      while (std::getline(ss, cur, '\0')) strings.push_back(cur);
      if (strings.size() != NumElements(t)) {
        LOG_ERROR << "The number of string in the input_layer_value_file(" << path << ") is "
                  << strings.size() << ". It should be " << NumElements(t) << ".";
        return false;
      }
    }
    *out = PackStrings(strings);
    return true;
  }
  if (bytes.size() != TfLiteTensorByteSize(t)) {
    LOG_ERROR << "The size of " << path << " is " << bytes.size() << " bytes. It should be "
              << TfLiteTensorByteSize(t) << " bytes.";
    return false;
  }
  out->assign(bytes.begin(), bytes.end());
  return true;
}

// ---- delegate bookkeeping -------------------------------------------------------
// A do-nothing delegate applied after a real one: its Prepare reads the
// execution plan through the public TfLiteContext and counts the nodes a
// delegate has taken, which is all the C API lets an application see.

struct PlanProbe {
  int plan_size = 0;
  int delegate_nodes = 0;
  // Output tensor names of every node in the plan, per subgraph in the
  // order the runtime offers them (primary first), for the op profile.
  std::vector<std::map<int, std::vector<std::string>>> node_outputs;
};

TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  auto* probe = static_cast<PlanProbe*>(delegate->data_);
  TfLiteIntArray* plan = nullptr;
  if (context->GetExecutionPlan(context, &plan) != kTfLiteOk) return kTfLiteOk;
  // Every subgraph is offered the probe; the counts are the primary's.
  const bool primary = probe->node_outputs.empty();
  if (primary) {
    probe->plan_size = plan->size;
    probe->delegate_nodes = 0;
  }
  std::map<int, std::vector<std::string>>& names = probe->node_outputs.emplace_back();
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (context->GetNodeAndRegistration(context, plan->data[i], &node, &reg) != kTfLiteOk) continue;
    if (primary && node->delegate != nullptr) ++probe->delegate_nodes;
    std::vector<std::string>& out = names[plan->data[i]];
    for (int k = 0; node->outputs != nullptr && k < node->outputs->size; ++k) {
      const int t = node->outputs->data[k];
      const char* name = t >= 0 && static_cast<size_t>(t) < context->tensors_size
                             ? context->tensors[t].name
                             : nullptr;
      out.push_back(name != nullptr ? name : "Unknown");
    }
  }
  return kTfLiteOk;
}

struct OwnedDelegate {
  std::string name;
  TfLiteDelegate* delegate = nullptr;
  void (*deleter)(TfLiteDelegate*) = nullptr;
  int position = 0;
};

// ---- the benchmark ---------------------------------------------------------------

class Benchmark {
 public:
  explicit Benchmark(Flags& flags) : f_(flags), rng_(std::random_device()()) {}
  ~Benchmark() {
    if (runner_) TfLiteSignatureRunnerDelete(runner_);
    if (interpreter_) TfLiteInterpreterDelete(interpreter_);
    for (auto& d : delegates_) d.deleter(d.delegate);
    if (options_) TfLiteInterpreterOptionsDelete(options_);
    if (model_) TfLiteModelDelete(model_);
  }

  bool Run();

 private:
  bool Validate();
  bool Init();
  bool CreateDelegates();
  bool ApplyDelegates();
  bool PrepareInputData();
  void ResetInputs();
  bool Invoke() {
    return (runner_ ? TfLiteSignatureRunnerInvoke(runner_) : TfLiteInterpreterInvoke(interpreter_)) ==
           kTfLiteOk;
  }
  // `profiled`: these are the regular runs the op profile covers.
  Stats RunLoop(int min_runs, float min_secs, float max_secs, bool profiled, bool* ok);
  void PrintState(const char* when);
  void SaveOutputs();

  int InputCount() const {
    return runner_ ? static_cast<int>(TfLiteSignatureRunnerGetInputCount(runner_))
                   : TfLiteInterpreterGetInputTensorCount(interpreter_);
  }
  TfLiteTensor* Input(int i) const {
    return runner_ ? TfLiteSignatureRunnerGetInputTensor(runner_,
                                                         TfLiteSignatureRunnerGetInputName(runner_, i))
                   : TfLiteInterpreterGetInputTensor(interpreter_, i);
  }
  int OutputCount() const {
    return runner_ ? static_cast<int>(TfLiteSignatureRunnerGetOutputCount(runner_))
                   : TfLiteInterpreterGetOutputTensorCount(interpreter_);
  }
  const TfLiteTensor* Output(int i) const {
    return runner_ ? TfLiteSignatureRunnerGetOutputTensor(
                         runner_, TfLiteSignatureRunnerGetOutputName(runner_, i))
                   : TfLiteInterpreterGetOutputTensor(interpreter_, i);
  }

  void ProbePlan();
  bool ReportOpProfile();

  Flags& f_;
  std::unique_ptr<tflite_c_tools::OpProfile> profile_;  // --enable_op_profiling
  std::mt19937 rng_;
  std::vector<InputLayerInfo> inputs_;
  std::vector<std::vector<char>> input_data_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  TfLiteSignatureRunner* runner_ = nullptr;
  std::vector<OwnedDelegate> delegates_;
  PlanProbe probe_;
  TfLiteDelegate probe_delegate_ = TfLiteDelegateCreate();
};

bool Benchmark::Validate() {
  if (f_.Bool("report_peak_memory_footprint") && f_.Int("memory_footprint_check_interval_ms") <= 0) {
    LOG_WARN << "--memory_footprint_check_interval_ms is set to "
             << f_.Int("memory_footprint_check_interval_ms")
             << " (ms), This value is invalid, and it will be set to the default value 50 (ms).";
    f_.SetValue("memory_footprint_check_interval_ms", "50");
  }
  if (f_.Str("graph").empty()) {
    LOG_ERROR << "Please specify the name of your TF Lite input file with --graph";
    return false;
  }
  for (const char* d : {"use_gpu", "use_nnapi", "use_hexagon", "use_coreml"}) {
    if (f_.Bool(d)) {
      LOG_ERROR << "--" << d << "=true: this delegate is not available in tflite-c.";
      return false;
    }
  }
  if (f_.Bool("enable_op_profiling")) {
    const std::string& mode = f_.Str("op_profiling_output_mode");
    if (mode != "stdout" && mode != "csv" && mode != "proto") {
      LOG_ERROR << "Output mode" << mode
                << " is not supported. Supported values are: 'stdout', 'csv' and 'proto'.";
      return false;
    }
    if (mode == "proto") {
      LOG_ERROR << "--op_profiling_output_mode=proto is not supported by tflite-c (no protobuf "
                   "dependency); use stdout or csv.";
      return false;
    }
    if (!f_.Str("profiling_output_csv_file").empty()) {
      // The deprecated flag means csv mode into that file.
      f_.SetValue("op_profiling_output_mode", "csv");
      f_.SetValue("op_profiling_output_file", f_.Str("profiling_output_csv_file"));
    }
    profile_ = std::make_unique<tflite_c_tools::OpProfile>();
  }
  for (const Flag& fl : f_.all()) {
    if (fl.set && fl.support == Support::kNoEffect)
      LOG_WARN << "--" << fl.name << " is accepted for compatibility but has no effect in tflite-c.";
  }
  return PopulateInputLayerInfo(f_, &inputs_);
}

bool Benchmark::CreateDelegates() {
  if (f_.Bool("use_xnnpack")) {
    TfLiteDelegate* d = nullptr;
    void (*destroy)(TfLiteDelegate*) = nullptr;
#if defined(TFLITE_C_HAVE_XNNPACK_HEADER)
    using DefaultFn = TfLiteXNNPackDelegateOptions (*)();
    using CreateFn = TfLiteDelegate* (*)(const TfLiteXNNPackDelegateOptions*);
    auto options_default =
        reinterpret_cast<DefaultFn>(dlsym(RTLD_DEFAULT, "TfLiteXNNPackDelegateOptionsDefault"));
    auto create = reinterpret_cast<CreateFn>(dlsym(RTLD_DEFAULT, "TfLiteXNNPackDelegateCreate"));
    destroy = reinterpret_cast<void (*)(TfLiteDelegate*)>(
        dlsym(RTLD_DEFAULT, "TfLiteXNNPackDelegateDelete"));
    if (options_default && create && destroy) {
      TfLiteXNNPackDelegateOptions opts = options_default();
      if (f_.Int("num_threads") > 0) opts.num_threads = f_.Int("num_threads");
      if (f_.Bool("xnnpack_force_fp16")) opts.flags |= TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16;
      d = create(&opts);
    }
#endif
    if (d != nullptr) {
      LOG_INFO << "XNNPACK delegate created.";
      delegates_.push_back({"XNNPACK", d, destroy, f_.Get("use_xnnpack").position});
    } else {
      LOG_WARN << "XNNPACK is not linked into this build of tflite-c; --use_xnnpack=true is "
                  "ignored and the model runs on the builtin kernels.";
    }
  }
  const std::string& lib = f_.Str("external_delegate_path");
  if (!lib.empty()) {
    TfLiteExternalDelegateOptions opts = TfLiteExternalDelegateOptionsDefault(lib.c_str());
    // The option strings must outlive TfLiteExternalDelegateCreate.
    std::vector<std::string> keys, values;
    const std::vector<std::string> items = Split(f_.Str("external_delegate_options"), ';');
    keys.reserve(items.size());
    values.reserve(items.size());
    for (const std::string& item : items) {
      std::vector<std::string> kv = Split(item, ':');
      if (kv.size() != 2) {
        LOG_WARN << "Ignoring malformed external delegate option '" << item
                 << "' (expected key:value).";
        continue;
      }
      keys.push_back(kv[0]);
      values.push_back(kv[1]);
      opts.insert(&opts, keys.back().c_str(), values.back().c_str());
    }
    TfLiteDelegate* d = TfLiteExternalDelegateCreate(&opts);
    if (d == nullptr) {
      LOG_ERROR << "Failed to create the external delegate from " << lib << ".";
      return false;
    }
    delegates_.push_back(
        {"EXTERNAL", d, TfLiteExternalDelegateDelete, f_.Get("external_delegate_path").position});
  }
  std::stable_sort(delegates_.begin(), delegates_.end(),
                   [](const OwnedDelegate& a, const OwnedDelegate& b) { return a.position < b.position; });
  return true;
}

bool Benchmark::ApplyDelegates() {
  if (delegates_.empty()) {
    if (f_.Bool("require_full_delegation")) {
      LOG_ERROR << "Disallowed CPU fallback detected.";
      return false;
    }
    return true;
  }
  if (delegates_.size() >= 2)
    LOG_INFO << "Going to apply " << delegates_.size() << " delegates one after another.";
  probe_delegate_.data_ = &probe_;
  probe_delegate_.Prepare = ProbePrepare;
  probe_delegate_.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  int kernels_before = 0;
  for (const OwnedDelegate& d : delegates_) {
    if (TfLiteInterpreterModifyGraphWithDelegate(interpreter_, d.delegate) != kTfLiteOk) {
      LOG_ERROR << "Failed to apply " << d.name << " delegate.";
      return false;
    }
    // Count the delegate kernels now in the plan.
    probe_ = PlanProbe();
    TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
    // (The last probe's view, after every delegate, names the profile's nodes.)
    const int new_kernels = probe_.delegate_nodes - kernels_before;
    kernels_before = probe_.delegate_nodes;
    const bool full = probe_.delegate_nodes == 1 && probe_.plan_size == 1;
    if (f_.Bool("require_full_delegation") && !full) {
      LOG_ERROR << "Disallowed CPU fallback detected.";
      return false;
    }
    if (full) {
      LOG_INFO << "Explicitly applied " << d.name
               << " delegate, and the model graph will be completely executed by the delegate.";
    } else if (new_kernels > 0) {
      LOG_INFO << "Explicitly applied " << d.name
               << " delegate, and the model graph will be partially executed by the delegate w/ "
               << new_kernels << " delegate kernels.";
    } else {
      LOG_INFO << "Though " << d.name
               << " delegate is explicitly applied, the model graph will not be executed by the "
                  "delegate.";
    }
  }
  return true;
}

bool Benchmark::Init() {
  const std::string& path = f_.Str("graph");
  model_ = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), ErrorReporter, nullptr);
  if (model_ == nullptr) {
    LOG_ERROR << "Failed to load model " << path;
    return false;
  }
  LOG_INFO << "Loaded model " << path;

  options_ = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options_, ErrorReporter, nullptr);
  TfLiteInterpreterOptionsSetNumThreads(options_, f_.Int("num_threads"));
  // As upstream: an explicit --use_xnnpack (true or false) replaces the
  // default XNNPACK delegate; without the flag the default one applies.
  if (f_.Get("use_xnnpack").set) TfLiteInterpreterOptionsSetUseXNNPACK(options_, false);
  if (profile_) TfLiteInterpreterOptionsSetTelemetryProfiler(options_, profile_->telemetry());
  interpreter_ = TfLiteInterpreterCreate(model_, options_);
  if (interpreter_ == nullptr) {
    LOG_ERROR << "Failed to initialize the interpreter";
    return false;
  }

  const int num_signatures = TfLiteInterpreterGetSignatureCount(interpreter_);
  if (f_.Bool("list_signatures")) {
    LOG_INFO << "The Model contains " << num_signatures << " signature key(s).";
    if (num_signatures > 0) LOG_INFO << "They are listed below: ";
    for (int i = 0; i < num_signatures; ++i)
      LOG_INFO << "-> Signature Key: " << TfLiteInterpreterGetSignatureKey(interpreter_, i);
    return false;
  }

  const std::string& key = f_.Str("signature_to_run_for");
  auto list_keys = [&] {
    LOG_ERROR << "Signature not specified or incorrect. Pass one of the following to the flag "
                 "\"--signature_to_run_for\"";
    for (int i = 0; i < num_signatures; ++i)
      LOG_ERROR << " #> Signature key: " << TfLiteInterpreterGetSignatureKey(interpreter_, i);
  };
  if (!key.empty()) {
    if (num_signatures == 0) {
      LOG_ERROR << "Signature key is specified, but the model does not have any signatures.";
      return false;
    }
    bool found = false;
    for (int i = 0; i < num_signatures; ++i)
      found = found || key == TfLiteInterpreterGetSignatureKey(interpreter_, i);
    if (!found) {
      list_keys();
      return false;
    }
    LOG_INFO << "Using signature: " << key;
    runner_ = TfLiteInterpreterGetSignatureRunner(interpreter_, key.c_str());
    if (runner_ == nullptr) return false;
  } else if (num_signatures > 1) {
    list_keys();
    return false;
  }

  const int n_inputs = InputCount();
  if (!inputs_.empty() && static_cast<int>(inputs_.size()) != n_inputs) {
    LOG_ERROR << "Inputs mismatch: Model inputs #:" << inputs_.size() << " expected: " << n_inputs;
    return false;
  }
  for (size_t j = 0; j < inputs_.size(); ++j) {
    const TfLiteTensor* t = Input(static_cast<int>(j));
    const char* name = TfLiteTensorName(t) ? TfLiteTensorName(t) : "";
    if (inputs_[j].name != name)
      LOG_WARN << "Tensor # " << j << " is named " << name << " but flags call it "
               << inputs_[j].name;
    if (TfLiteTensorType(t) != kTfLiteString &&
        static_cast<int>(inputs_[j].shape.size()) != TfLiteTensorNumDims(t)) {
      LOG_ERROR << "Input tensor #" << j << " should have " << TfLiteTensorNumDims(t)
                << " dimensions!";
      return false;
    }
  }
  for (size_t j = 0; j < inputs_.size(); ++j) {
    const TfLiteTensor* t = Input(static_cast<int>(j));
    if (TfLiteTensorType(t) == kTfLiteString) continue;
    const std::vector<int>& s = inputs_[j].shape;
    TfLiteStatus st =
        runner_ ? TfLiteSignatureRunnerResizeInputTensor(
                      runner_, TfLiteSignatureRunnerGetInputName(runner_, static_cast<int>(j)),
                      s.data(), static_cast<int>(s.size()))
                : TfLiteInterpreterResizeInputTensor(interpreter_, static_cast<int>(j), s.data(),
                                                     static_cast<int>(s.size()));
    if (st != kTfLiteOk) {
      LOG_ERROR << "Failed to resize input #" << j;
      return false;
    }
  }

  if (!CreateDelegates() || !ApplyDelegates()) return false;
  if (profile_) ProbePlan();

  const TfLiteStatus alloc = runner_ ? TfLiteSignatureRunnerAllocateTensors(runner_)
                                     : TfLiteInterpreterAllocateTensors(interpreter_);
  if (alloc != kTfLiteOk) {
    LOG_ERROR << "Failed to allocate tensors!";
    return false;
  }
  return true;
}

bool Benchmark::PrepareInputData() {
  input_data_.clear();
  for (int i = 0; i < InputCount(); ++i) {
    const TfLiteTensor* t = Input(i);
    const InputLayerInfo* info = inputs_.empty() ? nullptr : &inputs_[i];
    std::vector<char> data;
    if (info && !info->file.empty()) {
      if (!LoadInputFile(t, info->file, &data)) return false;
    } else if (!MakeRandomData(t, info, rng_, &data)) {
      return false;
    }
    input_data_.push_back(std::move(data));
  }
  return true;
}

void Benchmark::ResetInputs() {
  for (int i = 0; i < InputCount(); ++i) {
    TfLiteTensor* t = Input(i);
    const std::vector<char>& d = input_data_[i];
    if (TfLiteTensorType(t) == kTfLiteString) {
      if (TfLiteTensorRealloc(d.size(), t) != kTfLiteOk) continue;
    }
    void* dst = TfLiteTensorData(t);
    if (dst != nullptr) std::memcpy(dst, d.data(), std::min(d.size(), TfLiteTensorByteSize(t)));
  }
}

// Names each profiled node after its outputs, as seen by a do-nothing
// delegate after all real delegates (their kernels included).
void Benchmark::ProbePlan() {
  if (delegates_.empty()) {
    probe_delegate_.data_ = &probe_;
    probe_delegate_.Prepare = ProbePrepare;
    probe_delegate_.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
    probe_ = PlanProbe();
    TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
  }
  for (size_t sg = 0; sg < probe_.node_outputs.size(); ++sg) {
    for (auto& [node, outputs] : probe_.node_outputs[sg]) {
      profile_->SetNodeOutputs(static_cast<int>(sg), node, outputs);
    }
  }
  // Subgraph names are not in the C API: read them from the model file (the
  // library has verified it already; verify again before trusting offsets).
  std::ifstream in(f_.Str("graph"), std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (bytes.empty() || !tflite::VerifyModelBuffer(verifier)) return;
  const auto* subgraphs = tflite::GetModel(bytes.data())->subgraphs();
  for (uint32_t i = 0; subgraphs != nullptr && i < subgraphs->size(); ++i) {
    const flatbuffers::String* name = subgraphs->Get(i)->name();
    if (name != nullptr) profile_->SetSubgraphName(static_cast<int>(i), name->str());
  }
}

// Upstream's ProfilingListener output: a header line, then the tables, to
// the log or to --op_profiling_output_file.
bool Benchmark::ReportOpProfile() {
  const bool csv = f_.Str("op_profiling_output_mode") == "csv";
  const std::string text = profile_->Report(csv);
  const char* header = "Operator-wise Profiling Info for Regular Benchmark Runs:";
  const std::string& path = f_.Str("op_profiling_output_file");
  if (!path.empty()) {
    std::ofstream out(path);
    if (out.good()) {
      out << header << "\n" << text << "\n";
      return out.good();
    }
    LOG_WARN << "Could not open " << path << " for writing; printing the op profile instead.";
  }
  LOG_INFO << header << "\n" << text;
  return true;
}

Stats Benchmark::RunLoop(int min_runs, float min_secs, float max_secs, bool profiled, bool* ok) {
  Stats stats;
  LOG_INFO << "Running benchmark for at least " << min_runs << " iterations and at least "
           << min_secs << " seconds but terminate if exceeding " << max_secs << " seconds.";
  int64_t now = NowMicros();
  const int64_t min_finish = now + static_cast<int64_t>(min_secs * 1.e6f);
  const int64_t max_finish = now + static_cast<int64_t>(max_secs * 1.e6f);
  double delay = f_.Float("run_delay");
  const double frequency = f_.Float("run_frequency");
  const double gap = 1.0 / frequency;
  double next_finish = now * 1e-6 + gap;
  for (int run = 0; (run < min_runs || now < min_finish) && now <= max_finish; ++run) {
    ResetInputs();
    if (profile_ && profiled) profile_->BeginRun();
    const int64_t start = NowMicros();
    const bool run_ok = Invoke();
    const int64_t end = NowMicros();
    if (profile_ && profiled) profile_->EndRun();
    stats.Add(end - start);
    if (frequency > 0) {
      delay = next_finish - NowMicros() * 1e-6;
      next_finish += gap;
    }
    SleepSeconds(delay);
    now = NowMicros();
    if (!run_ok) *ok = false;
  }
  LOG_INFO << stats.ToString() << std::endl;
  return stats;
}

void Benchmark::PrintState(const char* when) {
  const size_t name_w = static_cast<size_t>(std::max(1, f_.Int("tensor_name_display_length")));
  const size_t type_w = static_cast<size_t>(std::max(1, f_.Int("tensor_type_display_length")));
  auto fit = [](std::string s, size_t w) {
    if (s.size() > w) s.resize(w);
    s.resize(w, ' ');
    return s;
  };
  LOG_INFO << "\n====Printing out TfLite interpreter " << when << " state begins====";
  std::ostringstream s;
  s << "Inputs and outputs of the " << (runner_ ? "signature" : "primary subgraph")
    << " (the C API exposes no other tensors):\n";
  auto row = [&](const char* kind, int i, const TfLiteTensor* t) {
    s << kind << " " << i << ": " << fit(TfLiteTensorName(t) ? TfLiteTensorName(t) : "", name_w)
      << " " << fit(TfLiteTypeGetName(TfLiteTensorType(t)), type_w) << " " << TfLiteTensorByteSize(t)
      << " bytes [";
    for (int d = 0; d < TfLiteTensorNumDims(t); ++d) s << (d ? "," : "") << TfLiteTensorDim(t, d);
    s << "]\n";
  };
  for (int i = 0; i < InputCount(); ++i) row("Input ", i, Input(i));
  for (int i = 0; i < OutputCount(); ++i) row("Output", i, Output(i));
  std::cout << s.str();
  LOG_INFO << "====Printing out TfLite interpreter " << when << " state ends====\n";
}

void Benchmark::SaveOutputs() {
  const std::string& path = f_.Str("output_filepath");
  if (path.empty()) return;
  std::ofstream out(path, std::ios::binary);
  if (!out.good()) return;
  for (int i = 0; i < OutputCount(); ++i) {
    const TfLiteTensor* t = Output(i);
    const void* data = TfLiteTensorData(t);
    if (data) out.write(static_cast<const char*>(data), TfLiteTensorByteSize(t));
  }
}

bool Benchmark::Run() {
  if (!Validate()) return false;
  LogParams(f_);

  std::unique_ptr<PeakMemoryMonitor> monitor;
  if (f_.Bool("report_peak_memory_footprint")) {
    monitor = std::make_unique<PeakMemoryMonitor>(f_.Int("memory_footprint_check_interval_ms"));
    monitor->Start();
  }
  double model_size_mb = -1;
  {
    std::ifstream in(f_.Str("graph"), std::ios::binary | std::ios::ate);
    if (in.good()) model_size_mb = static_cast<double>(in.tellg()) / 1e6;
  }
  const int64_t start_mem_kb = MaxRssKb();
  const int64_t init_start = NowMicros();
  if (!Init()) return false;
  const int64_t init_mem_kb = MaxRssKb() - start_mem_kb;
  const int64_t init_us = NowMicros() - init_start;

  if (model_size_mb > 0) {
    LOG_INFO << "The input model file size (MB): " << model_size_mb;
  } else {
    LOG_WARN << "Failed to get the input model file size.";
  }
  LOG_INFO << "Initialized session in " << init_us / 1e3 << "ms.";

  if (!PrepareInputData()) return false;

  if (f_.Bool("dry_run")) {
    f_.SetValue("warmup_runs", "0");
    f_.SetValue("warmup_min_secs", "-1");
    f_.SetValue("num_runs", "0");
    f_.SetValue("min_secs", "-1");
  }
  if (f_.Bool("print_preinvoke_state")) PrintState("pre-invoke");

  bool ok = true;
  const Stats warmup =
      RunLoop(f_.Int("warmup_runs"), f_.Float("warmup_min_secs"), f_.Float("max_secs"), false, &ok);
  if (!ok) return false;
  const Stats inference =
      RunLoop(f_.Int("num_runs"), f_.Float("min_secs"), f_.Float("max_secs"), true, &ok);
  const int64_t overall_mem_kb = MaxRssKb() - start_mem_kb;
  double peak_mb = -1;
  if (monitor) {
    monitor->Stop();
    peak_mb = monitor->PeakMb();
  }

  LOG_INFO << "Inference timings in us: Init: " << init_us << ", First inference: " << warmup.first()
           << ", Warmup (avg): " << warmup.avg() << ", Inference (avg): " << inference.avg();
  LOG_INFO << "Note: as the benchmark tool itself affects memory footprint, the following is only "
              "APPROXIMATE to the actual memory footprint of the model at runtime. Take the "
              "information at your discretion.";
  LOG_INFO << "Memory footprint delta from the start of the tool (MB): init=" << init_mem_kb / 1024.0
           << " overall=" << overall_mem_kb / 1024.0;
  if (peak_mb > 0) {
    LOG_INFO << "Overall peak memory footprint (MB) via periodic monitoring: " << peak_mb;
    size_t vsize = 0, rss = 0, shared = 0;
    if (FILE* fp = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(fp, "%zu %zu %zu", &vsize, &rss, &shared) != 3) vsize = rss = shared = 0;
      std::fclose(fp);
    }
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    rss = rss * page >> 20;
    shared = shared * page >> 20;
    LOG_INFO << "Memory status at the end of exeution:";
    LOG_INFO << "- VmRSS              : " << rss << " MB";
    LOG_INFO << "+ RssAnnon           : " << rss - shared << " MB";
    LOG_INFO << "+ RssFile + RssShmem : " << shared << " MB";
  }
  if (profile_ && !ReportOpProfile()) {
    LOG_ERROR << "Failed to write the op profile to " << f_.Str("op_profiling_output_file");
    ok = false;
  }
  if (f_.Bool("print_postinvoke_state")) PrintState("post-invoke");
  SaveOutputs();
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  LOG_INFO << "STARTING!";
  Flags flags;
  DefineFlags(flags);
  if (!ParseFlags(argc, argv, flags) || flags.Bool("help")) {
    LOG_ERROR << Usage(argv[0], flags);
    LOG_ERROR << "Benchmarking failed.";
    return EXIT_FAILURE;
  }
  bool ok;
  {
    Benchmark benchmark(flags);
    ok = benchmark.Run();
  }
  if (!ok) {
    LOG_ERROR << "Benchmarking failed.";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}

#include "benchmark_model/flags.h"

#include <algorithm>
#include <cerrno>
#include <sstream>

#include "benchmark_model/bench_util.h"
#include "common/delegate_registry.h"

namespace tflite_c_bench {

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
     "xnnpack_weight_cache_file_path", kFull},
    {"xnnpack_runtime_flags", kInt, "0", "extra XNNPACK runtime flags",
     "Extra flags for XNNPACK runtime", kFull},
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

namespace {

FlagType FromParamType(tflite_c_tools::ParamType t) {
  switch (t) {
    case tflite_c_tools::ParamType::kBool: return FlagType::kBool;
    case tflite_c_tools::ParamType::kInt: return FlagType::kInt;
    case tflite_c_tools::ParamType::kString: return FlagType::kString;
  }
  return FlagType::kString;
}

}  // namespace

void DefineFlags(Flags& f) {
  for (const FlagSpec& s : kFlagTable) {
    if (s.help != nullptr) f.Add(s.name, s.type, s.def, s.help, s.support);
  }
  // Flags of delegate providers the table does not know (e.g.
  // --use_dummy_delegate when the dummy delegate's provider is linked in).
  for (const tflite_c_tools::ParamSpec& p :
       tflite_c_tools::DelegateRegistry::Get().AllParams()) {
    if (f.Find(p.name) == nullptr) f.Add(p.name, FromParamType(p.type), p.default_value, p.help);
  }
}

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
  bool in_table;
  for (const tflite_c_tools::ParamSpec& p :
       tflite_c_tools::DelegateRegistry::Get().AllParams()) {
    in_table = false;
    for (const FlagSpec& s : kFlagTable) in_table = in_table || p.name == s.name;
    if (!in_table && !p.log.empty()) LogParam(f, p.name.c_str(), p.log.c_str(), v);
  }
}

}  // namespace tflite_c_bench

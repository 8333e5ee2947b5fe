// inference_diff: runs a model on the builtin reference kernels and on a
// chosen delegate (XNNPACK or an external delegate .so) with the same inputs,
// and reports per output the average and maximum absolute error, the
// standard deviation of the per-run average error, and both latencies —
// the idea of upstream's evaluation tool of the same name. Public C API only.
//
//   inference_diff --graph=model.tflite [--num_runs=50] [--seed=0]
//       [--use_xnnpack=true | --external_delegate_path=lib.so
//        [--external_delegate_options='k1:v1;k2:v2']]
//       [--input_files=in0.bin,in1.bin] [--num_threads=N] [--max_abs_error=X]
//
// Exit status: 0 success, 1 bad flags or a failure to load/run, 2 an
// output's maximum absolute error exceeded --max_abs_error.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "common/delegate_registry.h"
#include "common/man_page.h"
#include "common/tool_util.h"

namespace {

// ---- flags ---------------------------------------------------------------------

struct FlagSpec {
  const char* name;
  const char* def;
  const char* help;
};

const FlagSpec kFlags[] = {
    {"graph", "", "path of the .tflite model (required)"},
    {"num_runs", "50", "number of runs, each with new random inputs"},
    {"seed", "0", "seed of the random inputs"},
    {"num_threads", "-1", "threads of both interpreters (-1: library default)"},
    {"input_files", "", "comma-separated raw input files, one per input, in input order"},
    {"max_abs_error", "-1", "exit 2 if an output's max |error| exceeds this (< 0: no check)"},
    {"help", "false", "print this text"},
};

class Flags {
 public:
  Flags() {
    for (const FlagSpec& f : kFlags) values_[f.name] = f.def;
    // The test side's delegate: the flags of every provider of the tools'
    // delegate registrar (--use_xnnpack, --external_delegate_path, ...).
    for (const auto& p : tflite_c_tools::DelegateRegistry::Get().AllParams()) {
      if (values_.count(p.name) == 0) values_[p.name] = p.default_value;
    }
  }
  bool Parse(int argc, char** argv, std::string* error) {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        values_["help"] = "true";
        continue;
      }
      const size_t eq = arg.find('=');
      if (arg.rfind("--", 0) != 0 || eq == std::string::npos ||
          values_.count(arg.substr(2, eq - 2)) == 0) {
        *error = "Unknown flag: " + arg;
        return false;
      }
      values_[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
      positions_[arg.substr(2, eq - 2)] = i;
    }
    return true;
  }
  // The registrar's view of the flags given.
  bool ToParams(tflite_c_tools::ToolParams* params, std::string* error) const {
    tflite_c_tools::DelegateRegistry::Get().DefineParams(params);
    for (const auto& [name, position] : positions_) {
      if (params->Defined(name) && !params->Set(name, values_.at(name), position, error)) {
        return false;
      }
    }
    return true;
  }
  const std::string& Str(const char* n) const { return values_.at(n); }
  bool Bool(const char* n, bool* ok) const {
    const std::string& v = Str(n);
    if (v == "true" || v == "1") return true;
    if (v != "false" && v != "0") *ok = false;
    return false;
  }
  long Int(const char* n, bool* ok) const {
    char* end = nullptr;
    const long v = std::strtol(Str(n).c_str(), &end, 10);
    if (Str(n).empty() || *end != '\0') *ok = false;
    return v;
  }
  double Double(const char* n, bool* ok) const {
    char* end = nullptr;
    const double v = std::strtod(Str(n).c_str(), &end);
    if (Str(n).empty() || *end != '\0' || !std::isfinite(v)) *ok = false;
    return v;
  }

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, int> positions_;
};

std::string Usage(const char* argv0) {
  std::ostringstream u;
  u << "usage: " << argv0 << " --graph=model.tflite [flags]\nFlags:\n";
  for (const FlagSpec& f : kFlags) u << "  --" << f.name << "=" << f.def << "\t" << f.help << "\n";
  u << "The delegate under test (exactly one):\n";
  for (const auto& p : tflite_c_tools::DelegateRegistry::Get().AllParams()) {
    if (p.name == "num_threads") continue;
    u << "  --" << p.name << "=" << p.default_value << "\t" << p.help << "\n";
  }
  u << "Exit status: 0 ok, 1 error, 2 max_abs_error exceeded.\n";
  return u.str();
}

void ReportToStderr(void*, const char* format, va_list args) {
  std::fputs("ERROR: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Mean and standard deviation of a series.
struct Series {
  double sum = 0, squared = 0;
  int64_t n = 0;
  void Add(double v) {
    sum += v;
    squared += v * v;
    ++n;
  }
  double avg() const { return n ? sum / n : 0.0; }
  double std_dev() const {
    if (n == 0) return 0.0;
    return std::sqrt(std::max(0.0, squared / n - avg() * avg()));
  }
};

// One interpreter and what it owns.
class Runner {
 public:
  ~Runner() {
    if (interpreter_) TfLiteInterpreterDelete(interpreter_);
    if (options_) TfLiteInterpreterOptionsDelete(options_);
    if (delegate_) delegate_deleter_(delegate_);
  }
  // `delegate` (owned, freed with `deleter`) may be null: builtin kernels.
  bool Init(const TfLiteModel* model, int num_threads, TfLiteDelegate* delegate,
            void (*deleter)(TfLiteDelegate*)) {
    delegate_ = delegate;
    delegate_deleter_ = deleter;
    options_ = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(options_, ReportToStderr, nullptr);
    if (num_threads != -1) TfLiteInterpreterOptionsSetNumThreads(options_, num_threads);
    if (delegate_) TfLiteInterpreterOptionsAddDelegate(options_, delegate_);
    interpreter_ = TfLiteInterpreterCreate(model, options_);
    return interpreter_ != nullptr && TfLiteInterpreterAllocateTensors(interpreter_) == kTfLiteOk;
  }
  TfLiteInterpreter* get() const { return interpreter_; }
  bool Run(const std::vector<std::vector<char>>& inputs, int64_t* micros) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter_, static_cast<int32_t>(i));
      if (TfLiteTensorCopyFromBuffer(t, inputs[i].data(), inputs[i].size()) != kTfLiteOk) {
        return false;
      }
    }
    const int64_t start = NowMicros();
    const bool ok = TfLiteInterpreterInvoke(interpreter_) == kTfLiteOk;
    *micros = NowMicros() - start;
    return ok;
  }

 private:
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  TfLiteDelegate* delegate_ = nullptr;
  void (*delegate_deleter_)(TfLiteDelegate*) = nullptr;
};

// Random bytes for one input, in the style of upstream's tool: floats in
// [-1, 1), integers over a small range, booleans 0/1.
bool RandomInput(const TfLiteTensor* t, std::mt19937* rng, std::vector<char>* out) {
  const size_t bytes = TfLiteTensorByteSize(t);
  out->assign(bytes, 0);
  auto fill = [&](auto tag, auto dist) {
    using T = decltype(tag);
    T* p = reinterpret_cast<T*>(out->data());
    for (size_t i = 0; i < bytes / sizeof(T); ++i) p[i] = static_cast<T>(dist(*rng));
  };
  switch (TfLiteTensorType(t)) {
    case kTfLiteFloat32: fill(float{}, std::uniform_real_distribution<float>(-1.f, 1.f)); break;
    case kTfLiteFloat64: fill(double{}, std::uniform_real_distribution<double>(-1., 1.)); break;
    case kTfLiteInt8: fill(int8_t{}, std::uniform_int_distribution<int>(-128, 127)); break;
    case kTfLiteUInt8: fill(uint8_t{}, std::uniform_int_distribution<int>(0, 255)); break;
    case kTfLiteInt16: fill(int16_t{}, std::uniform_int_distribution<int>(-32768, 32767)); break;
    case kTfLiteInt32: fill(int32_t{}, std::uniform_int_distribution<int32_t>(0, 99)); break;
    case kTfLiteInt64: fill(int64_t{}, std::uniform_int_distribution<int64_t>(0, 99)); break;
    case kTfLiteBool: fill(bool{}, std::uniform_int_distribution<int>(0, 1)); break;
    default:
      std::cerr << "ERROR: input '" << (TfLiteTensorName(t) ? TfLiteTensorName(t) : "")
                << "' has type " << TfLiteTypeGetName(TfLiteTensorType(t))
                << ": random data for it is not supported; pass --input_files\n";
      return false;
  }
  return true;
}

// Element `i` of an output as a real number (dequantized when quantized).
bool ValuesOf(const TfLiteTensor* t, std::vector<double>* out) {
  const void* data = TfLiteTensorData(t);
  const size_t bytes = TfLiteTensorByteSize(t);
  const TfLiteQuantizationParams q = TfLiteTensorQuantizationParams(t);
  const bool quantized = q.scale != 0.f;
  out->clear();
  if (data == nullptr && bytes > 0) return false;
  auto read = [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(data);
    for (size_t i = 0; i < bytes / sizeof(T); ++i) {
      const double v = static_cast<double>(p[i]);
      out->push_back(quantized ? (v - q.zero_point) * q.scale : v);
    }
  };
  switch (TfLiteTensorType(t)) {
    case kTfLiteFloat32: read(float{}); return true;
    case kTfLiteFloat64: read(double{}); return true;
    case kTfLiteInt8: read(int8_t{}); return true;
    case kTfLiteUInt8: read(uint8_t{}); return true;
    case kTfLiteInt16: read(int16_t{}); return true;
    case kTfLiteUInt16: read(uint16_t{}); return true;
    case kTfLiteInt32: read(int32_t{}); return true;
    case kTfLiteUInt32: read(uint32_t{}); return true;
    case kTfLiteInt64: read(int64_t{}); return true;
    case kTfLiteBool: read(bool{}); return true;
    default: return false;
  }
}

// The settings of one comparison, from the flags.
struct Settings {
  long num_runs = 0;
  long seed = 0;
  long num_threads = 0;
  double max_abs_error = 0;
  std::string graph;
};

// Returns -1 to go on, else the exit status (after --help or an error).
int ReadSettings(int argc, char** argv, Flags* flags, Settings* settings) {
  std::string error;
  if (!flags->Parse(argc, argv, &error)) {
    std::cerr << "ERROR: " << error << "\n" << Usage(argv[0]);
    return 1;
  }
  bool ok = true;
  if (flags->Bool("help", &ok)) {
    std::cout << tflite_c_tools::ManPage(
        "inference_diff - compare a delegate's outputs with the builtin kernels' on "
        "the same inputs",
        Usage(argv[0]),
        "    inference_diff --graph=model.tflite --use_xnnpack=true --num_runs=20\n"
        "    inference_diff --graph=model.tflite --external_delegate_path=libd.so "
        "--max_abs_error=1e-4\n",
        "0 ok, 1 bad flags or a failure to load/run, 2 max_abs_error exceeded.");
    return 0;
  }
  settings->num_runs = flags->Int("num_runs", &ok);
  settings->seed = flags->Int("seed", &ok);
  settings->num_threads = flags->Int("num_threads", &ok);
  settings->max_abs_error = flags->Double("max_abs_error", &ok);
  if (!ok || settings->num_runs < 1 || settings->num_threads < -1 ||
      settings->num_threads == 0) {
    std::cerr << "ERROR: bad flag value (num_runs >= 1, num_threads -1 or >= 1, numbers and "
                 "true/false expected)\n"
              << Usage(argv[0]);
    return 1;
  }
  settings->graph = flags->Str("graph");
  if (settings->graph.empty()) {
    std::cerr << "ERROR: --graph is required\n" << Usage(argv[0]);
    return 1;
  }
  return -1;
}

// The delegate under test, from the tools' delegate registrar: exactly one.
bool ChooseDelegate(const Flags& flags, long num_threads, const char* argv0,
                    tflite_c_tools::ProvidedDelegate* chosen) {
  std::string error;
  tflite_c_tools::ToolParams params;
  if (!flags.ToParams(&params, &error)) {
    std::cerr << "ERROR: " << error << "\n" << Usage(argv0);
    return false;
  }
  params.Define({"num_threads", tflite_c_tools::ParamType::kInt, "-1", "", ""});
  params.Set("num_threads", std::to_string(num_threads), 0, nullptr);
  tflite_c_tools::DelegateList list;
  if (!tflite_c_tools::DelegateRegistry::Get().CreateDelegates(params, &list, &error)) {
    std::cerr << "ERROR: " << error << "\n";
    return false;
  }
  if (list.size() != 1) {
    std::cerr << "ERROR: choose the delegate under test: exactly one of --use_xnnpack=true and "
                 "--external_delegate_path (or another delegate provider's flag)\n";
    return false;
  }
  *chosen = list.Release()[0];
  return true;
}

// --input_files: one raw file per input of `ref`, each of the input's size.
bool ReadInputFiles(const std::vector<std::string>& files, TfLiteInterpreter* ref,
                    std::vector<std::vector<char>>* inputs) {
  const int num_inputs = static_cast<int>(inputs->size());
  if (static_cast<int>(files.size()) != num_inputs) {
    std::cerr << "ERROR: --input_files names " << files.size() << " files; the model has "
              << num_inputs << " inputs\n";
    return false;
  }
  for (int i = 0; i < num_inputs; ++i) {
    std::vector<char>& bytes = (*inputs)[i];
    std::ifstream in(files[i], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const size_t want = TfLiteTensorByteSize(TfLiteInterpreterGetInputTensor(ref, i));
    if (!in.good() && !in.eof()) {
      std::cerr << "ERROR: cannot read " << files[i] << "\n";
      return false;
    }
    if (bytes.size() != want) {
      std::cerr << "ERROR: " << files[i] << " has " << bytes.size() << " bytes; input " << i
                << " needs " << want << "\n";
      return false;
    }
  }
  return true;
}

// Errors of the runs so far, per output.
struct OutputErrors {
  Series avg;  // of each run's average absolute error
  double max = 0.0;
};

// Adds one run's comparison of output `o` of the two interpreters.
bool CompareOutput(TfLiteInterpreter* ref, TfLiteInterpreter* test, int o, OutputErrors* errors) {
  std::vector<double> ref_values, test_values;
  const TfLiteTensor* r = TfLiteInterpreterGetOutputTensor(ref, o);
  const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(test, o);
  if (!ValuesOf(r, &ref_values) || !ValuesOf(t, &test_values)) {
    std::cerr << "ERROR: output " << o << " has type " << TfLiteTypeGetName(TfLiteTensorType(r))
              << ", which cannot be compared\n";
    return false;
  }
  if (ref_values.size() != test_values.size()) {
    std::cerr << "ERROR: output " << o << " has " << ref_values.size()
              << " elements on the reference side and " << test_values.size()
              << " with the delegate\n";
    return false;
  }
  double sum = 0;
  for (size_t k = 0; k < ref_values.size(); ++k) {
    double e = std::fabs(ref_values[k] - test_values[k]);
    if (std::isnan(ref_values[k]) != std::isnan(test_values[k])) {
      e = std::numeric_limits<double>::infinity();
    } else if (std::isnan(e)) {
      e = 0;  // both NaN, or the same infinity
    }
    sum += e;
    errors->max = std::max(errors->max, e);
  }
  errors->avg.Add(ref_values.empty() ? 0.0 : sum / static_cast<double>(ref_values.size()));
  return true;
}

// The report; returns 2 when an output's maximum error exceeds the bound.
int PrintReport(const Settings& settings, const std::string& delegate_name,
                const Series& ref_latency, const Series& test_latency, TfLiteInterpreter* ref,
                const std::vector<OutputErrors>& errors) {
  std::cout << "Delegate under test: " << delegate_name << "\n";
  std::cout << "Num evaluation runs: " << settings.num_runs << "\n";
  std::cout << "Reference run latency: avg=" << ref_latency.avg()
            << "(us), std_dev=" << ref_latency.std_dev() << "(us)\n";
  std::cout << "Test run latency: avg=" << test_latency.avg()
            << "(us), std_dev=" << test_latency.std_dev() << "(us)\n";
  bool exceeded = false;
  for (size_t o = 0; o < errors.size(); ++o) {
    const char* name =
        TfLiteTensorName(TfLiteInterpreterGetOutputTensor(ref, static_cast<int>(o)));
    std::cout << "OutputDiff[" << o << "] (" << (name ? name : "") << "): avg_error="
              << errors[o].avg.avg() << ", std_dev=" << errors[o].avg.std_dev()
              << ", max_abs_error=" << errors[o].max << "\n";
    if (settings.max_abs_error >= 0 && errors[o].max > settings.max_abs_error) {
      std::cerr << "ERROR: output " << o << " (" << (name ? name : "")
                << "): max absolute error " << errors[o].max << " exceeds --max_abs_error="
                << settings.max_abs_error << "\n";
      exceeded = true;
    }
  }
  return exceeded ? 2 : 0;
}

// Runs both interpreters num_runs times on the same inputs (random unless
// --input_files) and prints the report.
int Compare(const Settings& settings, const std::vector<std::string>& files,
            const std::string& delegate_name, Runner& reference, Runner& test) {
  TfLiteInterpreter* ref = reference.get();
  const int num_inputs = TfLiteInterpreterGetInputTensorCount(ref);
  const int num_outputs = TfLiteInterpreterGetOutputTensorCount(ref);
  std::vector<std::vector<char>> inputs(num_inputs);
  if (!files.empty() && !ReadInputFiles(files, ref, &inputs)) return 1;

  std::mt19937 rng(static_cast<uint32_t>(settings.seed));
  Series ref_latency, test_latency;
  std::vector<OutputErrors> errors(num_outputs);
  for (long run = 0; run < settings.num_runs; ++run) {
    if (files.empty()) {
      for (int i = 0; i < num_inputs; ++i) {
        if (!RandomInput(TfLiteInterpreterGetInputTensor(ref, i), &rng, &inputs[i])) return 1;
      }
    }
    int64_t ref_us = 0, test_us = 0;
    if (!reference.Run(inputs, &ref_us)) {
      std::cerr << "ERROR: reference run " << run << " failed\n";
      return 1;
    }
    if (!test.Run(inputs, &test_us)) {
      std::cerr << "ERROR: test run " << run << " (" << delegate_name << ") failed\n";
      return 1;
    }
    ref_latency.Add(static_cast<double>(ref_us));
    test_latency.Add(static_cast<double>(test_us));
    for (int o = 0; o < num_outputs; ++o) {
      if (!CompareOutput(ref, test.get(), o, &errors[o])) return 1;
    }
  }
  return PrintReport(settings, delegate_name, ref_latency, test_latency, ref, errors);
}

int Main(int argc, char** argv) {
  Flags flags;
  Settings settings;
  const int status = ReadSettings(argc, argv, &flags, &settings);
  if (status >= 0) return status;
  tflite_c_tools::ProvidedDelegate chosen;
  if (!ChooseDelegate(flags, settings.num_threads, argv[0], &chosen)) return 1;
  // Neither side gets the library's default XNNPACK delegate: the reference
  // is the builtin kernels, the test side exactly the chosen delegate.
  setenv("TFLITE_C_DISABLE_XNNPACK", "1", 1);

  const std::string& graph = settings.graph;
  TfLiteModel* model = TfLiteModelCreateFromFileWithErrorReporter(graph.c_str(), ReportToStderr,
                                                                  nullptr);
  if (model == nullptr) {
    std::cerr << "ERROR: could not load the model " << graph << "\n";
    return 1;
  }
  struct ModelGuard {
    TfLiteModel* m;
    ~ModelGuard() { TfLiteModelDelete(m); }
  } model_guard{model};

  Runner reference, test;
  const int num_threads = static_cast<int>(settings.num_threads);
  if (!reference.Init(model, num_threads, nullptr, nullptr)) {
    std::cerr << "ERROR: the reference interpreter (builtin kernels) could not be created\n";
    return 1;
  }
  // The test runner deletes the delegate after its interpreter.
  const std::string delegate_name = chosen.description;
  if (!test.Init(model, num_threads, chosen.delegate, chosen.deleter)) {
    std::cerr << "ERROR: the interpreter with the " << delegate_name << " could not be created\n";
    return 1;
  }
  return Compare(settings, tflite_c_tools::SplitNonEmpty(flags.Str("input_files"), ','),
                 delegate_name, reference, test);
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }

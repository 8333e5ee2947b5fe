// benchmark_model: measures load time, first-inference time and steady-state
// latency of a .tflite model, with the command line and the log lines of
// TensorFlow Lite's tool of the same name, so that existing scripts and log
// parsers keep working. Written from scratch against nothing but the public C
// API (c_api.h, c_api_experimental.h, external_delegate.h): it is a consumer
// of the library like any application.
//
// Flags take the form --name=value (upstream's syntax). See README.md next to
// this file for the flags that are honoured and those that are only accepted.
//
// Files: flags.{h,cc} (the flag table, parsing, the parameter log),
// inputs.{h,cc} (input data), bench_util.h (logging, statistics, memory),
// this file (delegates, the benchmark loop, the op profile output, main).

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
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "benchmark_model/bench_util.h"
#include "benchmark_model/flags.h"
#include "benchmark_model/inputs.h"
#include "common/delegate_registry.h"
#include "common/man_page.h"
#include "common/op_profile.h"
// The generated flatbuffer schema: subgraph names for the op profile.
#include "schema_generated.h"

namespace {

using namespace tflite_c_bench;  // NOLINT: the tool's own helpers

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
    if (default_xnnpack_) TfLiteXNNPackDelegateDelete(default_xnnpack_);
    if (options_) TfLiteInterpreterOptionsDelete(options_);
    if (model_) TfLiteModelDelete(model_);
  }

  bool Run();

 private:
  bool Validate();
  bool Init();
  bool CreateDelegates();
  bool ApplyDelegates();
  bool ApplyDefaultXnnpack();
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
  tflite_c_tools::DelegateList delegate_list_;  // owns the delegates
  std::vector<OwnedDelegate> delegates_;       // in the order they apply
  // The library's default XNNPACK delegate, applied by the tool after the
  // flags' delegates (see ApplyDefaultXnnpack).
  TfLiteDelegate* default_xnnpack_ = nullptr;
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

// The delegates the flags ask for, from the tools' delegate registrar
// (tools/common/delegate_registry.h): XNNPACK, external, and any provider
// linked into this binary (--use_dummy_delegate in
// benchmark_model_plus_dummy_delegate).
bool Benchmark::CreateDelegates() {
  const auto& registry = tflite_c_tools::DelegateRegistry::Get();
  tflite_c_tools::ToolParams params;
  registry.DefineParams(&params);
  params.Define({"num_threads", tflite_c_tools::ParamType::kInt, "-1", "", ""});
  for (const Flag& fl : f_.all()) {
    if (!params.Defined(fl.name) || !fl.set) continue;
    std::string error;
    if (!params.Set(fl.name, fl.value, fl.position, &error)) {
      LOG_ERROR << error;
      return false;
    }
  }
  std::string error;
  if (!registry.CreateDelegates(params, &delegate_list_, &error)) {
    LOG_ERROR << error;
    return false;
  }
  for (const tflite_c_tools::ProvidedDelegate& d : delegate_list_.items()) {
    if (d.provider == "XNNPACK") LOG_INFO << "XNNPACK delegate created.";
    delegates_.push_back({d.provider, d.delegate, nullptr, d.position});
  }
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
    // Count the delegate kernels now in the plan (not part of the profile).
    probe_ = PlanProbe();
    if (profile_) profile_->Pause();
    TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
    if (profile_) profile_->Resume();
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

// After the flags' delegates, the default XNNPACK delegate takes what they
// left on the CPU (nothing to do without them: the library applied it at
// TfLiteInterpreterCreate; nor with an explicit --use_xnnpack).
bool Benchmark::ApplyDefaultXnnpack() {
  if (delegates_.empty() || f_.Get("use_xnnpack").set) return true;
  probe_ = PlanProbe();
  probe_delegate_.data_ = &probe_;
  probe_delegate_.Prepare = ProbePrepare;
  probe_delegate_.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  if (profile_) profile_->Pause();
  TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
  if (profile_) profile_->Resume();
  if (probe_.plan_size == probe_.delegate_nodes) return true;  // fully delegated
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  opts.num_threads = std::max(1, f_.Int("num_threads"));
  default_xnnpack_ = TfLiteXNNPackDelegateCreate(&opts);
  // As the library's own default: when XNNPACK cannot be applied, the
  // builtin kernels run.
  if (default_xnnpack_ != nullptr &&
      TfLiteInterpreterModifyGraphWithDelegate(interpreter_, default_xnnpack_) != kTfLiteOk) {
    LOG_WARN << "The default XNNPACK delegate could not be applied; the builtin kernels run.";
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
  // default XNNPACK delegate; without the flag the default one applies. With
  // other delegates (--external_delegate_path, ...) the default XNNPACK
  // delegate comes after them, as upstream applies its lazy default delegate
  // at AllocateTensors, after the tool's ModifyGraphWithDelegate calls: the
  // library's default is turned off here and ApplyDefaultXnnpack adds it.
  if (!CreateDelegates()) return false;
  if (f_.Get("use_xnnpack").set || !delegates_.empty())
    TfLiteInterpreterOptionsSetUseXNNPACK(options_, false);
  if (profile_) {
    // As upstream's ProfilingListener: initialization is profiled too
    // (ModifyGraphWithDelegate, AllocateTensors), until the first run.
    TfLiteInterpreterOptionsSetProfiler(options_, profile_.get());
    profile_->StartInit();
  }
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

  if (!ApplyDelegates() || !ApplyDefaultXnnpack()) return false;
  if (profile_) ProbePlan();

  const TfLiteStatus alloc = runner_ ? TfLiteSignatureRunnerAllocateTensors(runner_)
                                     : TfLiteInterpreterAllocateTensors(interpreter_);
  if (alloc != kTfLiteOk) {
    LOG_ERROR << "Failed to allocate tensors!";
    return false;
  }
  if (profile_) profile_->EndInit();
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
    profile_->Pause();
    TfLiteInterpreterModifyGraphWithDelegate(interpreter_, &probe_delegate_);
    profile_->Resume();
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

// Upstream's ProfilingListener output: the initialization profile and the
// profile of the regular runs, each after its header line, to the log or to
// --op_profiling_output_file.
bool Benchmark::ReportOpProfile() {
  const bool csv = f_.Str("op_profiling_output_mode") == "csv";
  const std::pair<const char*, std::string> parts[] = {
      {"Profiling Info for Benchmark Initialization:", profile_->InitReport(csv)},
      {"Operator-wise Profiling Info for Regular Benchmark Runs:", profile_->RunReport(csv)}};
  const std::string& path = f_.Str("op_profiling_output_file");
  if (!path.empty()) {
    std::ofstream out(path);
    if (out.good()) {
      for (const auto& [header, text] : parts) out << header << "\n" << text << "\n";
      return out.good();
    }
    LOG_WARN << "Could not open " << path << " for writing; printing the op profile instead.";
  }
  for (const auto& [header, text] : parts) LOG_INFO << header << "\n" << text;
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
    // Upstream's behaviour: --help prints to stderr and fails; here the
    // usage text comes in man-page sections.
    LOG_ERROR << (flags.Bool("help") ? tflite_c_tools::ManPage(
                      "benchmark_model - time the inference of a .tflite model with tflite-c "
                      "(upstream's flags and log lines)",
                      Usage(argv[0], flags),
                      "    benchmark_model --graph=mobilenet.tflite --num_threads=4\n"
                      "    benchmark_model --graph=model.tflite --use_xnnpack=false "
                      "--enable_op_profiling=true\n"
                      "    benchmark_model --graph=model.tflite --external_delegate_path=libd.so\n",
                      "1 always after --help (as upstream); 0 when the benchmark ran, "
                      "1 otherwise.")
                                  : Usage(argv[0], flags));
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

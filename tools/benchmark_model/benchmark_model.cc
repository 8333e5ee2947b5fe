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
// benchmark.h (the Benchmark class), setup.cc (interpreter, signature,
// delegates), report.cc (op profile, tensor state, outputs, memory status),
// this file (flag checks, the benchmark loop, main).

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "benchmark_model/benchmark.h"
#include "common/man_page.h"

namespace tflite_c_bench {

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
  if (peak_mb > 0) LogPeakMemory(peak_mb);
  if (profile_ && !ReportOpProfile()) {
    LOG_ERROR << "Failed to write the op profile to " << f_.Str("op_profiling_output_file");
    ok = false;
  }
  if (f_.Bool("print_postinvoke_state")) PrintState("post-invoke");
  SaveOutputs();
  return ok;
}

}  // namespace tflite_c_bench

int main(int argc, char** argv) {
  using namespace tflite_c_bench;  // NOLINT: the tool's own helpers
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

// benchmark_model's output after the runs: the op profile (upstream's
// ProfilingListener format), the tensors' state, the outputs' bytes and the
// memory status of --report_peak_memory_footprint.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

#include "benchmark_model/benchmark.h"

namespace tflite_c_bench {

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

void LogPeakMemory(double peak_mb) {
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

}  // namespace tflite_c_bench

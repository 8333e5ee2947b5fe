// benchmark_model: logging in upstream's format ("INFO: " / "WARN: " on
// stdout, "ERROR: " on stderr), clocks, the latency statistics and the
// peak-memory monitor.
#ifndef TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCH_UTIL_H_
#define TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCH_UTIL_H_

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace tflite_c_bench {

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

inline void ErrorReporter(void*, const char* format, va_list args) {
  char buf[2048];
  vsnprintf(buf, sizeof(buf), format, args);
  LOG_ERROR << buf;
}

inline int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline void SleepSeconds(double s) {
  if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

// Resident-set high-water mark in KB (Linux getrusage), as upstream measures.
inline int64_t MaxRssKb() {
  rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return usage.ru_maxrss;
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

}  // namespace tflite_c_bench

#endif  // TFLITE_C_TOOLS_BENCHMARK_MODEL_BENCH_UTIL_H_

// Per-operator profile of repeated Invoke calls, collected through the
// public telemetry profiler (tensorflow/lite/profiling/telemetry/c/profiler.h)
// and printed in the layout of upstream's benchmark_model
// (--enable_op_profiling): "Run Order" and "Top by Computation Time" tables
// with the columns [node type] [first] [avg ms] [%] [cdf%] [mem KB]
// [times called] [Name], the summary by node type, and the timing summary,
// per subgraph; or the same tables as CSV.
//
// Usage: OpProfile p; TfLiteInterpreterOptionsSetTelemetryProfiler(options,
// p.telemetry()); then p.BeginRun() / p.EndRun() around each Invoke that
// should count. Events outside a run are ignored. Single-threaded (Invoke
// runs its nodes one after another on the calling thread).
#ifndef TFLITE_C_TOOLS_COMMON_OP_PROFILE_H_
#define TFLITE_C_TOOLS_COMMON_OP_PROFILE_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/profiling/telemetry/c/profiler.h"

namespace tflite_c_tools {

// Running statistics of one quantity (upstream's Stat<int64_t>).
class RunningStat {
 public:
  void Add(int64_t v) {
    if (count_ == 0) first_ = v;
    newest_ = v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    sum_ += v;
    squared_sum_ += static_cast<double>(v) * static_cast<double>(v);
    ++count_;
  }
  int64_t count() const { return count_; }
  int64_t first() const { return first_; }
  int64_t newest() const { return newest_; }
  int64_t sum() const { return sum_; }
  double avg() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_) / count_; }
  int64_t std_deviation() const {
    if (count_ == 0 || min_ == max_) return 0;
    const double var = squared_sum_ / count_ - avg() * avg();
    return static_cast<int64_t>(std::sqrt(std::max(0.0, var)));
  }
  // "count=… first=… curr=… min=… max=… avg=… std=…" as upstream prints it.
  std::string ToString() const {
    std::ostringstream s;
    if (count_ == 0) {
      s << "count=0";
    } else if (min_ == max_) {
      s << "count=" << count_ << " curr=" << newest_;
      if (count_ > 1) s << "(all same)";
    } else {
      s << "count=" << count_ << " first=" << first_ << " curr=" << newest_ << " min=" << min_
        << " max=" << max_ << " avg=" << avg() << " std=" << std_deviation();
    }
    return s.str();
  }

 private:
  int64_t count_ = 0, first_ = 0, newest_ = 0, sum_ = 0;
  int64_t min_ = std::numeric_limits<int64_t>::max();
  int64_t max_ = std::numeric_limits<int64_t>::min();
  double squared_sum_ = 0;
};

class OpProfile {
 public:
  OpProfile() {
    telemetry_.data = this;
    telemetry_.ReportBeginOpInvokeEvent = &OpProfile::Begin;
    telemetry_.ReportEndOpInvokeEvent = &OpProfile::End;
    telemetry_.ReportOpInvokeEvent = &OpProfile::Measured;
  }
  OpProfile(const OpProfile&) = delete;
  OpProfile& operator=(const OpProfile&) = delete;

  TfLiteTelemetryProfilerStruct* telemetry() { return &telemetry_; }

  // Output tensor names of a node, for the [Name] column ("[a, b]:<node>").
  void SetNodeOutputs(int subgraph, int node, std::vector<std::string> outputs) {
    node_outputs_[{subgraph, node}] = std::move(outputs);
  }
  void SetSubgraphName(int subgraph, std::string name) { subgraph_names_[subgraph] = std::move(name); }

  void BeginRun() {
    recording_ = true;
    events_.clear();
  }
  void EndRun() {
    if (!recording_) return;
    recording_ = false;
    std::map<int, int64_t> total_per_subgraph;
    int order = 0;
    for (const Event& e : events_) {
      if (e.end_us < 0) continue;  // never ended (failed run)
      const int64_t us = e.end_us - e.start_us;
      Calculator& calc = calculators_[e.subgraph];
      const std::string name = NodeName(e.subgraph, e.node);
      auto it = calc.details.find(name);
      if (it == calc.details.end()) {
        Detail d;
        d.type = e.op_name;
        d.name = name;
        d.run_order = order;
        it = calc.details.emplace(name, std::move(d)).first;
      }
      it->second.elapsed.Add(us);
      it->second.times_called++;
      total_per_subgraph[e.subgraph] += us;
      ++order;
    }
    for (const auto& [subgraph, total] : total_per_subgraph) {
      calculators_[subgraph].run_total.Add(total);
    }
  }

  bool empty() const { return calculators_.empty(); }

  // The text upstream prints after "Operator-wise Profiling Info for Regular
  // Benchmark Runs:" (csv: its CSV formatter's text).
  std::string Report(bool csv) const {
    std::ostringstream out;
    const bool several = calculators_.size() - calculators_.count(0) > 0;
    for (const auto& [index, calc] : calculators_) {
      const std::string name = SubgraphName(index);
      if (several) {
        if (index == 0) {
          out << "Primary graph (name: " << name << ") profile:\n";
        } else {
          out << "Subgraph (index: " << index << ", name: " << name << ") profile:\n";
        }
      }
      out << Table(calc, "Run Order", /*by_time=*/false, 0, csv);
      out << Table(calc, "Top by Computation Time", /*by_time=*/true, 10, csv);
      out << ByNodeType(calc, csv);
      if (index != 0) out << "Subgraph (index: " << index << ", name: " << name << ") ";
      out << "Timings (microseconds): " << calc.run_total.ToString() << "\n";
      out << "Memory (bytes): count=0\n";
      out << calc.details.size() << " nodes observed\n\n";
    }
    return out.str();
  }

 private:
  struct Event {
    std::string op_name;
    int node;
    int subgraph;
    int64_t start_us;
    int64_t end_us;
  };
  struct Detail {
    std::string type;
    std::string name;
    int run_order = 0;
    RunningStat elapsed;
    int64_t times_called = 0;
  };
  struct Calculator {
    std::map<std::string, Detail> details;
    RunningStat run_total;
  };

  static int64_t NowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static OpProfile* Self(TfLiteTelemetryProfilerStruct* p) { return static_cast<OpProfile*>(p->data); }
  static uint32_t Begin(TfLiteTelemetryProfilerStruct* p, const char* op_name, int64_t op_idx,
                        int64_t subgraph_idx) {
    OpProfile* self = Self(p);
    if (!self->recording_) return UINT32_MAX;
    self->events_.push_back({op_name ? op_name : "", static_cast<int>(op_idx),
                             static_cast<int>(subgraph_idx), NowUs(), -1});
    return static_cast<uint32_t>(self->events_.size() - 1);
  }
  static void End(TfLiteTelemetryProfilerStruct* p, uint32_t handle) {
    OpProfile* self = Self(p);
    if (!self->recording_ || handle >= self->events_.size()) return;
    self->events_[handle].end_us = NowUs();
  }
  static void Measured(TfLiteTelemetryProfilerStruct* p, const char* op_name, uint64_t elapsed_us,
                       int64_t op_idx, int64_t subgraph_idx) {
    OpProfile* self = Self(p);
    if (!self->recording_) return;
    const int64_t now = NowUs();
    self->events_.push_back({op_name ? op_name : "", static_cast<int>(op_idx),
                             static_cast<int>(subgraph_idx),
                             now - static_cast<int64_t>(elapsed_us), now});
  }

  std::string NodeName(int subgraph, int node) const {
    std::string s = "[";
    auto it = node_outputs_.find({subgraph, node});
    if (it != node_outputs_.end()) {
      for (size_t i = 0; i < it->second.size(); ++i) s += (i ? ", " : "") + it->second[i];
    }
    return s + "]:" + std::to_string(node);
  }
  std::string SubgraphName(int index) const {
    auto it = subgraph_names_.find(index);
    return it == subgraph_names_.end() ? "" : it->second;
  }

  static std::ostream& Field(std::ostream& s, int width) {
    return s << "\t" << std::right << std::setw(width) << std::fixed << std::setprecision(3);
  }

  // A table's column header: the CSV line, or each (width, label) as a Field
  // followed by `tail`.
  static void Header(std::ostream& s, bool csv, const char* csv_line,
                     std::initializer_list<std::pair<int, const char*>> columns,
                     const char* tail) {
    if (csv) {
      s << csv_line;
      return;
    }
    for (const auto& [width, label] : columns) Field(s, width) << label;
    s << tail;
  }

  static std::string Table(const Calculator& calc, const char* title, bool by_time, size_t limit,
                           bool csv) {
    std::vector<const Detail*> rows;
    for (const auto& kv : calc.details) rows.push_back(&kv.second);
    if (by_time) {
      std::stable_sort(rows.begin(), rows.end(), [](const Detail* a, const Detail* b) {
        return a->elapsed.avg() > b->elapsed.avg();
      });
    } else {
      std::stable_sort(rows.begin(), rows.end(),
                       [](const Detail* a, const Detail* b) { return a->run_order < b->run_order; });
    }
    if (limit > 0 && rows.size() > limit) rows.resize(limit);
    const int64_t runs = std::max<int64_t>(1, calc.run_total.count());
    const double total = static_cast<double>(calc.run_total.sum());
    std::ostringstream s;
    s << "============================== " << title << " ==============================\n";
    Header(s, csv, "node type, first, avg_ms, %, cdf%, mem KB, times called, name\n",
           {{24, "[node type]"},
            {9, "[first]"},
            {9, "[avg ms]"},
            {8, "[%]"},
            {8, "[cdf%]"},
            {10, "[mem KB]"},
            {9, "[times called]"}},
           "\t[Name]\n");
    double cumulative = 0;
    for (const Detail* d : rows) {
      cumulative += static_cast<double>(d->elapsed.sum());
      const double first_ms = d->elapsed.first() / 1000.0;
      const double avg_ms = d->elapsed.avg() / 1000.0;
      const double pct = total > 0 ? d->elapsed.sum() * 100.0 / total : 0.0;
      const double cdf = total > 0 ? cumulative * 100.0 / total : 0.0;
      const int64_t times = d->times_called / runs;
      if (csv) {
        std::string name = d->name;
        std::replace(name.begin(), name.end(), ',', '\t');
        s << std::fixed << std::setprecision(3) << d->type << ", " << first_ms << ", " << avg_ms
          << ", " << pct << "%, " << cdf << "%, " << 0.0 << ", " << times << ", " << name << "\n";
      } else {
        Field(s, 24) << d->type;
        Field(s, 9) << first_ms;
        Field(s, 9) << avg_ms;
        Field(s, 7) << pct << "%";
        Field(s, 7) << cdf << "%";
        Field(s, 10) << 0.0;
        Field(s, 9) << times;
        s << "\t" << d->name << "\n";
      }
    }
    s << "\n";
    return s.str();
  }

  static std::string ByNodeType(const Calculator& calc, bool csv) {
    const int64_t runs = std::max<int64_t>(1, calc.run_total.count());
    std::map<std::string, int64_t> count, time_us, called;
    int64_t accumulated = 0;
    for (const auto& kv : calc.details) {
      const Detail& d = kv.second;
      const int64_t per_run = d.elapsed.sum() / runs;
      accumulated += per_run;
      count[d.type] += 1;
      time_us[d.type] += per_run;
      called[d.type] += d.times_called / runs;
    }
    std::vector<std::pair<int64_t, std::string>> order;
    for (const auto& kv : time_us) order.emplace_back(kv.second, kv.first);
    // Most time first; ties by name, descending (a max-heap over the pair).
    std::sort(order.begin(), order.end(), std::greater<>());
    std::ostringstream s;
    s << "Number of nodes executed: " << calc.details.size() << "\n";
    s << "============================== Summary by node type ==============================\n";
    Header(s, csv, "node type, count, avg_ms, avg %, cdf %, mem KB, times called\n",
           {{24, "[Node type]"},
            {9, "[count]"},
            {10, "[avg ms]"},
            {11, "[avg %]"},
            {11, "[cdf %]"},
            {10, "[mem KB]"},
            {10, "[times called]"}},
           "\n");
    float cdf = 0.0f;
    for (const auto& [us, type] : order) {
      const float ms = us / 1000.0f;
      const float pct = accumulated > 0 ? us / static_cast<float>(accumulated) * 100.0f : 0.0f;
      cdf += pct;
      if (csv) {
        s << std::fixed << std::setprecision(3) << type << ", " << count[type] << ", " << ms << ", "
          << pct << "%, " << cdf << "%, " << 0.0f << ", " << called[type] << "\n";
      } else {
        Field(s, 24) << type;
        Field(s, 9) << count[type];
        Field(s, 10) << ms;
        Field(s, 10) << pct << "%";
        Field(s, 10) << cdf << "%";
        Field(s, 10) << 0.0f;
        Field(s, 9) << called[type];
        s << "\n";
      }
    }
    s << "\n";
    return s.str();
  }

  TfLiteTelemetryProfilerStruct telemetry_{};
  bool recording_ = false;
  std::vector<Event> events_;
  std::map<int, Calculator> calculators_;
  std::map<std::pair<int, int>, std::vector<std::string>> node_outputs_;
  std::map<int, std::string> subgraph_names_;
};

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_OP_PROFILE_H_

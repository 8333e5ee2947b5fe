// Per-operator profile of an interpreter, collected through a tflite::Profiler
// (tensorflow/lite/core/api/profiler.h) installed with
// TfLiteInterpreterOptionsSetProfiler (tflite_c_experimental.h), and printed
// in the layout of upstream's benchmark_model (--enable_op_profiling):
// "Run Order" and "Top by Computation Time" tables with the columns
// [node type] [first] [avg ms] [%] [cdf%] [mem KB] [times called] [Name],
// the summary by node type and the timing summary, per subgraph, then the
// "Delegate internal" tables of the operators delegates report
// (DELEGATE_OPERATOR_INVOKE_EVENT); or the same tables as CSV. Operators a
// delegate reports as DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT (XNNPACK does)
// are rows "Delegate/<operator>:<index>" of the operator-wise tables.
//
// [mem KB] is what upstream puts there: for the runtime's own events
// (ModifyGraphWithDelegate, AllocateTensors) the growth of the process's
// resident-set high-water mark (getrusage ru_maxrss) while the event ran;
// for operators 0, as upstream (no per-operator memory is measured).
//
// Usage: OpProfile p; TfLiteInterpreterOptionsSetProfiler(options, &p);
// p.StartInit() before creating the interpreter, p.EndInit() once it is
// ready; then p.BeginRun() / p.EndRun() around each Invoke that should count.
// Events outside these windows are ignored. Single-threaded (the runtime
// reports from the thread calling it).
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

#include <sys/resource.h>

#include "tensorflow/lite/core/api/profiler.h"

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

// One event as the runtime reported it.
struct ProfileEvent {
  std::string tag;
  tflite::Profiler::EventType type;
  int64_t metadata1;  // node index, or the delegate's operator index
  int64_t metadata2;  // subgraph index
  int64_t start_us;
  int64_t end_us;     // -1 while open
  int64_t mem_kb;     // resident-set high-water mark growth (DEFAULT events)
};

class OpProfile : public tflite::Profiler {
 public:
  OpProfile() = default;
  OpProfile(const OpProfile&) = delete;
  OpProfile& operator=(const OpProfile&) = delete;

  // Output tensor names of a node, for the [Name] column ("[a, b]:<node>").
  void SetNodeOutputs(int subgraph, int node, std::vector<std::string> outputs) {
    node_outputs_[{subgraph, node}] = std::move(outputs);
  }
  void SetSubgraphName(int subgraph, std::string name) { subgraph_names_[subgraph] = std::move(name); }

  // Initialization (interpreter creation, delegates, AllocateTensors): the
  // events between StartInit and EndInit make the initialization profile.
  void StartInit() {
    mode_ = Mode::kInit;
    events_.clear();
  }
  void EndInit() {
    if (mode_ != Mode::kInit) return;
    mode_ = Mode::kOff;
    Process(&init_);
  }
  // Stops and resumes recording (e.g. around the tool's own bookkeeping).
  void Pause() {
    paused_mode_ = mode_;
    mode_ = Mode::kOff;
  }
  void Resume() { mode_ = paused_mode_; }

  void BeginRun() {
    mode_ = Mode::kRun;
    events_.clear();
  }
  void EndRun() {
    if (mode_ != Mode::kRun) return;
    mode_ = Mode::kOff;
    Process(&runs_);
  }

  bool empty() const { return runs_.calculators.empty(); }

  // The text upstream prints after "Profiling Info for Benchmark
  // Initialization:" (csv: its CSV formatter's text).
  std::string InitReport(bool csv) const { return Report(init_, csv); }
  // The text upstream prints after "Operator-wise Profiling Info for Regular
  // Benchmark Runs:".
  std::string RunReport(bool csv) const { return Report(runs_, csv); }
  std::string Report(bool csv) const { return RunReport(csv); }

  // ---- tflite::Profiler ------------------------------------------------------
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                      int64_t event_metadata2) override {
    if (mode_ == Mode::kOff || !Recorded(event_type)) return kNoEvent;
    events_.push_back({tag != nullptr ? tag : "", event_type, event_metadata1, event_metadata2,
                       NowUs(), -1, event_type == EventType::DEFAULT ? MaxRssKb() : 0});
    return static_cast<uint32_t>(events_.size() - 1);
  }
  void EndEvent(uint32_t handle) override {
    if (mode_ == Mode::kOff || handle >= events_.size()) return;
    ProfileEvent& e = events_[handle];
    e.end_us = NowUs();
    if (e.type == EventType::DEFAULT) e.mem_kb = MaxRssKb() - e.mem_kb;
  }
  void AddEvent(const char* tag, EventType event_type, uint64_t elapsed_us,
                int64_t event_metadata1, int64_t event_metadata2) override {
    if (mode_ == Mode::kOff || !Recorded(event_type)) return;
    const int64_t now = NowUs();
    events_.push_back({tag != nullptr ? tag : "", event_type, event_metadata1, event_metadata2,
                       now - static_cast<int64_t>(elapsed_us), now, 0});
  }
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;
  using tflite::Profiler::EndEvent;

  // Resident-set high-water mark in KB (upstream's memory footprint).
  static int64_t MaxRssKb() {
    rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return usage.ru_maxrss;
  }

 private:
  static constexpr uint32_t kNoEvent = UINT32_MAX;
  enum class Mode { kOff, kInit, kRun };

  struct Detail {
    std::string type;
    std::string name;
    int run_order = 0;
    RunningStat elapsed;
    RunningStat mem_kb;
    int64_t times_called = 0;
  };
  struct Calculator {
    std::map<std::string, Detail> details;
    RunningStat run_total;
    void AddNode(const std::string& name, const std::string& type, int order, int64_t us,
                 int64_t mem_kb) {
      auto it = details.find(name);
      if (it == details.end()) {
        Detail d;
        d.type = type;
        d.name = name;
        d.run_order = order;
        it = details.emplace(name, std::move(d)).first;
      }
      it->second.elapsed.Add(us);
      it->second.mem_kb.Add(mem_kb);
      it->second.times_called++;
    }
  };
  // One profile: a calculator per subgraph and one for delegate internals.
  struct Summary {
    std::map<int, Calculator> calculators;
    Calculator delegate;
  };

  static bool Recorded(EventType t) {
    return t == EventType::DEFAULT || t == EventType::OPERATOR_INVOKE_EVENT ||
           t == EventType::DELEGATE_OPERATOR_INVOKE_EVENT ||
           t == EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT;
  }

  // Upstream's ProfileSummarizer::ProcessProfiles: operator events are named
  // after the node's outputs, delegate operators "Delegate/<tag>:<index>",
  // other events "<tag>/<subgraph>" (the overall "Invoke" is left out).
  void Process(Summary* summary) {
    std::map<int, int64_t> total_per_subgraph;
    int64_t delegate_total = 0;
    bool delegate_seen = false;
    int order = 0;
    for (const ProfileEvent& e : events_) {
      if (e.end_us < 0) continue;  // never ended (failed run)
      const int64_t us = e.end_us - e.start_us;
      const int subgraph = static_cast<int>(e.metadata2);
      const std::string index = std::to_string(e.metadata1);
      switch (e.type) {
        case EventType::OPERATOR_INVOKE_EVENT:
          summary->calculators[subgraph].AddNode(
              NodeName(subgraph, static_cast<int>(e.metadata1)), e.tag, order, us, 0);
          break;
        case EventType::DELEGATE_OPERATOR_INVOKE_EVENT:
          summary->delegate.AddNode("Delegate/" + e.tag + ":" + index, "DelegateOpInvoke", order,
                                    us, 0);
          break;
        case EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT:
          summary->calculators[subgraph].AddNode("Delegate/" + e.tag + ":" + index, e.tag, order,
                                                 us, 0);
          break;
        default:
          if (e.tag == "Invoke") continue;
          summary->calculators[subgraph].AddNode(e.tag + "/" + std::to_string(subgraph), e.tag,
                                                 order, us, e.mem_kb);
          break;
      }
      if (e.type == EventType::DELEGATE_OPERATOR_INVOKE_EVENT) {
        delegate_total += us;
        delegate_seen = true;
      } else {
        total_per_subgraph[subgraph] += us;
      }
      ++order;
    }
    for (const auto& [subgraph, total] : total_per_subgraph) {
      summary->calculators[subgraph].run_total.Add(total);
    }
    // Upstream counts a run only when its delegate-internal time is > 0 us,
    // which overstates [times called] for sub-microsecond operators; a run
    // counts here when it reported any delegate-internal event.
    if (delegate_seen) summary->delegate.run_total.Add(delegate_total);
    events_.clear();
  }

  // Upstream's ProfileSummaryDefaultFormatter::GenerateReport.
  std::string Report(const Summary& summary, bool csv) const {
    std::ostringstream out;
    std::map<int, const Calculator*> calcs;
    static const Calculator kEmpty;
    calcs[0] = &kEmpty;  // the primary graph is always reported
    for (const auto& [index, calc] : summary.calculators) calcs[index] = &calc;
    const bool several = calcs.size() > 1;
    for (const auto& [index, calc] : calcs) {
      const std::string name = SubgraphName(index);
      if (several) {
        if (index == 0) {
          out << "Primary graph (name: " << name << ") profile:\n";
        } else {
          out << "Subgraph (index: " << index << ", name: " << name << ") profile:\n";
        }
      }
      out << Tables(*calc, csv);
      if (index != 0) out << "Subgraph (index: " << index << ", name: " << name << ") ";
      out << ShortSummary(*calc) << "\n";
    }
    if (summary.delegate.run_total.count() > 0) {
      out << "Delegate internal: \n";
      out << Tables(summary.delegate, csv);
      out << ShortSummary(summary.delegate) << "\n";
    }
    return out.str();
  }

  static std::string Tables(const Calculator& calc, bool csv) {
    return Table(calc, "Run Order", /*by_time=*/false, 0, csv) +
           Table(calc, "Top by Computation Time", /*by_time=*/true, 10, csv) + ByNodeType(calc, csv);
  }
  static std::string ShortSummary(const Calculator& calc) {
    std::ostringstream out;
    out << "Timings (microseconds): " << calc.run_total.ToString() << "\n";
    out << "Memory (bytes): count=0\n";
    out << calc.details.size() << " nodes observed\n";
    return out.str();
  }

  static int64_t NowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
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
          << ", " << pct << "%, " << cdf << "%, " << d->mem_kb.avg() << ", " << times << ", " << name
          << "\n";
      } else {
        Field(s, 24) << d->type;
        Field(s, 9) << first_ms;
        Field(s, 9) << avg_ms;
        Field(s, 7) << pct << "%";
        Field(s, 7) << cdf << "%";
        Field(s, 10) << d->mem_kb.avg();
        Field(s, 9) << times;
        s << "\t" << d->name << "\n";
      }
    }
    s << "\n";
    return s.str();
  }

  static std::string ByNodeType(const Calculator& calc, bool csv) {
    const int64_t runs = std::max<int64_t>(1, calc.run_total.count());
    std::map<std::string, int64_t> count, time_us, called, mem_kb;
    int64_t accumulated = 0;
    for (const auto& kv : calc.details) {
      const Detail& d = kv.second;
      const int64_t per_run = d.elapsed.sum() / runs;
      accumulated += per_run;
      count[d.type] += 1;
      time_us[d.type] += per_run;
      called[d.type] += d.times_called / runs;
      mem_kb[d.type] += d.mem_kb.newest();
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
          << pct << "%, " << cdf << "%, " << static_cast<float>(mem_kb[type]) << ", "
          << called[type] << "\n";
      } else {
        Field(s, 24) << type;
        Field(s, 9) << count[type];
        Field(s, 10) << ms;
        Field(s, 10) << pct << "%";
        Field(s, 10) << cdf << "%";
        Field(s, 10) << static_cast<float>(mem_kb[type]);
        Field(s, 9) << called[type];
        s << "\n";
      }
    }
    s << "\n";
    return s.str();
  }

  Mode mode_ = Mode::kOff;
  Mode paused_mode_ = Mode::kOff;
  std::vector<ProfileEvent> events_;
  Summary init_, runs_;
  std::map<std::pair<int, int>, std::vector<std::string>> node_outputs_;
  std::map<int, std::string> subgraph_names_;
};

}  // namespace tflite_c_tools

#endif  // TFLITE_C_TOOLS_COMMON_OP_PROFILE_H_

#include "src/core/profiler.h"

#include <memory>

#include "src/core/subgraph.h"
#include "tensorflow/lite/profiling/telemetry/c/profiler.h"

namespace tflite_c {

namespace {

// Handle of "no event" for the telemetry struct (upstream never forwards it).
constexpr uint32_t kNoEvent = UINT32_MAX;

bool IsOperatorEvent(ProfileEventType t) {
  return t == ProfileEventType::OPERATOR_INVOKE_EVENT ||
         t == ProfileEventType::DELEGATE_OPERATOR_INVOKE_EVENT ||
         t == ProfileEventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT;
}

void Refresh(InterpreterShared* shared) {
  ProfilerState& s = shared->profilers;
  s.fan_out = FanOutProfiler();
  if (s.user != nullptr && s.telemetry != nullptr) {
    s.fan_out.Add(s.telemetry.get());
    s.fan_out.Add(s.user);
    s.active = &s.fan_out;
  } else if (s.user != nullptr) {
    s.active = s.user;
  } else {
    s.active = s.telemetry.get();
  }
  if (shared->subgraphs == nullptr) return;
  for (auto& sg : *shared->subgraphs) {
    if (sg != nullptr) sg->RefreshContextProfiler();
  }
}

}  // namespace

// ---- TelemetryProfiler: upstream's mapping onto the C struct ---------------

uint32_t TelemetryProfiler::BeginEvent(const char* tag, EventType event_type,
                                       int64_t event_metadata1, int64_t event_metadata2) {
  if (!IsOperatorEvent(event_type) || profiler_->ReportBeginOpInvokeEvent == nullptr) {
    return kNoEvent;
  }
  return profiler_->ReportBeginOpInvokeEvent(profiler_, tag, event_metadata1, event_metadata2);
}

void TelemetryProfiler::EndEvent(uint32_t event_handle) {
  if (event_handle == kNoEvent || profiler_->ReportEndOpInvokeEvent == nullptr) return;
  profiler_->ReportEndOpInvokeEvent(profiler_, event_handle);
}

void TelemetryProfiler::AddEvent(const char* tag, EventType event_type, uint64_t metric,
                                 int64_t event_metadata1, int64_t event_metadata2) {
  if (event_type == EventType::TELEMETRY_EVENT ||
      event_type == EventType::TELEMETRY_DELEGATE_EVENT) {
    // Metadata -1: not tied to an op.
    if (event_metadata1 == -1) {
      if (profiler_->ReportTelemetryEvent != nullptr) {
        profiler_->ReportTelemetryEvent(profiler_, tag, metric);
      }
    } else if (profiler_->ReportTelemetryOpEvent != nullptr) {
      profiler_->ReportTelemetryOpEvent(profiler_, tag, event_metadata1, event_metadata2, metric);
    }
  } else if (IsOperatorEvent(event_type) && profiler_->ReportOpInvokeEvent != nullptr) {
    profiler_->ReportOpInvokeEvent(profiler_, tag, metric, event_metadata1, event_metadata2);
  }
}

void TelemetryProfiler::AddEventWithData(const char* tag, EventType event_type,
                                         const void* data) {
  if (event_type != EventType::TELEMETRY_REPORT_SETTINGS &&
      event_type != EventType::TELEMETRY_DELEGATE_REPORT_SETTINGS) {
    return;
  }
  if (data != nullptr && profiler_->ReportSettings != nullptr) {
    profiler_->ReportSettings(profiler_, tag, static_cast<const TfLiteTelemetrySettings*>(data));
  }
}

// ---- FanOutProfiler ----------------------------------------------------------

uint32_t FanOutProfiler::BeginEvent(const char* tag, EventType event_type,
                                    int64_t event_metadata1, int64_t event_metadata2) {
  if (open_count_ == 0) open_.clear();
  std::vector<uint32_t> handles;
  handles.reserve(children_.size());
  for (tflite::Profiler* c : children_) {
    handles.push_back(c->BeginEvent(tag, event_type, event_metadata1, event_metadata2));
  }
  open_.push_back(std::move(handles));
  ++open_count_;
  return static_cast<uint32_t>(open_.size() - 1);
}

void FanOutProfiler::EndEvent(uint32_t event_handle, int64_t event_metadata1,
                              int64_t event_metadata2) {
  if (event_handle >= open_.size() || open_[event_handle].empty()) return;
  for (size_t i = 0; i < children_.size(); ++i) {
    children_[i]->EndEvent(open_[event_handle][i], event_metadata1, event_metadata2);
  }
  open_[event_handle].clear();
  if (open_count_ > 0) --open_count_;
}

void FanOutProfiler::EndEvent(uint32_t event_handle) {
  if (event_handle >= open_.size() || open_[event_handle].empty()) return;
  for (size_t i = 0; i < children_.size(); ++i) children_[i]->EndEvent(open_[event_handle][i]);
  open_[event_handle].clear();
  if (open_count_ > 0) --open_count_;
}

void FanOutProfiler::AddEvent(const char* tag, EventType event_type, uint64_t metric,
                              int64_t event_metadata1, int64_t event_metadata2) {
  for (tflite::Profiler* c : children_) {
    c->AddEvent(tag, event_type, metric, event_metadata1, event_metadata2);
  }
}

void FanOutProfiler::AddEventWithData(const char* tag, EventType event_type, const void* data) {
  for (tflite::Profiler* c : children_) c->AddEventWithData(tag, event_type, data);
}

// ---- SubgraphProfiler ----------------------------------------------------------

uint32_t SubgraphProfiler::BeginEvent(const char* tag, EventType event_type,
                                      int64_t event_metadata1, int64_t /*event_metadata2*/) {
  tflite::Profiler* p = ActiveProfiler(shared_);
  return p != nullptr ? p->BeginEvent(tag, event_type, event_metadata1, subgraph_index_) : 0;
}

void SubgraphProfiler::EndEvent(uint32_t event_handle, int64_t event_metadata1,
                                int64_t event_metadata2) {
  tflite::Profiler* p = ActiveProfiler(shared_);
  if (p != nullptr) p->EndEvent(event_handle, event_metadata1, event_metadata2);
}

void SubgraphProfiler::EndEvent(uint32_t event_handle) {
  tflite::Profiler* p = ActiveProfiler(shared_);
  if (p != nullptr) p->EndEvent(event_handle);
}

void SubgraphProfiler::AddEvent(const char* tag, EventType event_type, uint64_t metric,
                                int64_t event_metadata1, int64_t /*event_metadata2*/) {
  tflite::Profiler* p = ActiveProfiler(shared_);
  if (p != nullptr) p->AddEvent(tag, event_type, metric, event_metadata1, subgraph_index_);
}

void SubgraphProfiler::AddEventWithData(const char* tag, EventType event_type, const void* data) {
  tflite::Profiler* p = ActiveProfiler(shared_);
  if (p != nullptr) p->AddEventWithData(tag, event_type, data);
}

// ---- installation ---------------------------------------------------------------

tflite::Profiler* ActiveProfiler(const InterpreterShared* shared) {
  return shared != nullptr ? shared->profilers.active : nullptr;
}

void SetProfiler(InterpreterShared* shared, tflite::Profiler* profiler) {
  shared->profilers.user = profiler;
  Refresh(shared);
}

void SetTelemetryProfiler(InterpreterShared* shared, TfLiteTelemetryProfilerStruct* profiler) {
  if (profiler == nullptr) {
    shared->profilers.telemetry.reset();
  } else {
    shared->profilers.telemetry = std::make_unique<TelemetryProfiler>(profiler);
  }
  Refresh(shared);
}

ScopedRuntimeEvent::ScopedRuntimeEvent(const InterpreterShared* shared, const char* tag,
                                       int subgraph_index)
    : profiler_(ActiveProfiler(shared)) {
  if (profiler_ != nullptr) {
    handle_ = profiler_->BeginEvent(tag, ProfileEventType::DEFAULT, 0, subgraph_index);
  }
}

ScopedRuntimeEvent::~ScopedRuntimeEvent() {
  if (profiler_ != nullptr) profiler_->EndEvent(handle_);
}

}  // namespace tflite_c

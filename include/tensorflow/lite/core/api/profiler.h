// tflite::Profiler: the object TfLiteContext::profiler points to.
//
// Part of tflite-c's public headers. TensorFlow Lite 2.19 defines a class of
// the same name and this one keeps its binary layout: the same virtual
// functions in the same order, the same parameter types and the same
// EventType values. A delegate or custom kernel compiled against upstream's
// header therefore calls into the runtime's profiler correctly, and one
// compiled against this header runs under upstream's runtime.
//
// The runtime sets TfLiteContext::profiler only while someone profiles the
// interpreter (a telemetry profiler, TfLiteInterpreterOptionsSetTelemetryProfiler,
// or a profiler installed with TfLiteInterpreterOptionsSetProfiler from
// tensorflow/lite/c/tflite_c_experimental.h); otherwise it is NULL and
// kernels must not report anything. Kernels should test it for NULL and
// use it only on the thread that calls them, during Prepare or Invoke.
//
// Delegate kernels describe their own work in one of two ways:
//   * DELEGATE_OPERATOR_INVOKE_EVENT: a step inside the delegate. Profiles
//     list these in a separate "Delegate internal" section; the delegate
//     node itself is still timed as a whole.
//   * DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT (or OPERATOR_INVOKE_EVENT): the
//     step replaces the delegate node in the operator-wise tables. A delegate
//     that reports this way sets kTfLiteDelegateFlagsPerOperatorProfiling in
//     TfLiteDelegate::flags, so that the runtime does not also time its node.
// The event metadata of a delegate event is the delegate's own index of the
// step; the runtime adds the subgraph index as the second metadata value.
#ifndef TENSORFLOW_LITE_CORE_API_PROFILER_H_
#define TENSORFLOW_LITE_CORE_API_PROFILER_H_

#include <cstdint>

namespace tflite {

class Profiler {
 public:
  // Powers of two, so that a profiler can select event kinds with a mask.
  enum class EventType {
    // Anything else: "AllocateTensors", "ModifyGraphWithDelegate", "Invoke".
    DEFAULT = 1,
    // One node of the execution plan; metadata 1 is the node index.
    OPERATOR_INVOKE_EVENT = 1 << 1,
    // A step inside a delegate kernel ("Delegate internal" section).
    DELEGATE_OPERATOR_INVOKE_EVENT = 1 << 2,
    // A step of a delegate kernel shown among the operators.
    DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT = 1 << 3,
    // Runtime status records (delegate and interpreter status).
    GENERAL_RUNTIME_INSTRUMENTATION_EVENT = 1 << 4,
    // Telemetry (see tensorflow/lite/profiling/telemetry/c/profiler.h).
    TELEMETRY_EVENT = 1 << 5,
    TELEMETRY_REPORT_SETTINGS = 1 << 6,
    TELEMETRY_DELEGATE_EVENT = 1 << 7,
    TELEMETRY_DELEGATE_REPORT_SETTINGS = 1 << 8,
  };

  virtual ~Profiler() {}

  // Starts an event and returns the handle that ends it. The meaning of the
  // two metadata values depends on `event_type` (see EventType).
  virtual uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                              int64_t event_metadata2) = 0;
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata) {
    return BeginEvent(tag, event_type, event_metadata, 0);
  }

  // Ends an event, replacing its metadata. The default drops the metadata.
  virtual void EndEvent(uint32_t event_handle, int64_t event_metadata1, int64_t event_metadata2) {
    (void)event_metadata1;
    (void)event_metadata2;
    EndEvent(event_handle);
  }
  virtual void EndEvent(uint32_t event_handle) = 0;

  // An event measured by the caller. For the operator event types `metric`
  // is the elapsed time in microseconds. The default ignores the event.
  void AddEvent(const char* tag, EventType event_type, uint64_t metric, int64_t event_metadata) {
    AddEvent(tag, event_type, metric, event_metadata, 0);
  }
  virtual void AddEvent(const char* tag, EventType event_type, uint64_t metric,
                        int64_t event_metadata1, int64_t event_metadata2) {
    (void)tag;
    (void)event_type;
    (void)metric;
    (void)event_metadata1;
    (void)event_metadata2;
  }

  // An event carrying a pointer (telemetry settings). The default ignores it.
  virtual void AddEventWithData(const char* tag, EventType event_type, const void* data) {
    (void)tag;
    (void)event_type;
    (void)data;
  }
};

// Begins an event on construction and ends it on destruction; does nothing
// when `profiler` is null.
class ScopedProfile {
 public:
  ScopedProfile(Profiler* profiler, const char* tag,
                Profiler::EventType event_type = Profiler::EventType::DEFAULT,
                int64_t event_metadata = 0)
      : profiler_(profiler) {
    if (profiler_ != nullptr) handle_ = profiler_->BeginEvent(tag, event_type, event_metadata);
  }
  ~ScopedProfile() {
    if (profiler_ != nullptr) profiler_->EndEvent(handle_);
  }
  ScopedProfile(const ScopedProfile&) = delete;
  ScopedProfile& operator=(const ScopedProfile&) = delete;

 protected:
  Profiler* profiler_;
  uint32_t handle_ = 0;
};

class ScopedOperatorProfile : public ScopedProfile {
 public:
  ScopedOperatorProfile(Profiler* profiler, const char* tag, int node_index)
      : ScopedProfile(profiler, tag, Profiler::EventType::OPERATOR_INVOKE_EVENT,
                      static_cast<uint32_t>(node_index)) {}
};

class ScopedDelegateOperatorProfile : public ScopedProfile {
 public:
  ScopedDelegateOperatorProfile(Profiler* profiler, const char* tag, int node_index)
      : ScopedProfile(profiler, tag, Profiler::EventType::DELEGATE_OPERATOR_INVOKE_EVENT,
                      static_cast<uint32_t>(node_index)) {}
};

class ScopedDelegateProfiledOperatorProfile : public ScopedProfile {
 public:
  ScopedDelegateProfiledOperatorProfile(Profiler* profiler, const char* tag, int node_index)
      : ScopedProfile(profiler, tag, Profiler::EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT,
                      static_cast<uint32_t>(node_index)) {}
};

}  // namespace tflite

#define TFLITE_PROFILER_CONCAT_INNER_(a, b) a##b
#define TFLITE_PROFILER_CONCAT_(a, b) TFLITE_PROFILER_CONCAT_INNER_(a, b)

// Scoped events for the current block; `profiler` is a tflite::Profiler*
// (e.g. reinterpret_cast<tflite::Profiler*>(context->profiler)) or null.
#define TFLITE_SCOPED_TAGGED_DEFAULT_PROFILE(profiler, tag) \
  tflite::ScopedProfile TFLITE_PROFILER_CONCAT_(tflite_profile_, __COUNTER__)((profiler), (tag))
#define TFLITE_SCOPED_TAGGED_OPERATOR_PROFILE(profiler, tag, node_index)                  \
  tflite::ScopedOperatorProfile TFLITE_PROFILER_CONCAT_(tflite_profile_, __COUNTER__)( \
      (profiler), (tag), (node_index))
#define TFLITE_SCOPED_DELEGATE_OPERATOR_PROFILE(profiler, tag, node_index)                        \
  tflite::ScopedDelegateOperatorProfile TFLITE_PROFILER_CONCAT_(tflite_profile_, __COUNTER__)( \
      (profiler), (tag), (node_index))
#define TFLITE_SCOPED_DELEGATE_PROFILED_OPERATOR_PROFILE(profiler, tag, node_index)      \
  tflite::ScopedDelegateProfiledOperatorProfile TFLITE_PROFILER_CONCAT_(tflite_profile_, \
                                                                        __COUNTER__)(    \
      (profiler), (tag), (node_index))

#endif  // TENSORFLOW_LITE_CORE_API_PROFILER_H_

// Delegate-internal per-operator profiling: a delegate written against the
// public headers only (c_api.h, common.h, core/api/profiler.h) reports its
// own operators through TfLiteContext::profiler, and the interpreter's
// profiler (TfLiteInterpreterOptionsSetProfiler) or telemetry profiler sees
// them; kTfLiteDelegateFlagsPerOperatorProfiling decides whether the runtime
// also times the delegate node as a whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tensorflow/lite/profiling/telemetry/c/profiler.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {
namespace {

using EventType = tflite::Profiler::EventType;

const char* TypeName(EventType t) {
  switch (t) {
    case EventType::DEFAULT: return "default";
    case EventType::OPERATOR_INVOKE_EVENT: return "op";
    case EventType::DELEGATE_OPERATOR_INVOKE_EVENT: return "delegate_op";
    case EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT: return "delegate_profiled_op";
    case EventType::TELEMETRY_EVENT: return "telemetry";
    default: return "other";
  }
}

// Records every call as one line of text.
class RecordingProfiler : public tflite::Profiler {
 public:
  uint32_t BeginEvent(const char* tag, EventType type, int64_t m1, int64_t m2) override {
    const uint32_t handle = next_handle_++;
    events.push_back(std::string("begin ") + TypeName(type) + " " + tag + " " +
                     std::to_string(m1) + " " + std::to_string(m2) + " #" +
                     std::to_string(handle));
    return handle;
  }
  void EndEvent(uint32_t handle) override { events.push_back("end #" + std::to_string(handle)); }
  void AddEvent(const char* tag, EventType type, uint64_t metric, int64_t m1,
                int64_t m2) override {
    events.push_back(std::string("add ") + TypeName(type) + " " + tag + " " +
                     std::to_string(metric) + " " + std::to_string(m1) + " " + std::to_string(m2));
  }
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;

  // The lines that begin with `prefix`.
  std::vector<std::string> With(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const std::string& e : events) {
      if (e.compare(0, prefix.size(), prefix) == 0) out.push_back(e);
    }
    return out;
  }
  std::vector<std::string> events;

 private:
  uint32_t next_handle_ = 1;
};

// y = relu(x + w) + w: ADD, RELU, ADD.
std::vector<uint8_t> ThreeOpModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int w = b.AddConstant<float>({1, 4}, {1, -2, 3, -4}, "w");
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t1");
  const int t2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t2");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {t1});
  b.AddOperator(tflite::BuiltinOperator_RELU, {t1}, {t2});
  b.AddOperator(tflite::BuiltinOperator_ADD, {t2, w}, {y});
  return b.Finish();
}

// How the test delegate reports its three operators.
enum class Reporting { kAddEventProfiled, kScopedInternal, kScopedOperator };

struct DelegateState {
  Reporting reporting = Reporting::kAddEventProfiled;
  int invokes = 0;
  int invokes_with_profiler = 0;
};

// One kernel for the whole graph. Inputs: x, w; output: y.
TfLiteStatus FusedInvoke(TfLiteContext* context, TfLiteNode* node) {
  auto* state = static_cast<DelegateState*>(node->delegate->data_);
  ++state->invokes;
  auto* profiler = reinterpret_cast<tflite::Profiler*>(context->profiler);
  if (profiler != nullptr) ++state->invokes_with_profiler;
  const TfLiteTensor* x = nullptr;
  const TfLiteTensor* w = nullptr;
  for (int i = 0; i < node->inputs->size; ++i) {
    const TfLiteTensor& t = context->tensors[node->inputs->data[i]];
    if (t.allocation_type == kTfLiteMmapRo) {
      w = &t;
    } else {
      x = &t;
    }
  }
  TfLiteTensor& y = context->tensors[node->outputs->data[0]];
  if (x == nullptr || w == nullptr) return kTfLiteError;
  float tmp[4];
  const char* names[3] = {"FusedAdd", "FusedRelu", "FusedAdd2"};
  for (int step = 0; step < 3; ++step) {
    auto compute = [&] {
      for (int i = 0; i < 4; ++i) {
        if (step == 0) tmp[i] = x->data.f[i] + w->data.f[i];
        if (step == 1) tmp[i] = std::max(0.0f, tmp[i]);
        if (step == 2) y.data.f[i] = tmp[i] + w->data.f[i];
      }
    };
    switch (state->reporting) {
      case Reporting::kAddEventProfiled:
        compute();
        if (profiler != nullptr) {
          profiler->AddEvent(names[step], EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT,
                             /*elapsed_us=*/10 + step, step);
        }
        break;
      case Reporting::kScopedInternal: {
        TFLITE_SCOPED_DELEGATE_OPERATOR_PROFILE(profiler, names[step], step);
        compute();
        break;
      }
      case Reporting::kScopedOperator: {
        TFLITE_SCOPED_TAGGED_OPERATOR_PROFILE(profiler, names[step], step);
        compute();
        break;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus TakeWholeGraph(TfLiteContext* context, TfLiteDelegate* delegate) {
  TfLiteIntArray* plan = nullptr;
  TF_LITE_ENSURE_STATUS(context->GetExecutionPlan(context, &plan));
  TfLiteIntArray* nodes = TfLiteIntArrayCopy(plan);
  TfLiteRegistration kernel{};
  kernel.invoke = FusedInvoke;
  kernel.builtin_code = kTfLiteBuiltinDelegate;
  kernel.custom_name = "FusedDelegate";
  const TfLiteStatus s =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes, delegate);
  TfLiteIntArrayFree(nodes);
  return s;
}

struct RunResult {
  std::vector<float> output;
  bool ok = false;
};

// Creates an interpreter with the delegate and the profilers given, then
// allocates and runs `invokes` times.
RunResult RunModel(TfLiteDelegate* delegate, tflite::Profiler* profiler,
             TfLiteTelemetryProfilerStruct* telemetry = nullptr, int invokes = 1) {
  setenv("TFLITE_C_DISABLE_XNNPACK", "1", 1);  // only the test delegate
  const std::vector<uint8_t> bytes = ThreeOpModel();
  RunResult run;
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (profiler != nullptr) EXPECT_EQ(TfLiteInterpreterOptionsSetProfiler(options, profiler), kTfLiteOk);
  if (telemetry != nullptr) TfLiteInterpreterOptionsSetTelemetryProfiler(options, telemetry);
  if (delegate != nullptr) TfLiteInterpreterOptionsAddDelegate(options, delegate);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
    const float in[4] = {0, 1, -5, 2};
    TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in, sizeof(in));
    run.ok = true;
    for (int i = 0; i < invokes; ++i) run.ok = run.ok && TfLiteInterpreterInvoke(interpreter) == kTfLiteOk;
    run.output.resize(4);
    TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), run.output.data(),
                             sizeof(float) * 4);
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return run;
}

// relu(x + w) + w for x = {0, 1, -5, 2}, w = {1, -2, 3, -4}.
const std::vector<float> kExpected = {2, -2, 3, -4};

TfLiteDelegate MakeDelegate(DelegateState* state, bool per_operator_profiling) {
  TfLiteDelegate d = TfLiteDelegateCreate();
  d.data_ = state;
  d.Prepare = TakeWholeGraph;
  d.flags = per_operator_profiling ? kTfLiteDelegateFlagsPerOperatorProfiling : kTfLiteDelegateFlagsNone;
  return d;
}

TEST(DelegateProfiling, FlaggedDelegateReportsItsOperatorsInsteadOfItsNode) {
  DelegateState state;
  TfLiteDelegate delegate = MakeDelegate(&state, true);
  RecordingProfiler profiler;
  const RunResult run = RunModel(&delegate, &profiler, nullptr, 2);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, kExpected);
  EXPECT_EQ(state.invokes, 2);
  EXPECT_EQ(state.invokes_with_profiler, 2);
  // Three operators per Invoke, with the subgraph index as second metadata.
  const std::vector<std::string> expected = {
      "add delegate_profiled_op FusedAdd 10 0 0", "add delegate_profiled_op FusedRelu 11 1 0",
      "add delegate_profiled_op FusedAdd2 12 2 0", "add delegate_profiled_op FusedAdd 10 0 0",
      "add delegate_profiled_op FusedRelu 11 1 0", "add delegate_profiled_op FusedAdd2 12 2 0"};
  EXPECT_EQ(profiler.With("add delegate"), expected);
  // The delegate node itself (node 3) is not timed.
  EXPECT_TRUE(profiler.With("begin op").empty()) << profiler.With("begin op")[0];
}

TEST(DelegateProfiling, WithoutTheFlagTheNodeIsProfiledAsAWhole) {
  DelegateState state;
  TfLiteDelegate delegate = MakeDelegate(&state, false);
  delegate.flags = kTfLiteDelegateFlagsNone;
  state.reporting = Reporting::kScopedInternal;
  RecordingProfiler profiler;
  const RunResult run = RunModel(&delegate, &profiler);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, kExpected);
  // Invoke > FusedDelegate node (the fourth node, index 3) > three internal
  // steps. Handles count up from the Invoke event's.
  const auto& ev = profiler.events;
  auto first = std::find_if(ev.begin(), ev.end(), [](const std::string& e) {
    return e.rfind("begin default Invoke 0 0 #", 0) == 0;
  });
  ASSERT_NE(first, ev.end()) << ::testing::PrintToString(ev);
  const int h = std::atoi(first->c_str() + first->rfind('#') + 1);
  auto n = [h](int i) { return "#" + std::to_string(h + i); };
  const std::vector<std::string> expected = {
      "begin default Invoke 0 0 " + n(0),        "begin op FusedDelegate 3 0 " + n(1),
      "begin delegate_op FusedAdd 0 0 " + n(2),  "end " + n(2),
      "begin delegate_op FusedRelu 1 0 " + n(3), "end " + n(3),
      "begin delegate_op FusedAdd2 2 0 " + n(4), "end " + n(4),
      "end " + n(1),                             "end " + n(0),
      "add telemetry Invoke 4294967296 -1 0"};
  EXPECT_EQ(std::vector<std::string>(first, ev.end()), expected) << ::testing::PrintToString(ev);
}

TEST(DelegateProfiling, ScopedOperatorEventsFromAFlaggedDelegate) {
  DelegateState state;
  state.reporting = Reporting::kScopedOperator;
  TfLiteDelegate delegate = MakeDelegate(&state, true);
  RecordingProfiler profiler;
  const RunResult run = RunModel(&delegate, &profiler);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, kExpected);
  const std::vector<std::string> ops = profiler.With("begin op");
  ASSERT_EQ(ops.size(), 3u) << ::testing::PrintToString(profiler.events);
  EXPECT_EQ(ops[0].substr(0, 22), "begin op FusedAdd 0 0 ");
  EXPECT_EQ(ops[1].substr(0, 23), "begin op FusedRelu 1 0 ");
  EXPECT_EQ(ops[2].substr(0, 23), "begin op FusedAdd2 2 0 ");
}

TEST(DelegateProfiling, RuntimeEventsDuringCreationAndAllocation) {
  DelegateState state;
  TfLiteDelegate delegate = MakeDelegate(&state, true);
  RecordingProfiler profiler;
  ASSERT_TRUE(RunModel(&delegate, &profiler).ok);
  const std::vector<std::string> defaults = profiler.With("begin default");
  ASSERT_GE(defaults.size(), 3u) << ::testing::PrintToString(profiler.events);
  EXPECT_EQ(defaults.front().substr(0, 45), "begin default ModifyGraphWithDelegate 0 0 #1");
  bool allocate = false;
  for (const std::string& e : defaults) allocate = allocate || e.find(" AllocateTensors 0 0 ") != std::string::npos;
  EXPECT_TRUE(allocate) << ::testing::PrintToString(defaults);
  EXPECT_EQ(defaults.back().substr(0, 26), "begin default Invoke 0 0 #");
}

TEST(DelegateProfiling, NoProfilerMeansNullContextProfiler) {
  DelegateState state;
  TfLiteDelegate delegate = MakeDelegate(&state, true);
  const RunResult run = RunModel(&delegate, nullptr, nullptr, 3);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, kExpected);
  EXPECT_EQ(state.invokes, 3);
  EXPECT_EQ(state.invokes_with_profiler, 0);
}

// Telemetry: delegate operator events map onto the op callbacks, as upstream.
struct TelemetryLog {
  std::vector<std::string> lines;
};

TEST(DelegateProfiling, TelemetryProfilerReceivesDelegateOperators) {
  TelemetryLog log;
  TfLiteTelemetryProfilerStruct telemetry{};
  telemetry.data = &log;
  telemetry.ReportOpInvokeEvent = [](TfLiteTelemetryProfilerStruct* self, const char* op_name,
                                     uint64_t elapsed, int64_t op_idx, int64_t subgraph_idx) {
    static_cast<TelemetryLog*>(self->data)
        ->lines.push_back(std::string(op_name) + " " + std::to_string(elapsed) + " " +
                          std::to_string(op_idx) + " " + std::to_string(subgraph_idx));
  };
  telemetry.ReportBeginOpInvokeEvent = [](TfLiteTelemetryProfilerStruct* self, const char* op_name,
                                          int64_t, int64_t) -> uint32_t {
    static_cast<TelemetryLog*>(self->data)->lines.push_back(std::string("begin ") + op_name);
    return 7;
  };
  DelegateState state;
  TfLiteDelegate delegate = MakeDelegate(&state, true);
  // Together with a tflite::Profiler: both receive the events.
  RecordingProfiler profiler;
  const RunResult run = RunModel(&delegate, &profiler, &telemetry);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, kExpected);
  const std::vector<std::string> expected = {"FusedAdd 10 0 0", "FusedRelu 11 1 0",
                                             "FusedAdd2 12 2 0"};
  EXPECT_EQ(log.lines, expected);
  EXPECT_EQ(profiler.With("add delegate").size(), 3u);
}

// The XNNPACK delegate reports each operator of its runtime
// (XNN_FLAG_BASIC_PROFILING timings) instead of its node, as upstream.
TEST(DelegateProfiling, XnnpackReportsItsOperators) {
  TfLiteXNNPackDelegateOptions xnn_options = TfLiteXNNPackDelegateOptionsDefault();
  TfLiteDelegate* probe = TfLiteXNNPackDelegateCreate(&xnn_options);
  if (probe == nullptr) GTEST_SKIP() << "XNNPACK is not available in this build";
  TfLiteXNNPackDelegateDelete(probe);
  const std::vector<uint8_t> bytes = ThreeOpModel();
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  RecordingProfiler profiler;
  TfLiteInterpreterOptionsSetProfiler(options, &profiler);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, true);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  ASSERT_NE(interpreter, nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  const float in[4] = {0, 1, -5, 2};
  TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in, sizeof(in));
  profiler.events.clear();
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  std::vector<float> out(4);
  TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), out.data(),
                           sizeof(float) * 4);
  EXPECT_EQ(out, kExpected);
  // One event per XNNPACK operator (ADD, clamp/RELU, ADD; XNNPACK may fuse),
  // indexed from 0 in the primary subgraph; no event for the delegate node.
  const std::vector<std::string> ops = profiler.With("add delegate_profiled_op");
  ASSERT_GE(ops.size(), 2u) << ::testing::PrintToString(profiler.events);
  EXPECT_NE(ops[0].find(" 0 0"), std::string::npos) << ops[0];
  EXPECT_TRUE(profiler.With("begin op").empty()) << ::testing::PrintToString(profiler.events);
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

TEST(DelegateProfiling, NullOptionsAreRefused) {
  RecordingProfiler profiler;
  EXPECT_EQ(TfLiteInterpreterOptionsSetProfiler(nullptr, &profiler), kTfLiteError);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

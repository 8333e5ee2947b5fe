// The per-node profiling hook of Invoke, seen through the public telemetry
// profiler (TfLiteInterpreterOptionsSetTelemetryProfiler).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/profiling/telemetry/c/profiler.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {
namespace {

// Records every callback as one line of text.
struct Recorder {
  std::vector<std::string> events;
  uint32_t next_handle = 100;
};

Recorder* Rec(TfLiteTelemetryProfilerStruct* p) { return static_cast<Recorder*>(p->data); }

TfLiteTelemetryProfilerStruct MakeProfiler(Recorder* recorder) {
  TfLiteTelemetryProfilerStruct p{};
  p.data = recorder;
  p.ReportTelemetryEvent = [](TfLiteTelemetryProfilerStruct* self, const char* name,
                              uint64_t status) {
    Rec(self)->events.push_back(std::string("event ") + name + " " + std::to_string(status >> 32) +
                                ":" + std::to_string(status & 0xffffffffu));
  };
  p.ReportBeginOpInvokeEvent = [](TfLiteTelemetryProfilerStruct* self, const char* op_name,
                                  int64_t op_idx, int64_t subgraph_idx) -> uint32_t {
    Recorder* r = Rec(self);
    const uint32_t handle = r->next_handle++;
    r->events.push_back("begin " + std::string(op_name) + " " + std::to_string(op_idx) + " " +
                        std::to_string(subgraph_idx) + " #" + std::to_string(handle));
    return handle;
  };
  p.ReportEndOpInvokeEvent = [](TfLiteTelemetryProfilerStruct* self, uint32_t handle) {
    Rec(self)->events.push_back("end #" + std::to_string(handle));
  };
  return p;
}

// x + w -> t; RELU(t) -> y.
std::vector<uint8_t> AddReluModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int w = b.AddConstant<float>({1, 4}, {1, -2, 3, -4}, "w");
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {t});
  b.AddOperator(tflite::BuiltinOperator_RELU, {t}, {y});
  return b.Finish();
}

struct RunResult {
  std::vector<float> output;
  bool ok = false;
};

// The events of the builtin kernels, not those of the library's default
// XNNPACK delegate.
void UseBuiltinKernelsOnly() { setenv("TFLITE_C_DISABLE_XNNPACK", "1", 1); }

RunResult InvokeOnce(const std::vector<uint8_t>& bytes, TfLiteTelemetryProfilerStruct* profiler,
               TfLiteDelegate* delegate = nullptr) {
  UseBuiltinKernelsOnly();
  RunResult run;
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (profiler != nullptr) TfLiteInterpreterOptionsSetTelemetryProfiler(options, profiler);
  if (delegate != nullptr) TfLiteInterpreterOptionsAddDelegate(options, delegate);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
    const float in[4] = {0, 0, 0, 0};
    TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in, sizeof(in));
    if (TfLiteInterpreterInvoke(interpreter) == kTfLiteOk) {
      run.output.resize(4);
      TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0),
                               run.output.data(), 4 * sizeof(float));
      run.ok = true;
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return run;
}

TEST(TelemetryProfiler, ReportsEveryNodeInOrderThenInvoke) {
  Recorder recorder;
  TfLiteTelemetryProfilerStruct profiler = MakeProfiler(&recorder);
  const RunResult run = InvokeOnce(AddReluModel(), &profiler);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, (std::vector<float>{1, 0, 3, 0}));
  const std::vector<std::string> expected = {
      "begin ADD 0 0 #100", "end #100", "begin RELU 1 0 #101", "end #101", "event Invoke 1:0"};
  EXPECT_EQ(recorder.events, expected);
}

TEST(TelemetryProfiler, NullCallbacksAreSkipped) {
  Recorder recorder;
  TfLiteTelemetryProfilerStruct profiler{};
  profiler.data = &recorder;
  const RunResult run = InvokeOnce(AddReluModel(), &profiler);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, (std::vector<float>{1, 0, 3, 0}));
}

TEST(TelemetryProfiler, NoProfilerRunsNormally) {
  const RunResult run = InvokeOnce(AddReluModel(), nullptr);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, (std::vector<float>{1, 0, 3, 0}));
}

// A delegate that takes the RELU node and runs it itself.
TfLiteStatus ReluKernelInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor& in = context->tensors[node->inputs->data[0]];
  TfLiteTensor& out = context->tensors[node->outputs->data[0]];
  const int n = static_cast<int>(in.bytes / sizeof(float));
  for (int i = 0; i < n; ++i) out.data.f[i] = std::max(0.0f, in.data.f[i]);
  return kTfLiteOk;
}

TfLiteStatus ReluDelegatePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  TfLiteIntArray* plan = nullptr;
  TF_LITE_ENSURE_STATUS(context->GetExecutionPlan(context, &plan));
  std::vector<int> take;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, plan->data[i], &node, &reg));
    if (reg->builtin_code == kTfLiteBuiltinRelu) take.push_back(plan->data[i]);
  }
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(take.size()));
  for (size_t i = 0; i < take.size(); ++i) nodes->data[i] = take[i];
  TfLiteRegistration kernel{};
  kernel.invoke = ReluKernelInvoke;
  kernel.builtin_code = kTfLiteBuiltinDelegate;
  kernel.custom_name = "TestReluDelegate";
  const TfLiteStatus s = context->ReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes,
                                                                        delegate);
  TfLiteIntArrayFree(nodes);
  return s;
}

TEST(TelemetryProfiler, DelegateKernelsAreReportedByTheirName) {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  delegate.Prepare = ReluDelegatePrepare;
  Recorder recorder;
  TfLiteTelemetryProfilerStruct profiler = MakeProfiler(&recorder);
  const RunResult run = InvokeOnce(AddReluModel(), &profiler, &delegate);
  ASSERT_TRUE(run.ok);
  EXPECT_EQ(run.output, (std::vector<float>{1, 0, 3, 0}));
  // The delegate kernel is a new node after the model's two.
  const std::vector<std::string> expected = {"begin ADD 0 0 #100", "end #100",
                                             "begin TestReluDelegate 2 0 #101", "end #101",
                                             "event Invoke 1:0"};
  EXPECT_EQ(recorder.events, expected);
}

TEST(TelemetryProfiler, FailedInvokeReportsItsStatus) {
  // A custom op whose kernel fails at Invoke.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddCustomOperator("Failing", {x}, {y});
  const std::vector<uint8_t> bytes = b.Finish();
  TfLiteRegistration failing{};
  failing.prepare = [](TfLiteContext* context, TfLiteNode* node) {
    TfLiteTensor& in = context->tensors[node->inputs->data[0]];
    return context->ResizeTensor(context, &context->tensors[node->outputs->data[0]],
                                 TfLiteIntArrayCopy(in.dims));
  };
  failing.invoke = [](TfLiteContext*, TfLiteNode*) { return kTfLiteError; };

  UseBuiltinKernelsOnly();
  Recorder recorder;
  TfLiteTelemetryProfilerStruct profiler = MakeProfiler(&recorder);
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetTelemetryProfiler(options, &profiler);
  TfLiteInterpreterOptionsAddCustomOp(options, "Failing", &failing, 1, 1);
  TfLiteInterpreterOptionsSetErrorReporter(options, [](void*, const char*, va_list) {}, nullptr);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  ASSERT_NE(interpreter, nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteError);
  const std::vector<std::string> expected = {"begin Failing 0 0 #100", "end #100",
                                             "event Invoke 1:1"};
  EXPECT_EQ(recorder.events, expected);
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

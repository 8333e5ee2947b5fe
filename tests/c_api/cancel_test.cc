// TfLiteInterpreterCancel from another thread (c_api.h; needs
// TfLiteInterpreterOptionsEnableCancellation): the running Invoke returns
// kTfLiteCancelled within a bounded time, and the interpreter then invokes
// normally again with the same outputs as an uncancelled run.
//
// Where the cancel is seen (as upstream 2.19): the interpreter checks the
// flag before each node of the execution plan. A delegate's partition is one
// node, and XNNPACK has no cancellation hook inside xnn_invoke_runtime, so a
// cancel arriving while a partition runs takes effect when it ends, before the
// next node: the delay is bounded by one builtin node, or by one delegated
// partition. A cancel during the last node is not seen (that Invoke succeeds)
// and a cancel issued between invocations does not affect the next one.
// Label "threads": CI runs these under ThreadSanitizer too (README).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/c_api/thread_test_util.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kWidth = 512;

// Size of FcChain: `layers` nodes on `batch` rows.
struct ChainSize {
  int layers;
  int batch;
  int elements() const { return batch * kWidth; }
};

// x[batch,512] -> `layers` FULLY_CONNECTED nodes (one shared 512x512 weight,
// variance-preserving, so values stay in range) -> y. With `segment` > 0, a
// RELU_0_TO_1 (which XNNPACK does not take) follows every `segment` layers,
// so XNNPACK builds one partition per segment.
std::vector<uint8_t> FcChain(ChainSize size, int segment) {
  const int layers = size.layers, batch = size.batch;
  ModelBuilder b;
  int cur = b.AddInput(tflite::TensorType_FLOAT32, {batch, kWidth}, "x");
  const float a = std::sqrt(3.0f / kWidth);
  const int w = b.AddConstant<float>({kWidth, kWidth}, Random(kWidth * kWidth, 5, -a, a), "w");
  for (int i = 0; i < layers; ++i) {
    const bool last = i == layers - 1;
    const bool split = segment > 0 && (i + 1) % segment == 0 && !last;
    const int out = last ? b.AddOutput(tflite::TensorType_FLOAT32, {batch, kWidth}, "y")
                         : b.AddTensor(tflite::TensorType_FLOAT32, {batch, kWidth});
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {cur, w, -1}, {out},
                  tflite::FullyConnectedOptionsT());
    cur = out;
    if (split) {
      const int r = b.AddTensor(tflite::TensorType_FLOAT32, {batch, kWidth});
      b.AddOperator(tflite::BuiltinOperator_RELU_0_TO_1, {cur}, {r});
      cur = r;
    }
  }
  return b.Finish();
}

// An interpreter with cancellation enabled, on the builtin kernels or the
// given delegate.
struct Cancellable {
  ModelPtr model;
  InterpreterPtr interpreter;
  std::string errors;

  bool Create(const void* bytes, size_t size, TfLiteDelegate* delegate) {
    model.reset(TfLiteModelCreate(bytes, size));
    if (!model) return false;
    OptionsPtr options(TfLiteInterpreterOptionsCreate());
    TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &errors);
    TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
    if (delegate != nullptr) {
      TfLiteInterpreterOptionsAddDelegate(options.get(),
                                          reinterpret_cast<TfLiteOpaqueDelegate*>(delegate));
    }
    TfLiteInterpreterOptionsEnableCancellation(options.get(), true);
    interpreter.reset(TfLiteInterpreterCreate(model.get(), options.get()));
    return interpreter && TfLiteInterpreterAllocateTensors(interpreter.get()) == kTfLiteOk;
  }
  TfLiteInterpreter* get() { return interpreter.get(); }
  std::vector<float> Output() {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(get(), 0);
    const float* p = static_cast<const float*>(TfLiteTensorData(t));
    return std::vector<float>(p, p + TfLiteTensorByteSize(t) / sizeof(float));
  }
  // Execution-plan nodes run by a delegate (white-box).
  int DelegatedNodes() {
    Subgraph& sg = interpreter->impl->primary();
    int n = 0;
    for (int i : sg.execution_plan())
      n += sg.node_and_registration(i)->second.builtin_code == kTfLiteBuiltinDelegate;
    return n;
  }
};

struct CancelResult {
  TfLiteStatus status = kTfLiteOk;
  double latency_ms = 0;  // from the Cancel call to Invoke's return
  double invoke_ms = 0;   // the whole cancelled Invoke
};

// Invokes `it` on this thread while another thread cancels it `delay_ms`
// after the Invoke began.
CancelResult InvokeAndCancelAfter(TfLiteInterpreter* it, double delay_ms) {
  std::atomic<bool> started{false};
  std::atomic<int64_t> cancel_at_ns{0};
  std::thread canceller([&] {
    while (!started.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(delay_ms * 1000)));
    cancel_at_ns.store(Clock::now().time_since_epoch().count());
    EXPECT_EQ(TfLiteInterpreterCancel(it), kTfLiteOk);
  });
  CancelResult r;
  const Clock::time_point t0 = Clock::now();
  started.store(true);
  r.status = TfLiteInterpreterInvoke(it);
  const Clock::time_point t1 = Clock::now();
  canceller.join();
  r.invoke_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const Clock::time_point tc{Clock::duration(cancel_at_ns.load())};
  r.latency_ms = std::chrono::duration<double, std::milli>(t1 - tc).count();
  return r;
}

// The shortest of three uncancelled Invokes (after a warm-up one); the
// outputs in *out.
double TimedInvoke(Cancellable* c, std::vector<float>* out) {
  EXPECT_EQ(TfLiteInterpreterInvoke(c->get()), kTfLiteOk) << c->errors;
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    const Clock::time_point t0 = Clock::now();
    EXPECT_EQ(TfLiteInterpreterInvoke(c->get()), kTfLiteOk) << c->errors;
    best = std::min(best, MillisSince(t0));
  }
  *out = c->Output();
  return best;
}

// A chain whose Invoke on `delegate` (nullptr: builtin) takes about 200 ms
// on this machine, so that a cancel lands well inside it (sanitizer builds
// and loaded machines are slower): 32 to 128 layers (a multiple of 8; XNNPACK
// packs the weights once per node, 1 MiB each), then more rows if needed.
ChainSize ChainFor200Ms(TfLiteDelegate* delegate) {
  const ChainSize probe{8, 32};
  const std::vector<uint8_t> bytes = FcChain(probe, 0);
  Cancellable c;
  if (!c.Create(bytes.data(), bytes.size(), delegate)) return {64, 32};
  std::vector<float> out;
  const double per_layer = std::max(TimedInvoke(&c, &out) / probe.layers, 1e-3);
  const int layers = std::min(128, std::max(32, static_cast<int>(200 / per_layer) / 8 * 8));
  const double rows = std::ceil(200 / (per_layer * layers));
  return {layers, probe.batch * std::min(32, std::max(1, static_cast<int>(rows)))};
}

// Cancels `c` a quarter of the way into an Invoke, expects kTfLiteCancelled
// within max(1 s, two units of `unit_ms`), then a normal Invoke with
// `reference` outputs. On a loaded machine an Invoke may end before the
// cancel (or the cancel may land in the last node, which upstream ignores
// too): then it is tried again, up to five times, a quarter of the way into
// the Invoke that just ran uncancelled (timings measured while another
// process held the second core can be many times the later ones).
void ExpectCancelledThenRecovers(Cancellable* c, double invoke_ms, double unit_ms,
                                 const std::vector<float>& reference, const char* unit) {
  bool cancelled = false;
  for (int attempt = 0; attempt < 5 && !cancelled; ++attempt) {
    const CancelResult r = InvokeAndCancelAfter(c->get(), invoke_ms / 4);
    std::printf("[cancel] uncancelled Invoke %.1f ms, one %s %.1f ms; Invoke returned %s after "
                "%.1f ms, %.2f ms after the Cancel call\n",
                invoke_ms, unit, unit_ms, r.status == kTfLiteCancelled ? "kTfLiteCancelled" : "OK",
                r.invoke_ms, r.latency_ms);
    if (r.status == kTfLiteOk) {
      invoke_ms = r.invoke_ms;
      continue;
    }
    cancelled = true;
    ::testing::Test::RecordProperty("cancel_latency_us", static_cast<int>(r.latency_ms * 1000));
    EXPECT_EQ(r.status, kTfLiteCancelled) << c->errors;
    EXPECT_LE(r.latency_ms, std::max(1000.0, 2 * unit_ms));
    EXPECT_NE(c->errors.find("Client requested cancel during Invoke()"), std::string::npos)
        << c->errors;
  }
  EXPECT_TRUE(cancelled) << "no Invoke out of five was cancelled";

  // Not sticky: the next Invoke runs to the end, with the same outputs.
  ASSERT_EQ(TfLiteInterpreterInvoke(c->get()), kTfLiteOk) << c->errors;
  EXPECT_TRUE(c->Output() == reference) << "outputs after a cancelled Invoke differ";
}

// Feeds random inputs, times an uncancelled Invoke (the reference), then
// cancels one; `units` is how many nodes or partitions the Invoke runs.
void RunCancelExperiment(Cancellable* c, ChainSize size, int units, const char* unit) {
  const std::vector<float> in = Random(size.elements(), 2);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(c->get(), 0), in.data(),
                                       in.size() * sizeof(float)),
            kTfLiteOk);
  std::vector<float> reference;
  const double invoke_ms = TimedInvoke(c, &reference);
  ExpectCancelledThenRecovers(c, invoke_ms, invoke_ms / units, reference, unit);
}

TEST(Cancel, RequiresEnableCancellation) {
  const std::vector<uint8_t> bytes = FcChain({2, 4}, 0);
  ModelPtr model(TfLiteModelCreate(bytes.data(), bytes.size()));
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
  InterpreterPtr it(TfLiteInterpreterCreate(model.get(), options.get()));
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(TfLiteInterpreterCancel(it.get()), kTfLiteError);
}

TEST(Cancel, CancelBeforeInvokeDoesNotAffectIt) {
  const ChainSize size{3, 4};
  const std::vector<uint8_t> bytes = FcChain(size, 0);
  Cancellable c;
  ASSERT_TRUE(c.Create(bytes.data(), bytes.size(), nullptr)) << c.errors;
  ASSERT_TRUE(c.get() != nullptr);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(c.get(), 0),
                                       Random(size.elements(), 1).data(),
                                       size.elements() * sizeof(float)),
            kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterCancel(c.get()), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(c.get()), kTfLiteOk) << c.errors;
}

// Builtin kernels: the cancel is seen before the next node.
TEST(Cancel, BuiltinKernelsStopBeforeTheNextNode) {
  const ChainSize size = ChainFor200Ms(nullptr);
  const std::vector<uint8_t> bytes = FcChain(size, 0);
  Cancellable c;
  ASSERT_TRUE(c.Create(bytes.data(), bytes.size(), nullptr)) << c.errors;
  RunCancelExperiment(&c, size, size.layers, "node");
}

// XNNPACK: a partition runs to its end, then the cancel is seen before the
// next node (here the builtin RELU_0_TO_1 between two partitions).
TEST(Cancel, XnnpackStopsAtTheEndOfThePartition) {
  SKIP_WITHOUT_XNNPACK();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;  // pthreadpool's spinning workers make timings noisy on busy machines
  XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
  const ChainSize size = ChainFor200Ms(d.get());
  const std::vector<uint8_t> bytes = FcChain(size, size.layers / 8);  // 8 partitions
  Cancellable c;
  ASSERT_TRUE(c.Create(bytes.data(), bytes.size(), d.get())) << c.errors;
  const int partitions = c.DelegatedNodes();
  ASSERT_EQ(partitions, 8);
  RunCancelExperiment(&c, size, partitions, "partition");
}

// The same with XNNPACK on a two-thread pool: the cancel still waits only
// for the running partition (the worker threads finish their share of it).
TEST(Cancel, XnnpackOnTwoThreadsStopsAtTheEndOfThePartition) {
  SKIP_WITHOUT_XNNPACK();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 2;
  XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
  const ChainSize size = ChainFor200Ms(d.get());
  const std::vector<uint8_t> bytes = FcChain(size, size.layers / 8);  // 8 partitions
  Cancellable c;
  ASSERT_TRUE(c.Create(bytes.data(), bytes.size(), d.get())) << c.errors;
  ASSERT_EQ(c.DelegatedNodes(), 8);
  RunCancelExperiment(&c, size, 8, "partition");
}

// A real model: cancels until one Invoke reports kTfLiteCancelled (each
// Invoke clears earlier cancels, so the canceller keeps cancelling), then an
// uncancelled Invoke must match the golden outputs.
TEST(Cancel, GoldenOutputsAfterACancelledInvoke) {
  GoldenModel golden;
  SKIP_WITHOUT_GOLDEN(golden, "tflm_mobilenet_v2_quantized_1x3x224x224");
  Cancellable c;
  ASSERT_TRUE(c.Create(golden.bytes().data(), golden.bytes().size(), nullptr)) << c.errors;
  ASSERT_EQ(golden.Feed(c.get()), "");
  std::atomic<bool> done{false};
  std::thread canceller([&] {
    while (!done.load()) {
      TfLiteInterpreterCancel(c.get());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  TfLiteStatus s = kTfLiteOk;
  for (int i = 0; i < 200 && s == kTfLiteOk; ++i) s = TfLiteInterpreterInvoke(c.get());
  done.store(true);
  canceller.join();
  EXPECT_EQ(s, kTfLiteCancelled) << c.errors;
  ASSERT_EQ(TfLiteInterpreterInvoke(c.get()), kTfLiteOk) << c.errors;
  EXPECT_EQ(golden.Check(c.get(), /*xnnpack=*/false), "");
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

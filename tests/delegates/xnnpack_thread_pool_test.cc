// The XNNPACK delegate's thread pool as our pthreadpool patches leave it:
// creating a pool does not wait for its workers to start (patch 0001), and a
// worker sleeps until the pool's first command instead of spinning for it
// (patch 0002), so a delegate that is created and not yet used costs no CPU
// time beyond its threads' start-up. The pool still works when the first
// command comes after the workers went to sleep, and a pool destroyed before
// any command shuts its workers down.
#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> Delegate(int threads) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = threads;
  return std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter>(TfLiteXNNPackDelegateCreate(&o));
}

double Seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// CPU time used by the process's other threads while this one sleeps
// `ms` milliseconds.
double OtherThreadsCpuWhileSleeping(int ms) {
  const double process0 = Seconds(CLOCK_PROCESS_CPUTIME_ID);
  const double self0 = Seconds(CLOCK_THREAD_CPUTIME_ID);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  const double process1 = Seconds(CLOCK_PROCESS_CPUTIME_ID);
  const double self1 = Seconds(CLOCK_THREAD_CPUTIME_ID);
  return (process1 - process0) - (self1 - self0);
}

// y = relu(x (*) w + b): a 1x1 convolution of `side` x `side` pixels, 8 -> 8
// channels, and its expected output from plain loops.
std::vector<uint8_t> Pointwise(int side, const std::vector<float>& x, std::vector<float>* want) {
  const int in = 8, out = 8;
  const std::vector<float> w = Random(static_cast<size_t>(out) * in, 52);
  const std::vector<float> bias = Random(static_cast<size_t>(out), 53);
  ModelBuilder b;
  const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, side, side, in}, "x");
  const int yt = b.AddOutput(tflite::TensorType_FLOAT32, {1, side, side, out}, "y");
  const int ft = b.AddConstant<float>({out, 1, 1, in}, w);
  const int bt = b.AddConstant<float>({out}, bias);
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {xt, ft, bt}, {yt}, o);
  want->clear();
  for (size_t p = 0; p < static_cast<size_t>(side) * side; ++p) {
    for (int c = 0; c < out; ++c) {
      double acc = bias[c];
      for (int i = 0; i < in; ++i) acc += static_cast<double>(x[p * in + i]) * w[c * in + i];
      want->push_back(static_cast<float>(std::max(0.0, acc)));
    }
  }
  return b.Finish();
}

void ExpectClose(const FloatRun& run, const std::vector<float>& want) {
  ASSERT_EQ(run.delegate_nodes, 1) << "the node goes to XNNPACK; " << run.errors;
  ASSERT_EQ(run.out.size(), want.size()) << run.errors;
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < 5; ++i) {
    if (std::fabs(run.out[i] - want[i]) > 1e-4f * (1.0f + std::fabs(want[i]))) {
      ++bad;
      ADD_FAILURE() << "element " << i << ": " << run.out[i] << " != " << want[i];
    }
  }
}

// Before the patch a new worker spun for a million pause instructions
// (about 20 ms of a CPU on x86) waiting for the first command.
TEST(XnnpackThreadPool, UnusedPoolCostsNoCpuTime) {
  SKIP_WITHOUT_XNNPACK();
  auto d = Delegate(3);
  ASSERT_NE(d, nullptr);
  // The workers start (and check in) within these 100 ms; then sleep.
  const double used = OtherThreadsCpuWhileSleeping(100);
  EXPECT_LT(used, 0.005) << "the idle pool's workers used " << used * 1e3 << " ms of CPU";
}

TEST(XnnpackThreadPool, FirstCommandAfterTheWorkersSlept) {
  SKIP_WITHOUT_XNNPACK();
  const int side = 61;
  const std::vector<float> x = Random(static_cast<size_t>(side) * side * 8, 51, -2.0f, 2.0f);
  std::vector<float> want;
  const std::vector<uint8_t> model = Pointwise(side, x, &want);
  for (int threads : {2, 4}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto d = Delegate(threads);
    ASSERT_NE(d, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ExpectClose(RunFloatModel(model, d.get(), x), want);
    // And again on the same pool, whose workers now wait as before.
    ExpectClose(RunFloatModel(model, d.get(), x), want);
  }
}

// Pools destroyed before any command, some before their workers have
// started: every worker is joined (a leak or hang fails the test or the
// sanitizers).
TEST(XnnpackThreadPool, DestroyedBeforeFirstUse) {
  SKIP_WITHOUT_XNNPACK();
  for (int i = 0; i < 200; ++i) {
    auto d = Delegate(2 + i % 3);
    ASSERT_NE(d, nullptr);
    if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

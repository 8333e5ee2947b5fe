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
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

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

// Before the patch a new worker spun for a million pause instructions
// (20-30 ms of a CPU on x86) waiting for the first command. Under qemu-user
// (TFLITE_C_UNDER_EMULATOR) translating the workers' start-up code costs CPU
// time too, so the bound is looser there; x86 runs keep the tight one.
TEST(XnnpackThreadPool, UnusedPoolCostsNoCpuTime) {
  SKIP_WITHOUT_XNNPACK();
  const bool emulated = std::getenv("TFLITE_C_UNDER_EMULATOR") != nullptr;
  auto d = XnnpackWithThreads(3);
  ASSERT_NE(d, nullptr);
  // The workers start (and check in) within these 100 ms; then sleep.
  const double used = OtherThreadsCpuWhileSleeping(100);
  EXPECT_LT(used, emulated ? 0.05 : 0.005)
      << "the idle pool's workers used " << used * 1e3 << " ms of CPU";
}

TEST(XnnpackThreadPool, FirstCommandAfterTheWorkersSlept) {
  SKIP_WITHOUT_XNNPACK();
  const int side = 61;
  const std::vector<float> x = Random(static_cast<size_t>(side) * side * 8, 51, -2.0f, 2.0f);
  std::vector<float> want;
  const std::vector<uint8_t> model = PointwiseReluModel(side, 8, 8, x, 52, &want);
  for (int threads : {2, 4}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto d = XnnpackWithThreads(threads);
    ASSERT_NE(d, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ExpectOneDelegatedNodeClose(RunFloatModel(model, d.get(), x), want);
    // And again on the same pool, whose workers now wait as before.
    ExpectOneDelegatedNodeClose(RunFloatModel(model, d.get(), x), want);
  }
}

// Pools destroyed before any command, some before their workers have
// started: every worker is joined (a leak or hang fails the test or the
// sanitizers).
TEST(XnnpackThreadPool, DestroyedBeforeFirstUse) {
  SKIP_WITHOUT_XNNPACK();
  for (int i = 0; i < 200; ++i) {
    auto d = XnnpackWithThreads(2 + i % 3);
    ASSERT_NE(d, nullptr);
    if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

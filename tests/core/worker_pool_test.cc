// The interpreter's worker pool behind ParallelFor: chunk boundaries, the
// caller's share, nesting, reuse of its threads across Invokes, one pool per
// interpreter, teardown and cancellation while idle, and kernels whose
// results do not depend on the thread count.
#include "src/core/worker_pool.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "src/kernels/internal/gemm_avx2.h"
#include "src/kernels/internal/parallel.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using kernels::internal::ParallelFor;
using kernels::internal::ParallelTasks;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

using Range = std::pair<int64_t, int64_t>;

// The chunks ParallelFor promises: [n * c / k, n * (c + 1) / k), k = 1 for
// one thread, else min(4 * threads, n) (four chunks per thread).
std::vector<Range> ExpectedChunks(int threads, int64_t n) {
  static_assert(kernels::internal::kTasksPerThread == 4, "the contract tested here");
  const int64_t k = threads <= 1 ? 1 : std::min<int64_t>(4 * int64_t{threads}, n);
  std::vector<Range> chunks;
  for (int64_t c = 0; c < k; ++c) chunks.emplace_back(n * c / k, n * (c + 1) / k);
  return chunks;
}

// Calls ParallelFor(threads, n) and returns the chunks it ran, sorted, and
// whether [0, ...) ran on this thread.
std::vector<Range> RecordChunks(int threads, int64_t n, bool* first_here) {
  std::mutex mu;
  std::vector<Range> seen;
  const std::thread::id me = std::this_thread::get_id();
  *first_here = false;
  ParallelFor(threads, n, [&](int64_t begin, int64_t end) {
    std::lock_guard<std::mutex> lock(mu);
    seen.emplace_back(begin, end);
    if (begin == 0) *first_here = std::this_thread::get_id() == me;
  });
  std::sort(seen.begin(), seen.end());
  return seen;
}

int ThreadsInProcess() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

// Waits (up to 5 s) until the process has `n` threads; returns the last count.
int WaitForThreads(int n) {
  int now = ThreadsInProcess();
  for (int i = 0; i < 500 && now != n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    now = ThreadsInProcess();
  }
  return now;
}

TEST(ParallelForPoolTest, ChunksCoverTheRangeOnceWithFixedBoundaries) {
  WorkerPool pool;
  pool.SetThreads(4);
  ScopedWorkerPool current(&pool);
  for (int threads : {1, 2, 3, 4, 7}) {
    for (int64_t n : {1, 2, 3, 5, 64, 1001}) {
      bool first_here = false;
      EXPECT_EQ(RecordChunks(threads, n, &first_here), ExpectedChunks(threads, n))
          << threads << " threads, n = " << n;
      EXPECT_TRUE(first_here) << threads << " threads, n = " << n;
    }
  }
  EXPECT_LE(pool.workers(), 3);
  bool first_here = false;
  EXPECT_TRUE(RecordChunks(2, 0, &first_here).empty());
}

TEST(ParallelForPoolTest, WithoutAPoolTheSameChunksRunInOrderOnTheCaller) {
  std::vector<Range> seen;
  ParallelFor(3, 10, [&](int64_t begin, int64_t end) { seen.emplace_back(begin, end); });
  EXPECT_EQ(seen, ExpectedChunks(3, 10));
}

// ParallelTasks: every task once, slots below the thread cap, one thread per
// slot, and a job capped below the pool's size uses no more threads.
TEST(ParallelTasksTest, EveryTaskOnceOnAtMostTheThreadsAskedWithOneSlotPerThread) {
  WorkerPool pool;
  pool.SetThreads(4);
  ScopedWorkerPool current(&pool);
  for (int threads : {1, 2, 3, 4}) {
    for (int64_t tasks : {1, 2, 5, 64, 333}) {
      for (int round = 0; round < 20; ++round) {
        std::mutex mu;
        std::vector<int> runs(static_cast<size_t>(tasks), 0);
        std::vector<std::thread::id> owner(4);
        std::vector<std::thread::id> ids;
        bool slot_shared = false, slot_out_of_range = false;
        ParallelTasks(threads, tasks, [&](int slot, int64_t t) {
          std::lock_guard<std::mutex> lock(mu);
          ++runs[static_cast<size_t>(t)];
          const std::thread::id me = std::this_thread::get_id();
          if (slot < 0 || slot >= std::min<int64_t>(threads, tasks)) {
            slot_out_of_range = true;
            return;
          }
          if (owner[slot] == std::thread::id()) owner[slot] = me;
          slot_shared |= owner[slot] != me;
          if (std::find(ids.begin(), ids.end(), me) == ids.end()) ids.push_back(me);
        });
        const std::string where = std::to_string(threads) + " threads, " +
                                  std::to_string(tasks) + " tasks";
        ASSERT_EQ(std::count(runs.begin(), runs.end(), 1), tasks) << where;
        ASSERT_FALSE(slot_out_of_range) << where;
        ASSERT_FALSE(slot_shared) << where;
        ASSERT_LE(ids.size(), static_cast<size_t>(threads)) << where;
      }
    }
  }
  EXPECT_LE(pool.workers(), 3);
}

TEST(ParallelTasksTest, WithoutAPoolTasksRunInOrderAsSlotZero) {
  std::vector<std::pair<int, int64_t>> seen;
  ParallelTasks(3, 5, [&](int slot, int64_t t) { seen.emplace_back(slot, t); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int64_t>>{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}}));
}

TEST(ParallelForPoolTest, NestedParallelForRunsInline) {
  WorkerPool pool;
  pool.SetThreads(2);
  ScopedWorkerPool current(&pool);
  std::atomic<int64_t> sum{0};
  std::atomic<int> inner_elsewhere{0};
  for (int round = 0; round < 50; ++round) {
    ParallelFor(2, 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const std::thread::id outer = std::this_thread::get_id();
        ParallelFor(2, 100, [&](int64_t b, int64_t e) {
          if (std::this_thread::get_id() != outer) ++inner_elsewhere;
          for (int64_t j = b; j < e; ++j) sum += j;
        });
      }
    });
  }
  EXPECT_EQ(sum.load(), 50 * 4 * (99 * 100 / 2));
  EXPECT_EQ(inner_elsewhere.load(), 0);
  EXPECT_LE(pool.workers(), 1);
}

TEST(ParallelForPoolTest, FewerThreadsStopTheWorkersAndOneThreadStartsNone) {
  WorkerPool pool;
  pool.SetThreads(3);
  ScopedWorkerPool current(&pool);
  bool first_here = false;
  RecordChunks(3, 30, &first_here);
  EXPECT_LE(pool.workers(), 2);
  pool.SetThreads(2);
  EXPECT_EQ(pool.workers(), 0);
  EXPECT_EQ(RecordChunks(2, 30, &first_here), ExpectedChunks(2, 30));
  EXPECT_LE(pool.workers(), 1);
  pool.SetThreads(1);
  EXPECT_EQ(pool.workers(), 0);
  EXPECT_EQ(RecordChunks(4, 30, &first_here), ExpectedChunks(4, 30));
  EXPECT_EQ(pool.workers(), 0);
}

// ---- through interpreters ---------------------------------------------------------

// Random int8 (or any byte) values.
std::vector<uint8_t> RandomBytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> v(n);
  for (uint8_t& x : v) x = static_cast<uint8_t>(byte(rng));
  return v;
}

enum class Kernel {
  kConvInt8,
  kPointwiseInt8,
  kDepthwiseInt8,
  kFullyConnectedInt8,
  kAddInt8,
  kFullyConnectedFloat,
  kPointwiseFloat
};

// An int8 CONV_2D, SAME, stride 1: a [1, size, size, in_c] input and
// out_c random k x k filters.
void Int8Conv(OneOpModel& m, int size, int in_c, int out_c, int k, unsigned seed) {
  m.Input(tflite::TensorType_INT8, {1, size, size, in_c}, Q(0.05f, 3));
  m.ConstBytes(tflite::TensorType_INT8, {out_c, k, k, in_c},
               RandomBytes(static_cast<size_t>(out_c) * k * k * in_c, seed), Q(0.02f, 0));
  m.Const<int32_t>({out_c}, std::vector<int32_t>(out_c, 100), tflite::TensorType_INT32,
                   Q(0.001f, 0));
  m.Output(tflite::TensorType_INT8, {1, size, size, out_c}, Q(0.1f, -2));
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_SAME;
  o.stride_w = o.stride_h = 1;
  m.Op(tflite::BuiltinOperator_CONV_2D, Opts(o), 3);
}

// One op sized so that two threads split it (several times
// kMinWorkPerThread multiply-adds), built with `threads` threads and the
// builtin kernels.
void BuildOp(OneOpModel& m, Kernel kernel, int threads) {
  m.configure_options = [threads](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetNumThreads(o, threads);
  };
  switch (kernel) {
    case Kernel::kConvInt8:
      // 32x32 pixels x (3x3x16) x 32 channels: 4.7M multiply-adds.
      Int8Conv(m, 32, 16, 32, 3, 1);
      break;
    case Kernel::kPointwiseInt8:
      // 1x1: 56x56 pixels x 24 inputs x 144 channels, 10.8M multiply-adds (MobileNet v2's
      // expansions; few patch columns, so the scratch budget alone would make one tile).
      Int8Conv(m, 56, 24, 144, 1, 4);
      break;
    case Kernel::kPointwiseFloat: {
      // 1x1 float with bias and RELU6: 48x48 pixels x 32 inputs x 64 channels, 4.7M multiply-adds.
      std::mt19937 rng(5);
      std::uniform_real_distribution<float> dist(-1.f, 1.f);
      std::vector<float> w(64 * 32), b(64);
      for (float& x : w) x = dist(rng);
      for (float& x : b) x = dist(rng);
      m.Input(tflite::TensorType_FLOAT32, {1, 48, 48, 32});
      m.Const<float>({64, 1, 1, 32}, w);
      m.Const<float>({64}, b);
      m.Output(tflite::TensorType_FLOAT32, {1, 48, 48, 64});
      tflite::Conv2DOptionsT o;
      o.padding = tflite::Padding_VALID;
      o.stride_w = o.stride_h = 1;
      o.fused_activation_function = tflite::ActivationFunctionType_RELU6;
      m.Op(tflite::BuiltinOperator_CONV_2D, Opts(o), 3);
      break;
    }
    case Kernel::kFullyConnectedInt8: {
      // 2 rows x 1024 inputs x 1024 units: 2.1M multiply-adds of a plain loop.
      m.Input(tflite::TensorType_INT8, {2, 1024}, Q(0.05f, 3));
      m.ConstBytes(tflite::TensorType_INT8, {1024, 1024}, RandomBytes(1024 * 1024, 6),
                   Q(0.01f, 0));
      m.Const<int32_t>({1024}, std::vector<int32_t>(1024, -30), tflite::TensorType_INT32,
                       Q(0.0005f, 0));
      m.Output(tflite::TensorType_INT8, {2, 1024}, Q(0.2f, 4));
      m.Op(tflite::BuiltinOperator_FULLY_CONNECTED, Opts(tflite::FullyConnectedOptionsT{}), 3);
      break;
    }
    case Kernel::kAddInt8: {
      // Two same-shape inputs of 128x128x32 values, rescaled and added.
      m.Input(tflite::TensorType_INT8, {1, 128, 128, 32}, Q(0.05f, -3));
      m.ConstBytes(tflite::TensorType_INT8, {1, 128, 128, 32}, RandomBytes(128 * 128 * 32, 7),
                   Q(0.03f, 5));
      m.Output(tflite::TensorType_INT8, {1, 128, 128, 32}, Q(0.07f, -1));
      m.Op(tflite::BuiltinOperator_ADD, Opts(tflite::AddOptionsT{}), 2);
      break;
    }
    case Kernel::kDepthwiseInt8: {
      // 64x64 pixels x 64 channels x 3x3 taps: 2.4M multiply-adds.
      m.Input(tflite::TensorType_INT8, {1, 64, 64, 64}, Q(0.05f, -1));
      m.ConstBytes(tflite::TensorType_INT8, {1, 3, 3, 64}, RandomBytes(9 * 64, 2),
                   Q(0.02f, 0));
      m.Const<int32_t>({64}, std::vector<int32_t>(64, -50), tflite::TensorType_INT32,
                       Q(0.001f, 0));
      m.Output(tflite::TensorType_INT8, {1, 64, 64, 64}, Q(0.08f, 1));
      tflite::DepthwiseConv2DOptionsT o;
      o.padding = tflite::Padding_SAME;
      o.stride_w = o.stride_h = 1;
      o.depth_multiplier = 1;
      m.Op(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Opts(o), 3);
      break;
    }
    case Kernel::kFullyConnectedFloat: {
      // 128 rows x 256 inputs x 128 outputs: 4.2M multiply-adds.
      std::mt19937 rng(3);
      std::uniform_real_distribution<float> dist(-1.f, 1.f);
      std::vector<float> w(128 * 256);
      for (float& x : w) x = dist(rng);
      m.Input(tflite::TensorType_FLOAT32, {128, 256});
      m.Const<float>({128, 256}, w);
      m.Const<float>({128}, std::vector<float>(128, 0.25f));
      m.Output(tflite::TensorType_FLOAT32, {128, 128});
      m.Op(tflite::BuiltinOperator_FULLY_CONNECTED, Opts(tflite::FullyConnectedOptionsT{}));
      break;
    }
  }
}

void SetInput(OneOpModel& m, Kernel kernel, unsigned seed) {
  const TfLiteTensor* t = TfLiteInterpreterGetInputTensor(m.interpreter(), 0);
  const size_t bytes = TfLiteTensorByteSize(t);
  if (kernel == Kernel::kFullyConnectedFloat || kernel == Kernel::kPointwiseFloat) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> x(bytes / sizeof(float));
    for (float& v : x) v = dist(rng);
    m.Set<float>(0, x);
  } else {
    m.SetBytes(0, RandomBytes(bytes, seed));
  }
}

// The output of one Invoke; with several threads, also checks that the
// kernel split its work (a worker started).
std::vector<uint8_t> RunOnce(Kernel kernel, int threads, unsigned seed) {
  const int base = ThreadsInProcess();
  std::vector<uint8_t> out;
  {
    OneOpModel m;
    BuildOp(m, kernel, threads);
    EXPECT_TRUE(m.Allocate()) << m.log();
    SetInput(m, kernel, seed);
    EXPECT_TRUE(m.Invoke()) << m.log();
    if (threads > 1) EXPECT_GT(ThreadsInProcess(), base) << "kernel " << static_cast<int>(kernel);
    out = m.GetBytes();
  }
  // The workers end with the interpreter; let them be gone before the next
  // run counts (under qemu an ending thread stays listed for a while).
  WaitForThreads(base);
  return out;
}

// Integer kernels give the same bytes with any thread count. A float kernel
// may round differently where a chunk boundary moves an output between its
// vector body and its scalar tail (seen on armhf NEON with 3 threads), so
// floats are compared to a relative 1e-5.
TEST(ParallelForPoolTest, KernelResultsAreBitIdenticalWithOneAndTwoThreads) {
  for (Kernel k : {Kernel::kConvInt8, Kernel::kPointwiseInt8, Kernel::kDepthwiseInt8,
                   Kernel::kFullyConnectedInt8, Kernel::kAddInt8}) {
    const std::vector<uint8_t> one = RunOnce(k, 1, 11);
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(RunOnce(k, 2, 11), one) << "kernel " << static_cast<int>(k);
    EXPECT_EQ(RunOnce(k, 3, 11), one) << "kernel " << static_cast<int>(k);
  }
  for (Kernel k : {Kernel::kFullyConnectedFloat, Kernel::kPointwiseFloat}) {
    const std::vector<uint8_t> one = RunOnce(k, 1, 11);
    for (int threads : {2, 3}) {
      const std::vector<uint8_t> many = RunOnce(k, threads, 11);
      ASSERT_EQ(many.size(), one.size());
      for (size_t i = 0; i + sizeof(float) <= one.size(); i += sizeof(float)) {
        float a, b;
        std::memcpy(&a, &one[i], sizeof a);
        std::memcpy(&b, &many[i], sizeof b);
        EXPECT_NEAR(b, a, 1e-5f * std::max(1.0f, std::fabs(a)))
            << "kernel " << static_cast<int>(k) << ", " << threads << " threads, output " << i / 4;
      }
      // The AVX2 GEMM's in-order dot products (each thread packing the
      // filter once for its chunks) do not depend on the split at all.
      if (k == Kernel::kPointwiseFloat && kernels::internal::Avx2GemmAvailable()) {
        EXPECT_EQ(many, one) << threads << " threads";
      }
    }
  }
}

TEST(ParallelForPoolTest, ThreadsStartOnceAndEndWithTheInterpreter) {
  const int base = ThreadsInProcess();
  const std::vector<uint8_t> expected = RunOnce(Kernel::kConvInt8, 1, 5);
  ASSERT_EQ(WaitForThreads(base), base);
  int running = base;
  {
    OneOpModel m;
    BuildOp(m, Kernel::kConvInt8, 2);
    ASSERT_TRUE(m.Allocate()) << m.log();
    EXPECT_EQ(ThreadsInProcess(), base) << "no thread before a kernel needs one";
    SetInput(m, Kernel::kConvInt8, 5);
    ASSERT_TRUE(m.Invoke()) << m.log();
    // One worker started (under ThreadSanitizer its runtime starts a thread
    // of its own with the first one, so counts are relative to this one).
    running = ThreadsInProcess();
    EXPECT_GT(running, base);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(m.Invoke()) << m.log();
      EXPECT_EQ(m.GetBytes(), expected);
    }
    EXPECT_EQ(ThreadsInProcess(), running) << "the same worker across Invokes";
    // The interpreter is deleted with its worker idle (asleep by now).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(WaitForThreads(running - 1), running - 1) << "the worker ends with the interpreter";
}

TEST(ParallelForPoolTest, OneThreadStartsNoWorker) {
  const int base = ThreadsInProcess();
  OneOpModel m;
  BuildOp(m, Kernel::kConvInt8, 1);
  ASSERT_TRUE(m.Allocate()) << m.log();
  SetInput(m, Kernel::kConvInt8, 5);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(ThreadsInProcess(), base);
}

TEST(ParallelForPoolTest, InterpretersOnTwoThreadsEachUseTheirOwnPool) {
  const Kernel kinds[2] = {Kernel::kConvInt8, Kernel::kDepthwiseInt8};
  std::vector<uint8_t> expected[2];
  for (int i = 0; i < 2; ++i) expected[i] = RunOnce(kinds[i], 1, 21 + i);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 2; ++i) {
    callers.emplace_back([&, i] {
      OneOpModel m;
      BuildOp(m, kinds[i], 2);
      if (!m.Allocate()) {
        ++mismatches;
        return;
      }
      SetInput(m, kinds[i], 21 + i);
      for (int r = 0; r < 10; ++r) {
        if (!m.Invoke() || m.GetBytes() != expected[i]) ++mismatches;
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(ParallelForPoolTest, CancelAndDeleteWhileIdle) {
  OneOpModel m;
  BuildOp(m, Kernel::kConvInt8, 2);
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetNumThreads(o, 2);
    TfLiteInterpreterOptionsEnableCancellation(o, true);
  };
  ASSERT_TRUE(m.Allocate()) << m.log();
  SetInput(m, Kernel::kConvInt8, 9);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<uint8_t> first = m.GetBytes();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // A cancel between invocations does not affect the next one.
  EXPECT_EQ(TfLiteInterpreterCancel(m.interpreter()), kTfLiteOk);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.GetBytes(), first);
}

}  // namespace
}  // namespace tflite_c

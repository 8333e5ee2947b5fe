// Allocation-failure injection across the whole C API life cycle.
//
// This executable replaces the global operator new / new[] (all forms,
// nothrow and aligned included): once armed with a budget N, the (N+1)-th
// allocation fails (std::bad_alloc, or nullptr for the nothrow forms). For
// N = 0, 1, 2, ... the test runs
//   TfLiteModelCreateFromFile -> options -> TfLiteInterpreterCreate ->
//   AllocateTensors -> Invoke -> delete everything
// and checks that every step either succeeds or reports an error (NULL /
// kTfLiteError), that the process never aborts (an exception escaping the C
// ABI would terminate it), and that every operator-new allocation made while
// armed is released by the end of the run (the test keeps a live count; the
// ASan pass, label "malformed", adds LeakSanitizer on top).
//
// Only operator new is injected: malloc (XNNPACK, TfLiteIntArrayCreate, the
// arena) is not, so the XNNPACK runs fail only in our C++ around it.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tests/util/shared_models.h"

namespace {

// -1: not armed. Otherwise the number of allocations still allowed.
std::atomic<long> g_budget{-1};
std::atomic<bool> g_fired{false};
std::atomic<long> g_live{0};  // operator-new blocks not yet deleted

bool ShouldFail() {
  if (g_budget.load(std::memory_order_relaxed) < 0) return false;
  if (g_budget.fetch_sub(1, std::memory_order_relaxed) > 0) return false;
  g_budget.store(0, std::memory_order_relaxed);  // keep failing until disarmed
  g_fired.store(true, std::memory_order_relaxed);
  return true;
}

void* Allocate(std::size_t size, std::size_t alignment, bool nothrow) {
  if (ShouldFail()) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  if (size == 0) size = 1;
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    p = std::malloc(size);
  } else if (posix_memalign(&p, alignment, size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  g_live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void Release(void* p) {
  if (p == nullptr) return;
  g_live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

// ---- the replacements ----------------------------------------------------------
void* operator new(std::size_t n) { return Allocate(n, 0, false); }
void* operator new[](std::size_t n) { return Allocate(n, 0, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return Allocate(n, 0, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n, 0, true);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return Allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return Allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<std::size_t>(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<std::size_t>(a), true);
}
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, std::size_t) noexcept { Release(p); }
void operator delete[](void* p, std::size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete(void* p, std::align_val_t) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { Release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { Release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  Release(p);
}

namespace {

void Quiet(void*, const char*, va_list) {}

// How far one life cycle got.
enum Step { kModel, kOptions, kInterpreter, kAllocate, kInvoke, kDone };

struct Outcome {
  Step reached = kModel;
  bool bad_status = false;  // a step returned something other than ok/error
};

// One life cycle; no gtest calls (they allocate) while injection is armed.
Outcome RunOnce(const std::string& path, bool xnnpack) {
  Outcome out;
  TfLiteModel* model = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), Quiet, nullptr);
  TfLiteInterpreterOptions* options = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  if (model != nullptr) {
    out.reached = kOptions;
    options = TfLiteInterpreterOptionsCreate();
  }
  if (options != nullptr) {
    out.reached = kInterpreter;
    TfLiteInterpreterOptionsSetErrorReporter(options, Quiet, nullptr);
    TfLiteInterpreterOptionsSetNumThreads(options, 1);
    if (TfLiteInterpreterOptionsSetUseXNNPACK(options, xnnpack) != kTfLiteOk) {
      out.bad_status = true;
    }
    interpreter = TfLiteInterpreterCreate(model, options);
  }
  if (interpreter != nullptr) {
    out.reached = kAllocate;
    const TfLiteStatus s = TfLiteInterpreterAllocateTensors(interpreter);
    if (s != kTfLiteOk && s != kTfLiteError) out.bad_status = true;
    if (s == kTfLiteOk) {
      out.reached = kInvoke;
      for (int32_t i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter); ++i) {
        TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, i);
        if (t != nullptr && TfLiteTensorData(t) != nullptr && TfLiteTensorType(t) != kTfLiteString) {
          std::memset(TfLiteTensorData(t), 0, TfLiteTensorByteSize(t));
        }
      }
      const TfLiteStatus r = TfLiteInterpreterInvoke(interpreter);
      if (r != kTfLiteOk && r != kTfLiteError) out.bad_status = true;
      if (r == kTfLiteOk) out.reached = kDone;
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return out;
}

struct Summary {
  long runs = 0;
  long failed_at[kDone + 1] = {};
  long leaked_runs = 0;
  long first_leak_budget = -1;
};

// Runs the life cycle with budgets 0, 1, 2, ... until one completes with
// the budget unused (every later budget would behave the same).
void InjectAll(const std::string& path, bool xnnpack) {
  // Warm up lazily created statics (op tables, XNNPACK's init) unarmed.
  Outcome warm = RunOnce(path, xnnpack);
  ASSERT_EQ(warm.reached, kDone) << path << ": the model must run without injection";
  warm = RunOnce(path, xnnpack);
  ASSERT_EQ(warm.reached, kDone);

  Summary summary;
  bool bad_status = false;
  constexpr long kMaxBudget = 200000;
  const bool verbose = std::getenv("TFLITE_C_ALLOC_TEST_VERBOSE") != nullptr;
  long budget = 0;
  for (; budget < kMaxBudget; ++budget) {
    if (verbose) std::fprintf(stderr, "budget %ld\n", budget);
    const long live_before = g_live.load();
    g_fired = false;
    g_budget = budget;
    const Outcome out = RunOnce(path, xnnpack);
    g_budget = -1;
    const long live_after = g_live.load();
    ++summary.runs;
    bad_status |= out.bad_status;
    if (live_after != live_before) {
      if (summary.leaked_runs++ == 0) summary.first_leak_budget = budget;
    }
    if (!g_fired) {
      EXPECT_EQ(out.reached, kDone) << "budget " << budget;
      break;
    }
    ++summary.failed_at[out.reached];
  }
  EXPECT_LT(budget, kMaxBudget) << "never ran to completion";
  EXPECT_FALSE(bad_status) << "a step returned a status other than kTfLiteOk/kTfLiteError";
  EXPECT_EQ(summary.leaked_runs, 0)
      << summary.leaked_runs << " runs left operator-new blocks behind, first with budget "
      << summary.first_leak_budget;
  // Every step was reached by some failing run, so each one's failure path ran.
  std::printf("%s (%s): %ld runs; failures at model %ld, options %ld, interpreter %ld, "
              "allocate %ld, invoke %ld, completed despite a failed allocation %ld\n",
              path.c_str(), xnnpack ? "XNNPACK" : "builtin", summary.runs,
              summary.failed_at[kModel], summary.failed_at[kOptions],
              summary.failed_at[kInterpreter], summary.failed_at[kAllocate],
              summary.failed_at[kInvoke], summary.failed_at[kDone]);
  EXPECT_GT(summary.failed_at[kModel], 0);
  EXPECT_GT(summary.failed_at[kInterpreter], 0);
}

class AllocFailureTest : public ::testing::TestWithParam<const char*> {};

TEST_P(AllocFailureTest, BuiltinKernels) {
  SKIP_WITHOUT_SHARED_MODELS();
  InjectAll(tflite_c::testing::SharedModelPath(GetParam()), /*xnnpack=*/false);
}

TEST_P(AllocFailureTest, WithXnnpack) {
  SKIP_WITHOUT_SHARED_MODELS();
  InjectAll(tflite_c::testing::SharedModelPath(GetParam()), /*xnnpack=*/true);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, AllocFailureTest,
                         ::testing::Values("java_add", "java_quantized",
                                           "quant_single_conv_no_bias", "tflite_multi_subgraphs_while",
                                           "java_mul_add_signature_def"));

// A failed create says why through TfLiteGetLastCreateError, also for out of
// memory, with no error reporter installed.
TEST(AllocFailureLastError, CreateReportsOutOfMemory) {
  SKIP_WITHOUT_SHARED_MODELS();
  const std::string path = tflite_c::testing::SharedModelPath("java_add");
  TfLiteModel* model = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), Quiet, nullptr);
  ASSERT_NE(model, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, Quiet, nullptr);
  std::string seen;
  for (long budget = 0; budget < 200; ++budget) {
    g_budget = budget;
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
    g_budget = -1;
    if (interpreter == nullptr) {
      seen = TfLiteGetLastCreateError();
      break;
    }
    TfLiteInterpreterDelete(interpreter);
  }
  EXPECT_NE(seen.find("out of memory"), std::string::npos) << seen;
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

}  // namespace

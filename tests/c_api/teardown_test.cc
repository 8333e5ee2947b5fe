// Teardown: 10,000 create -> allocate -> invoke -> delete loops on a tiny
// model, through every object a C user creates and deletes (model, options,
// interpreter, the default XNNPACK delegate, explicit XNNPACK delegates with
// and without a thread pool, a shared weights cache), checking each run's
// output against a reference computed here, and that the resident set size
// (/proc/self/statm) stays flat once warmed up.
//
// In the ASan build (CI's ASan+UBSan pass runs this executable; LeakSanitizer
// then checks at exit that nothing leaked) the RSS check is skipped: ASan keeps
// freed blocks in its quarantine on purpose, so its RSS grows without a leak.
// Under qemu-user (TFLITE_C_UNDER_EMULATOR, set by the cross toolchains) it is
// skipped too: the process's RSS is the emulator's, whose translated-code cache
// grows as it runs (aarch64: +37 MiB over 9,000 cycles).
// TFLITE_C_TEARDOWN_ITERATIONS overrides the count (for long runs).
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/model_builder.h"

#if defined(__SANITIZE_ADDRESS__)
#define TFLITE_C_TEARDOWN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFLITE_C_TEARDOWN_ASAN 1
#endif
#endif

namespace tflite_c {
namespace testing {
namespace {

#ifdef TFLITE_C_TEARDOWN_ASAN
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
constexpr int kDefaultIterations = 10000;

constexpr int kN = 8;

// y = W x + b + c on x[1,8]: FULLY_CONNECTED then ADD, both taken by XNNPACK.
struct TinyModel {
  std::vector<float> w = Random(kN * kN, 11), b = Random(kN, 12), c = Random(kN, 13);
  std::vector<uint8_t> bytes;

  TinyModel() {
    ModelBuilder mb;
    const int x = mb.AddInput(tflite::TensorType_FLOAT32, {1, kN}, "x");
    const int wt = mb.AddConstant<float>({kN, kN}, w, "w");
    const int bt = mb.AddConstant<float>({kN}, b, "b");
    const int ct = mb.AddConstant<float>({1, kN}, c, "c");
    const int f = mb.AddTensor(tflite::TensorType_FLOAT32, {1, kN});
    const int y = mb.AddOutput(tflite::TensorType_FLOAT32, {1, kN}, "y");
    mb.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, wt, bt}, {f},
                   tflite::FullyConnectedOptionsT());
    mb.AddOperator(tflite::BuiltinOperator_ADD, {f, ct}, {y}, tflite::AddOptionsT());
    bytes = mb.Finish();
  }
  // Straightforward reference: W is [out, in] as FULLY_CONNECTED stores it.
  std::vector<float> Expected(const std::vector<float>& x) const {
    std::vector<float> y(kN);
    for (int o = 0; o < kN; ++o) {
      double acc = b[o];
      for (int i = 0; i < kN; ++i) acc += static_cast<double>(w[o * kN + i]) * x[i];
      y[o] = static_cast<float>(acc + c[o]);
    }
    return y;
  }
};

enum Variant {
  kBuiltin,
  kDefaultXnnpack,
  kXnnpack,
  kXnnpackThreadPool,
  kXnnpackWeightsCache,
  kCount
};
const char* const kVariantNames[] = {"builtin", "default XNNPACK", "XNNPACK delegate",
                                     "XNNPACK delegate, 2 threads", "XNNPACK + weights cache"};

// One full create -> allocate -> invoke -> delete cycle; "" or the problem.
std::string Cycle(const TinyModel& m, Variant v, const std::vector<float>& x) {
  TfLiteModel* model = TfLiteModelCreate(m.bytes.data(), m.bytes.size());
  if (model == nullptr) return "TfLiteModelCreate failed";
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  std::string errors;
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &errors);
  TfLiteInterpreterOptionsSetUseXNNPACK(options, v == kDefaultXnnpack);
  TfLiteInterpreterOptionsSetNumThreads(options, 1);
  TfLiteXNNPackDelegateWeightsCache* cache = nullptr;
  TfLiteDelegate* delegate = nullptr;
  if (v == kXnnpack || v == kXnnpackThreadPool || v == kXnnpackWeightsCache) {
    TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
    o.num_threads = v == kXnnpackThreadPool ? 2 : 1;
    if (v == kXnnpackWeightsCache) {
      cache = TfLiteXNNPackDelegateWeightsCacheCreate();
      o.weights_cache = cache;
    }
    delegate = TfLiteXNNPackDelegateCreate(&o);
    TfLiteInterpreterOptionsAddDelegate(options, reinterpret_cast<TfLiteOpaqueDelegate*>(delegate));
  }
  TfLiteInterpreter* it = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);  // the interpreter keeps what it needs
  std::string problem;
  if (it == nullptr) problem = "TfLiteInterpreterCreate failed: " + errors;
  if (problem.empty() && TfLiteInterpreterAllocateTensors(it) != kTfLiteOk)
    problem = "AllocateTensors: " + errors;
  if (problem.empty() && cache != nullptr && !TfLiteXNNPackDelegateWeightsCacheFinalizeHard(cache))
    problem = "finalizing the weights cache failed";
  if (problem.empty() &&
      TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x.data(),
                                 x.size() * sizeof(float)) != kTfLiteOk)
    problem = "cannot set the input";
  if (problem.empty() && TfLiteInterpreterInvoke(it) != kTfLiteOk) problem = "Invoke: " + errors;
  if (problem.empty()) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, 0);
    const float* y = static_cast<const float*>(TfLiteTensorData(t));
    const std::vector<float> want = m.Expected(x);
    for (int i = 0; i < kN && problem.empty(); ++i) {
      if (!(std::fabs(y[i] - want[i]) <= 1e-5f + 1e-5f * std::fabs(want[i])))
        problem = "output " + std::to_string(i) + ": " + std::to_string(y[i]) + ", expected " +
                  std::to_string(want[i]);
    }
  }
  TfLiteInterpreterDelete(it);
  TfLiteXNNPackDelegateDelete(delegate);  // after the interpreter using it
  TfLiteXNNPackDelegateWeightsCacheDelete(cache);  // after every delegate using it
  TfLiteModelDelete(model);
  return problem;
}

// Resident set size in bytes (second field of /proc/self/statm, in pages).
long ResidentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1;
  long size = 0, resident = -1;
  if (std::fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
  std::fclose(f);
  return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

TEST(Teardown, CreateInvokeDeleteLoopKeepsMemoryFlat) {
  int iterations = kDefaultIterations;
  if (const char* env = std::getenv("TFLITE_C_TEARDOWN_ITERATIONS")) iterations = std::atoi(env);
  ASSERT_GE(iterations, 10);
  const int variants = kWithXnnpack ? kCount : 1;
  const TinyModel m;
  const int warmup = iterations / 10;
  long rss_after_warmup = -1;
  double ms[kCount] = {};
  int runs[kCount] = {};
  for (int k = 0; k < iterations; ++k) {
    if (k == warmup) rss_after_warmup = ResidentBytes();
    // A thread pool costs its threads' start and join (tens of ms on a busy
    // machine): every 100th cycle; the other variants in turn.
    Variant v = static_cast<Variant>(k % variants);
    if (variants > 1) {
      static const Variant kCheap[] = {kBuiltin, kDefaultXnnpack, kXnnpack, kXnnpackWeightsCache};
      v = k % 100 == 99 ? kXnnpackThreadPool : kCheap[k % 4];
    }
    const std::vector<float> x = Random(kN, static_cast<uint32_t>(k % 97));
    const auto t0 = std::chrono::steady_clock::now();
    const std::string problem = Cycle(m, v, x);
    ++runs[v];
    ms[v] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                 .count();
    ASSERT_EQ(problem, "") << "iteration " << k << " (" << kVariantNames[v] << ")";
  }
  const long rss_end = ResidentBytes();
  const double growth_mib = (rss_end - rss_after_warmup) / (1024.0 * 1024.0);
  std::printf("[teardown] %d cycles over %d variants; RSS %.1f MiB after %d, %.1f MiB at the end "
              "(%+.2f MiB)%s\n",
              iterations, variants, rss_after_warmup / (1024.0 * 1024.0), warmup,
              rss_end / (1024.0 * 1024.0), growth_mib,
              kAsan ? "; not checked under ASan (quarantine)" : "");
  for (int v = 0; v < variants; ++v) {
    if (runs[v] > 0)
      std::printf("[teardown] %-28s %5d cycles, %.3f ms each\n", kVariantNames[v], runs[v],
                  ms[v] / runs[v]);
  }
  RecordProperty("rss_growth_kib", static_cast<int>(growth_mib * 1024));
  const bool emulated = std::getenv("TFLITE_C_UNDER_EMULATOR") != nullptr;
  if (emulated) std::printf("[teardown] RSS not checked under an emulator\n");
  if (kAsan || emulated || rss_after_warmup < 0 || rss_end < 0) return;
  EXPECT_LT(growth_mib, 4.0) << "RSS grew over the last " << iterations - warmup << " cycles";
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

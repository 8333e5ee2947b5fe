// One TfLiteModel shared by several interpreters on several threads (upstream
// documents a model as shareable between interpreters; an interpreter itself
// is used by one thread at a time): each thread builds its own interpreter
// from the shared model, then invokes it repeatedly and checks the outputs
// against the golden outputs of shared/models — with the builtin kernels, the
// default XNNPACK delegate, an explicit XNNPACK delegate per interpreter, and
// explicit delegates sharing one XNNPACK weights cache. Also interpreters
// created and deleted concurrently from one model while another one runs.
// Label "threads": CI runs these under ThreadSanitizer too (README).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/c_api/thread_test_util.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

constexpr int kThreads = 4;
// Invocations per interpreter (half of them checked against the goldens);
// ThreadSanitizer slows our kernels down about tenfold, so fewer there.
#ifdef __SANITIZE_THREAD__
constexpr int kIterations = 2;
#else
constexpr int kIterations = 4;
#endif
// XNNPACK threads per interpreter. One: kThreads interpreters already keep
// the test machine's cores busy, and pthreadpool's workers spin while they
// wait. The lifecycle test gives one thread's delegates two.
constexpr int kXnnpackThreads = 1;

// Golden models of different kinds: tiny int8, float convolutions, a larger
// int8 network.
const char* const kModels[] = {"tflm_hello_world_int8", "mp_face_detection_short_range",
                               "tflm_mobilenet_v2_quantized_1x3x224x224"};

enum class Backend { kBuiltin, kDefaultXnnpack, kExplicitXnnpack };

// Failures seen on worker threads, reported on the main one.
class Failures {
 public:
  void Add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    if (list_.size() < 20) list_.push_back(what);
  }
  std::string Text() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s;
    for (const std::string& f : list_) s += f + "\n";
    return s;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> list_;
};

// An interpreter for `model` on `backend` (the explicit delegate, made here,
// is returned in `*delegate` and must outlive the interpreter).
InterpreterPtr MakeInterpreter(TfLiteModel* model, Backend backend, XnnPtr* delegate,
                               std::string* errors, int xnnpack_threads = kXnnpackThreads) {
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, errors);
  TfLiteInterpreterOptionsSetNumThreads(options.get(), xnnpack_threads);
  TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), backend == Backend::kDefaultXnnpack);
  if (backend == Backend::kExplicitXnnpack) {
    TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
    o.num_threads = xnnpack_threads;
    delegate->reset(TfLiteXNNPackDelegateCreate(&o));
    TfLiteInterpreterOptionsAddDelegate(options.get(),
                                        reinterpret_cast<TfLiteOpaqueDelegate*>(delegate->get()));
  }
  InterpreterPtr it(TfLiteInterpreterCreate(model, options.get()));
  if (it != nullptr && TfLiteInterpreterAllocateTensors(it.get()) != kTfLiteOk) it.reset();
  return it;
}

// `iterations` invocations of `it`: even ones on the golden inputs (outputs
// checked), odd ones on other inputs (so a stray write between interpreters
// would show in the next checked run).
void InvokeAndCheck(TfLiteInterpreter* it, const GoldenModel& golden, bool xnnpack, int iterations,
                    const std::string& who, const std::string& errors, Failures* failures) {
  for (int k = 0; k < iterations; ++k) {
    const bool checked = k % 2 == 0;
    std::string problem = golden.Feed(it, !checked);
    if (problem.empty() && TfLiteInterpreterInvoke(it) != kTfLiteOk) problem = "Invoke: " + errors;
    if (problem.empty() && checked) problem = golden.Check(it, xnnpack);
    if (!problem.empty()) {
      failures->Add(who + " iteration " + std::to_string(k) + ": " + problem);
      return;
    }
  }
}

// kThreads threads, each building its own interpreter from one shared model
// (concurrently) and invoking it.
void RunSharedModel(const GoldenModel& golden, Backend backend, int iterations) {
  ModelPtr model(TfLiteModelCreate(golden.bytes().data(), golden.bytes().size()));
  ASSERT_NE(model, nullptr);
  Failures failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string who = "thread " + std::to_string(t);
      std::string errors;
      XnnPtr delegate;
      InterpreterPtr it = MakeInterpreter(model.get(), backend, &delegate, &errors);
      if (it == nullptr) return failures.Add(who + ": create/allocate: " + errors);
      InvokeAndCheck(it.get(), golden, backend != Backend::kBuiltin, iterations, who, errors,
                     &failures);
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.Text(), "");
}

class SharedModelTest : public ::testing::TestWithParam<const char*> {
 protected:
  void Run(Backend backend) {
    if (backend != Backend::kBuiltin && !kWithXnnpack) GTEST_SKIP() << "built without XNNPACK";
    GoldenModel golden;
    SKIP_WITHOUT_GOLDEN(golden, GetParam());
    RunSharedModel(golden, backend, kIterations);
  }
};

TEST_P(SharedModelTest, BuiltinKernels) { Run(Backend::kBuiltin); }
TEST_P(SharedModelTest, DefaultXnnpackDelegate) { Run(Backend::kDefaultXnnpack); }
TEST_P(SharedModelTest, ExplicitXnnpackDelegates) { Run(Backend::kExplicitXnnpack); }

// Delegates sharing one weights cache: the interpreters are built one after
// the other (the cache is filled while delegates are applied, then finalized
// before the first inference), the model handle is deleted (interpreters keep
// what they need), then all invoke at once on their own threads.
TEST_P(SharedModelTest, XnnpackWeightsCacheSharedByThreads) {
  SKIP_WITHOUT_XNNPACK();
  GoldenModel golden;
  SKIP_WITHOUT_GOLDEN(golden, GetParam());
  TfLiteXNNPackDelegateWeightsCache* cache = TfLiteXNNPackDelegateWeightsCacheCreate();
  ASSERT_NE(cache, nullptr);
  {
    ModelPtr model(TfLiteModelCreate(golden.bytes().data(), golden.bytes().size()));
    ASSERT_NE(model, nullptr);
    std::vector<XnnPtr> delegates(kThreads);
    std::vector<InterpreterPtr> interpreters(kThreads);
    std::vector<std::string> errors(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
      o.num_threads = kXnnpackThreads;
      o.weights_cache = cache;
      delegates[t].reset(TfLiteXNNPackDelegateCreate(&o));
      ASSERT_NE(delegates[t], nullptr);
      OptionsPtr options(TfLiteInterpreterOptionsCreate());
      TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &errors[t]);
      TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
      TfLiteInterpreterOptionsAddDelegate(
          options.get(), reinterpret_cast<TfLiteOpaqueDelegate*>(delegates[t].get()));
      interpreters[t].reset(TfLiteInterpreterCreate(model.get(), options.get()));
      ASSERT_NE(interpreters[t], nullptr) << errors[t];
      ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreters[t].get()), kTfLiteOk) << errors[t];
    }
    ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeHard(cache));
    model.reset();
    Failures failures;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        InvokeAndCheck(interpreters[t].get(), golden, true, kIterations,
                       "thread " + std::to_string(t), errors[t], &failures);
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(failures.Text(), "");
    interpreters.clear();
    delegates.clear();
  }
  TfLiteXNNPackDelegateWeightsCacheDelete(cache);
}

INSTANTIATE_TEST_SUITE_P(Golden, SharedModelTest, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

// Interpreters created, used and deleted over and over on several threads
// from one model (builtin and XNNPACK in turn), while a long-lived
// interpreter of the same model keeps invoking on the main thread.
TEST(ConcurrentLifecycle, CreateInvokeDeleteFromOneModel) {
  GoldenModel golden;
  SKIP_WITHOUT_GOLDEN(golden, "mp_face_detection_short_range");
  ModelPtr model(TfLiteModelCreate(golden.bytes().data(), golden.bytes().size()));
  ASSERT_NE(model, nullptr);
  std::string main_errors;
  XnnPtr main_delegate;
  InterpreterPtr main_it =
      MakeInterpreter(model.get(), Backend::kBuiltin, &main_delegate, &main_errors);
  ASSERT_NE(main_it, nullptr) << main_errors;

  constexpr int kRounds = 6;
  Failures failures;
  std::atomic<int> running{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        const std::string who = "thread " + std::to_string(t) + " round " + std::to_string(r);
        Backend backend = Backend::kBuiltin;
        if (kWithXnnpack && (t + r) % 3 == 1) backend = Backend::kDefaultXnnpack;
        if (kWithXnnpack && (t + r) % 3 == 2) backend = Backend::kExplicitXnnpack;
        std::string errors;
        XnnPtr delegate;
        const int xnnpack_threads = t == 0 ? 2 : 1;
        InterpreterPtr it =
            MakeInterpreter(model.get(), backend, &delegate, &errors, xnnpack_threads);
        if (it == nullptr) {
          failures.Add(who + ": create/allocate: " + errors);
          break;
        }
        InvokeAndCheck(it.get(), golden, backend != Backend::kBuiltin, 1, who, errors, &failures);
      }
      running.fetch_sub(1);
    });
  }
  int main_invokes = 0;
  while (running.load() > 0 || main_invokes == 0) {
    InvokeAndCheck(main_it.get(), golden, false, 1, "main", main_errors, &failures);
    ++main_invokes;
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.Text(), "");
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

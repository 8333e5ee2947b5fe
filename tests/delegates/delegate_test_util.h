// Helpers shared by the delegate tests: run a model (bytes) through the
// public C API with or without delegates, capture the error reporter's
// text, and look at the resulting execution plan.
#ifndef TFLITE_C_TESTS_DELEGATES_DELEGATE_TEST_UTIL_H_
#define TFLITE_C_TESTS_DELEGATES_DELEGATE_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "src/c_api/c_api_internal.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/api/profiler.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/util/error_capture.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {

#ifdef TFLITE_C_WITH_XNNPACK
constexpr bool kWithXnnpack = true;
#else
constexpr bool kWithXnnpack = false;
#endif

// For tests that need the XNNPACK delegate itself.
#define SKIP_WITHOUT_XNNPACK() \
  if (!::tflite_c::testing::kWithXnnpack) GTEST_SKIP() << "built without XNNPACK"

struct XnnpackDelegateDeleter {
  void operator()(TfLiteDelegate* d) const { TfLiteXNNPackDelegateDelete(d); }
};
using XnnPtr = std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter>;

// `n` reproducible values uniform in [lo, hi).
inline std::vector<float> Random(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct ModelDeleter {
  void operator()(TfLiteModel* m) const { TfLiteModelDelete(m); }
};
struct InterpreterDeleter {
  void operator()(TfLiteInterpreter* i) const { TfLiteInterpreterDelete(i); }
};
struct OptionsDeleter {
  void operator()(TfLiteInterpreterOptions* o) const { TfLiteInterpreterOptionsDelete(o); }
};
using ModelPtr = std::unique_ptr<TfLiteModel, ModelDeleter>;
using InterpreterPtr = std::unique_ptr<TfLiteInterpreter, InterpreterDeleter>;
using OptionsPtr = std::unique_ptr<TfLiteInterpreterOptions, OptionsDeleter>;

// A model plus an interpreter built with the given delegates. The model
// bytes must outlive it (the model refers to them).
struct Session {
  ModelPtr model;
  InterpreterPtr interpreter;
  std::string errors;  // everything the interpreter's reporter said

  bool ok() const { return interpreter != nullptr; }

  // Builds; `ok()` tells whether TfLiteInterpreterCreate succeeded.
  void Create(const void* bytes, size_t size, const std::vector<TfLiteDelegate*>& delegates,
              bool fallback = false, tflite::Profiler* profiler = nullptr) {
    model.reset(TfLiteModelCreate(bytes, size));
    if (!model) return;
    OptionsPtr options(TfLiteInterpreterOptionsCreate());
    TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &errors);
    for (TfLiteDelegate* d : delegates) {
      TfLiteInterpreterOptionsAddDelegate(options.get(),
                                          reinterpret_cast<TfLiteOpaqueDelegate*>(d));
    }
    TfLiteInterpreterOptionsSetEnableDelegateFallback(options.get(), fallback);
    TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);  // only `delegates`
    if (profiler != nullptr) TfLiteInterpreterOptionsSetProfiler(options.get(), profiler);
    interpreter.reset(TfLiteInterpreterCreate(model.get(), options.get()));
  }
  void Create(const std::vector<uint8_t>& bytes, const std::vector<TfLiteDelegate*>& delegates,
              bool fallback = false, tflite::Profiler* profiler = nullptr) {
    Create(bytes.data(), bytes.size(), delegates, fallback, profiler);
  }

  // Copies `values` into input `i` (sizes must match).
  bool SetInput(int i, const std::vector<float>& values) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter.get(), i);
    return t != nullptr &&
           TfLiteTensorCopyFromBuffer(t, values.data(), values.size() * sizeof(float)) == kTfLiteOk;
  }
  std::vector<float> Output(int i) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter.get(), i);
    if (t == nullptr || t->data.f == nullptr) return {};
    return std::vector<float>(t->data.f, t->data.f + t->bytes / sizeof(float));
  }

  // The primary subgraph, white-box.
  Subgraph& primary() { return interpreter->impl->primary(); }
  const std::vector<int>& plan() { return primary().execution_plan(); }
  // Number of nodes in the plan run by a delegate kernel.
  int DelegateNodes() {
    int n = 0;
    for (int i : plan()) {
      if (primary().node_and_registration(i)->second.builtin_code == kTfLiteBuiltinDelegate) ++n;
    }
    return n;
  }
};

// y = ((x + c) - x) + x, all delegated by the dummy delegate.
inline std::vector<uint8_t> ChainModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int c = b.AddConstant<float>({4}, {10, 20, 30, 40}, "c");
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {4});
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t0}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {t0, x}, {t1}, tflite::SubOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {t1, x}, {y}, tflite::AddOptionsT());
  return b.Finish();
}

inline tflite::AddOptionsT NoActivation() { return tflite::AddOptionsT(); }

// The names of the operators a delegate reports per operator (XNNPACK's with
// XNN_FLAG_BASIC_PROFILING), for TfLiteInterpreterOptionsSetProfiler.
class OperatorNames : public tflite::Profiler {
 public:
  uint32_t BeginEvent(const char*, EventType, int64_t, int64_t) override { return 0; }
  void EndEvent(uint32_t) override {}
  void AddEvent(const char* tag, EventType type, uint64_t, int64_t, int64_t) override {
    if (type == EventType::DELEGATE_PROFILED_OPERATOR_INVOKE_EVENT) names.emplace_back(tag);
  }
  using tflite::Profiler::AddEvent;
  using tflite::Profiler::BeginEvent;
  // How many names contain `part`.
  int Count(const std::string& part) const {
    return static_cast<int>(std::count_if(names.begin(), names.end(), [&](const std::string& n) {
      return n.find(part) != std::string::npos;
    }));
  }
  bool Has(const std::string& part) const { return Count(part) > 0; }
  std::vector<std::string> names;
};

// One create-allocate-invoke of a float model through `d` (none if null)
// with `input` in input 0: output 0 (empty when a step failed), the number of
// delegate kernels in the plan and what the error reporter said.
struct FloatRun {
  std::vector<float> out;
  int delegate_nodes = 0;
  std::string errors;
};
inline FloatRun RunFloatModel(const std::vector<uint8_t>& bytes, TfLiteDelegate* d,
                              const std::vector<float>& input) {
  FloatRun r;
  Session s;
  s.Create(bytes, d ? std::vector<TfLiteDelegate*>{d} : std::vector<TfLiteDelegate*>{});
  r.errors = s.errors;
  if (!s.ok()) return r;
  r.delegate_nodes = s.DelegateNodes();
  if (TfLiteInterpreterAllocateTensors(s.interpreter.get()) == kTfLiteOk && s.SetInput(0, input) &&
      TfLiteInterpreterInvoke(s.interpreter.get()) == kTfLiteOk) {
    r.out = s.Output(0);
  }
  r.errors = s.errors;
  return r;
}

// An XNNPACK delegate with `threads` threads and otherwise default options.
inline XnnPtr XnnpackWithThreads(int threads) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = threads;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

// A run whose one node went to the delegate, element by element against
// `want` (relative 1e-4; at most 5 failures reported).
inline void ExpectOneDelegatedNodeClose(const FloatRun& run, const std::vector<float>& want) {
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

// y = relu(x (*) w + bias): a 1x1 CONV_2D of `side` x `side` pixels, `in` ->
// `out` channels, weights and biases drawn with `seed` and `seed` + 1; and in
// `want` its output from plain loops in double precision.
inline std::vector<uint8_t> PointwiseReluModel(int side, int in, int out,
                                               const std::vector<float>& x, uint32_t seed,
                                               std::vector<float>* want) {
  const std::vector<float> w = Random(static_cast<size_t>(out) * in, seed);
  const std::vector<float> bias = Random(static_cast<size_t>(out), seed + 1);
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

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_DELEGATES_DELEGATE_TEST_UTIL_H_

// Shared by the XNNPACK delegate tests: build one model with and without the
// XNNPACK delegate; run both on identical random inputs and check every
// output element within atol + rtol * |builtin|.
#ifndef TFLITE_C_TESTS_DELEGATES_XNNPACK_COMPARE_UTIL_H_
#define TFLITE_C_TESTS_DELEGATES_XNNPACK_COMPARE_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {

template <typename T>
std::vector<T> RandomValues(size_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(lo, hi);
  std::vector<T> out(n);
  for (T& v : out) v = static_cast<T>(pick(rng));
  return out;
}

inline std::vector<double> OutputAsDoubles(TfLiteInterpreter* it, int index) {
  const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, index);
  std::vector<double> out;
  if (t == nullptr || t->data.raw == nullptr) return out;
  if (t->type == kTfLiteFloat32) {
    out.assign(t->data.f, t->data.f + t->bytes / sizeof(float));
  } else if (t->type == kTfLiteInt8) {
    out.assign(t->data.int8, t->data.int8 + t->bytes);
  } else if (t->type == kTfLiteUInt8) {
    out.assign(t->data.uint8, t->data.uint8 + t->bytes);
  }
  return out;
}

struct Tolerance {
  double atol = 1e-5, rtol = 1e-5;
  int delegate_nodes = 1;  // delegate kernels expected in the plan
  int plan_size = 1;       // plan length with the delegate
  size_t min_distinct = 0;  // the builtin output must take this many values
};

// A single-threaded XNNPACK delegate.
inline XnnPtr SingleThreadXnnpack() {
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  opts.num_threads = 1;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&opts));
}

// `model` built twice: `ref` on the builtin kernels only, `xnn` with a
// single-threaded XNNPACK delegate (declared first, so it outlives both).
struct BuiltinAndXnnpack {
  explicit BuiltinAndXnnpack(const std::vector<uint8_t>& model) : delegate(SingleThreadXnnpack()) {
    ref.Create(model, {});
    xnn.Create(model, {delegate.get()});
  }
  XnnPtr delegate;
  Session ref, xnn;
};

// Returns the largest absolute difference seen.
inline double RunBothAndCompare(const std::vector<uint8_t>& model, const Tolerance& tol,
                                float lo = -2.0f, float hi = 2.0f) {
  BuiltinAndXnnpack both(model);
  Session& ref = both.ref;
  Session& xnn = both.xnn;
  EXPECT_TRUE(ref.ok()) << ref.errors;
  EXPECT_TRUE(xnn.ok()) << xnn.errors;
  if (!ref.ok() || !xnn.ok()) return -1;
  EXPECT_EQ(xnn.DelegateNodes(), tol.delegate_nodes) << xnn.errors;
  EXPECT_EQ(static_cast<int>(xnn.plan().size()), tol.plan_size);
  TfLiteInterpreter* a = ref.interpreter.get();
  TfLiteInterpreter* b = xnn.interpreter.get();
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(a), kTfLiteOk) << ref.errors;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(b), kTfLiteOk) << xnn.errors;
  for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(a); ++i) {
    TfLiteTensor* ta = TfLiteInterpreterGetInputTensor(a, i);
    TfLiteTensor* tb = TfLiteInterpreterGetInputTensor(b, i);
    std::vector<uint8_t> bytes(ta->bytes);
    if (ta->type == kTfLiteFloat32) {
      const std::vector<float> f = Random(ta->bytes / sizeof(float), 7 + i, lo, hi);
      std::memcpy(bytes.data(), f.data(), bytes.size());
    } else {
      bytes = RandomValues<uint8_t>(ta->bytes, 7 + i, 0, 255);
    }
    EXPECT_EQ(TfLiteTensorCopyFromBuffer(ta, bytes.data(), bytes.size()), kTfLiteOk);
    EXPECT_EQ(TfLiteTensorCopyFromBuffer(tb, bytes.data(), bytes.size()), kTfLiteOk);
  }
  EXPECT_EQ(TfLiteInterpreterInvoke(a), kTfLiteOk) << ref.errors;
  EXPECT_EQ(TfLiteInterpreterInvoke(b), kTfLiteOk) << xnn.errors;
  double worst = 0;
  for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(a); ++i) {
    const std::vector<double> x = OutputAsDoubles(a, i), y = OutputAsDoubles(b, i);
    EXPECT_EQ(x.size(), y.size()) << "output " << i;
    EXPECT_FALSE(x.empty());
    std::vector<double> distinct = x;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    EXPECT_GE(distinct.size(), std::min(tol.min_distinct, x.size())) << "output " << i << " is nearly constant";
    for (size_t k = 0; k < std::min(x.size(), y.size()); ++k) {
      const double d = std::fabs(x[k] - y[k]);
      worst = std::max(worst, d);
      if (d > tol.atol + tol.rtol * std::fabs(x[k])) {
        ADD_FAILURE() << "output " << i << " element " << k << ": builtin " << x[k]
                      << ", xnnpack " << y[k];
        return worst;
      }
    }
  }
  return worst;
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_DELEGATES_XNNPACK_COMPARE_UTIL_H_

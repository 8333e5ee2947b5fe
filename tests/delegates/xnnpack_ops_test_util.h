// Shared by the XNNPACK operator-coverage tests (xnnpack_float_ops_test.cc,
// xnnpack_quantized_ops_test.cc, xnnpack_densify_test.cc,
// xnnpack_mediapipe_ops_test.cc): a single-threaded delegate, and running one
// model with and without it on the same random inputs (float inputs in
// [lo, hi], integer inputs over their whole range), comparing every output
// and checking how much of the plan the delegate took.
#ifndef TFLITE_C_TESTS_DELEGATES_XNNPACK_OPS_TEST_UTIL_H_
#define TFLITE_C_TESTS_DELEGATES_XNNPACK_OPS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {

inline XnnPtr MakeDelegate(uint32_t clear_flags = 0) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  o.flags &= ~clear_flags;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

template <typename T>
std::vector<T> RandomInts(size_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

inline std::vector<double> OutputValues(TfLiteInterpreter* it, int i) {
  const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, i);
  std::vector<double> v;
  if (t == nullptr || t->data.raw == nullptr) return v;
  switch (t->type) {
    case kTfLiteFloat32:
      for (size_t k = 0; k < t->bytes / 4; ++k) v.push_back(t->data.f[k]);
      break;
    case kTfLiteInt8:
      for (size_t k = 0; k < t->bytes; ++k) v.push_back(t->data.int8[k]);
      break;
    case kTfLiteUInt8:
      for (size_t k = 0; k < t->bytes; ++k) v.push_back(t->data.uint8[k]);
      break;
    default:
      break;
  }
  return v;
}

struct Expect {
  int plan_size = 1;        // execution plan length with the delegate
  int delegate_nodes = 1;   // of which delegate kernels
  double atol = 1e-5, rtol = 1e-5;
  uint32_t clear_flags = 0;
};

// Runs `bytes` with and without the delegate on the same random inputs
// (float inputs in [lo, hi], integer inputs over their whole range) and
// compares every output.
inline void CompareWithBuiltin(const std::vector<uint8_t>& bytes, const Expect& e,
                               float lo = -2.0f, float hi = 2.0f) {
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate(e.clear_flags);
  ASSERT_NE(d, nullptr);
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_EQ(static_cast<int>(xnn.plan().size()), e.plan_size);
  EXPECT_EQ(xnn.DelegateNodes(), e.delegate_nodes);
  TfLiteInterpreter* a = builtin.interpreter.get();
  TfLiteInterpreter* b = xnn.interpreter.get();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(a), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(b), kTfLiteOk) << xnn.errors;
  for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(a); ++i) {
    TfLiteTensor* ta = TfLiteInterpreterGetInputTensor(a, i);
    TfLiteTensor* tb = TfLiteInterpreterGetInputTensor(b, i);
    std::vector<uint8_t> raw(ta->bytes);
    if (ta->type == kTfLiteFloat32) {
      const std::vector<float> v = Random(ta->bytes / 4, 100 + i, lo, hi);
      std::memcpy(raw.data(), v.data(), raw.size());
    } else {
      raw = RandomInts<uint8_t>(ta->bytes, 100 + i, 0, 255);
    }
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(ta, raw.data(), raw.size()), kTfLiteOk);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(tb, raw.data(), raw.size()), kTfLiteOk);
  }
  ASSERT_EQ(TfLiteInterpreterInvoke(a), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterInvoke(b), kTfLiteOk) << xnn.errors;
  double worst = 0;
  for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(a); ++i) {
    const std::vector<double> x = OutputValues(a, i), y = OutputValues(b, i);
    ASSERT_EQ(x.size(), y.size()) << "output " << i;
    ASSERT_FALSE(x.empty());
    for (size_t k = 0; k < x.size(); ++k) {
      worst = std::max(worst, std::fabs(x[k] - y[k]));
      ASSERT_LE(std::fabs(x[k] - y[k]), e.atol + e.rtol * std::fabs(x[k]))
          << "output " << i << " element " << k << ": builtin " << x[k] << ", xnnpack " << y[k];
    }
  }
  // The largest difference seen (in quantization steps for int8/uint8).
  ::testing::Test::RecordProperty("max_abs_diff", std::to_string(worst));
  if (std::getenv("XNNPACK_TEST_VERBOSE")) std::printf("[ max |diff| ] %g\n", worst);
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_DELEGATES_XNNPACK_OPS_TEST_UTIL_H_

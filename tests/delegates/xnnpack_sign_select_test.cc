// PRELU and LEAKY_RELU through the XNNPACK delegate pick, per element, the
// input or its product with the slope by the input's sign. On x86 CPUs without
// AVX-512 the snapshot runs them with AVX kernels whose lane select GCC 12
// turned into branches; patch 0018 keeps it one instruction. These tests
// check the select on every tail length of the kernels' 16- and 8-float
// steps, with signed zeros, tiny and huge magnitudes and infinities, against
// the operators' definition (x >= 0 ? x : x * slope), exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_ops_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// n inputs cycling through values on both sides of zero.
std::vector<float> SignedValues(size_t n, size_t shift) {
  const float inf = std::numeric_limits<float>::infinity();
  const float pool[] = {-0.0f, 3.5f,  -1e-30f, 0.0f,   -2.25f, 1e-30f, -1e30f, 7.0f,
                        -1.0f, 1e30f, -inf,    0.125f, -5.5f,  inf,    -0.75f};
  const size_t m = sizeof(pool) / sizeof(pool[0]);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = pool[(i + shift) % m];
  return v;
}

float Definition(float x, float slope) { return x >= 0.0f ? x : x * slope; }

// Runs `bytes` (one operator, input 0 of `x.size()` floats) through the
// delegate and compares output 0 with `want` element by element.
void ExpectExact(const std::vector<uint8_t>& bytes, const std::vector<float>& x,
                 const std::vector<float>& want) {
  XnnPtr d = MakeDelegate();
  ASSERT_NE(d, nullptr);
  const FloatRun r = RunFloatModel(bytes, d.get(), x);
  ASSERT_EQ(r.delegate_nodes, 1) << r.errors;
  ASSERT_EQ(r.out.size(), want.size()) << r.errors;
  for (size_t i = 0; i < want.size(); ++i) {
    // operator==: a zero of either sign matches a zero of either sign (the
    // kernels multiply -0 by the slope, the definition returns it as is).
    EXPECT_EQ(r.out[i], want[i]) << "element " << i << " of " << want.size() << ", x " << x[i];
  }
}

TEST(XnnpackSignSelect, PreluWithSlopePerElementOrShared) {
  SKIP_WITHOUT_XNNPACK();
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 40; ++n) sizes.push_back(n);
  sizes.push_back(257);
  for (const size_t n : sizes) {
    for (const bool shared : {false, true}) {
      SCOPED_TRACE(std::to_string(n) +
                   (shared ? " elements, one slope" : " elements, a slope each"));
      const int ni = static_cast<int>(n);
      const std::vector<float> x = SignedValues(n, n);
      // Slopes of both signs (a negative one flips a negative input positive).
      std::vector<float> slope = Random(shared ? 1 : n, 7 + static_cast<uint32_t>(n), -1.5f, 1.5f);
      ModelBuilder b;
      const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, 1, ni}, "x");
      const int st = shared ? b.AddConstant<float>({1}, slope) : b.AddConstant<float>({ni}, slope);
      const int yt = b.AddOutput(tflite::TensorType_FLOAT32, {1, 1, ni}, "y");
      b.AddOperator(tflite::BuiltinOperator_PRELU, {xt, st}, {yt});
      std::vector<float> want(n);
      for (size_t i = 0; i < n; ++i) want[i] = Definition(x[i], slope[shared ? 0 : i]);
      ExpectExact(b.Finish(), x, want);
    }
  }
}

TEST(XnnpackSignSelect, LeakyReluWithPositiveAndNegativeAlpha) {
  SKIP_WITHOUT_XNNPACK();
  for (const float alpha : {0.2f, -0.5f}) {
    for (size_t n = 1; n <= 40; ++n) {
      SCOPED_TRACE(std::to_string(n) + " elements, alpha " + std::to_string(alpha));
      const int ni = static_cast<int>(n);
      const std::vector<float> x = SignedValues(n, 3 * n);
      ModelBuilder b;
      const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, ni}, "x");
      const int yt = b.AddOutput(tflite::TensorType_FLOAT32, {1, ni}, "y");
      tflite::LeakyReluOptionsT o;
      o.alpha = alpha;
      b.AddOperator(tflite::BuiltinOperator_LEAKY_RELU, {xt}, {yt}, o);
      std::vector<float> want(n);
      for (size_t i = 0; i < n; ++i) want[i] = Definition(x[i], alpha);
      ExpectExact(b.Finish(), x, want);
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

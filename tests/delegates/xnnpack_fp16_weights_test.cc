// fp16 weights (a DEQUANTIZE of a float16 constant) are unpacked to float32
// once by the XNNPACK delegate, with XNNPACK's vectorized conversion for
// blocks of 64 values and one by one for the rest. Every one of the 65536
// half-precision bit patterns must come out as the exact float32 value; the
// reference decodes the IEEE 754 binary16 fields by arithmetic (ldexp), not
// by bit manipulation like either implementation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

float DecodeHalf(uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  if (exponent == 0x1f) {
    return fraction ? std::numeric_limits<float>::quiet_NaN()
                    : sign * std::numeric_limits<float>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(fraction), -24);
  return sign * std::ldexp(1.0f + fraction / 1024.0f, exponent - 15);
}

// x[n] * DEQUANTIZE(c_fp16[n]) -> y: with x all ones, y is the unpacked weight
// (a product by 1 keeps -0, infinities and NaN).
TEST(XnnpackFp16Weights, EveryHalfValueUnpacksExactly) {
  // 65536 patterns plus 37 more, so the count is not a multiple of 64 and the
  // one-by-one tail runs too.
  const int n = 65536 + 37;
  std::vector<uint16_t> half(n);
  for (int i = 0; i < n; ++i) half[i] = static_cast<uint16_t>(i * 40503u);  // odd: a permutation
  for (int i = 65536; i < n; ++i) half[i] = static_cast<uint16_t>(0x3c00 + i);
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {n}, "x");
  std::vector<uint8_t> raw(half.size() * 2);
  std::memcpy(raw.data(), half.data(), raw.size());
  const int c16 = b.AddConstantBytes(tflite::TensorType_FLOAT16, {n}, std::move(raw));
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, {n});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {c16}, {c});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {n}, "y");
  b.AddOperator(tflite::BuiltinOperator_MUL, {x, c}, {y}, tflite::MulOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();

  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  if (delegate == nullptr) GTEST_SKIP() << "XNNPACK is not available in this build";
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(s.DelegateNodes(), 1) << "the MUL with its unpacked weights goes to XNNPACK";
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  ASSERT_TRUE(s.SetInput(0, std::vector<float>(n, 1.0f)));
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  const std::vector<float> got = s.Output(0);
  ASSERT_EQ(got.size(), static_cast<size_t>(n));
  int wrong = 0;
  for (int i = 0; i < n && wrong < 10; ++i) {
    const float want = DecodeHalf(half[i]);
    const bool same = std::isnan(want) ? std::isnan(got[i])
                                       : (got[i] == want && std::signbit(got[i]) == std::signbit(want));
    if (!same) {
      ++wrong;
      ADD_FAILURE() << "half 0x" << std::hex << half[i] << std::dec << ": got " << got[i]
                    << ", want " << want;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

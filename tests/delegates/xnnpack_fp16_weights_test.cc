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
#include <string>
#include <vector>

#include <malloc.h>

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

// A 1x1 convolution with fp16 filter and bias, and an fp16 constant that a
// MUL reads at every inference: x [1, 2, 2, kIn] -> CONV_2D -> MUL(., scale).
constexpr int kIn = 256, kOut = 512;

std::vector<uint8_t> HalfBytes(size_t n, uint16_t base) {
  std::vector<uint8_t> raw(n * 2);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t h = static_cast<uint16_t>(base + (i % 512));  // small, finite values
    std::memcpy(&raw[2 * i], &h, 2);
  }
  return raw;
}

std::vector<uint8_t> ConvModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, kIn}, "x");
  const int f16 = b.AddConstantBytes(tflite::TensorType_FLOAT16, {kOut, 1, 1, kIn},
                                     HalfBytes(static_cast<size_t>(kOut) * kIn, 0x1c00));
  const int b16 = b.AddConstantBytes(tflite::TensorType_FLOAT16, {kOut}, HalfBytes(kOut, 0x2000));
  const int s16 = b.AddConstantBytes(tflite::TensorType_FLOAT16, {kOut}, HalfBytes(kOut, 0x3c00));
  const int f = b.AddTensor(tflite::TensorType_FLOAT32, {kOut, 1, 1, kIn});
  const int bias = b.AddTensor(tflite::TensorType_FLOAT32, {kOut});
  const int scale = b.AddTensor(tflite::TensorType_FLOAT32, {kOut});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {f16}, {f});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {b16}, {bias});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {s16}, {scale});
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, kOut});
  tflite::Conv2DOptionsT o;
  o.padding = tflite::Padding_VALID;
  o.stride_w = o.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, f, bias}, {c}, o);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, kOut}, "y");
  b.AddOperator(tflite::BuiltinOperator_MUL, {c, scale}, {y}, tflite::MulOptionsT());
  return b.Finish();
}

std::vector<float> ConvReference(const std::vector<float>& x) {
  std::vector<float> y;
  for (int p = 0; p < 4; ++p) {
    for (int o = 0; o < kOut; ++o) {
      double acc = DecodeHalf(static_cast<uint16_t>(0x2000 + o % 512));
      for (int i = 0; i < kIn; ++i) {
        const size_t w = static_cast<size_t>(o) * kIn + i;
        acc += static_cast<double>(x[p * kIn + i]) * DecodeHalf(static_cast<uint16_t>(0x1c00 + w % 512));
      }
      y.push_back(static_cast<float>(acc * DecodeHalf(static_cast<uint16_t>(0x3c00 + o % 512))));
    }
  }
  return y;
}

// Heap bytes in use: malloc's arena plus its mmap'ed blocks (large ones).
size_t HeapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// Heap bytes in use after building an interpreter over ConvModel and
// allocating, running it twice (once after a resize) against the reference.
size_t HeapAfterBuilding(bool shared_cache, std::string* failure) {
  const std::vector<uint8_t> bytes = ConvModel();
  const size_t before = HeapInUse();
  std::unique_ptr<TfLiteXNNPackDelegateWeightsCache, void (*)(TfLiteXNNPackDelegateWeightsCache*)>
      cache(shared_cache ? TfLiteXNNPackDelegateWeightsCacheCreate() : nullptr,
            TfLiteXNNPackDelegateWeightsCacheDelete);
  if (shared_cache && cache == nullptr) return *failure = "no weights cache", 0;
  TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
  opts.weights_cache = cache.get();
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(&opts));
  Session s;
  s.Create(bytes, {delegate.get()});
  if (!s.ok() || s.DelegateNodes() != 1) return *failure = "not delegated: " + s.errors, 0;
  if (cache != nullptr && !TfLiteXNNPackDelegateWeightsCacheFinalizeHard(cache.get()))
    return *failure = "finalize failed", 0;
  if (TfLiteInterpreterAllocateTensors(s.interpreter.get()) != kTfLiteOk)
    return *failure = s.errors, 0;
  const size_t used = HeapInUse() - before;
  for (int batch : {1, 3}) {
    const int dims[4] = {batch, 2, 2, kIn};
    if (batch != 1 &&
        (TfLiteInterpreterResizeInputTensor(s.interpreter.get(), 0, dims, 4) != kTfLiteOk ||
         TfLiteInterpreterAllocateTensors(s.interpreter.get()) != kTfLiteOk))
      return *failure = "resize: " + s.errors, 0;
    const std::vector<float> x = Random(static_cast<size_t>(batch) * 4 * kIn, 7);
    if (!s.SetInput(0, x) || TfLiteInterpreterInvoke(s.interpreter.get()) != kTfLiteOk)
      return *failure = "invoke: " + s.errors, 0;
    const std::vector<float> got = s.Output(0);
    for (int k = 0; k < batch; ++k) {
      const std::vector<float> want =
          ConvReference(std::vector<float>(x.begin() + k * 4 * kIn, x.begin() + (k + 1) * 4 * kIn));
      for (size_t i = 0; i < want.size(); ++i) {
        const float g = got[k * want.size() + i];
        if (std::fabs(g - want[i]) > 1e-3f * (1.0f + std::fabs(want[i])))
          return *failure = "element " + std::to_string(i) + ": " + std::to_string(g) +
                            " != " + std::to_string(want[i]),
                 0;
      }
    }
  }
  return used;
}

// Once the runtime is built, the float32 copy of weights XNNPACK packed is
// dropped (512 KB here); constants XNNPACK still reads at run time (the MUL's
// scale) stay. With a shared in-memory weights cache, which names weights
// by address, every copy stays.
TEST(XnnpackFp16Weights, PackedOnlyCopiesAreReleasedAfterTheRuntimeIsBuilt) {
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> probe(
      TfLiteXNNPackDelegateCreate(nullptr));
  if (probe == nullptr) GTEST_SKIP() << "XNNPACK is not available in this build";
  probe.reset();
  const size_t unpacked = static_cast<size_t>(kOut) * kIn * sizeof(float);
  std::string failure;
  const size_t dropped = HeapAfterBuilding(false, &failure);
  ASSERT_TRUE(failure.empty()) << failure;
  const size_t kept = HeapAfterBuilding(true, &failure);
  ASSERT_TRUE(failure.empty()) << failure;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "results checked; heap sizes mean nothing under a sanitizer's allocator";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "results checked; heap sizes mean nothing under a sanitizer's allocator";
#endif
#endif
  // Without a cache the packed weights (about `unpacked` bytes) are on the
  // heap and the float32 copy is gone. With one, the packed weights live in
  // the cache's own mapping and the float32 copy stays.
  EXPECT_LT(dropped, unpacked * 3 / 2) << "the float32 copy is still held";
  EXPECT_GE(kept, unpacked * 9 / 10) << "the float32 copy was released under a shared cache";
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

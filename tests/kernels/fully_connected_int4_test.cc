// FULLY_CONNECTED with hybrid (int8 / int4 weights, float activations) and
// blockwise int4 weights; expected values from float references computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I8 = tflite::TensorType_INT8;

using Floats = std::vector<float>;
using Shape = std::vector<int>;

// ---- FULLY_CONNECTED: hybrid and blockwise INT4 weights ----------------------------

constexpr auto I4 = tflite::TensorType_INT4;
constexpr auto F16 = tflite::TensorType_FLOAT16;

tflite::BuiltinOptionsUnion FcOpts(tflite::ActivationFunctionType act, bool asymmetric,
                                   bool keep_num_dims = false) {
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function = act;
  o.asymmetric_quantize_inputs = asymmetric;
  o.keep_num_dims = keep_num_dims;
  return Opts(o);
}

// Packs signed 4-bit values two per byte, low nibble first; each row of
// `depth` values starts on a new byte.
std::vector<uint8_t> PackInt4(const std::vector<int>& values, int depth) {
  std::vector<uint8_t> out;
  for (size_t r = 0; r < values.size() / depth; ++r) {
    for (int k = 0; k < depth; k += 2) {
      const int lo = values[r * depth + k] & 0xF;
      const int hi = k + 1 < depth ? values[r * depth + k + 1] & 0xF : 0;
      out.push_back(static_cast<uint8_t>(lo | (hi << 4)));
    }
  }
  return out;
}

// out[u] = bias[u] + sum_k x[k] * w[u][k] * scale(u, k), in double.
Floats FloatFc(const Floats& x, const std::vector<int>& w, const Floats& bias, int depth,
               const std::function<double(int, int)>& scale) {
  Floats out;
  for (size_t u = 0; u < bias.size(); ++u) {
    double acc = bias[u];
    for (int k = 0; k < depth; ++k) acc += double{x[k]} * w[u * depth + k] * scale(u, k);
    out.push_back(static_cast<float>(acc));
  }
  return out;
}

TEST(FullyConnectedHybridTest, Int8PerChannelSymmetricInputsWithRelu) {
  // max|x| = 63.5 = 127 * 0.5: the input quantizes exactly, so the result
  // equals the float computation with dequantized weights.
  const Floats x = {63.5f, -10, 2.5f, 0};
  const std::vector<int> w = {1, 2, 3, 4, -5, 6, -7, 8, 0, 0, 1, -1};
  const Floats bias = {0.5f, 0, 1};
  const Floats scales = {0.5f, 0.25f, 2};
  OneOpModel m;
  m.Input(F32, {1, 4});
  m.Const<int8_t>({3, 4}, std::vector<int8_t>(w.begin(), w.end()), I8,
                  {scales, {0, 0, 0}, 0});
  m.Const<float>({3}, bias);
  m.Output(F32, {1, 3});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_RELU, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  Floats expected = FloatFc(x, w, bias, 4, [&](int u, int) { return scales[u]; });
  for (float& v : expected) v = std::max(v, 0.0f);
  EXPECT_EQ(m.Get<float>(), expected);
  EXPECT_EQ(expected, (Floats{26, 0, 6}));
}

TEST(FullyConnectedHybridTest, Int4PerTensorAsymmetricInputsWithinQuantizationError) {
  const Floats x = {0.3f, -1.7f, 2.2f, 0.05f, -0.9f, 1.1f, 0.0f, 3.0f,   // batch 0
                    -0.2f, -0.4f, -0.6f, -0.8f, -1.0f, -1.2f, -1.4f, -1.6f};  // batch 1 (all < 0)
  const std::vector<int> w = {1, -2, 3, -4, 5, -6, 7, -8, 0, 1, 0, 1, 0, 1, 0, 1};
  const float scale = 0.125f;
  OneOpModel m;
  m.Input(F32, {2, 8});
  m.Const<uint8_t>({2, 8}, PackInt4(w, 8), I4, {{scale}, {0}, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_NONE, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats out = m.Get<float>();
  ASSERT_EQ(out.size(), 4u);
  for (int b = 0; b < 2; ++b) {
    const Floats row(x.begin() + 8 * b, x.begin() + 8 * b + 8);
    const Floats expected = FloatFc(row, w, {0, 0}, 8, [&](int, int) { return scale; });
    float lo = 0, hi = 0;
    for (float v : row) lo = std::min(lo, v), hi = std::max(hi, v);
    // Each input is off by at most one quantization step (rounding plus the
    // nudged zero point).
    const float tolerance = (hi - lo) / 255 * scale * 36 + 1e-5f;
    for (int u = 0; u < 2; ++u) EXPECT_NEAR(out[b * 2 + u], expected[u], tolerance) << b << u;
  }
}

// An odd depth: upstream's hybrid path unpacks the whole tensor as one run of
// nibbles, so row 1 starts in the high nibble of byte 2 (15 values, 8 bytes).
TEST(FullyConnectedHybridTest, Int4PerChannelOddDepthRowsNotPadded) {
  // max|x| = 12.7 = 127 * 0.1 and every input a multiple of 0.1: the input
  // quantizes exactly, so the result is the float computation.
  const Floats x = {12.7f, -1.0f, 0.5f, 3.0f, -0.3f};
  const std::vector<int> w = {1, -2, 3, -4, 5, -6, 7, -8, 0, 1, 2, 2, -1, 4, -3};
  const Floats scales = {0.5f, 0.25f, 2};
  const Floats bias = {0.25f, 0, -1};
  OneOpModel m;
  m.Input(F32, {1, 5});
  m.Const<uint8_t>({3, 5}, PackInt4(w, 15), I4, {scales, {0, 0, 0}, 0});
  m.Const<float>({3}, bias);
  m.Output(F32, {1, 3});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_NONE, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats expected = FloatFc(x, w, bias, 5, [&](int u, int) { return scales[u]; });
  const Floats out = m.Get<float>();
  ASSERT_EQ(out.size(), 3u);
  for (int u = 0; u < 3; ++u) EXPECT_NEAR(out[u], expected[u], 1e-4f) << u;
}

// A layer large enough to be split between two threads (6 x 512 x 700
// multiply-adds), int8 and int4 weights, symmetric and asymmetric inputs:
// the builtin kernel's output is the same with one thread and two, and
// within the input's quantization error of the float computation.
TEST(FullyConnectedHybridTest, SplitBetweenThreadsGivesTheSameOutput) {
  constexpr int kBatches = 6, kDepth = 512, kUnits = 700;
  std::vector<int> w(kUnits * kDepth);
  Floats x(kBatches * kDepth), scales(kUnits), bias(kUnits);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int>((i * 7919) % 15) - 7;
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * i) * (1 + (i / kDepth) % 3);
  for (int u = 0; u < kUnits; ++u) scales[u] = 0.01f + 0.0001f * u, bias[u] = 0.01f * (u % 9);
  for (bool int4 : {false, true}) {
    for (bool asymmetric : {false, true}) {
      SCOPED_TRACE(std::string(int4 ? "int4" : "int8") + (asymmetric ? " asymmetric" : ""));
      auto run = [&](int threads) {
        OneOpModel m;
        m.configure_options = [threads](TfLiteInterpreterOptions* o) {
          TfLiteInterpreterOptionsSetUseXNNPACK(o, false);
          TfLiteInterpreterOptionsSetNumThreads(o, threads);
        };
        m.Input(F32, {kBatches, kDepth});
        std::vector<int64_t> zeros(kUnits, 0);
        if (int4) {
          m.Const<uint8_t>({kUnits, kDepth}, PackInt4(w, kDepth), I4, {scales, zeros, 0});
        } else {
          m.Const<int8_t>({kUnits, kDepth}, std::vector<int8_t>(w.begin(), w.end()), I8,
                          {scales, zeros, 0});
        }
        m.Const<float>({kUnits}, bias);
        m.Output(F32, {kBatches, kUnits});
        m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
             FcOpts(tflite::ActivationFunctionType_NONE, asymmetric));
        EXPECT_TRUE(m.Allocate()) << m.log();
        m.Set<float>(0, x);
        EXPECT_TRUE(m.Invoke()) << m.log();
        return m.Get<float>();
      };
      const Floats one = run(1), two = run(2);
      ASSERT_EQ(one.size(), size_t{kBatches * kUnits});
      EXPECT_EQ(one, two);
      for (int b = 0; b < kBatches; ++b) {
        const Floats row(x.begin() + b * kDepth, x.begin() + (b + 1) * kDepth);
        const Floats want =
            FloatFc(row, w, bias, kDepth, [&](int u, int) { return scales[u]; });
        float hi = 0;
        for (float v : row) hi = std::max(hi, std::fabs(v));
        for (int u = 0; u < kUnits; ++u) {
          // Each input moves by at most one step of 2 max|x| / 254 (the
          // asymmetric grid is finer); |weights| sum to at most 7 * depth.
          const float tolerance = 2 * hi / 254 * 7 * kDepth * scales[u] / 2 + 1e-4f;
          ASSERT_NEAR(one[b * kUnits + u], want[u], tolerance) << b << " " << u;
        }
      }
    }
  }
}

// Blockwise INT4 weights [units 2, depth 8], blocks of 4, FLOAT16 scales.
void BuildBlockwise(OneOpModel& m, int blocksize, const std::vector<uint16_t>& scale_bits,
                    std::vector<int> scale_shape) {
  const std::vector<int> w = {1, -2, 3, -8, 7, 0, -1, 2, -1, -1, -1, -1, 2, 2, 2, 2};
  m.Input(F32, {1, 1, 8});
  const int weights = m.Const<uint8_t>({2, 8}, PackInt4(w, 8), I4);
  m.Const<float>({2}, {1, -1});
  m.Output(F32, {1, 1, 2});
  testing::ModelBuilder& b = m.builder();
  const int scales = b.AddConstant(F16, scale_shape, scale_bits);
  auto q = std::make_unique<tflite::QuantizationParametersT>();
  tflite::BlockwiseQuantizationT details;
  details.scales = scales;
  details.zero_points = -1;
  details.block_size = blocksize;
  q->details.Set(details);
  b.tensor(weights).quantization = std::move(q);
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
       FcOpts(tflite::ActivationFunctionType_NONE, true, /*keep_num_dims=*/true));
}

TEST(FullyConnectedBlockwiseTest, Int4BlocksWithFloat16Scales) {
  // Scales 0.5, 0.25 | 1, 2 (FLOAT16 bits). The input spans [-128, 127] * 0.5,
  // so it quantizes exactly and the result equals the float computation.
  OneOpModel m;
  BuildBlockwise(m, 4, {0x3800, 0x3400, 0x3C00, 0x4000}, {2, 2});
  ASSERT_TRUE(m.Allocate()) << m.log();
  const Floats x = {-64, 63.5f, 1, -2, 0.5f, 3, 0, 10};
  m.Set<float>(0, x);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{1, 1, 2}));
  const Floats block_scales = {0.5f, 0.25f, 1, 2};
  const std::vector<int> w = {1, -2, 3, -8, 7, 0, -1, 2, -1, -1, -1, -1, 2, 2, 2, 2};
  const Floats expected =
      FloatFc(x, w, {1, -1}, 8, [&](int u, int k) { return block_scales[u * 2 + k / 4]; });
  EXPECT_EQ(m.Get<float>(), expected);
  EXPECT_EQ(expected, (Floats{-79.125f, 54.5f}));
}

TEST(FullyConnectedInt4Test, Int8InputMatchesInt8WeightsOfTheSameValues) {
  const std::vector<int> w = {7, -8, 3, 0, -1, 2, 5, -6, 1, 1, -3, 4};  // [2 units, 6 depth]
  const std::vector<int8_t> x = {-128, 127, 5, -7, 0, 33, 12, -12, 64, -64, 1, 2};  // 2 batches
  std::vector<std::vector<int8_t>> outputs;
  for (bool int4 : {true, false}) {
    OneOpModel m;
    m.Input(I8, {2, 6}, testing::Q(0.25f, 3));
    if (int4) {
      m.Const<uint8_t>({2, 6}, PackInt4(w, 6), I4, {{0.5f, 0.125f}, {0, 0}, 0});
    } else {
      m.Const<int8_t>({2, 6}, std::vector<int8_t>(w.begin(), w.end()), I8,
                      {{0.5f, 0.125f}, {0, 0}, 0});
    }
    m.Const<int32_t>({2}, {100, -50});
    m.Output(I8, {2, 2}, testing::Q(0.75f, -4));
    m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
         FcOpts(tflite::ActivationFunctionType_NONE, false));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, x);
    ASSERT_TRUE(m.Invoke()) << m.log();
    outputs.push_back(m.Get<int8_t>());
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  // And both agree with the float computation to within one output step.
  for (int b = 0; b < 2; ++b) {
    for (int u = 0; u < 2; ++u) {
      double acc = (u == 0 ? 100 : -50) * 0.25 * (u == 0 ? 0.5 : 0.125);
      for (int k = 0; k < 6; ++k) {
        acc += (x[b * 6 + k] - 3) * 0.25 * w[u * 6 + k] * (u == 0 ? 0.5 : 0.125);
      }
      const double q = std::min(127.0, std::max(-128.0, std::round(acc / 0.75) - 4));
      EXPECT_NEAR(outputs[0][b * 2 + u], q, 1.0) << b << u;
    }
  }
}

TEST(FullyConnectedBlockwiseTest, Errors) {
  {
    OneOpModel m;
    BuildBlockwise(m, 3, {0x3C00, 0x3C00}, {2, 1});  // 3 does not divide 8
    ExpectPrepareError(m, "block size dividing depth 8");
  }
  {
    OneOpModel m;
    BuildBlockwise(m, 4, {0x3C00, 0x3C00, 0x3C00}, {3});  // 3 scales for 2 x 2 blocks
    ExpectPrepareError(m, "blockwise scales must hold 2 x 2 values");
  }
  {
    OneOpModel m;  // integer weights that are not constant
    m.Input(F32, {1, 4});
    m.Input(I8, {2, 4}, testing::Q(0.5f, 0));
    m.Output(F32, {1, 2});
    m.Op(tflite::BuiltinOperator_FULLY_CONNECTED,
         FcOpts(tflite::ActivationFunctionType_NONE, false));
    ExpectPrepareError(m, "must be constant");
  }
}

}  // namespace
}  // namespace tflite_c

// Output widths around XNNPACK's GEMM tiles. With AVX-512 our XNNPACK build
// (patch 0005) runs f32 outputs that leave much of a 32-column tile empty
// (16, 24, 48 ... channels) on 16-column tiles, and the rest on 32-column
// ones; other targets keep 8- or 16-column tiles. Every width below, on both
// sides of those boundaries and with row counts that leave partial row
// tiles (7 rows per tile on x86), must match a plain double-precision loop
// for 1x1 convolutions (GEMM), 3x3 convolutions (IGEMM) and fully connected
// layers, with bias and a RELU6 clamp.
//
// The int8 half does the same for 1x1 convolutions and fully connected layers
// with int8 weights, per-tensor and per-channel, whose packed layout on x86
// comes from our packer (XNNPACK patches 0014 and 0015): input channel counts
// that leave a partial 8-byte step, output counts on both sides of 8 and 16,
// against the quantized arithmetic worked out in double precision.
#include <gtest/gtest.h>

#include <algorithm>
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

enum class Kind { kPointwise, kConv3x3, kFullyConnected };

struct Case {
  Kind kind;
  int rows;      // pixels per side (convolutions) or batch rows (fully connected)
  int in;        // input channels
  int out;       // output channels
  bool relu6;
};

// Output pixels per side for the 3x3 VALID convolution, rows for the others.
int OutSide(const Case& c) { return c.kind == Kind::kConv3x3 ? c.rows - 2 : c.rows; }

std::vector<float> Reference(const Case& c, const std::vector<float>& x,
                             const std::vector<float>& w, const std::vector<float>& bias) {
  const int k = c.kind == Kind::kConv3x3 ? 3 : 1;
  const int side = OutSide(c);
  const int pixels = c.kind == Kind::kFullyConnected ? c.rows : side * side;
  std::vector<float> y;
  for (int p = 0; p < pixels; ++p) {
    const int oy = c.kind == Kind::kFullyConnected ? 0 : p / side;
    const int ox = c.kind == Kind::kFullyConnected ? p : p % side;
    for (int o = 0; o < c.out; ++o) {
      double acc = bias[o];
      for (int ky = 0; ky < k; ++ky) {
        for (int kx = 0; kx < k; ++kx) {
          const float* px = c.kind == Kind::kFullyConnected
                                ? &x[static_cast<size_t>(p) * c.in]
                                : &x[((oy + ky) * c.rows + (ox + kx)) * c.in];
          const float* pw = &w[((o * k + ky) * k + kx) * c.in];
          for (int i = 0; i < c.in; ++i) acc += static_cast<double>(px[i]) * pw[i];
        }
      }
      if (c.relu6) acc = std::min(6.0, std::max(0.0, acc));
      y.push_back(static_cast<float>(acc));
    }
  }
  return y;
}

// The layer under test: a fully connected layer, or a VALID stride-1 CONV_2D.
void AddLayer(ModelBuilder& b, bool fully_connected, int x, int f, int bias, int y,
              tflite::ActivationFunctionType act) {
  if (fully_connected) {
    tflite::FullyConnectedOptionsT o;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, f, bias}, {y}, o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_w = o.stride_h = 1;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, f, bias}, {y}, o);
  }
}

std::vector<uint8_t> Model(const Case& c, const std::vector<float>& w,
                           const std::vector<float>& bias) {
  ModelBuilder b;
  const auto act = c.relu6 ? tflite::ActivationFunctionType_RELU6
                           : tflite::ActivationFunctionType_NONE;
  const int bias_t = b.AddConstant<float>({c.out}, bias);
  if (c.kind == Kind::kFullyConnected) {
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {c.rows, c.in}, "x");
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {c.rows, c.out}, "y");
    const int f = b.AddConstant<float>({c.out, c.in}, w);
    AddLayer(b, true, x, f, bias_t, y, act);
  } else {
    const int k = c.kind == Kind::kConv3x3 ? 3 : 1;
    const int side = OutSide(c);
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, c.rows, c.rows, c.in}, "x");
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, side, side, c.out}, "y");
    const int f = b.AddConstant<float>({c.out, k, k, c.in}, w);
    AddLayer(b, false, x, f, bias_t, y, act);
  }
  return b.Finish();
}

void Check(const Case& c) {
  static const char* const kNames[] = {"1x1 conv", "3x3 conv", "fully connected"};
  SCOPED_TRACE(std::string(kNames[static_cast<int>(c.kind)]) + ", rows " +
               std::to_string(c.rows) + ", " + std::to_string(c.in) + " -> " +
               std::to_string(c.out) + " channels" + (c.relu6 ? ", RELU6" : ""));
  const int k = c.kind == Kind::kConv3x3 ? 3 : 1;
  const size_t inputs = c.kind == Kind::kFullyConnected
                            ? static_cast<size_t>(c.rows) * c.in
                            : static_cast<size_t>(c.rows) * c.rows * c.in;
  const std::vector<float> x = Random(inputs, 11, -2.0f, 2.0f);
  const std::vector<float> w = Random(static_cast<size_t>(c.out) * k * k * c.in, 12);
  const std::vector<float> bias = Random(static_cast<size_t>(c.out), 13);
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  const FloatRun run = RunFloatModel(Model(c, w, bias), delegate.get(), x);
  ASSERT_EQ(run.delegate_nodes, 1) << "the node goes to XNNPACK; " << run.errors;
  const std::vector<float> want = Reference(c, x, w, bias);
  ASSERT_EQ(run.out.size(), want.size()) << run.errors;
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < 5; ++i) {
    const float tol = 1e-5f * (1.0f + std::fabs(want[i])) * static_cast<float>(k * k * c.in);
    if (std::fabs(run.out[i] - want[i]) > tol) {
      ++bad;
      ADD_FAILURE() << "element " << i << " (channel " << i % c.out << "): " << run.out[i]
                    << " != " << want[i];
    }
  }
}

// Widths on both sides of 8, 16 and 32 columns, and ones a 32-column tile
// leaves partly empty (24, 40, 48, 80).
const int kWidths[] = {1, 2, 7, 8, 15, 16, 17, 24, 31, 32, 33, 40, 48, 63, 64, 80};

TEST(XnnpackGemmWidths, PointwiseConvolution) {
  SKIP_WITHOUT_XNNPACK();
  for (int out : kWidths) {
    Check({Kind::kPointwise, 5, 12, out, false});  // 25 pixels: 3 full row tiles + 4
    Check({Kind::kPointwise, 1, 3, out, true});    // one pixel: the 1-row kernel
  }
}

TEST(XnnpackGemmWidths, Convolution3x3) {
  SKIP_WITHOUT_XNNPACK();
  for (int out : kWidths) Check({Kind::kConv3x3, 6, 5, out, out % 2 == 0});  // 16 pixels
}

// Every row count up to 15 (partial tiles of the 4-, 6- and 7-row kernels;
// FMA3 CPUs run 6-row tiles whose k loop is assembly, patch 0019) and input
// depths from a single step of the k loop upward; 3x3 convolutions over 4, 9
// and 16 pixels.
TEST(XnnpackGemmWidths, RowRemaindersAndDepths) {
  SKIP_WITHOUT_XNNPACK();
  for (int rows = 1; rows <= 15; ++rows) {
    for (int in : {1, 2, 3, 17}) Check({Kind::kFullyConnected, rows, in, 19, rows % 2 == 0});
  }
  for (int side : {2, 3, 4}) {
    for (int in : {1, 4}) Check({Kind::kConv3x3, side + 2, in, 21, in == 4});
  }
}

TEST(XnnpackGemmWidths, FullyConnected) {
  SKIP_WITHOUT_XNNPACK();
  for (int out : kWidths) {
    Check({Kind::kFullyConnected, 9, 20, out, out % 3 == 0});
    Check({Kind::kFullyConnected, 1, 33, out, false});
  }
}

// ---- int8 ------------------------------------------------------------------------

struct Int8Case {
  bool fully_connected;  // else a 1x1 convolution over rows x 1 pixels
  int rows;
  int in;
  int out;
  bool per_channel;
  bool relu;
};

constexpr float kInScale = 0.03f;
constexpr int kInZero = -7;
constexpr float kOutScale = 0.25f;
constexpr int kOutZero = 3;

std::vector<float> WeightScales(const Int8Case& c) {
  if (!c.per_channel) return {0.011f};
  std::vector<float> s;
  for (int o = 0; o < c.out; ++o) s.push_back(0.004f + 0.0007f * static_cast<float>(o % 13));
  return s;
}

std::vector<uint8_t> Int8Model(const Int8Case& c, const std::vector<int8_t>& w,
                               const std::vector<int32_t>& bias,
                               const std::vector<float>& ws) {
  ModelBuilder b;
  const std::vector<int> xs = c.fully_connected ? std::vector<int>{c.rows, c.in}
                                                : std::vector<int>{1, c.rows, 1, c.in};
  const std::vector<int> ys = c.fully_connected ? std::vector<int>{c.rows, c.out}
                                                : std::vector<int>{1, c.rows, 1, c.out};
  const int x = b.AddInput(tflite::TensorType_INT8, xs, "x");
  b.SetQuantization(x, {{kInScale}, {kInZero}});
  const int y = b.AddOutput(tflite::TensorType_INT8, ys, "y");
  b.SetQuantization(y, {{kOutScale}, {kOutZero}});
  const std::vector<int> fs = c.fully_connected ? std::vector<int>{c.out, c.in}
                                                : std::vector<int>{c.out, 1, 1, c.in};
  const int f = b.AddConstant<int8_t>(fs, w);
  b.SetQuantization(f, {ws, std::vector<int64_t>(ws.size(), 0), 0});
  std::vector<float> bs;
  for (float s : ws) bs.push_back(kInScale * s);
  const int bias_t = b.AddConstant<int32_t>({c.out}, bias);
  b.SetQuantization(bias_t, {bs, std::vector<int64_t>(bs.size(), 0), 0});
  const auto act = c.relu ? tflite::ActivationFunctionType_RELU
                          : tflite::ActivationFunctionType_NONE;
  AddLayer(b, c.fully_connected, x, f, bias_t, y, act);
  return b.Finish();
}

void CheckInt8(const Int8Case& c) {
  SCOPED_TRACE(std::string(c.fully_connected ? "int8 fully connected" : "int8 1x1 conv") +
               ", rows " + std::to_string(c.rows) + ", " + std::to_string(c.in) + " -> " +
               std::to_string(c.out) + (c.per_channel ? ", per-channel" : ", per-tensor") +
               (c.relu ? ", RELU" : ""));
  const std::vector<int8_t> x =
      RandomInts<int8_t>(static_cast<size_t>(c.rows) * c.in, 21, -128, 127);
  const std::vector<int8_t> w =
      RandomInts<int8_t>(static_cast<size_t>(c.out) * c.in, 22, -127, 127);
  const std::vector<int32_t> bias = RandomInts<int32_t>(static_cast<size_t>(c.out), 23, -3000, 3000);
  const std::vector<float> ws = WeightScales(c);

  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  const std::vector<uint8_t> bytes = Int8Model(c, w, bias, ws);
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(s.DelegateNodes(), 1) << "the node goes to XNNPACK; " << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  TfLiteTensor* in = TfLiteInterpreterGetInputTensor(s.interpreter.get(), 0);
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(in, x.data(), x.size()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(s.interpreter.get(), 0);
  ASSERT_EQ(TfLiteTensorByteSize(out), static_cast<size_t>(c.rows) * c.out);
  const int8_t* got = static_cast<const int8_t*>(TfLiteTensorData(out));

  // y = clamp(round(sum((x - zx) * w + bias) * sx * sw / sy) + zy); requantizing
  // in float single precision may land one step off where the product sits
  // next to a half, nowhere else.
  int off_by_one = 0;
  int bad = 0;
  for (int r = 0; r < c.rows; ++r) {
    for (int o = 0; o < c.out && bad < 5; ++o) {
      int64_t acc = bias[o];
      for (int i = 0; i < c.in; ++i) {
        acc += static_cast<int64_t>(x[static_cast<size_t>(r) * c.in + i] - kInZero) *
               w[static_cast<size_t>(o) * c.in + i];
      }
      const double scale = static_cast<double>(kInScale) * ws[c.per_channel ? o : 0] / kOutScale;
      double q = std::nearbyint(static_cast<double>(acc) * scale) + kOutZero;
      q = std::min(127.0, std::max(c.relu ? static_cast<double>(kOutZero) : -128.0, q));
      const int value = got[static_cast<size_t>(r) * c.out + o];
      const int diff = std::abs(value - static_cast<int>(q));
      if (diff == 1) ++off_by_one;
      if (diff > 1) {
        ++bad;
        ADD_FAILURE() << "row " << r << " channel " << o << ": " << value << " != " << q;
      }
    }
  }
  EXPECT_LE(off_by_one, std::max(1, c.rows * c.out / 50)) << "more rounding differences than "
                                                             "requantization explains";
}

// Input channel counts around the 8-byte step: 1, 7, 8, 9, 33, 100.
const int kInt8Inputs[] = {1, 7, 8, 9, 33, 100};
const int kInt8Widths[] = {1, 3, 8, 9, 15, 16, 17, 31, 40};

// Every input count against every width: several rows with one weight kind
// (per-channel for convolutions, per-tensor for fully connected layers) and
// one row with the other; a RELU on half the widths.
void CheckInt8Grid(bool fully_connected) {
  for (int in : kInt8Inputs) {
    for (int out : kInt8Widths) {
      const bool relu = out % 2 == (fully_connected ? 1 : 0);
      CheckInt8({fully_connected, fully_connected ? 4 : 5, in, out, !fully_connected, relu});
      CheckInt8({fully_connected, 1, in, out, fully_connected, false});
    }
  }
}

TEST(XnnpackGemmWidths, Int8PointwiseConvolution) {
  SKIP_WITHOUT_XNNPACK();
  CheckInt8Grid(false);
}

TEST(XnnpackGemmWidths, Int8FullyConnected) {
  SKIP_WITHOUT_XNNPACK();
  CheckInt8Grid(true);
}

// A weight scale that is not a positive normal float (zero, negative,
// subnormal, infinite, NaN) in any channel keeps the node off XNNPACK; small
// and ordinary positive normal scales are accepted (the bias scales, input
// scale times weight scale, must stay normal too).
TEST(XnnpackGemmWidths, Int8WeightScalesMustBePositiveNormal) {
  SKIP_WITHOUT_XNNPACK();
  const float kBad[] = {0.0f,
                        -0.01f,
                        std::numeric_limits<float>::denorm_min(),
                        std::numeric_limits<float>::min() / 2,
                        std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()};
  const Int8Case c = {true, 1, 9, 17, true, false};
  const std::vector<int8_t> w = RandomInts<int8_t>(static_cast<size_t>(c.out) * c.in, 22, -127, 127);
  const std::vector<int32_t> bias(static_cast<size_t>(c.out), 0);
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  for (int channel : {0, 8, 16}) {
    for (float bad : kBad) {
      SCOPED_TRACE("channel " + std::to_string(channel) + " scale " + std::to_string(bad));
      std::vector<float> ws = WeightScales(c);
      ws[static_cast<size_t>(channel)] = bad;
      const std::vector<uint8_t> bytes = Int8Model(c, w, bias, ws);
      Session s;
      s.Create(bytes, {delegate.get()});
      if (s.ok()) EXPECT_EQ(s.DelegateNodes(), 0) << s.errors;
    }
  }
  for (float good : {std::numeric_limits<float>::min() * 64, 1.0f}) {
    std::vector<float> ws = WeightScales(c);
    ws[16] = good;
    const std::vector<uint8_t> bytes = Int8Model(c, w, bias, ws);
    Session s;
    s.Create(bytes, {delegate.get()});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(s.DelegateNodes(), 1) << "scale " << good << ": " << s.errors;
  }
}

// ---- float BATCH_MATMUL with B computed at run time --------------------------------
// XNNPACK packs such a B on every run, with the packer of the tile it picked
// (x86 FMA3: 16 columns, 4 shuffled rows per step since patch 0016), the
// transposed layout (adj_y) with the GOI packer and the plain one with GIO.

void CheckDynamicBatchMatMul(int batch, int m, int k, int n, bool adj_y) {
  SCOPED_TRACE("batch " + std::to_string(batch) + ", " + std::to_string(m) + "x" +
               std::to_string(k) + " times " + std::to_string(k) + "x" + std::to_string(n) +
               (adj_y ? ", adj_y" : ""));
  ModelBuilder b;
  const int a_t = b.AddInput(tflite::TensorType_FLOAT32, {batch, m, k}, "a");
  const int b_t = b.AddInput(tflite::TensorType_FLOAT32,
                             adj_y ? std::vector<int>{batch, n, k} : std::vector<int>{batch, k, n},
                             "b");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {batch, m, n}, "y");
  tflite::BatchMatMulOptionsT o;
  o.adj_y = adj_y;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a_t, b_t}, {y}, o);
  const std::vector<uint8_t> bytes = b.Finish();
  const std::vector<float> av = Random(static_cast<size_t>(batch) * m * k, 31, -2.0f, 2.0f);
  const std::vector<float> bv = Random(static_cast<size_t>(batch) * k * n, 32, -2.0f, 2.0f);

  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(s.DelegateNodes(), 1) << "the node goes to XNNPACK; " << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  for (int run = 0; run < 2; ++run) {  // the second run packs B again
    std::vector<float> a2 = av, b2 = bv;
    if (run == 1) {
      for (float& v : a2) v = -v;
      for (float& v : b2) v *= 0.5f;
    }
    ASSERT_TRUE(s.SetInput(0, a2));
    ASSERT_TRUE(s.SetInput(1, b2));
    ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
    const std::vector<float> got = s.Output(0);
    ASSERT_EQ(got.size(), static_cast<size_t>(batch) * m * n);
    int bad = 0;
    for (int g = 0; g < batch && bad < 5; ++g) {
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          double acc = 0;
          for (int q = 0; q < k; ++q) {
            const float bq = adj_y ? b2[(static_cast<size_t>(g) * n + j) * k + q]
                                   : b2[(static_cast<size_t>(g) * k + q) * n + j];
            acc += static_cast<double>(a2[(static_cast<size_t>(g) * m + i) * k + q]) * bq;
          }
          const float v = got[(static_cast<size_t>(g) * m + i) * n + j];
          if (std::fabs(v - acc) > 1e-5 * (1.0 + std::fabs(acc)) * k && ++bad <= 5) {
            ADD_FAILURE() << "run " << run << ", batch " << g << " row " << i << " column " << j
                          << ": " << v << " != " << acc;
          }
        }
      }
    }
  }
}

TEST(XnnpackGemmWidths, FloatBatchMatMulWithRuntimeB) {
  SKIP_WITHOUT_XNNPACK();
  for (bool adj_y : {false, true}) {
    for (int k : {1, 3, 4, 5, 8, 13, 64}) {
      for (int n : {1, 7, 16, 17, 40}) CheckDynamicBatchMatMul(2, 5, k, n, adj_y);
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// MediaPipe's custom ops (src/kernels/mediapipe), run through the C API on
// models from the model builder, against references written independently
// of the kernels (gather form instead of the kernels' scatter form).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;

template <typename T>
std::vector<uint8_t> Bytes(const T& value, size_t size = sizeof(T)) {
  std::vector<uint8_t> b(size);
  std::memcpy(b.data(), &value, size);
  return b;
}

std::vector<uint8_t> ConvOptions(TfLitePadding padding, int stride_h, int stride_w) {
  TfLiteTransposeConvParams p{};
  p.padding = padding;
  p.stride_width = stride_w;
  p.stride_height = stride_h;
  // Like MediaPipe's models: only padding and the two strides are stored.
  return Bytes(p, 3 * sizeof(int));
}

std::vector<uint8_t> PoolOptions(TfLitePadding padding, int stride, int filter,
                                 TfLiteFusedActivation act = kTfLiteActNone) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.stride_width = p.stride_height = stride;
  p.filter_width = p.filter_height = filter;
  p.activation = act;
  return Bytes(p);
}

// A model + interpreter; inputs are fed in order, outputs read back.
struct OpRun {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  std::string log;

  explicit OpRun(std::vector<uint8_t> b, TfLiteOperator* extra = nullptr) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
    if (extra) TfLiteInterpreterOptionsAddOperator(o, extra);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
  }
  ~OpRun() {
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  TfLiteStatus Invoke(const std::vector<std::vector<float>>& inputs) {
    if (interpreter == nullptr) return kTfLiteError;
    TfLiteStatus s = TfLiteInterpreterAllocateTensors(interpreter);
    if (s != kTfLiteOk) return s;
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, static_cast<int>(i));
      s = TfLiteTensorCopyFromBuffer(t, inputs[i].data(), inputs[i].size() * sizeof(float));
      if (s != kTfLiteOk) return s;
    }
    return TfLiteInterpreterInvoke(interpreter);
  }
  template <typename T = float>
  std::vector<T> Output(int i) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<T> v(TfLiteTensorByteSize(t) / sizeof(T));
    TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(T));
    return v;
  }
  std::vector<int> OutputShape(int i) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<int> d;
    for (int k = 0; k < TfLiteTensorNumDims(t); ++k) d.push_back(TfLiteTensorDim(t, k));
    return d;
  }
};

std::vector<float> Iota(size_t n, float start = 1.0f, float step = 1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

// ---- Convolution2DTransposeBias ------------------------------------------------------

struct ConvCase {
  int h, w, in_c, out_c, kh, kw, stride;
  TfLitePadding padding;
};

// Reference in gather form: output (oy, ox) collects every input pixel
// (iy, ix) and tap (ky, kx) with iy * stride + ky - pad == oy.
std::vector<float> ReferenceTransposeConv(const ConvCase& c, const std::vector<float>& x,
                                          const std::vector<float>& w,
                                          const std::vector<float>& b, int oh, int ow) {
  const int pad_h = std::max(0, (c.h - 1) * c.stride + c.kh - oh) / 2;
  const int pad_w = std::max(0, (c.w - 1) * c.stride + c.kw - ow) / 2;
  std::vector<float> y(static_cast<size_t>(oh) * ow * c.out_c);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int o = 0; o < c.out_c; ++o) {
        double acc = b[o];
        for (int ky = 0; ky < c.kh; ++ky)
          for (int kx = 0; kx < c.kw; ++kx) {
            const int ty = oy + pad_h - ky, tx = ox + pad_w - kx;
            if (ty % c.stride || tx % c.stride) continue;
            const int iy = ty / c.stride, ix = tx / c.stride;
            if (ty < 0 || tx < 0 || iy >= c.h || ix >= c.w) continue;
            for (int i = 0; i < c.in_c; ++i) {
              acc += x[(iy * c.w + ix) * c.in_c + i] *
                     w[((o * c.kh + ky) * c.kw + kx) * c.in_c + i];
            }
          }
        y[(oy * ow + ox) * c.out_c + o] = static_cast<float>(acc);
      }
  return y;
}

class TransposeConvTest : public testing::TestWithParam<ConvCase> {};

TEST_P(TransposeConvTest, MatchesGatherReference) {
  const ConvCase c = GetParam();
  const int oh = c.padding == kTfLitePaddingSame ? c.h * c.stride : (c.h - 1) * c.stride + c.kh;
  const int ow = c.padding == kTfLitePaddingSame ? c.w * c.stride : (c.w - 1) * c.stride + c.kw;
  const std::vector<float> x = Iota(static_cast<size_t>(c.h) * c.w * c.in_c, -1.0f, 0.25f);
  const std::vector<float> w = Iota(static_cast<size_t>(c.out_c) * c.kh * c.kw * c.in_c, 0.5f, -0.125f);
  const std::vector<float> b = Iota(c.out_c, 0.1f, 0.2f);

  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, c.h, c.w, c.in_c}, "x");
  const int filter = mb.AddConstant<float>({c.out_c, c.kh, c.kw, c.in_c}, w);
  const int bias = mb.AddConstant<float>({c.out_c}, b);
  // The declared output shape is deliberately wrong: Prepare computes it.
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1, c.out_c}, "y");
  mb.AddCustomOperator("Convolution2DTransposeBias", {in, filter, bias}, {out},
                       ConvOptions(c.padding, c.stride, c.stride));
  OpRun run(mb.Finish());
  ASSERT_EQ(run.Invoke({x}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(0), (std::vector<int>{1, oh, ow, c.out_c}));
  const std::vector<float> expected = ReferenceTransposeConv(c, x, w, b, oh, ow);
  const std::vector<float> got = run.Output(0);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-4f) << i;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TransposeConvTest,
    testing::Values(ConvCase{2, 2, 1, 1, 2, 2, 2, kTfLitePaddingSame},   // selfie-style
                    ConvCase{3, 2, 3, 2, 2, 2, 2, kTfLitePaddingSame},
                    ConvCase{3, 3, 2, 3, 3, 3, 2, kTfLitePaddingSame},   // padded
                    ConvCase{4, 3, 2, 2, 3, 3, 1, kTfLitePaddingSame},   // overlap
                    ConvCase{2, 3, 2, 2, 3, 2, 2, kTfLitePaddingValid},
                    ConvCase{3, 3, 1, 1, 4, 4, 2, kTfLitePaddingSame}));

TEST(TransposeConvBiasTest, HandComputedStride2) {
  // Each input pixel stamps value * kernel onto its own 2x2 block, plus bias.
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 1, 2, 1}, "x");
  const int filter = mb.AddConstant<float>({1, 2, 2, 1}, {1, 10, 100, 1000});
  const int bias = mb.AddConstant<float>({1}, {0.5f});
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 4, 1}, "y");
  mb.AddCustomOperator("Convolution2DTransposeBias", {in, filter, bias}, {out},
                       ConvOptions(kTfLitePaddingSame, 2, 2));
  OpRun run(mb.Finish());
  ASSERT_EQ(run.Invoke({{1, 2}}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.Output(0), (std::vector<float>{1.5f, 10.5f, 2.5f, 20.5f,  //
                                               100.5f, 1000.5f, 200.5f, 2000.5f}));
}

TEST(TransposeConvBiasTest, RejectsBadGraphs) {
  struct Bad {
    const char* what;
    std::vector<uint8_t> options;
    std::vector<int> filter_shape;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"no options", {}, {1, 2, 2, 1}, "neither SAME nor VALID"},
      {"zero stride", ConvOptions(kTfLitePaddingSame, 0, 2), {1, 2, 2, 1}, "invalid stride"},
      {"channels", ConvOptions(kTfLitePaddingSame, 2, 2), {1, 2, 2, 3}, "input channels"},
      {"rank", ConvOptions(kTfLitePaddingSame, 2, 2), {2, 2, 1}, "must be 4-D"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    ModelBuilder mb;
    const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
    int n = 1;
    for (int d : c.filter_shape) n *= d;
    const int filter = mb.AddConstant<float>(c.filter_shape, std::vector<float>(n, 1.0f));
    const int bias = mb.AddConstant<float>({c.filter_shape[0]}, std::vector<float>(c.filter_shape[0]));
    const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
    mb.AddCustomOperator("Convolution2DTransposeBias", {in, filter, bias}, {out}, c.options);
    OpRun run(mb.Finish());
    ASSERT_NE(run.interpreter, nullptr) << run.log;
    EXPECT_NE(TfLiteInterpreterAllocateTensors(run.interpreter), kTfLiteOk);
    EXPECT_NE(run.log.find(c.message), std::string::npos) << run.log;
  }
}

// Found by fuzz/custom_options_fuzzer (UBSan: signed overflow in the output
// size): strides whose upsampled size leaves int are refused at Prepare.
TEST(TransposeConvBiasTest, MalformedHugeStride) {
  for (int stride : {1358954498, 1 << 24, INT_MAX}) {
    SCOPED_TRACE(stride);
    ModelBuilder mb;
    const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
    const int filter = mb.AddInput(tflite::TensorType_FLOAT32, {1, 3, 3, 1}, "f");
    const int bias = mb.AddInput(tflite::TensorType_FLOAT32, {1}, "b");
    const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
    mb.AddCustomOperator("Convolution2DTransposeBias", {in, filter, bias}, {out},
                         ConvOptions(kTfLitePaddingSame, stride, 2));
    OpRun run(mb.Finish());
    EXPECT_NE(run.Invoke({}), kTfLiteOk);
    EXPECT_NE(run.log.find("stride or filter size is too large"), std::string::npos) << run.log;
  }
}

TEST(TransposeConvBiasTest, ApplicationOperatorTakesPrecedence) {
  static int invoked;
  invoked = 0;
  TfLiteOperator* mine = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Convolution2DTransposeBias", 1, nullptr);
  TfLiteOperatorSetPrepare(mine, [](TfLiteOpaqueContext*, TfLiteOpaqueNode*) { return kTfLiteOk; });
  TfLiteOperatorSetInvoke(mine, [](TfLiteOpaqueContext*, TfLiteOpaqueNode*) {
    ++invoked;
    return kTfLiteOk;
  });
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, "x");
  const int filter = mb.AddConstant<float>({1, 1, 1, 1}, {1});
  const int bias = mb.AddConstant<float>({1}, {0});
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, "y");
  mb.AddCustomOperator("Convolution2DTransposeBias", {in, filter, bias}, {out});  // no options
  {
    OpRun run(mb.Finish(), mine);
    ASSERT_EQ(run.Invoke({{1}}), kTfLiteOk) << run.log;
    EXPECT_EQ(invoked, 1);
  }
  TfLiteOperatorDelete(mine);
}

// ---- MaxPoolingWithArgmax2D / MaxUnpooling2D ------------------------------------------

// input [1, 4, 4, 2]: channel 0 counts up, channel 1 counts down.
std::vector<float> PoolInput() {
  std::vector<float> v(32);
  for (int i = 0; i < 16; ++i) {
    v[2 * i] = static_cast<float>(i);
    v[2 * i + 1] = static_cast<float>(-i);
  }
  return v;
}

TEST(MaxPoolingWithArgmaxTest, ValuesAndWindowIndices) {
  for (tflite::TensorType index_type : {tflite::TensorType_FLOAT32, tflite::TensorType_INT32}) {
    SCOPED_TRACE(index_type);
    ModelBuilder mb;
    const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "x");
    const int values = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "values");
    const int indices = mb.AddOutput(index_type, {1, 2, 2, 2}, "indices");
    mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {values, indices},
                         PoolOptions(kTfLitePaddingSame, 2, 2));
    OpRun run(mb.Finish());
    ASSERT_EQ(run.Invoke({PoolInput()}), kTfLiteOk) << run.log;
    EXPECT_EQ(run.Output(0), (std::vector<float>{5, 0, 7, -2, 13, -8, 15, -10}));
    // Channel 0's maximum is the bottom-right of each window (index 3),
    // channel 1's the top-left (index 0).
    if (index_type == tflite::TensorType_INT32) {
      EXPECT_EQ(run.Output<int32_t>(1), (std::vector<int32_t>{3, 0, 3, 0, 3, 0, 3, 0}));
    } else {
      EXPECT_EQ(run.Output(1), (std::vector<float>{3, 0, 3, 0, 3, 0, 3, 0}));
    }
  }
}

TEST(MaxPoolingWithArgmaxTest, SamePaddingOddSizeAndActivation) {
  // 3x3 input, 2x2 windows, stride 2, SAME: output 2x2; windows overhang the
  // bottom/right edge and padding never wins. ReLU clamps the values only.
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 3, 3, 1}, "x");
  const int values = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "values");
  const int indices = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "indices");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {values, indices},
                       PoolOptions(kTfLitePaddingSame, 2, 2, kTfLiteActRelu));
  OpRun run(mb.Finish());
  ASSERT_EQ(run.Invoke({{-9, -1, -3,  //
                         -4, -5, -6,  //
                         -7, -8, -2}}),
            kTfLiteOk)
      << run.log;
  EXPECT_EQ(run.OutputShape(0), (std::vector<int>{1, 2, 2, 1}));
  EXPECT_EQ(run.Output(0), (std::vector<float>{0, 0, 0, 0}));
  EXPECT_EQ(run.Output(1), (std::vector<float>{1, 0, 0, 0}));
}

TEST(MaxUnpoolingTest, InvertsArgmaxPooling) {
  // pool -> unpool puts every window's maximum back in place, zeros elsewhere.
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "x");
  const int values = mb.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "values");
  const int indices = mb.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "indices");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "y");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {values, indices},
                       PoolOptions(kTfLitePaddingSame, 2, 2));
  mb.AddCustomOperator("MaxUnpooling2D", {values, indices}, {out},
                       PoolOptions(kTfLitePaddingSame, 2, 2));
  OpRun run(mb.Finish());
  const std::vector<float> x = PoolInput();
  ASSERT_EQ(run.Invoke({x}), kTfLiteOk) << run.log;
  std::vector<float> expected(32, 0.0f);
  for (int y = 0; y < 4; ++y)
    for (int xx = 0; xx < 4; ++xx) {
      const int i = y * 4 + xx;
      if (y % 2 == 1 && xx % 2 == 1) expected[2 * i] = x[2 * i];          // bottom-right
      if (y % 2 == 0 && xx % 2 == 0) expected[2 * i + 1] = x[2 * i + 1];  // top-left
    }
  EXPECT_EQ(run.Output(0), expected);
}

TEST(MaxUnpoolingTest, ValidPaddingAndOutOfRangeIndices) {
  // 2x2 input, 3x3 windows, stride 2, VALID: output 5x5. Indices that point
  // outside the window (or are not numbers) leave zeros.
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
  const int idx = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "i");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 5, 5, 1}, "y");
  mb.AddCustomOperator("MaxUnpooling2D", {in, idx}, {out}, PoolOptions(kTfLitePaddingValid, 2, 3));
  OpRun run(mb.Finish());
  ASSERT_EQ(run.Invoke({{1, 2, 3, 4}, {4, 9, NAN, 8}}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(0), (std::vector<int>{1, 5, 5, 1}));
  std::vector<float> expected(25, 0.0f);
  expected[1 * 5 + 1] = 1;  // window (0, 0), index 4 = centre
  expected[4 * 5 + 4] = 4;  // window (1, 1) at (2, 2), index 8 = bottom-right
  EXPECT_EQ(run.Output(0), expected);
}

TEST(MaxUnpoolingTest, RejectsMismatchedIndices) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
  const int idx = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 1, 1}, "i");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
  mb.AddCustomOperator("MaxUnpooling2D", {in, idx}, {out}, PoolOptions(kTfLitePaddingSame, 2, 2));
  OpRun run(mb.Finish());
  EXPECT_NE(run.Invoke({}), kTfLiteOk);
  EXPECT_NE(run.log.find("shapes differ"), std::string::npos) << run.log;
}

// Found by fuzz/custom_options_fuzzer (UBSan: signed overflow of filter
// height x width): windows whose area passes int still unpool (each side
// stays below 2^24, which Prepare checks).
TEST(MaxUnpoolingTest, MalformedHugeWindowArea) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
  const int idx = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "i");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
  mb.AddCustomOperator("MaxUnpooling2D", {in, idx}, {out},
                       PoolOptions(kTfLitePaddingSame, 2, 1 << 17));
  OpRun run(mb.Finish());
  EXPECT_EQ(run.Invoke({{1, 2, 3, 4}, {0, 1, 2, 3}}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(0), (std::vector<int>{1, 4, 4, 1}));
}

TEST(MaxPoolingWithArgmaxTest, RejectsIntegerInput) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_INT32, {1, 2, 2, 1}, "x");
  const int values = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, "values");
  const int indices = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1, 1}, "indices");
  mb.AddCustomOperator("MaxPoolingWithArgmax2D", {in}, {values, indices},
                       PoolOptions(kTfLitePaddingSame, 2, 2));
  OpRun run(mb.Finish());
  EXPECT_NE(run.Invoke({}), kTfLiteOk);
  EXPECT_NE(run.log.find("not supported"), std::string::npos) << run.log;
}

// Found by fuzz/custom_options_fuzzer: raw option bytes whose padding or
// activation word is no value of the enum (loading it as the enum was
// undefined behaviour, reported by UBSan) are refused at Prepare.
TEST(MaxUnpoolingTest, MalformedEnumWordsInOptions) {
  struct Case {
    const char* op;
    int padding, activation;
  };
  for (const Case& c : {Case{"MaxUnpooling2D", 1684961024, 0}, Case{"MaxUnpooling2D", -7, 0},
                        Case{"MaxPoolingWithArgmax2D", kTfLitePaddingSame, 99},
                        Case{"LiteRtMaxUnpooling2D", 3, 0},
                        Case{"Convolution2DTransposeBias", 0x40000000, 0}}) {
    SCOPED_TRACE(std::string(c.op) + " padding " + std::to_string(c.padding));
    std::vector<uint8_t> options = PoolOptions(kTfLitePaddingSame, 2, 2);
    std::memcpy(options.data() + offsetof(TfLitePoolParams, padding), &c.padding, sizeof(int));
    std::memcpy(options.data() + offsetof(TfLitePoolParams, activation), &c.activation,
                sizeof(int));
    ModelBuilder mb;
    const std::string op = c.op;
    if (op == "MaxPoolingWithArgmax2D") {
      const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "x");
      const int values = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "values");
      const int indices = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "indices");
      mb.AddCustomOperator(c.op, {in}, {values, indices}, options);
    } else if (op == "Convolution2DTransposeBias") {
      const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
      const int filter = mb.AddInput(tflite::TensorType_FLOAT32, {1, 3, 3, 1}, "f");
      const int bias = mb.AddInput(tflite::TensorType_FLOAT32, {1}, "b");
      const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
      options.resize(3 * sizeof(int));  // padding and the two strides, as MediaPipe stores them
      mb.AddCustomOperator(c.op, {in, filter, bias}, {out}, options);
    } else {
      const int in = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "x");
      const int idx = mb.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "i");
      const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 1}, "y");
      mb.AddCustomOperator(c.op, {in, idx}, {out}, options);
    }
    OpRun run(mb.Finish());
    EXPECT_NE(run.Invoke({}), kTfLiteOk);
    EXPECT_NE(run.log.find("neither SAME nor VALID"), std::string::npos) << run.log;
  }
}

}  // namespace

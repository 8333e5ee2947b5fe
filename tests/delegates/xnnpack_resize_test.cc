// Resizes of a graph delegated to XNNPACK. XNNPACK fixes, when an operator is
// created, how many channels a convolution or fully connected layer reads per
// pixel or row, and its concatenation copies every input in rows counted from
// the first one. A resize that breaks those counts must fail AllocateTensors
// (as the builtin kernels' Prepare does) instead of letting XNNPACK read or
// write past a tensor; resizes that keep them must run and give the right
// values. Expected values come from plain loops in this file.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tensorflow/lite/builtin_op_data.h"

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using XnnpackPtr = std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter>;

constexpr char kRefused[] = "refused the new input shapes";

// The interpreter of `bytes` with only an XNNPACK delegate, every node delegated.
struct XnnpackSession {
  XnnpackPtr delegate{TfLiteXNNPackDelegateCreate(nullptr)};
  Session s;

  explicit XnnpackSession(const std::vector<uint8_t>& bytes, int delegated_nodes = 1) {
    s.Create(bytes, {delegate.get()});
    EXPECT_TRUE(s.ok()) << s.errors;
    if (s.ok()) EXPECT_EQ(s.DelegateNodes(), delegated_nodes) << "the graph goes to XNNPACK";
  }
  TfLiteInterpreter* it() { return s.interpreter.get(); }
  TfLiteStatus Resize(int input, const std::vector<int>& dims) {
    return TfLiteInterpreterResizeInputTensor(it(), input, dims.data(),
                                              static_cast<int32_t>(dims.size()));
  }
  // Allocates, fills the inputs and runs; false (and the errors) on failure.
  bool Run(const std::vector<std::vector<float>>& inputs) {
    if (TfLiteInterpreterAllocateTensors(it()) != kTfLiteOk) return false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!s.SetInput(static_cast<int>(i), inputs[i])) return false;
    }
    return TfLiteInterpreterInvoke(it()) == kTfLiteOk;
  }
};

// out[p, o] = sum_c in[p, c] * w[o, c]: a 1x1 convolution over pixels, or a
// fully connected layer over rows.
std::vector<float> Rows(const std::vector<float>& in, const std::vector<float>& w, int channels) {
  const int rows = static_cast<int>(in.size()) / channels;
  const int outs = static_cast<int>(w.size()) / channels;
  std::vector<float> out(static_cast<size_t>(rows) * outs, 0.0f);
  for (int p = 0; p < rows; ++p) {
    for (int o = 0; o < outs; ++o) {
      for (int c = 0; c < channels; ++c) out[p * outs + o] += in[p * channels + c] * w[o * channels + c];
    }
  }
  return out;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << "element " << i;
}

tflite::Conv2DOptionsT Conv1x1() {
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  return conv;
}

const std::vector<float> kConvWeights = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};  // [2,1,1,3]

// x[1,4,4,3] with the signature [1,-1,-1,-1] -> CONV_2D 1x1 (2 filters) -> y.
std::vector<uint8_t> OpenSignatureConvModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 3}, "x");
  b.SetShapeSignature(x, {1, -1, -1, -1});
  const int w = b.AddConstant<float>({2, 1, 1, 3}, kConvWeights);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w, -1}, {y}, Conv1x1());
  return b.Finish();
}

// A signature that leaves the channels open does not make a convolution
// accept another channel count: before XNNPACK checked it, a 1-channel input
// was read as 3 channels per pixel, past its end.
TEST(XnnpackResize, MalformedChannelResizeUnderAnOpenSignatureIsRefused) {
  const std::vector<uint8_t> bytes = OpenSignatureConvModel();
  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  const std::vector<float> in = Random(2 * 2 * 3, 7);
  ASSERT_EQ(run.Resize(0, {1, 2, 2, 3}), kTfLiteOk);
  ASSERT_TRUE(run.Run({in})) << run.s.errors;
  ExpectNear(run.s.Output(0), Rows(in, kConvWeights, 3));

  ASSERT_EQ(run.Resize(0, {1, 4, 4, 1}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  // The interpreter recovers with a shape that fits.
  const std::vector<float> in3 = Random(3 * 3 * 3, 8);
  ASSERT_EQ(run.Resize(0, {1, 3, 3, 3}), kTfLiteOk);
  ASSERT_TRUE(run.Run({in3})) << run.s.errors;
  ExpectNear(run.s.Output(0), Rows(in3, kConvWeights, 3));
}

// x[1,4,4,3] -> SIGN (builtin, not an XNNPACK operator) -> CONV_2D 1x1 -> y:
// the partition's input is computed by a builtin kernel, whose shape
// inference passes a resized channel count on to the convolution.
TEST(XnnpackResize, MalformedChannelCountComputedByABuiltinOperatorIsRefused) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 3}, "x");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 3});
  b.AddOperator(tflite::BuiltinOperator_SIGN, {x}, {s});
  const int w = b.AddConstant<float>({2, 1, 1, 3}, kConvWeights);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {s, w, -1}, {y}, Conv1x1());
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  ASSERT_EQ(run.Resize(0, {1, 8, 8, 1}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  std::vector<float> in(4 * 4 * 3);
  for (size_t i = 0; i < in.size(); ++i) in[i] = (i % 3 == 0) ? -2.0f : 3.0f;
  std::vector<float> sign(in.size());
  for (size_t i = 0; i < in.size(); ++i) sign[i] = in[i] < 0 ? -1.0f : 1.0f;
  ASSERT_EQ(run.Resize(0, {1, 4, 4, 3}), kTfLiteOk);
  ASSERT_TRUE(run.Run({in})) << run.s.errors;
  ExpectNear(run.s.Output(0), Rows(sign, kConvWeights, 3));
}

const std::vector<float> kFcWeights = {1, 2, 3, 4, -1, 0, 1, 0, 0.5f, 0.5f, 0.5f, 0.5f};  // [3,4]

// x[2,4] (signature [-1,-1]) -> FULLY_CONNECTED keeping dimensions -> y[2,3].
// Resized to [2,8], XNNPACK made 4 rows of 4 and wrote 4 output rows into
// an output sized for 2.
TEST(XnnpackResize, MalformedRowLengthOfAFullyConnectedLayerIsRefused) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 4}, "x");
  b.SetShapeSignature(x, {-1, -1});
  const int w = b.AddConstant<float>({3, 4}, kFcWeights);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 3}, "y");
  tflite::FullyConnectedOptionsT fc;
  fc.keep_num_dims = true;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, w, -1}, {y}, fc);
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  ASSERT_EQ(run.Resize(0, {2, 8}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  // More rows of the same length are fine.
  const std::vector<float> in = Random(5 * 4, 9);
  ASSERT_EQ(run.Resize(0, {5, 4}), kTfLiteOk);
  ASSERT_TRUE(run.Run({in})) << run.s.errors;
  ExpectNear(run.s.Output(0), Rows(in, kFcWeights, 4));
}

// a[1,4], b[1,4] (signatures [-1,4]) -> CONCATENATION on axis 1 -> y[1,8].
// With a resized to [2,4] alone, XNNPACK copied two rows of b, which has one.
TEST(XnnpackResize, MalformedConcatenationOfDisagreeingInputsIsRefused) {
  ModelBuilder b;
  const int a = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "a");
  const int c = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "b");
  b.SetShapeSignature(a, {-1, 4});
  b.SetShapeSignature(c, {-1, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 8}, "y");
  tflite::ConcatenationOptionsT co;
  co.axis = 1;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {a, c}, {y}, co);
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  ASSERT_EQ(run.Resize(0, {2, 4}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  ASSERT_EQ(run.Resize(1, {2, 4}), kTfLiteOk);
  const std::vector<float> ia = {1, 2, 3, 4, 5, 6, 7, 8}, ib = {-1, -2, -3, -4, -5, -6, -7, -8};
  ASSERT_TRUE(run.Run({ia, ib})) << run.s.errors;
  EXPECT_EQ(run.s.Output(0),
            (std::vector<float>{1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8, -5, -6, -7, -8}));
}

// x[2,3] -> SPLIT on axis 0 into two -> y0[1,3], y1[1,3]. Resized to [7,3]
// (resize_fuzzer: quant_split at [7,7,7,6]), XNNPACK copied 3.5 rows into
// each output block of 3 (patch 0004 refuses a dimension that does not
// divide); resized to [4,3] it runs.
TEST(XnnpackResize, MalformedSplitThatNoLongerDividesIsRefused) {
  ModelBuilder b;
  const int axis = b.AddConstant<int32_t>({}, {0});
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3}, "x");
  const int y0 = b.AddOutput(tflite::TensorType_FLOAT32, {1, 3}, "y0");
  const int y1 = b.AddOutput(tflite::TensorType_FLOAT32, {1, 3}, "y1");
  tflite::SplitOptionsT so;
  so.num_splits = 2;
  b.AddOperator(tflite::BuiltinOperator_SPLIT, {axis, x}, {y0, y1}, so);
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  ASSERT_EQ(run.Resize(0, {7, 3}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  ASSERT_EQ(run.Resize(0, {4, 3}), kTfLiteOk);
  const std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  ASSERT_TRUE(run.Run({in})) << run.s.errors;
  EXPECT_EQ(run.s.Output(0), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(run.s.Output(1), (std::vector<float>{7, 8, 9, 10, 11, 12}));
}

// x[1,4,4,2] -> MaxPoolingWithArgmax2D 2x2 -> (p, indices); v[1,2,2,2] and
// indices -> MaxUnpooling2D -> y[1,4,4,2] (both inputs signed [1,-1,-1,2]).
// Resizing v alone gave the unpooling values of another shape than its
// indices, which XNNPACK's reshape took without a check (patch 0002 refuses
// it). Resized together they run: y holds v at each window's maximum of x.
TEST(XnnpackResize, MalformedUnpoolingIndicesOfAnotherShapeAreRefused) {
  TfLitePoolParams pool{};
  pool.padding = kTfLitePaddingValid;
  pool.filter_width = pool.filter_height = pool.stride_width = pool.stride_height = 2;
  std::vector<uint8_t> options(sizeof(pool));
  std::memcpy(options.data(), &pool, sizeof(pool));
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "x");
  const int v = b.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "v");
  b.SetShapeSignature(x, {1, -1, -1, 2});
  b.SetShapeSignature(v, {1, -1, -1, 2});
  const int pooled = b.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "p");
  const int indices = b.AddTensor(tflite::TensorType_FLOAT32, {1, 2, 2, 2});
  b.AddCustomOperator("MaxPoolingWithArgmax2D", {x}, {pooled, indices}, options);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "y");
  b.AddCustomOperator("MaxUnpooling2D", {v, indices}, {y}, options);
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  ASSERT_EQ(run.Resize(1, {1, 3, 3, 2}), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(run.it()), kTfLiteOk);
  EXPECT_NE(run.s.errors.find(kRefused), std::string::npos) << run.s.errors;

  constexpr int kSide = 6, kChannels = 2, kHalf = kSide / 2;
  ASSERT_EQ(run.Resize(0, {1, kSide, kSide, kChannels}), kTfLiteOk);
  const std::vector<float> in = Random(kSide * kSide * kChannels, 11);  // no ties
  const std::vector<float> values = Random(kHalf * kHalf * kChannels, 12);
  ASSERT_TRUE(run.Run({in, values})) << run.s.errors;
  std::vector<float> want(in.size(), 0.0f);
  for (int wy = 0; wy < kHalf; ++wy) {
    for (int wx = 0; wx < kHalf; ++wx) {
      for (int c = 0; c < kChannels; ++c) {
        int best = -1;
        for (int k = 0; k < 4; ++k) {
          const int at = ((2 * wy + k / 2) * kSide + 2 * wx + k % 2) * kChannels + c;
          if (best < 0 || in[at] > in[best]) best = at;
        }
        want[best] = values[(wy * kHalf + wx) * kChannels + c];
      }
    }
  }
  EXPECT_EQ(run.s.Output(1), want);
}

// x[1,16] -> RESHAPE to [1,-1,4] -> FULLY_CONNECTED (4 -> 3, keeping
// dimensions) -> y[1,4,3]. A longer input (an audio window, say) changes the
// innermost dimension of the graph's input but not the rows the layer reads:
// it runs, as with the builtin kernels.
TEST(XnnpackResize, LongerInputThroughAReshapeRuns) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 16}, "x");
  const int shape = b.AddConstant<int32_t>({3}, {1, -1, 4});
  const int r = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4});
  tflite::ReshapeOptionsT reshape;
  reshape.new_shape = {1, -1, 4};
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {x, shape}, {r}, reshape);
  const int w = b.AddConstant<float>({3, 4}, kFcWeights);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 3}, "y");
  tflite::FullyConnectedOptionsT fc;
  fc.keep_num_dims = true;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {r, w, -1}, {y}, fc);
  const std::vector<uint8_t> bytes = b.Finish();

  XnnpackSession run(bytes);
  ASSERT_TRUE(run.s.ok());
  const std::vector<float> in = Random(32, 10);
  ASSERT_EQ(run.Resize(0, {1, 32}), kTfLiteOk);
  ASSERT_TRUE(run.Run({in})) << run.s.errors;
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(run.it(), 0);
  ASSERT_EQ(TfLiteTensorNumDims(out), 3);
  EXPECT_EQ(TfLiteTensorDim(out, 1), 8);
  ExpectNear(run.s.Output(0), Rows(in, kFcWeights, 4));
}

// x -> 3x3 VALID CONV_2D or DEPTHWISE_CONV_2D (stride 2 across, 1 down) -> y,
// 3 channels. Over a 5x2 input the window is wider than the input: no output
// position (TensorFlow's VALID), where XNNPACK computed one whose window reads
// past the input through a zero buffer a VALID convolution does not have (a
// crash reading address 0; found by structured_fuzzer).
std::vector<uint8_t> ValidWindowModel(bool depthwise, const std::vector<int>& in_shape) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, in_shape, "x");
  const int w = b.AddConstant<float>({depthwise ? 1 : 3, 3, 3, 3}, Random(81, 31));
  const int bias = b.AddConstant<float>({3}, {0.5f, -0.5f, 1.0f});
  const int oh = in_shape[1] >= 3 ? in_shape[1] - 2 : 0;
  const int ow = in_shape[2] >= 3 ? (in_shape[2] - 3) / 2 + 1 : 0;
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, oh, ow, 3}, "y");
  if (depthwise) {
    tflite::DepthwiseConv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_w = 2;
    o.stride_h = 1;
    o.depth_multiplier = 1;
    b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {x, w, bias}, {y}, o);
  } else {
    tflite::Conv2DOptionsT o;
    o.padding = tflite::Padding_VALID;
    o.stride_w = 2;
    o.stride_h = 1;
    b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w, bias}, {y}, o);
  }
  return b.Finish();
}

TEST(XnnpackResize, MalformedValidWindowWiderThanTheInputStaysWithTheBuiltinKernel) {
  for (bool depthwise : {false, true}) {
    SCOPED_TRACE(depthwise ? "depthwise" : "convolution");
    const std::vector<uint8_t> bytes = ValidWindowModel(depthwise, {1, 5, 2, 3});
    XnnpackSession run(bytes, /*delegated_nodes=*/0);
    ASSERT_TRUE(run.s.ok());
    ASSERT_TRUE(run.Run({Random(5 * 2 * 3, 32)})) << run.s.errors;
    EXPECT_TRUE(run.s.Output(0).empty()) << "no output position";
  }
}

TEST(XnnpackResize, MalformedResizeToAnInputNarrowerThanTheWindowIsRefused) {
  for (bool depthwise : {false, true}) {
    SCOPED_TRACE(depthwise ? "depthwise" : "convolution");
    const std::vector<uint8_t> bytes = ValidWindowModel(depthwise, {1, 6, 7, 3});
    XnnpackSession run(bytes);
    ASSERT_TRUE(run.s.ok());
    ASSERT_TRUE(run.Run({Random(6 * 7 * 3, 33)})) << run.s.errors;
    EXPECT_EQ(run.s.Output(0).size(), 4u * 3 * 3);
    // 5x2: the 3-wide window no longer fits. Refused (or, were it run, an
    // empty output), never a read past the input.
    ASSERT_EQ(run.Resize(0, {1, 5, 2, 3}), kTfLiteOk);
    if (run.Run({Random(5 * 2 * 3, 34)})) {
      EXPECT_TRUE(run.s.Output(0).empty());
    } else {
      EXPECT_FALSE(run.s.errors.empty());
    }
    // Back to a shape that fits.
    ASSERT_EQ(run.Resize(0, {1, 6, 7, 3}), kTfLiteOk);
    ASSERT_TRUE(run.Run({Random(6 * 7 * 3, 35)})) << run.s.errors;
    EXPECT_EQ(run.s.Output(0).size(), 4u * 3 * 3);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED split their work over
// threads: results with four threads must agree with one thread. (Not bit for
// bit: GEMM blocking depends on the size of the block a thread gets.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;

struct ThreadCase {
  tflite::BuiltinOperator op;
  tflite::BuiltinOptionsUnion options;
  std::vector<int> input, weights, bias, output;
};

std::vector<float> Random(std::mt19937& rng, const std::vector<int>& shape) {
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  size_t n = 1;
  for (int d : shape) n *= d;
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// Runs `c` with `threads` threads (default delegates on, as a plain
// TfLiteInterpreterCreate would) and returns its output and shape.
std::vector<float> RunWithThreads(const ThreadCase& c, int threads, std::vector<int>* shape) {
  std::mt19937 rng(7);
  const std::vector<float> x = Random(rng, c.input);
  OneOpModel m;
  m.configure_options = [threads](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsSetUseXNNPACK(o, true);
    TfLiteInterpreterOptionsSetNumThreads(o, threads);
  };
  m.Input(tflite::TensorType_FLOAT32, c.input);
  m.Const<float>(c.weights, Random(rng, c.weights));
  m.Const<float>(c.bias, Random(rng, c.bias));
  m.Output(tflite::TensorType_FLOAT32, c.output);
  m.Op(c.op, c.options);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, x);
  EXPECT_TRUE(m.Invoke()) << m.log();
  *shape = m.Shape();
  return m.Get<float>();
}

TEST(ThreadingTest, ConvDepthwiseAndFcMatchSingleThread) {
  tflite::Conv2DOptionsT strided;
  strided.padding = tflite::Padding_SAME;
  strided.stride_h = strided.stride_w = 2;
  strided.dilation_h_factor = strided.dilation_w_factor = 1;
  strided.fused_activation_function = tflite::ActivationFunctionType_RELU;
  tflite::Conv2DOptionsT pointwise;
  pointwise.padding = tflite::Padding_VALID;
  pointwise.stride_h = pointwise.stride_w = 1;
  pointwise.dilation_h_factor = pointwise.dilation_w_factor = 1;
  tflite::DepthwiseConv2DOptionsT dilated;
  dilated.padding = tflite::Padding_SAME;
  dilated.stride_h = dilated.stride_w = 1;
  dilated.depth_multiplier = 2;
  dilated.dilation_h_factor = dilated.dilation_w_factor = 2;
  const std::vector<ThreadCase> cases = {
      {tflite::BuiltinOperator_CONV_2D, Opts(strided), {1, 40, 40, 16}, {32, 3, 3, 16}, {32},
       {1, 20, 20, 32}},
      {tflite::BuiltinOperator_CONV_2D, Opts(pointwise), {2, 16, 16, 64}, {64, 1, 1, 64}, {64},
       {2, 16, 16, 64}},
      {tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Opts(dilated), {1, 48, 48, 32}, {1, 3, 3, 64},
       {64}, {1, 48, 48, 64}},
      {tflite::BuiltinOperator_FULLY_CONNECTED, Opts(tflite::FullyConnectedOptionsT()), {4, 512},
       {256, 512}, {256}, {4, 256}},
  };
  for (const ThreadCase& c : cases) {
    std::vector<int> one_shape, four_shape;
    const std::vector<float> one = RunWithThreads(c, 1, &one_shape);
    const std::vector<float> four = RunWithThreads(c, 4, &four_shape);
    EXPECT_EQ(one_shape, c.output);
    EXPECT_EQ(four_shape, c.output);
    ASSERT_EQ(four.size(), one.size());
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_NEAR(four[i], one[i], 1e-5 * std::max(1.0, std::fabs(static_cast<double>(one[i]))))
          << "element " << i;
    }
  }
}

}  // namespace
}  // namespace tflite_c

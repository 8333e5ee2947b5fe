// How our XNNPACK build (patch 0006) splits work among threads where each
// task used to be tiny: a 1x1 convolution over few channels now hands each
// thread-pool task several row tiles (the microkernel runs once per tile of
// the task), and a broadcast binary operator runs of rows instead of one row
// per task. Each layer runs with 1, 2 and 3 threads over row counts that do
// not divide into the tasks, against plain loops (not either kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// 1x1 convolution, `in` -> `out` channels over side x side pixels, RELU.
void CheckPointwise(int side, int in, int out, int threads) {
  SCOPED_TRACE(std::to_string(side) + "x" + std::to_string(side) + " pixels, " +
               std::to_string(in) + " -> " + std::to_string(out) + " channels, " +
               std::to_string(threads) + " threads");
  const std::vector<float> x = Random(static_cast<size_t>(side) * side * in, 21, -2.0f, 2.0f);
  std::vector<float> want;
  const std::vector<uint8_t> model = PointwiseReluModel(side, in, out, x, 22, &want);
  auto d = XnnpackWithThreads(threads);
  ExpectOneDelegatedNodeClose(RunFloatModel(model, d.get(), x), want);
}

TEST(XnnpackTaskSplit, PointwiseConvolutionOverFewChannels) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    CheckPointwise(61, 8, 8, threads);    // 3721 rows: tasks of many row tiles, a short last one
    CheckPointwise(40, 3, 5, threads);    // narrower than any tile
    CheckPointwise(33, 16, 24, threads);  // 16-column tiles with AVX-512
    CheckPointwise(9, 64, 96, threads);   // few rows, wide tiles: one row tile per task
  }
}

// PRELU with a per-channel slope: rows of C channels against [C].
TEST(XnnpackTaskSplit, PreluRowsOfChannels) {
  SKIP_WITHOUT_XNNPACK();
  for (int threads : {1, 2, 3}) {
    for (int channels : {3, 32, 200}) {
      SCOPED_TRACE(std::to_string(channels) + " channels, " + std::to_string(threads) + " threads");
      const int side = 47;
      const size_t n = static_cast<size_t>(side) * side * channels;
      const std::vector<float> x = Random(n, 31, -3.0f, 3.0f);
      const std::vector<float> slope = Random(static_cast<size_t>(channels), 32);
      ModelBuilder b;
      const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, side, side, channels}, "x");
      const int yt = b.AddOutput(tflite::TensorType_FLOAT32, {1, side, side, channels}, "y");
      const int st = b.AddConstant<float>({channels}, slope);
      b.AddOperator(tflite::BuiltinOperator_PRELU, {xt, st}, {yt});
      std::vector<float> want(n);
      for (size_t i = 0; i < n; ++i) want[i] = x[i] >= 0 ? x[i] : x[i] * slope[i % channels];
      auto d = XnnpackWithThreads(threads);
      ExpectOneDelegatedNodeClose(RunFloatModel(b.Finish(), d.get(), x), want);
    }
  }
}

// ADD of [1, A, B, C] and a constant [1, A, 1, C]: A blocks of B rows of C.
TEST(XnnpackTaskSplit, AddBroadcastBlocksOfRows) {
  SKIP_WITHOUT_XNNPACK();
  const int a = 7, rows = 53, c = 16;
  const size_t n = static_cast<size_t>(a) * rows * c;
  const std::vector<float> x = Random(n, 41);
  const std::vector<float> y = Random(static_cast<size_t>(a) * c, 42);
  std::vector<float> want(n);
  for (int i = 0; i < a; ++i) {
    for (int r = 0; r < rows; ++r) {
      for (int k = 0; k < c; ++k) {
        const size_t at = (static_cast<size_t>(i) * rows + r) * c + k;
        want[at] = x[at] + y[static_cast<size_t>(i) * c + k];
      }
    }
  }
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    ModelBuilder b;
    const int xt = b.AddInput(tflite::TensorType_FLOAT32, {1, a, rows, c}, "x");
    const int ot = b.AddOutput(tflite::TensorType_FLOAT32, {1, a, rows, c}, "out");
    const int yt = b.AddConstant<float>({1, a, 1, c}, y);
    b.AddOperator(tflite::BuiltinOperator_ADD, {xt, yt}, {ot}, tflite::AddOptionsT{});
    auto d = XnnpackWithThreads(threads);
    ExpectOneDelegatedNodeClose(RunFloatModel(b.Finish(), d.get(), x), want);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

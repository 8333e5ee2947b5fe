// XNNPACK delegate: MEAN and SUM over any constant axes set, as upstream's
// delegate takes them (ranks 1..6, negative and repeated axes, keep_dims
// either way; float32 and int8/uint8), compared with the builtin kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

struct ReduceCase {
  std::vector<int> shape;
  std::vector<int32_t> axes;
};

std::vector<int> ReducedShape(const std::vector<int>& shape, const std::vector<int32_t>& axes,
                              bool keep_dims) {
  const int rank = static_cast<int>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (int32_t a : axes) reduced[a < 0 ? a + rank : a] = true;
  std::vector<int> out;
  for (int i = 0; i < rank; ++i) {
    if (!reduced[i]) out.push_back(shape[i]);
    else if (keep_dims) out.push_back(1);
  }
  return out;
}

std::vector<uint8_t> ReduceModel(BuiltinOperator op, TensorType type, const ReduceCase& c,
                                 bool keep_dims, int reduced_count) {
  ModelBuilder b;
  const bool quantized = type != tflite::TensorType_FLOAT32;
  const int x = b.AddInput(type, c.shape, "x");
  if (quantized) b.SetQuantization(x, {{0.05f}, {type == tflite::TensorType_INT8 ? -3 : 130}});
  const int axes = b.AddConstant<int32_t>({static_cast<int>(c.axes.size())}, c.axes);
  const int y = b.AddOutput(type, ReducedShape(c.shape, c.axes, keep_dims), "y");
  if (quantized) {
    // A sum grows with the number of reduced elements: scale the output so
    // that it stays mostly in range.
    const float scale =
        op == tflite::BuiltinOperator_SUM ? 0.05f * std::max(1, reduced_count) / 6.0f : 0.02f;
    b.SetQuantization(y, {{scale}, {type == tflite::TensorType_INT8 ? 7 : 120}});
  }
  tflite::ReducerOptionsT o;
  o.keep_dims = keep_dims;
  b.AddOperator(op, {x, axes}, {y}, o, quantized ? 2 : 1);
  return b.Finish();
}

int ReducedCount(const ReduceCase& c) {
  const int rank = static_cast<int>(c.shape.size());
  std::vector<bool> reduced(c.shape.size(), false);
  for (int32_t a : c.axes) reduced[a < 0 ? a + rank : a] = true;
  int n = 1;
  for (int i = 0; i < rank; ++i)
    if (reduced[i]) n *= c.shape[i];
  return n;
}

const std::vector<ReduceCase>& Cases() {
  static const std::vector<ReduceCase> cases = {
      {{17}, {0}},                      // rank 1, everything
      {{6, 9}, {0}},                    // rank 2, leading
      {{6, 9}, {1}},                    // rank 2, trailing
      {{6, 9}, {-1, 0}},                // rank 2, all (negative)
      {{3, 5, 8}, {1}},                 // rank 3, middle
      {{3, 5, 8}, {0, 2}},              // rank 3, outer pair
      {{2, 5, 7, 6}, {3}},              // rank 4, channels
      {{2, 5, 7, 6}, {0}},              // rank 4, batch
      {{2, 5, 7, 6}, {1, 3}},           // rank 4, non-adjacent
      {{2, 5, 7, 6}, {2, 2, -2}},       // rank 4, repeats
      {{2, 5, 7, 6}, {0, 1, 2, 3}},     // rank 4, all
      {{2, 3, 4, 5, 3}, {1, 4}},        // rank 5
      {{2, 3, 2, 3, 2, 4}, {0, 3, 5}},  // rank 6
  };
  return cases;
}

std::string Describe(const ReduceCase& c) {
  std::string s = "shape [";
  for (int d : c.shape) s += std::to_string(d) + ",";
  s += "] axes [";
  for (int a : c.axes) s += std::to_string(a) + ",";
  return s + "]";
}

TEST(XnnpackReduce, FloatMeanAndSumOverAnyAxesMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (BuiltinOperator op : {tflite::BuiltinOperator_MEAN, tflite::BuiltinOperator_SUM})
    for (const ReduceCase& c : Cases())
      for (bool keep : {false, true}) {
        SCOPED_TRACE(std::string(op == tflite::BuiltinOperator_SUM ? "SUM " : "MEAN ") +
                     Describe(c) + (keep ? " keep_dims" : ""));
        Tolerance t;
        t.atol = 1e-5;
        t.rtol = 1e-5;
        RunBothAndCompare(ReduceModel(op, tflite::TensorType_FLOAT32, c, keep, ReducedCount(c)),
                          t);
      }
}

TEST(XnnpackReduce, QuantizedMeanAndSumOverAnyAxesWithinOneStep) {
  SKIP_WITHOUT_XNNPACK();
  double worst = 0;
  for (BuiltinOperator op : {tflite::BuiltinOperator_MEAN, tflite::BuiltinOperator_SUM})
    for (TensorType type : {tflite::TensorType_INT8, tflite::TensorType_UINT8})
      for (const ReduceCase& c : Cases())
        for (bool keep : {false, true}) {
          SCOPED_TRACE(std::string(op == tflite::BuiltinOperator_SUM ? "SUM " : "MEAN ") +
                       (type == tflite::TensorType_INT8 ? "int8 " : "uint8 ") + Describe(c) +
                       (keep ? " keep_dims" : ""));
          Tolerance t;
          t.atol = 1;
          t.rtol = 0;
          t.min_distinct = 2;
          worst = std::max(worst, RunBothAndCompare(ReduceModel(op, type, c, keep,
                                                                ReducedCount(c)),
                                                    t));
        }
  ::testing::Test::RecordProperty("max_steps", std::to_string(worst));
}

// Outside what upstream takes: int64 axes, an out-of-range axis (the builtin
// kernel then reports the error itself) and a wrong output shape stay off
// the delegate without crashing.
TEST(XnnpackReduce, UnsupportedAxesStayOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  {
    ModelBuilder b;
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3, 4}, "x");
    const int axes = b.AddConstant<int64_t>({1}, {1});
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 4}, "y");
    b.AddOperator(tflite::BuiltinOperator_MEAN, {x, axes}, {y}, tflite::ReducerOptionsT());
    Tolerance t;
    t.delegate_nodes = 0;
    RunBothAndCompare(b.Finish(), t);
  }
  {
    ModelBuilder b;
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3, 4}, "x");
    const int axes = b.AddConstant<int32_t>({1}, {3});
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 3}, "y");
    b.AddOperator(tflite::BuiltinOperator_SUM, {x, axes}, {y}, tflite::ReducerOptionsT());
    TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
    XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
    const std::vector<uint8_t> model = b.Finish();
    Session s;
    s.Create(model, {delegate.get()});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(s.DelegateNodes(), 0);
    EXPECT_NE(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

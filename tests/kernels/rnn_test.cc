// RNN and UNIDIRECTIONAL_SEQUENCE_RNN: hand-built models run through the
// public C API and compared with closed forms and a double-precision
// formula written here, including the state carried across Invokes and its
// reset, plus the Prepare errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/kernels/recurrent_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;

using Runner = testing::ModelRunner;

using testing::ExpectNear;
using testing::Values;

using testing::ExpectAllocateError;

// ---- RNN ----------------------------------------------------------------------------

ModelBuilder BuildRnn(bool sequence, bool time_major, int batch, int time, int n_input, int units,
                      const std::vector<float>& w, const std::vector<float>& r,
                      const std::vector<float>& bias, tflite::ActivationFunctionType act) {
  ModelBuilder b;
  std::vector<int> shape = {batch, n_input};
  if (sequence) {
    shape = time_major ? std::vector<int>{time, batch, n_input}
                       : std::vector<int>{batch, time, n_input};
  }
  const int input = b.AddInput(tflite::TensorType_FLOAT32, shape, "input");
  const int wt = b.AddConstant<float>({units, n_input}, w);
  const int rt = b.AddConstant<float>({units, units}, r);
  const int bt = b.AddConstant<float>({units}, bias);
  const int h = b.AddTensor(tflite::TensorType_FLOAT32, {batch, units}, "hidden");
  b.SetVariable(h);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  if (sequence) {
    tflite::SequenceRNNOptionsT o;
    o.time_major = time_major;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN, {input, wt, rt, bt, h},
                  {output}, o);
  } else {
    tflite::RNNOptionsT o;
    o.fused_activation_function = act;
    b.AddOperator(tflite::BuiltinOperator_RNN, {input, wt, rt, bt, h}, {output}, o);
  }
  return b;
}

// One unit, one input: h1 = tanh(w x1 + b), h2 = tanh(w x2 + r h1 + b).
TEST(RnnTest, ClosedFormStatePersistsAndResets) {
  ModelBuilder b = BuildRnn(false, true, 1, 1, 1, 1, {0.5f}, {-2.0f}, {0.25f},
                            tflite::ActivationFunctionType_TANH);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set(0, std::vector<float>{1.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  const double h1 = std::tanh(0.5 + 0.25);
  ExpectNear(r.Get<float>(), {h1}, 1e-6);
  r.Set(0, std::vector<float>{-1.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  ExpectNear(r.Get<float>(), {std::tanh(-0.5 - 2.0 * h1 + 0.25)}, 1e-6);
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, std::vector<float>{1.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  ExpectNear(r.Get<float>(), {h1}, 1e-6);
}

void CheckSequenceRnn(bool time_major) {
  const int batch = 2, time = 3, n_input = 2, units = 3;
  const std::vector<float> w = Values(units * n_input, 1), rw = Values(units * units, 2),
                           bias = Values(units, 3);
  ModelBuilder b = BuildRnn(true, time_major, batch, time, n_input, units, w, rw, bias,
                            tflite::ActivationFunctionType_RELU);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<float> x = Values(batch * time * n_input, 4, 2.0f);
  r.Set(0, x);
  ASSERT_TRUE(r.Invoke()) << r.log();
  std::vector<double> want(batch * time * units);
  for (int bt = 0; bt < batch; ++bt) {
    std::vector<double> h(units, 0.0);
    for (int t = 0; t < time; ++t) {
      const int row = time_major ? t * batch + bt : bt * time + t;
      std::vector<double> nh(units);
      for (int u = 0; u < units; ++u) {
        double v = bias[u];
        for (int k = 0; k < n_input; ++k) v += w[u * n_input + k] * x[row * n_input + k];
        for (int k = 0; k < units; ++k) v += rw[u * units + k] * h[k];
        nh[u] = std::fmax(0.0, v);
      }
      h = nh;
      std::copy(h.begin(), h.end(), want.begin() + row * units);
    }
  }
  ExpectNear(r.Get<float>(), want, 1e-5);
  EXPECT_EQ(r.Shape(), time_major ? (std::vector<int>{time, batch, units})
                                  : (std::vector<int>{batch, time, units}));
}

TEST(SequenceRnnTest, TimeMajor) { CheckSequenceRnn(true); }
TEST(SequenceRnnTest, BatchMajor) { CheckSequenceRnn(false); }

TEST(RnnTest, RejectsBadShapesAndMixedWeightTypes) {
  {
    ModelBuilder b = BuildRnn(false, true, 1, 1, 2, 2, Values(4, 1), Values(4, 2), Values(2, 3),
                              tflite::ActivationFunctionType_TANH);
    b.op(0).inputs[3] = b.AddConstant<float>({3}, Values(3, 3));  // 3 biases for 2 units
    ExpectAllocateError(b, "bias must be [2]");
  }
  {
    ModelBuilder b = BuildRnn(false, true, 1, 1, 2, 2, Values(4, 1), Values(4, 2), Values(2, 3),
                              tflite::ActivationFunctionType_TANH);
    const int t = b.AddConstant<int8_t>(tflite::TensorType_INT8, {2, 2}, std::vector<int8_t>(4, 1));
    b.SetQuantization(t, {{0.1f}, {0}, 0});
    b.op(0).inputs[1] = t;
    ExpectAllocateError(b, "must have one type");
  }
  {
    ModelBuilder b = BuildRnn(false, true, 1, 1, 2, 2, Values(4, 1), Values(4, 2), Values(2, 3),
                              tflite::ActivationFunctionType_TANH);
    b.SetVariable(b.op(0).inputs[4], false);
    ExpectAllocateError(b, "variable");
  }
}

}  // namespace
}  // namespace tflite_c

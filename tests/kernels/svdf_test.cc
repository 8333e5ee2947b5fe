// SVDF: hand-built float and int8 models run through the public C API and
// compared with a straightforward double-precision formula written here,
// including the state carried across Invokes, plus the Prepare errors.
#include <gtest/gtest.h>

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

// ---- SVDF -------------------------------------------------------------------------

ModelBuilder BuildSvdf(int batch, int n_input, int n_filter, int memory, int rank,
                       const std::vector<float>& wf, const std::vector<float>& wt,
                       const std::vector<float>& bias, tflite::ActivationFunctionType act) {
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_FLOAT32, {batch, n_input}, "input");
  const int f = b.AddConstant<float>({n_filter, n_input}, wf);
  const int t = b.AddConstant<float>({n_filter, memory}, wt);
  const int bi = bias.empty() ? -1 : b.AddConstant<float>({n_filter / rank}, bias);
  const int state = b.AddTensor(tflite::TensorType_FLOAT32, {batch, n_filter * memory}, "state");
  b.SetVariable(state);
  const int output = b.AddOutput(tflite::TensorType_FLOAT32, {}, "output");
  tflite::SVDFOptionsT o;
  o.rank = rank;
  o.fused_activation_function = act;
  b.AddOperator(tflite::BuiltinOperator_SVDF, {input, f, t, bi, state}, {output}, o);
  return b;
}

// Memory 3, rank 2 (2 units of 2 filters): the output after each step is
// bias + sum over the unit's filters of the time weights applied to the last
// three feature projections (older ones are zero).
TEST(SvdfTest, FloatRankTwoOverThreeSteps) {
  const int n_input = 2, n_filter = 4, memory = 3, rank = 2;
  const std::vector<float> wf = {1, 0, 0, 1, 1, 1, 1, -1};
  const std::vector<float> wt = {1, 2, 3, 0.5, 0.25, 1, -1, 0, 1, 2, 2, 2};
  const std::vector<float> bias = {0.5f, -0.5f};
  ModelBuilder b = BuildSvdf(1, n_input, n_filter, memory, rank, wf, wt, bias,
                             tflite::ActivationFunctionType_NONE);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  const std::vector<std::vector<float>> xs = {{1, 2}, {-1, 3}, {0.5, 0.5}, {2, 0}};
  std::vector<std::vector<double>> history;  // feature projections per step
  for (const auto& x : xs) {
    std::vector<double> p(n_filter);
    for (int f = 0; f < n_filter; ++f) p[f] = wf[f * 2] * x[0] + wf[f * 2 + 1] * x[1];
    history.push_back(p);
    r.Set(0, x);
    ASSERT_TRUE(r.Invoke()) << r.log();
    std::vector<double> want = {bias[0], bias[1]};
    for (int f = 0; f < n_filter; ++f) {
      for (int m = 0; m < memory; ++m) {
        // Slot memory-1 is the newest step, slot 0 the oldest kept.
        const int age = memory - 1 - m;
        if (age >= static_cast<int>(history.size())) continue;
        want[f / rank] += wt[f * memory + m] * history[history.size() - 1 - age][f];
      }
    }
    EXPECT_EQ(r.Shape(), (std::vector<int>{1, 2}));
    ExpectNear(r.Get<float>(), want, 1e-5);
  }
  ASSERT_TRUE(r.ResetVariables());
  r.Set(0, xs[0]);
  ASSERT_TRUE(r.Invoke());
  const double p0 = 1, p1 = 2, p2 = 3, p3 = -1;  // projections of {1, 2}
  ExpectNear(r.Get<float>(), {0.5 + 3 * p0 + 1 * p1, -0.5 + 1 * p2 + 2 * p3}, 1e-5);
}

TEST(SvdfTest, FloatReluAndNoBias) {
  ModelBuilder b = BuildSvdf(2, 1, 1, 1, 1, {1}, {2}, {}, tflite::ActivationFunctionType_RELU);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set(0, std::vector<float>{1.5f, -2.0f});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{3.0f, 0.0f}));
}

TEST(SvdfTest, Int8MatchesRescaledFormula) {
  // 1 input, 1 filter, memory 2: state = round(x * s1), out = round(state . wt * s2) + zp.
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_INT8, {1, 1}, "input");
  b.SetQuantization(input, {{0.5f}, {-1}, 0});
  const int f = b.AddConstant<int8_t>(tflite::TensorType_INT8, {1, 1}, std::vector<int8_t>{4});
  b.SetQuantization(f, {{0.25f}, {0}, 0});
  const int t = b.AddConstant<int16_t>(tflite::TensorType_INT16, {1, 2}, std::vector<int16_t>{3, 5});
  b.SetQuantization(t, {{0.5f}, {0}, 0});
  const int bias = b.AddConstant<int32_t>({1}, std::vector<int32_t>{10});
  const int state = b.AddTensor(tflite::TensorType_INT16, {1, 2}, "state");
  b.SetVariable(state);
  b.SetQuantization(state, {{0.125f}, {0}, 0});
  const int output = b.AddOutput(tflite::TensorType_INT8, {}, "output");
  b.SetQuantization(output, {{1.0f}, {-128}, 0});
  tflite::SVDFOptionsT o;
  o.rank = 1;
  o.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_SVDF, {input, f, t, bias, state}, {output}, o);
  Runner r(b);
  ASSERT_TRUE(r.Allocate()) << r.log();
  // Step 1: x = 3 (real 2): feature acc = 4 * (3 + 1) = 16, * 0.5*0.25/0.125 = 16.
  // state = [0, 16]; time acc = 5 * 16 + bias 10 = 90; * 0.125*0.5/1 = 5.625 -> 6; -128 -> -122.
  r.Set(0, std::vector<int8_t>{3});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int8_t>(), (std::vector<int8_t>{-122}));
  // Step 2: x = 0: feature acc = 4; state = [16, 4]; acc = 3*16 + 5*4 + 10 = 78 -> 4.875 -> 5.
  r.Set(0, std::vector<int8_t>{0});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int8_t>(), (std::vector<int8_t>{-123}));
}

TEST(SvdfTest, RejectsBadRankShapeTypeAndState) {
  {
    ModelBuilder b = BuildSvdf(1, 2, 3, 2, 2, Values(6, 1), Values(6, 2), {},
                               tflite::ActivationFunctionType_NONE);
    ExpectAllocateError(b, "rank 2 must be positive and divide");
  }
  {
    ModelBuilder b = BuildSvdf(1, 2, 2, 2, 1, Values(4, 1), Values(4, 2), {},
                               tflite::ActivationFunctionType_NONE);
    b.tensor(b.op(0).inputs[4]).shape = {1, 3};
    ExpectAllocateError(b, "state must be");
  }
  {
    ModelBuilder b = BuildSvdf(1, 2, 2, 2, 1, Values(4, 1), Values(4, 2), {},
                               tflite::ActivationFunctionType_NONE);
    b.SetVariable(b.op(0).inputs[4], false);
    ExpectAllocateError(b, "variable");
  }
  {
    ModelBuilder b = BuildSvdf(1, 2, 2, 2, 1, Values(4, 1), Values(4, 2), {},
                               tflite::ActivationFunctionType_NONE);
    b.tensor(0).type = tflite::TensorType_INT32;
    ExpectAllocateError(b, "not supported");
  }
}

}  // namespace
}  // namespace tflite_c

// Operators whose model carries no options table. The option parser decides
// once per operator (src/core/builtin_data.h): either the kernel gets the
// parameter struct zero-filled, as TensorFlow Lite 2.19 does, or the model
// fails to load naming the operator (BuiltinOptionsRequired). Each case here
// builds a one-op model without options and checks the outcome: outputs
// computed by hand with the zero defaults (activation NONE, axis 0, beta 0,
// alpha 0, keep_dims false, ...), or the Prepare / load error when those
// defaults are invalid for the op or the options are required.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "src/core/builtin_data.h"
#include "src/core/interpreter.h"
#include "src/kernels/register.h"
#include "tests/util/capturing_reporter.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

using namespace testing::names;  // NOLINT(build/namespaces)

using Floats = std::vector<float>;

// ---- zero defaults: the op runs ---------------------------------------------

// beta 0: every logit weighs exp(0), so each row is uniform.
TEST(BuiltinDataMissingOptions, SoftmaxUsesBetaZero) {
  OneOpModel m;
  m.Input(F32, {1, 4});
  m.Output(F32, {1, 4});
  m.Op(tflite::BuiltinOperator_SOFTMAX);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 10});
  ASSERT_TRUE(m.Invoke()) << m.log();
  for (float v : m.Get<float>()) EXPECT_FLOAT_EQ(v, 0.25f);
}

// alpha 0: negative inputs become zero (not upstream's TF default 0.2).
TEST(BuiltinDataMissingOptions, LeakyReluUsesAlphaZero) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Output(F32, {3});
  m.Op(tflite::BuiltinOperator_LEAKY_RELU);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-2, 0.5f, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats out = m.Get<float>();
  EXPECT_FLOAT_EQ(out[0], 0.0f);
  EXPECT_FLOAT_EQ(out[1], 0.5f);
  EXPECT_FLOAT_EQ(out[2], 3.0f);
}

// No fused activation: results outside [0, 6] and negative ones stay.
TEST(BuiltinDataMissingOptions, AddSubMulDivHaveNoActivation) {
  struct Case {
    tflite::BuiltinOperator op;
    Floats expected;  // of {-3, 8} op {2, -1}
  };
  for (const Case& c :
       {Case{tflite::BuiltinOperator_ADD, {-1, 7}}, Case{tflite::BuiltinOperator_SUB, {-5, 9}},
        Case{tflite::BuiltinOperator_MUL, {-6, -8}},
        Case{tflite::BuiltinOperator_DIV, {-1.5f, -8}}}) {
    OneOpModel m;
    m.Input(F32, {2});
    m.Input(F32, {2});
    m.Output(F32, {2});
    m.Op(c.op);
    ASSERT_TRUE(m.Allocate()) << tflite::EnumNameBuiltinOperator(c.op) << m.log();
    m.Set<float>(0, {-3, 8});
    m.Set<float>(1, {2, -1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), c.expected) << tflite::EnumNameBuiltinOperator(c.op);
  }
}

// axis 0.
TEST(BuiltinDataMissingOptions, ConcatenationJoinsAlongAxisZero) {
  OneOpModel m;
  m.Input(F32, {1, 2});
  m.Input(F32, {2, 2});
  m.Output(F32, {3, 2});
  m.Op(tflite::BuiltinOperator_CONCATENATION);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-1, 2});
  m.Set<float>(1, {3, 4, 5, -6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{-1, 2, 3, 4, 5, -6}));
}

// axis 0, batch_dims 0.
TEST(BuiltinDataMissingOptions, GatherUsesAxisZero) {
  OneOpModel m;
  m.Input(F32, {3, 2});
  m.Const<int32_t>({2}, {2, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_GATHER);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{5, 6, 1, 2}));
}

// keep_dims false: the reduced axis disappears.
TEST(BuiltinDataMissingOptions, MeanDropsTheReducedAxis) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Const<int32_t>({1}, {1});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_MEAN);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2}));
  EXPECT_EQ(m.Get<float>(), (Floats{1.5f, 3.5f}));
}

// No activation, keep_num_dims false, default weights format.
TEST(BuiltinDataMissingOptions, FullyConnectedHasNoActivation) {
  OneOpModel m;
  m.Input(F32, {1, 2});
  m.Const<float>({2, 2}, {1, 2, -3, 1});
  m.Const<float>({2}, {0.5f, -10});
  m.Output(F32, {1, 2});
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // {1*3 + 2*4 + 0.5, -3*3 + 1*4 - 10}
  EXPECT_EQ(m.Get<float>(), (Floats{11.5f, -15}));
}

// exclusive and reverse both false: the plain running sum.
TEST(BuiltinDataMissingOptions, CumsumIsInclusiveAndForward) {
  OneOpModel m;
  m.Input(F32, {4});
  m.Const<int32_t>({}, {0});
  m.Output(F32, {4});
  m.Op(tflite::BuiltinOperator_CUMSUM);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, -4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{1, 3, 6, 2}));
}

// adj_x and adj_y false.
TEST(BuiltinDataMissingOptions, BatchMatMulDoesNotTranspose) {
  OneOpModel m;
  m.Input(F32, {1, 2});
  m.Input(F32, {2, 2});
  m.Output(F32, {1, 2});
  m.Op(tflite::BuiltinOperator_BATCH_MATMUL);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2});
  m.Set<float>(1, {3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{13, 16}));  // {1*3 + 2*5, 1*4 + 2*6}
}

// approximate false: the erf form, 0.5 x (1 + erf(x / sqrt(2))).
TEST(BuiltinDataMissingOptions, GeluIsExact) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_GELU);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  const Floats out = m.Get<float>();
  for (int i = 0; i < 2; ++i) {
    const double x = i == 0 ? 1.0 : -2.0;
    EXPECT_NEAR(out[i], 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))), 1e-6);
  }
}

// axis 0 (upstream's zero, not the TensorFlow default -1): the one-hot
// dimension comes first.
TEST(BuiltinDataMissingOptions, OneHotPutsDepthFirst) {
  OneOpModel m;
  m.Input(I32, {2});
  m.Const<int32_t>({}, {3});
  m.Const<float>({}, {1});
  m.Const<float>({}, {0});
  m.Output(F32, {3, 2});
  m.Op(tflite::BuiltinOperator_ONE_HOT);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {0, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 2}));
  EXPECT_EQ(m.Get<float>(), (Floats{1, 0, 0, 0, 0, 1}));
}

// No squeeze_dims: every dimension of size 1 goes.
TEST(BuiltinDataMissingOptions, SqueezeDropsEveryUnitDimension) {
  OneOpModel m;
  m.Input(F32, {1, 2, 1});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_SQUEEZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {7, -8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2}));
  EXPECT_EQ(m.Get<float>(), (Floats{7, -8}));
}

// The shape input decides; without one, new_shape is empty: a scalar.
TEST(BuiltinDataMissingOptions, ReshapeTakesTheShapeInputOrMakesAScalar) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2});
    m.Const<int32_t>({2}, {4, 1});
    m.Output(F32, {4, 1});
    m.Op(tflite::BuiltinOperator_RESHAPE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{4, 1}));
  }
  {
    OneOpModel m;
    m.Input(F32, {1, 1});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_RESHAPE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {-2.5f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_TRUE(m.Shape().empty());
    EXPECT_EQ(m.Get<float>(), (Floats{-2.5f}));
  }
}

// ---- zero defaults the op cannot use: Prepare fails ----------------------------

TEST(BuiltinDataMissingOptions, ZeroCountsAndSizesFailInPrepare) {
  {
    OneOpModel m;  // num_splits 0
    m.Const<int32_t>({}, {0});
    m.Input(F32, {2});
    m.Output(F32, {1});
    m.Output(F32, {1});
    m.Op(tflite::BuiltinOperator_SPLIT);
    ExpectPrepareError(m, "SPLIT: num_splits 0 does not match the 2 outputs");
  }
  {
    OneOpModel m;  // values_count 0
    m.Input(F32, {2});
    m.Input(F32, {2});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_PACK);
    ExpectPrepareError(m, "PACK: values_count 0 does not match the 2 inputs");
  }
  {
    OneOpModel m;  // num 0
    m.Input(F32, {2, 2});
    m.Output(F32, {2});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_UNPACK);
    ExpectPrepareError(m, "UNPACK: num 0 does not match the 2 outputs");
  }
  {
    OneOpModel m;  // block_size 0
    m.Input(F32, {1, 2, 2, 1});
    m.Output(F32, {1, 1, 1, 4});
    m.Op(tflite::BuiltinOperator_SPACE_TO_DEPTH);
    ExpectPrepareError(m, "SPACE_TO_DEPTH: block_size must be positive, got 0");
  }
  {
    OneOpModel m;  // out_type NOTYPE, refused as upstream's kernel does
    m.Input(F32, {2, 3});
    m.Output(I32, {2});
    m.Op(tflite::BuiltinOperator_SHAPE);
    ExpectPrepareError(m, "SHAPE: out_type type NOTYPE is not supported");
  }
}

TEST(BuiltinDataMissingOptions, ZeroWindowsFailInPrepare) {
  {
    OneOpModel m;  // padding 0 (neither SAME nor VALID), strides 0
    m.Input(F32, {1, 3, 3, 1});
    m.Const<float>({1, 1, 1, 1}, {1});
    m.Const<float>({1}, {0});
    m.Output(F32, {1, 3, 3, 1});
    m.Op(tflite::BuiltinOperator_CONV_2D);
    ExpectPrepareError(m, "CONV_2D: padding 0 is not SAME or VALID");
  }
  {
    OneOpModel m;  // padding 0, filter 0x0, strides 0
    m.Input(F32, {1, 2, 2, 1});
    m.Output(F32, {1, 1, 1, 1});
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D);
    ExpectPrepareError(m, "AVERAGE_POOL_2D: padding 0 is not SAME or VALID");
  }
}

// ---- options required: the model does not load --------------------------------

TEST(BuiltinDataMissingOptions, RequiredOptionsFailTheLoadNamingTheOperator) {
  for (tflite::BuiltinOperator op :
       {tflite::BuiltinOperator_LSTM, tflite::BuiltinOperator_STABLEHLO_PAD,
        tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW,
        tflite::BuiltinOperator_STABLEHLO_COMPOSITE, tflite::BuiltinOperator_STABLEHLO_CASE}) {
    OneOpModel m;
    m.Input(F32, {2});
    m.Output(F32, {2});
    m.Op(op);
    const std::string name = tflite::EnumNameBuiltinOperator(op);
    ExpectPrepareError(m, name + ": the operator has no options table, which it requires.");
  }
}

// ---- a node built by hand without its struct -------------------------------------

// Only the runtime's own API can build such a node; every kernel that reads
// builtin_data refuses it in Prepare with the same message (one sample per
// kind of kernel: a scaffolded binary op, a unary hook, a plain Prepare).
TEST(BuiltinDataMissingOptions, HandBuiltNodeWithoutParamsFailsInPrepare) {
  struct Case {
    const TfLiteRegistration* registration;
    int inputs;
    const char* message;
  };
  for (const Case& c :
       {Case{kernels::Register_ADD(), 2, "ADD: the node has no builtin parameters"},
        Case{kernels::Register_LEAKY_RELU(), 1, "LEAKY_RELU: the node has no builtin parameters"},
        Case{kernels::Register_SOFTMAX(), 1, "SOFTMAX: the node has no builtin parameters"}}) {
    CapturingReporter reporter;
    Interpreter interpreter(&reporter);
    Subgraph& sg = interpreter.primary();
    const TfLiteQuantization none{kTfLiteNoQuantization, nullptr};
    ASSERT_EQ(sg.AddTensors(c.inputs + 1), kTfLiteOk);
    std::vector<int> inputs;
    for (int t = 0; t <= c.inputs; ++t) {
      ASSERT_EQ(sg.SetTensorParametersReadWrite(t, kTfLiteFloat32, "t", {2}, none, false),
                kTfLiteOk);
      if (t < c.inputs) inputs.push_back(t);
    }
    ASSERT_EQ(sg.AddNodeWithParameters(inputs, {c.inputs}, {}, nullptr, 0, nullptr, c.registration),
              kTfLiteOk);
    ASSERT_EQ(sg.SetInputs(inputs), kTfLiteOk);
    ASSERT_EQ(sg.SetOutputs({c.inputs}), kTfLiteOk);
    EXPECT_NE(sg.AllocateTensors(), kTfLiteOk);
    EXPECT_NE(reporter.text.find(c.message), std::string::npos) << reporter.text;
  }
}

// The list is upstream's: exactly these five among every operator code.
TEST(BuiltinDataMissingOptions, RequiredListIsUpstreams) {
  std::vector<std::string> required;
  for (int code = tflite::BuiltinOperator_MIN; code <= tflite::BuiltinOperator_MAX; ++code) {
    const auto op = static_cast<tflite::BuiltinOperator>(code);
    if (BuiltinOptionsRequired(op)) required.push_back(tflite::EnumNameBuiltinOperator(op));
  }
  EXPECT_EQ(required, (std::vector<std::string>{"LSTM", "STABLEHLO_PAD", "STABLEHLO_REDUCE_WINDOW",
                                                "STABLEHLO_COMPOSITE", "STABLEHLO_CASE"}));
}

}  // namespace
}  // namespace tflite_c

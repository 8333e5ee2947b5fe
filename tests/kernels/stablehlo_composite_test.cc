// STABLEHLO_COMPOSITE: runs its decomposition subgraph; errors for a bad
// subgraph index or input count.
#include <gtest/gtest.h>

#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

constexpr auto F32 = tflite::TensorType_FLOAT32;

using Floats = std::vector<float>;

// ---- STABLEHLO_COMPOSITE ------------------------------------------------------------

tflite::StableHLOCompositeOptionsT CompositeOpts(int subgraph) {
  tflite::StableHLOCompositeOptionsT o;
  o.name = "test.square_plus";
  o.decomposition_subgraph_index = subgraph;
  o.composite_attributes = {0x00, 0x00, 0x01};  // not interpreted
  o.version = 1;
  return o;
}

// Subgraph 0: out = COMPOSITE(x [2,2], b [2]) with decomposition `subgraph`.
// Subgraph 1: x * x + b (b broadcast over rows).
void BuildComposite(OneOpModel& m, int subgraph, int sub_inputs = 2) {
  const int x = m.Input(F32, {2, 2});
  const int b = m.Input(F32, {2});
  const int out = m.Output(F32, {2, 2});
  testing::ModelBuilder& mb = m.builder();
  mb.AddOperator(tflite::BuiltinOperator_STABLEHLO_COMPOSITE, {x, b}, {out},
                 CompositeOpts(subgraph));
  mb.SetCurrentSubgraph(mb.AddSubgraph("decomposition"));
  const int sx = mb.AddInput(F32, {2, 2});
  const int sb = sub_inputs > 1 ? mb.AddInput(F32, {2}) : mb.AddConstant<float>({2}, {0, 0});
  const int sq = mb.AddTensor(F32, {2, 2});
  const int sy = mb.AddOutput(F32, {2, 2});
  tflite::MulOptionsT mul;
  mb.AddOperator(tflite::BuiltinOperator_MUL, {sx, sx}, {sq}, mul);
  tflite::AddOptionsT add;
  mb.AddOperator(tflite::BuiltinOperator_ADD, {sq, sb}, {sy}, add);
  mb.SetCurrentSubgraph(0);
}

TEST(StablehloCompositeTest, RunsTheDecompositionSubgraph) {
  OneOpModel m;
  BuildComposite(m, 1);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2, 3, 0.5f});
  m.Set<float>(1, {10, 20});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{11, 24, 19, 20.25f}));
  // A second run with new values reuses the prepared subgraph.
  m.Set<float>(0, {0, 1, 2, 3});
  m.Set<float>(1, {-1, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{-1, 2, 3, 10}));
}

TEST(StablehloCompositeTest, Errors) {
  {
    OneOpModel m;
    BuildComposite(m, 5);  // rejected when the model is checked (reported elsewhere)
    EXPECT_FALSE(m.Allocate());
  }
  {
    OneOpModel m;
    BuildComposite(m, 0);  // itself
    ExpectPrepareError(m, "STABLEHLO_COMPOSITE");
  }
  {
    OneOpModel m;
    BuildComposite(m, 1, /*sub_inputs=*/1);
    ExpectPrepareError(m, "the op has 2 inputs and 1 outputs but subgraph 1 has 1 and 1");
  }
}

}  // namespace
}  // namespace tflite_c

// The integer 8x8->16 sequence LSTM (5 intermediates) refuses input, output
// state and hidden zero points outside the int8 range: the kernel folds them
// into int32 bias sums and offsets, which such values would overflow. A
// model with in-range zero points still prepares and runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;
using Runner = testing::ModelRunner;

struct Zps {
  int32_t input = 0, output_state = 0, hidden = 0;
};

// One time step, batch 1, 2 inputs, 2 cells, 2 outputs; no CIFG, peephole,
// layer norm or projection.
ModelBuilder Build(const Zps& z) {
  constexpr int kIn = 2, kCell = 2, kOut = 2;
  ModelBuilder b;
  const int input = b.AddInput(tflite::TensorType_INT8, {1, 1, kIn}, "input");
  b.SetQuantization(input, {{1.0f / 128}, {z.input}, 0});
  std::vector<int> ins(24, -1);
  ins[0] = input;
  for (int g = 0; g < 4; ++g) {
    ins[1 + g] = b.AddConstant<int8_t>(tflite::TensorType_INT8, {kCell, kIn}, {10, -20, 30, 5});
    b.SetQuantization(ins[1 + g], {{1.0f / 64}, {0}, 0});
    ins[5 + g] = b.AddConstant<int8_t>(tflite::TensorType_INT8, {kCell, kOut}, {-3, 7, 2, 9});
    b.SetQuantization(ins[5 + g], {{1.0f / 64}, {0}, 0});
    ins[12 + g] = b.AddConstant<int32_t>({kCell}, {100, -100});
  }
  ins[18] = b.AddTensor(tflite::TensorType_INT8, {1, kOut}, "output_state");
  b.SetVariable(ins[18]);
  b.SetQuantization(ins[18], {{1.0f / 128}, {z.output_state}, 0});
  ins[19] = b.AddTensor(tflite::TensorType_INT16, {1, kCell}, "cell_state");
  b.SetVariable(ins[19]);
  b.SetQuantization(ins[19], {{1.0f / 4096}, {0}, 0});
  const int output = b.AddOutput(tflite::TensorType_INT8, {}, "output");
  b.SetQuantization(output, {{1.0f / 128}, {0}, 0});
  std::vector<int> inter;
  for (int i = 0; i < 4; ++i) {
    inter.push_back(b.AddTensor(tflite::TensorType_INT16, {0}));
    b.SetQuantization(inter.back(), {{1.0f / 4096}, {0}, 0});
  }
  inter.push_back(b.AddTensor(tflite::TensorType_INT8, {0}));
  b.SetQuantization(inter[4], {{1.0f / 128}, {z.hidden}, 0});
  tflite::UnidirectionalSequenceLSTMOptionsT o;
  o.fused_activation_function = tflite::ActivationFunctionType_TANH;
  b.AddOperator(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {output}, o);
  b.op(0).intermediates = inter;
  return b;
}

TEST(LstmIntegerZeroPoints, InRangeZeroPointsRun) {
  Zps z;
  z.input = -128;
  z.output_state = 127;
  z.hidden = -5;
  Runner r(Build(z));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<int8_t>(0, {40, -70});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<int8_t>().size(), 2u);
}

TEST(LstmIntegerZeroPoints, OutOfRangeZeroPointsAreRefused) {
  struct Bad {
    Zps z;
    std::string message;
  };
  Zps input, state, hidden;
  input.input = std::numeric_limits<int32_t>::min();
  state.output_state = 1000;
  hidden.hidden = -129;
  const std::vector<Bad> bad = {
      {input, "input 0 zero point -2147483648 is outside the INT8 range"},
      {state, "input 18 zero point 1000 is outside the INT8 range"},
      {hidden, "hidden intermediate zero point -129 is outside the INT8 range"},
  };
  for (const Bad& c : bad) {
    SCOPED_TRACE(c.message);
    Runner r(Build(c.z));
    EXPECT_FALSE(r.Allocate());
    EXPECT_NE(r.log().find(c.message), std::string::npos) << r.log();
  }
}

}  // namespace
}  // namespace tflite_c

// Op table cases: the ops that name other subgraphs of the model (IF, WHILE,
// STABLEHLO_CASE, STABLEHLO_COMPOSITE, and the bodies of
// STABLEHLO_REDUCE_WINDOW and STABLEHLO_SCATTER). Each case builds its
// subgraphs after the operator (subgraph 1, 2, ...). Expected values are
// hand-computed, or the StableHLO specification's reduce_window example.
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {
namespace {

using testing::ModelBuilder;

constexpr auto kF32 = tflite::TensorType_FLOAT32;
constexpr auto kBool = tflite::TensorType_BOOL;
constexpr auto kI64 = tflite::TensorType_INT64;
// A subgraph whose output is its last input (no operator).
constexpr auto kPassLast = tflite::BuiltinOperator_CUSTOM;

std::vector<OpCase> WithSubgraphs(std::vector<OpCase> cases,
                                  std::function<void(ModelBuilder&)> build) {
  for (OpCase& c : cases) c.subgraphs = build;
  return cases;
}

tflite::BuiltinOptionsUnion OptionsOf(BuiltinOperator op) {
  if (op == tflite::BuiltinOperator_ADD) return Opts(tflite::AddOptionsT{});
  if (op == tflite::BuiltinOperator_MUL) return Opts(tflite::MulOptionsT{});
  return {};
}

// Adds a subgraph of `arity` inputs of `type` and `shape` whose output is
// op(first input, last input) (kPassLast: the last input itself).
void AddSubgraph(ModelBuilder& b, BuiltinOperator op, TensorType type, std::vector<int> shape,
                 int arity) {
  b.SetCurrentSubgraph(b.AddSubgraph());
  std::vector<int> in;
  for (int i = 0; i < arity; ++i) in.push_back(b.AddInput(type, shape));
  if (op == kPassLast) {
    b.SetOutputs({in.back()});
    return;
  }
  const int out = b.AddOutput(type, shape);
  b.AddOperator(op, {in.front(), in.back()}, {out}, OptionsOf(op));
}

// Branches 1: x + x and 2: x * x over FLOAT32 [2].
void TwiceAndSquare(ModelBuilder& b) {
  AddSubgraph(b, tflite::BuiltinOperator_ADD, kF32, {2}, 1);
  AddSubgraph(b, tflite::BuiltinOperator_MUL, kF32, {2}, 1);
}

tflite::BuiltinOptionsUnion IfOpts() {
  tflite::IfOptionsT o;
  o.then_subgraph_index = 1;
  o.else_subgraph_index = 2;
  return Opts(o);
}

tflite::BuiltinOptionsUnion WhileOpts() {
  tflite::WhileOptionsT o;
  o.cond_subgraph_index = 1;
  o.body_subgraph_index = 2;
  return Opts(o);
}

// WHILE (x < 10) x = x + 3, over INT32 [1].
void CountBy3To10(ModelBuilder& b) {
  b.SetCurrentSubgraph(b.AddSubgraph("cond"));
  const int x = b.AddInput(tflite::TensorType_INT32, {1});
  const int limit = b.AddConstant<int32_t>({1}, {10});
  b.AddOperator(tflite::BuiltinOperator_LESS, {x, limit}, {b.AddOutput(kBool, {1})});
  b.SetCurrentSubgraph(b.AddSubgraph("body"));
  const int y = b.AddInput(tflite::TensorType_INT32, {1});
  const int step = b.AddConstant<int32_t>({1}, {3});
  b.AddOperator(tflite::BuiltinOperator_ADD, {y, step},
                {b.AddOutput(tflite::TensorType_INT32, {1})}, OptionsOf(tflite::BuiltinOperator_ADD));
}

// The decomposition x * x + b, x [2, 2], b [2] broadcast over rows.
void SquarePlus(ModelBuilder& b) {
  b.SetCurrentSubgraph(b.AddSubgraph("decomposition"));
  const int x = b.AddInput(kF32, {2, 2});
  const int bias = b.AddInput(kF32, {2});
  const int sq = b.AddTensor(kF32, {2, 2});
  b.AddOperator(tflite::BuiltinOperator_MUL, {x, x}, {sq}, OptionsOf(tflite::BuiltinOperator_MUL));
  b.AddOperator(tflite::BuiltinOperator_ADD, {sq, bias}, {b.AddOutput(kF32, {2, 2})},
                OptionsOf(tflite::BuiltinOperator_ADD));
}

// clang-format off
std::vector<OpCase> ControlFlowCases() {
  constexpr auto kIf = tflite::BuiltinOperator_IF;
  constexpr auto kWhile = tflite::BuiltinOperator_WHILE;
  std::vector<OpCase> cases = WithSubgraphs(Cases({
      {"Then", kIf, IfOpts(), {In({1}, {1}, kBool), F32({2}, {3, -4})}, F32({2}, {6, -8})},
      {"Else", kIf, IfOpts(), {In({1}, {0}, kBool), F32({2}, {3, -4})}, F32({2}, {9, 16})},
      {"ConditionNotBool", kIf, IfOpts(), {F32({1}, {1}), F32({2}, {3, -4})}, F32({2}, {}),
       Outcome::kPrepareFails, "condition must be a single BOOL"},
  }), TwiceAndSquare);
  // 1 -> 4 -> 7 -> 10; a start past the limit runs no step.
  Append(&cases, WithSubgraphs(Cases({
      {"ThreeSteps", kWhile, WhileOpts(), {I32({1}, {1})}, I32({1}, {10})},
      {"NoStep", kWhile, WhileOpts(), {I32({1}, {11})}, I32({1}, {11})},
  }), CountBy3To10));
  tflite::StablehloCaseOptionsT branches;
  branches.branch_subgraph_indices = {1, 2};
  // An index outside [0, 2) takes the last branch (the StableHLO rule).
  Append(&cases, WithSubgraphs(WithOptions2(Cases({
      {"First", tflite::BuiltinOperator_STABLEHLO_CASE, {},
       {I32({}, {0}), F32({2}, {3, -4})}, F32({2}, {6, -8})},
      {"Second", tflite::BuiltinOperator_STABLEHLO_CASE, {},
       {I32({}, {1}), F32({2}, {3, -4})}, F32({2}, {9, 16})},
      {"OutOfRangeTakesLast", tflite::BuiltinOperator_STABLEHLO_CASE, {},
       {I32({}, {7}), F32({2}, {3, -4})}, F32({2}, {9, 16})},
      {"IndexNotInt32", tflite::BuiltinOperator_STABLEHLO_CASE, {},
       {F32({}, {0}), F32({2}, {3, -4})}, F32({2}, {}), Outcome::kPrepareFails,
       "index must be a single INT32, got FLOAT32"},
  }), branches), TwiceAndSquare));
  tflite::StableHLOCompositeOptionsT composite;
  composite.name = "test.square_plus";
  composite.decomposition_subgraph_index = 1;
  composite.composite_attributes = {0x00, 0x00, 0x01};  // required, not interpreted
  composite.version = 1;
  Append(&cases, WithSubgraphs(WithOptions2(Cases({
      {"SquarePlus", tflite::BuiltinOperator_STABLEHLO_COMPOSITE, {},
       {F32({2, 2}, {1, -2, 3, 0.5}), F32({2}, {10, 20})}, F32({2, 2}, {11, 24, 19, 20.25})},
  }), composite), SquarePlus));
  return cases;
}

tflite::StablehloReduceWindowOptionsT ReduceWindow(std::vector<int64_t> window,
                                                   std::vector<int64_t> strides,
                                                   std::vector<int64_t> base_dilations,
                                                   std::vector<int64_t> window_dilations,
                                                   std::vector<int64_t> padding) {
  tflite::StablehloReduceWindowOptionsT o;
  o.window_dimensions = std::move(window);
  o.window_strides = std::move(strides);
  o.base_dilations = std::move(base_dilations);
  o.window_dilations = std::move(window_dilations);
  o.padding = std::move(padding);
  o.body_subgraph_index = 1;
  return o;
}

std::vector<OpCase> ReduceWindowBodyCases() {
  constexpr auto kReduceWindow = tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW;
  const double kInf = std::numeric_limits<double>::infinity();
  // The StableHLO specification's reduce_window example: rows dilated by 2
  // and padded by (2, 1), windows of 2 rows with dilation 3, stride 4.
  std::vector<OpCase> cases = WithSubgraphs(WithOptions2(Cases({
      {"SpecificationExample", kReduceWindow, {},
       {In({3, 2}, {1, 2, 3, 4, 5, 6}, kI64), Const(In({}, {0}, kI64))},
       In({2, 2}, {0, 0, 3, 4}, kI64)},
  }), ReduceWindow({2, 1}, {4, 1}, {2, 1}, {3, 1}, {2, 1, 0, 0})),
      [](ModelBuilder& b) { AddSubgraph(b, tflite::BuiltinOperator_STABLEHLO_ADD, kI64, {}, 2); });
  // 2x2 max pooling with stride 2 over a 4x4 matrix.
  Append(&cases, WithSubgraphs(WithOptions2(Cases({
      {"MaxPool2x2", kReduceWindow, {},
       {F32({4, 4}, {1, 5, 2, 0, 3, -1, 7, 8, -4, -3, 0, 0, -2, -9, 1, 0}), Const(F32({}, {-kInf}))},
       F32({2, 2}, {5, 8, -2, 1})},
  }), ReduceWindow({2, 2}, {2, 2}, {1, 1}, {1, 1}, {0, 0, 0, 0})),
      [](ModelBuilder& b) { AddSubgraph(b, tflite::BuiltinOperator_STABLEHLO_MAXIMUM, kF32, {}, 2); }));
  Append(&cases, WithSubgraphs(WithOptions2(Cases({
      {"ZeroStride", kReduceWindow, {},
       {F32({4, 4}, std::vector<double>(16, 0.0)), Const(F32({}, {-kInf}))}, F32({2, 2}, {}),
       Outcome::kPrepareFails, "must be positive"},
  }), ReduceWindow({2, 2}, {2, 0}, {1, 1}, {1, 1}, {0, 0, 0, 0})),
      [](ModelBuilder& b) { AddSubgraph(b, tflite::BuiltinOperator_STABLEHLO_MAXIMUM, kF32, {}, 2); }));
  return cases;
}

// Scatter of scalars into a vector: update i goes to operand[indices[i]].
tflite::StablehloScatterOptionsT ScatterScalars() {
  tflite::StablehloScatterOptionsT o;
  o.inserted_window_dims = {0};
  o.scatter_dims_to_operand_dims = {0};
  o.index_vector_dim = 1;
  o.update_computation_subgraph_index = 1;
  return o;
}

std::vector<OpCase> ScatterCases() {
  constexpr auto kScatter = tflite::BuiltinOperator_STABLEHLO_SCATTER;
  auto operand = [] { return F32({5}, {1, 2, 3, 4, 5}); };
  std::vector<OpCase> cases = WithSubgraphs(WithOptions2(Cases({
      {"Add", kScatter, {}, {operand(), I32({2, 1}, {1, 3}), F32({2}, {10, 20})},
       F32({5}, {1, 12, 3, 24, 5})},
      // Both updates land on element 1; the index 7 is outside and skipped.
      {"AddRepeatedAndOutside", kScatter, {},
       {operand(), I32({3, 1}, {1, 1, 7}), F32({3}, {10, 20, 30})}, F32({5}, {1, 32, 3, 4, 5})},
      {"UpdatesDoNotMatchIndices", kScatter, {},
       {operand(), I32({2, 1}, {1, 3}), F32({3}, {10, 20, 30})}, F32({5}, {}),
       Outcome::kPrepareFails, "must match the scatter_indices dimensions"},
  }), ScatterScalars()),
      [](ModelBuilder& b) { AddSubgraph(b, tflite::BuiltinOperator_STABLEHLO_ADD, kF32, {}, 2); });
  // An update computation that returns the update replaces the element.
  Append(&cases, WithSubgraphs(WithOptions2(Cases({
      {"Replace", kScatter, {}, {operand(), I32({2, 1}, {4, 0}), F32({2}, {10, 20})},
       F32({5}, {20, 2, 3, 4, 10})},
  }), ScatterScalars()),
      [](ModelBuilder& b) { AddSubgraph(b, kPassLast, kF32, {}, 2); }));
  return cases;
}
// clang-format on

}  // namespace

std::vector<OpCase> SubgraphOpCases() {
  std::vector<OpCase> cases;
  for (auto gen : {ControlFlowCases, ReduceWindowBodyCases, ScatterCases}) Append(&cases, gen());
  return cases;
}

}  // namespace op_table
}  // namespace tflite_c

// Op table cases: ops that make or reshape tensors from shapes and counts
// (SHAPE, RANK, FILL, RANGE, BROADCAST_*, ONE_HOT, MATRIX_*DIAG, MIRROR_PAD,
// PADV2, SPLIT_V, REVERSE_SEQUENCE, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND).
// Expected values are hand-computed.
#include <vector>

#include "tests/kernels/op_table/harness.h"

namespace tflite_c {
namespace op_table {

namespace {

tflite::BuiltinOptionsUnion MirrorPad(tflite::MirrorPadMode mode) {
  tflite::MirrorPadOptionsT o;
  o.mode = mode;
  return Opts(o);
}

tflite::BuiltinOptionsUnion OneHot(int axis) {
  tflite::OneHotOptionsT o;
  o.axis = axis;
  return Opts(o);
}

tflite::BuiltinOptionsUnion Shape(TensorType out) {
  tflite::ShapeOptionsT o;
  o.out_type = out;
  return Opts(o);
}

tflite::BuiltinOptionsUnion ReverseSequence(int seq_dim, int batch_dim) {
  tflite::ReverseSequenceOptionsT o;
  o.seq_dim = seq_dim;
  o.batch_dim = batch_dim;
  return Opts(o);
}

tflite::BuiltinOptionsUnion SplitV(int n) {
  tflite::SplitVOptionsT o;
  o.num_splits = n;
  return Opts(o);
}

}  // namespace

// clang-format off
std::vector<OpCase> ShapeHandCases() {
  const auto kI32 = tflite::TensorType_INT32;
  return Cases({
      {"Int32", tflite::BuiltinOperator_SHAPE, Shape(kI32),
       {F32({2, 3}, {0, 0, 0, 0, 0, 0})}, I32({2}, {2, 3})},
      {"Int64", tflite::BuiltinOperator_SHAPE, Shape(tflite::TensorType_INT64),
       {I32({1, 4, 1}, {0, 0, 0, 0})}, I64({3}, {1, 4, 1})},
      {"Rank3", tflite::BuiltinOperator_RANK, Opts(tflite::RankOptionsT()),
       {F32({1, 2, 1}, {0, 0})}, I32({}, {3})},
      {"ConstDims", tflite::BuiltinOperator_FILL, Opts(tflite::FillOptionsT()),
       {Const({2}, {2, 3}, kI32), F32({}, {7})}, F32({2, 3}, {7, 7, 7, 7, 7, 7})},
      {"RuntimeDims", tflite::BuiltinOperator_FILL, Opts(tflite::FillOptionsT()),
       {I32({1}, {3}), I32({}, {-4})}, I32({3}, {-4, -4, -4})},
      {"Int32", tflite::BuiltinOperator_RANGE, Opts(tflite::RangeOptionsT()),
       {I32({}, {1}), I32({}, {10}), I32({}, {3})}, I32({3}, {1, 4, 7})},
      {"FloatDescending", tflite::BuiltinOperator_RANGE, Opts(tflite::RangeOptionsT()),
       {F32({}, {2}), F32({}, {0}), F32({}, {-0.5})}, F32({4}, {2, 1.5, 1, 0.5})},
      {"RowToMatrix", tflite::BuiltinOperator_BROADCAST_TO, Opts(tflite::BroadcastToOptionsT()),
       {F32({3}, {1, 2, 3}), Const({2}, {2, 3}, kI32)}, F32({2, 3}, {1, 2, 3, 1, 2, 3}),
       Outcome::kOk, "", 2},
      {"TwoShapes", tflite::BuiltinOperator_BROADCAST_ARGS, {},
       {I32({2}, {2, 1}), I32({1}, {3})}, I32({2}, {2, 3})},
      // Index -1 (out of range) gives a row of off values.
      {"LastAxis", tflite::BuiltinOperator_ONE_HOT, OneHot(-1),
       {I32({3}, {0, 2, -1}), Const({}, {3}, kI32), F32({}, {1}), F32({}, {0})},
       F32({3, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 0})},
      {"Axis0", tflite::BuiltinOperator_ONE_HOT, OneHot(0),
       {I32({2}, {1, 0}), Const({}, {2}, kI32), I32({}, {5}), I32({}, {-1})},
       I32({2, 2}, {-1, 5, 5, -1})},
      {"Vector", tflite::BuiltinOperator_MATRIX_DIAG, Opts(tflite::MatrixDiagOptionsT()),
       {F32({2}, {1, 2})}, F32({2, 2}, {1, 0, 0, 2})},
      {"Batch", tflite::BuiltinOperator_MATRIX_SET_DIAG, Opts(tflite::MatrixSetDiagOptionsT()),
       {F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), F32({2, 2}, {9, 8, 7, 6})},
       F32({2, 2, 2}, {9, 2, 3, 8, 7, 6, 7, 6})},
      {"Reflect", tflite::BuiltinOperator_MIRROR_PAD, MirrorPad(tflite::MirrorPadMode_REFLECT),
       {F32({3}, {1, 2, 3}), Const({1, 2}, {2, 2}, kI32)}, F32({7}, {3, 2, 1, 2, 3, 2, 1})},
      {"Symmetric", tflite::BuiltinOperator_MIRROR_PAD, MirrorPad(tflite::MirrorPadMode_SYMMETRIC),
       {F32({2, 2}, {1, 2, 3, 4}), Const({2, 2}, {1, 0, 0, 1}, kI32)},
       F32({3, 3}, {1, 2, 2, 1, 2, 2, 3, 4, 4})},
      {"ConstantValue", tflite::BuiltinOperator_PADV2, Opts(tflite::PadV2OptionsT()),
       {F32({1, 2}, {1, 2}), Const({2, 2}, {0, 0, 1, 1}, kI32), Const({}, {9})},
       F32({1, 4}, {9, 1, 2, 9})},
      {"Rows", tflite::BuiltinOperator_REVERSE_SEQUENCE, ReverseSequence(1, 0),
       {F32({2, 3}, {1, 2, 3, 4, 5, 6}), Const({2}, {2, 3}, kI32)},
       F32({2, 3}, {2, 1, 3, 6, 5, 4})},
      {"Block2x2", tflite::BuiltinOperator_SPACE_TO_BATCH_ND, Opts(tflite::SpaceToBatchNDOptionsT()),
       {F32({1, 2, 4, 1}, {1, 2, 3, 4, 5, 6, 7, 8}), Const({2}, {2, 2}, kI32),
        Const({2, 2}, {0, 0, 0, 0}, kI32)},
       F32({4, 1, 2, 1}, {1, 3, 2, 4, 5, 7, 6, 8})},
      {"Block2x2", tflite::BuiltinOperator_BATCH_TO_SPACE_ND, Opts(tflite::BatchToSpaceNDOptionsT()),
       {F32({4, 1, 2, 1}, {1, 3, 2, 4, 5, 7, 6, 8}), Const({2}, {2, 2}, kI32),
        Const({2, 2}, {0, 0, 0, 0}, kI32)},
       F32({1, 2, 4, 1}, {1, 2, 3, 4, 5, 6, 7, 8})},
      {"Vector", tflite::BuiltinOperator_DILATE, {},
       {F32({3}, {1, 2, 3}), Const({1}, {2}, kI32), Const({}, {-1})}, F32({5}, {1, -1, 2, -1, 3})},
      Hand("InferredSize", tflite::BuiltinOperator_SPLIT_V, SplitV(2),
           {F32({5}, {1, 2, 3, 4, 5}), Const({2}, {2, -1}, kI32), Const({}, {0}, kI32)},
           F32({2}, {1, 2})).And(F32({3}, {3, 4, 5})),
  });
}
// clang-format on

// REDUCE_WINDOW keeps its options in builtin_options_2.
std::vector<OpCase> ReduceWindowCases() {
  // 1-D windows of 3 taps spaced 2 apart, moved by 2: {0,2,4}, {2,4,6}, {4,6,8}.
  tflite::ReduceWindowOptionsT sum;
  sum.reduce_function = tflite::ReduceWindowFunction_ADD;
  return WithOptions2(Cases({
      {"SumDilated", tflite::BuiltinOperator_REDUCE_WINDOW, {},
       {I32({9}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), Const({}, {10}), Const({1}, {3}, tflite::TensorType_INT64),
        Const({1}, {2}, tflite::TensorType_INT64), Const({1}, {2}, tflite::TensorType_INT64)},
       I32({3}, {19, 25, 31})},
  }), sum);
}

}  // namespace op_table
}  // namespace tflite_c

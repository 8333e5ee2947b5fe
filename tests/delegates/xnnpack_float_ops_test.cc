// XNNPACK delegate, float32 operator coverage: unary and binary ops,
// TRANSPOSE, SLICE, STRIDED_SLICE, SPLIT, DEPTH_TO_SPACE/SPACE_TO_DEPTH,
// BATCH_MATMUL and TRANSPOSE_CONV are run through the delegate and compared
// with the builtin kernels; nodes outside the documented constraints must
// stay on the builtin kernels. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/delegates/xnnpack_ops_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType_FLOAT32;

// ---- float32 unary ops -------------------------------------------------------------------

struct UnaryCase {
  std::string name;
  BuiltinOperator op;
  float lo, hi;
};
void PrintTo(const UnaryCase& c, std::ostream* os) { *os << c.name; }

class XnnpackUnaryTest : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(XnnpackUnaryTest, MatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  const UnaryCase& c = GetParam();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 3, 4, 5}, "x");
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 3, 4, 5}, "y");
  if (c.op == tflite::BuiltinOperator_LEAKY_RELU) {
    tflite::LeakyReluOptionsT o;
    o.alpha = 0.2f;
    b.AddOperator(c.op, {x}, {y}, o);
  } else if (c.op == tflite::BuiltinOperator_GELU) {
    b.AddOperator(c.op, {x}, {y}, tflite::GeluOptionsT());
  } else {
    b.AddOperator(c.op, {x}, {y});
  }
  Expect e;
  e.atol = 1e-5;
  e.rtol = 1e-4;
  CompareWithBuiltin(b.Finish(), e, c.lo, c.hi);
}

INSTANTIATE_TEST_SUITE_P(
    Ops, XnnpackUnaryTest,
    ::testing::Values(UnaryCase{"ABS", tflite::BuiltinOperator_ABS, -2, 2},
                      UnaryCase{"CEIL", tflite::BuiltinOperator_CEIL, -3, 3},
                      UnaryCase{"FLOOR", tflite::BuiltinOperator_FLOOR, -3, 3},
                      UnaryCase{"NEG", tflite::BuiltinOperator_NEG, -2, 2},
                      UnaryCase{"ROUND", tflite::BuiltinOperator_ROUND, -4, 4},
                      UnaryCase{"SQRT", tflite::BuiltinOperator_SQRT, 0.1f, 4},
                      UnaryCase{"SQUARE", tflite::BuiltinOperator_SQUARE, -2, 2},
                      UnaryCase{"TANH", tflite::BuiltinOperator_TANH, -3, 3},
                      UnaryCase{"ELU", tflite::BuiltinOperator_ELU, -3, 3},
                      UnaryCase{"LEAKY_RELU", tflite::BuiltinOperator_LEAKY_RELU, -3, 3},
                      UnaryCase{"GELU", tflite::BuiltinOperator_GELU, -3, 3},
                      UnaryCase{"EXP", tflite::BuiltinOperator_EXP, -3, 3},
                      UnaryCase{"LOG", tflite::BuiltinOperator_LOG, 0.1f, 4},
                      UnaryCase{"COS", tflite::BuiltinOperator_COS, -6, 6},
                      UnaryCase{"SIN", tflite::BuiltinOperator_SIN, -6, 6}),
    [](const ::testing::TestParamInfo<UnaryCase>& i) { return i.param.name; });

// ---- float32 binary ops -----------------------------------------------------------------

TEST(XnnpackOps, BinaryOpsWithBroadcastMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  // y = sqdiff(min(max(x / c, x), c), x), c a [5] constant (broadcast).
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {2, 3, 5}, "x");
  const int c = b.AddConstant<float>({5}, {0.5f, 1.5f, -2.0f, 0.75f, 3.0f});
  const int q = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  tflite::DivOptionsT div;
  div.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_DIV, {x, c}, {q}, div);
  const int mx = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_MAXIMUM, {q, x}, {mx});
  const int mn = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_MINIMUM, {mx, c}, {mn});
  const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 5}, "y");
  b.AddOperator(tflite::BuiltinOperator_SQUARED_DIFFERENCE, {mn, x}, {y});
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

// ---- layout ops ---------------------------------------------------------------------------

TEST(XnnpackOps, TransposeSliceStridedSliceMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 4, 5, 6}, "x");
  const int perm = b.AddConstant<int32_t>({4}, {0, 3, 1, 2});
  const int t = b.AddTensor(TensorType_FLOAT32, {1, 6, 4, 5});
  b.AddOperator(tflite::BuiltinOperator_TRANSPOSE, {x, perm}, {t}, tflite::TransposeOptionsT());
  const int begin = b.AddConstant<int32_t>({4}, {0, 1, 0, 2});
  const int size = b.AddConstant<int32_t>({4}, {1, -1, 3, 2});
  const int s = b.AddTensor(TensorType_FLOAT32, {1, 5, 3, 2});
  b.AddOperator(tflite::BuiltinOperator_SLICE, {t, begin, size}, {s}, tflite::SliceOptionsT());
  // begin_mask on dim 1, end_mask on dim 3, a negative begin on dim 2.
  const int sb = b.AddConstant<int32_t>({4}, {0, 3, -2, 1});
  const int se = b.AddConstant<int32_t>({4}, {1, 4, 3, 0});
  const int ss = b.AddConstant<int32_t>({4}, {1, 1, 1, 1});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 4, 2, 1}, "y");
  tflite::StridedSliceOptionsT o;
  o.begin_mask = 1 << 1;
  o.end_mask = 1 << 3;
  b.AddOperator(tflite::BuiltinOperator_STRIDED_SLICE, {s, sb, se, ss}, {y}, o);
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, StridedSliceWithStrideTwoStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 8}, "x");
  const int r = b.AddTensor(TensorType_FLOAT32, {1, 8});
  b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {r});
  const int sb = b.AddConstant<int32_t>({2}, {0, 0});
  const int se = b.AddConstant<int32_t>({2}, {1, 8});
  const int ss = b.AddConstant<int32_t>({2}, {1, 2});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_STRIDED_SLICE, {r, sb, se, ss}, {y},
                tflite::StridedSliceOptionsT());
  Expect e;
  e.plan_size = 2;  // [RELU] STRIDED_SLICE
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, SplitDepthToSpaceSpaceToDepthMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 4, 6, 12}, "x");
  const int axis = b.AddConstant<int32_t>({}, {-1});
  const int p0 = b.AddTensor(TensorType_FLOAT32, {1, 4, 6, 4});
  const int p1 = b.AddTensor(TensorType_FLOAT32, {1, 4, 6, 4});
  const int p2 = b.AddOutput(TensorType_FLOAT32, {1, 4, 6, 4}, "p2");
  tflite::SplitOptionsT split;
  split.num_splits = 3;
  b.AddOperator(tflite::BuiltinOperator_SPLIT, {axis, x}, {p0, p1, p2}, split);
  const int d = b.AddOutput(TensorType_FLOAT32, {1, 8, 12, 1}, "d2s");
  tflite::DepthToSpaceOptionsT d2s;
  d2s.block_size = 2;
  b.AddOperator(tflite::BuiltinOperator_DEPTH_TO_SPACE, {p0}, {d}, d2s);
  const int s = b.AddOutput(TensorType_FLOAT32, {1, 2, 3, 16}, "s2d");
  tflite::SpaceToDepthOptionsT s2d;
  s2d.block_size = 2;
  b.AddOperator(tflite::BuiltinOperator_SPACE_TO_DEPTH, {p1}, {s}, s2d);
  Expect e;
  CompareWithBuiltin(b.Finish(), e);
}

// ---- batch matmul, transpose conv -------------------------------------------------------------

TEST(XnnpackOps, BatchMatMulMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int a = b.AddInput(TensorType_FLOAT32, {2, 3, 4}, "a");
  const int m = b.AddInput(TensorType_FLOAT32, {2, 4, 5}, "b");
  const int t = b.AddTensor(TensorType_FLOAT32, {2, 3, 5});
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, m}, {t}, tflite::BatchMatMulOptionsT());
  // Then by a constant, transposed ([2, 6, 5] with adj_y).
  const int w = b.AddConstant<float>({2, 6, 5}, Random(60, 9, -1, 1));
  const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 6}, "y");
  tflite::BatchMatMulOptionsT adj;
  adj.adj_y = true;
  b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {t, w}, {y}, adj);
  Expect e;
  e.atol = 1e-4;
  CompareWithBuiltin(b.Finish(), e);
}

TEST(XnnpackOps, BatchMatMulAdjXMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (bool adj_y : {false, true}) {
    SCOPED_TRACE(adj_y ? "adj_x, adj_y" : "adj_x");
    ModelBuilder b;
    const int a = b.AddInput(TensorType_FLOAT32, {2, 4, 3}, "a");  // [k, m] per batch
    const int m = adj_y ? b.AddInput(TensorType_FLOAT32, {2, 5, 4}, "b")
                        : b.AddInput(TensorType_FLOAT32, {2, 4, 5}, "b");
    const int y = b.AddOutput(TensorType_FLOAT32, {2, 3, 5}, "y");
    tflite::BatchMatMulOptionsT o;
    o.adj_x = true;
    o.adj_y = adj_y;
    b.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, m}, {y}, o);
    Expect e;
    e.atol = 1e-5;
    CompareWithBuiltin(b.Finish(), e);
  }
}

TEST(XnnpackOps, TransposeConvMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (tflite::Padding padding : {tflite::Padding_SAME, tflite::Padding_VALID}) {
    ModelBuilder b;
    const int oh = padding == tflite::Padding_SAME ? 10 : 11;
    const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, 3}, "x");
    const int shape = b.AddConstant<int32_t>({4}, {1, oh, oh, 4});
    const int w = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 3, -1, 1));
    const int bias = b.AddConstant<float>({4}, {0.1f, -0.2f, 0.3f, 0.0f});
    const int y = b.AddOutput(TensorType_FLOAT32, {1, oh, oh, 4}, "y");
    tflite::TransposeConvOptionsT o;
    o.padding = padding;
    o.stride_w = o.stride_h = 2;
    b.AddOperator(tflite::BuiltinOperator_TRANSPOSE_CONV, {shape, w, x, bias}, {y}, o, 3);
    Expect e;
    e.atol = 1e-4;
    SCOPED_TRACE(padding == tflite::Padding_SAME ? "SAME" : "VALID");
    CompareWithBuiltin(b.Finish(), e);
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

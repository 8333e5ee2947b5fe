// CAST, GATHER, EMBEDDING_LOOKUP and TRANSPOSE on packed INT4 tensors (two
// values per byte, low nibble first). Expected values are written out by
// hand; odd element counts check the half-filled last byte, and runtime INT4
// inputs (a byte per element, values packed at the start) check that only
// the packed bytes are read.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/kernels/int4_test_util.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::PackInt4;
using testing::UnpackInt4;
using testing::Opts;
using testing::Quantization;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options


void ExpectInvokeError(OneOpModel& m, const std::string& message) {
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find(message), std::string::npos) << m.log();
}

// ---- CAST ---------------------------------------------------------------------------

TEST(CastInt4Test, ToFloatConstantOddCount) {
  OneOpModel m;
  m.ConstBytes(TensorType_INT4, {5}, PackInt4({-8, 7, -1, 0, 3}));
  m.Output(TensorType_FLOAT32, {5});
  m.Op(BuiltinOperator_CAST, {}, 6);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{-8, 7, -1, 0, 3}));
}

TEST(CastInt4Test, ToFloatRuntimeEveryValue) {
  // All 16 nibbles, then one more so the last byte is half used; the byte
  // after the packed ones holds junk that must not be read.
  std::vector<int> values;
  for (int v = -8; v <= 7; ++v) values.push_back(v);
  values.push_back(-5);
  OneOpModel m;
  m.Input(TensorType_INT4, {17});
  m.Output(TensorType_FLOAT32, {17});
  m.Op(BuiltinOperator_CAST, {}, 6);
  ASSERT_TRUE(m.Allocate()) << m.log();
  std::vector<uint8_t> bytes = PackInt4(values, 17);
  bytes[8] |= 0x70;  // high nibble of the last used byte: not an element
  bytes[9] = 0xFF;
  m.SetBytes(0, bytes);
  ASSERT_TRUE(m.Invoke()) << m.log();
  std::vector<float> want(values.begin(), values.end());
  EXPECT_EQ(m.Get<float>(), want);
}

TEST(CastInt4Test, FromFloatClampsAndTruncates) {
  OneOpModel m;
  m.Input(TensorType_FLOAT32, {9});
  m.Output(TensorType_INT4, {9});
  m.Op(BuiltinOperator_CAST);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-9.5f, -8.0f, -7.9f, -0.5f, 0.5f, 6.9f, 7.5f, 100.0f,
                   std::numeric_limits<float>::quiet_NaN()});
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<uint8_t> got = m.GetBytes();
  EXPECT_EQ(UnpackInt4(got, 9), (std::vector<int>{-8, -8, -7, 0, 0, 6, 7, 7, 7}));
  ASSERT_GE(got.size(), 5u);
  EXPECT_EQ(got[4] >> 4, 0);  // unused nibble of the odd count
}

TEST(CastInt4Test, Errors) {
  {
    OneOpModel m;
    m.Input(TensorType_INT4, {4});
    m.Output(TensorType_INT8, {4});
    m.Op(BuiltinOperator_CAST);
    testing::ExpectPrepareError(m, "CAST: INT4 to INT8 is not supported");
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT32, {4});
    m.Output(TensorType_INT4, {4});
    m.Op(BuiltinOperator_CAST);
    testing::ExpectPrepareError(m, "CAST: INT32 to INT4 is not supported");
  }
  {  // a constant with fewer bytes than its packed values need: the model
     // loader refuses it (reported on stderr, not through the interpreter)
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {5}, {0x21, 0x43});
    m.Output(TensorType_FLOAT32, {5});
    m.Op(BuiltinOperator_CAST, {}, 6);
    EXPECT_FALSE(m.Allocate());
  }
}

// ---- GATHER -------------------------------------------------------------------------

GatherOptionsT GatherOpts(int axis, int batch_dims = 0) {
  GatherOptionsT o;
  o.axis = axis;
  o.batch_dims = batch_dims;
  return o;
}

TEST(GatherInt4Test, OddRowsAxis0) {
  // [3, 3]: rows start at values 0, 3 and 6, so rows 1 starts mid-byte.
  OneOpModel m;
  m.ConstBytes(TensorType_INT4, {3, 3}, PackInt4({-8, -7, -6, 1, 2, 3, 5, 6, 7}));
  m.Input(TensorType_INT32, {3});
  m.Output(TensorType_INT4, {3, 3});
  m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(0)), 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 3}));
  const std::vector<uint8_t> got = m.GetBytes();
  EXPECT_EQ(UnpackInt4(got, 9), (std::vector<int>{1, 2, 3, 5, 6, 7, 1, 2, 3}));
  EXPECT_EQ(got[4] >> 4, 0);
  m.Set<int32_t>(0, {0, 0, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 9), (std::vector<int>{-8, -7, -6, -8, -7, -6, 5, 6, 7}));
}

TEST(GatherInt4Test, NegativeAxisInt64PositionsRuntimeParams) {
  // params [2, 3] = [[-1, 4, -8], [7, 0, -3]], gathered along axis -1.
  OneOpModel m;
  m.Input(TensorType_INT4, {2, 3});
  m.Const<int64_t>({2, 2}, {2, 2, 0, 1});
  m.Output(TensorType_INT4, {2, 2, 2});
  m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(-1)), 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.SetBytes(0, PackInt4({-1, 4, -8, 7, 0, -3}, 6));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 8), (std::vector<int>{-8, -8, -1, 4, -3, -3, 7, 0}));
}

TEST(GatherInt4Test, BatchDimsAndScalarPosition) {
  {  // batch_dims 1: row b of params picks with positions[b]
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {2, 3}, PackInt4({-1, 4, -8, 7, 0, -3}));
    m.Const<int32_t>({2, 2}, {0, 2, 1, 1});
    m.Output(TensorType_INT4, {2, 2});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(1, 1)), 7);
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2}));
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 4), (std::vector<int>{-1, -8, 0, 0}));
  }
  {  // a scalar position drops the axis: one odd row of 5
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 5},
                 PackInt4({0, 1, 2, 3, 4, -1, -2, -3, -4, -5, 7, 6, 5, -8, -7}));
    m.Const<int16_t>({}, {1});
    m.Output(TensorType_INT4, {5});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(0)), 7);
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{5}));
    const std::vector<uint8_t> got = m.GetBytes();
    EXPECT_EQ(UnpackInt4(got, 5), (std::vector<int>{-1, -2, -3, -4, -5}));
    EXPECT_EQ(got[2] >> 4, 0);
  }
}

TEST(GatherInt4Test, Errors) {
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}));
    m.Input(TensorType_INT32, {2});
    m.Output(TensorType_INT4, {2, 2});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(0)), 7);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {0, 3});
    ExpectInvokeError(m, "GATHER: position 3 is out of range [0, 3)");
    m.Set<int32_t>(0, {-1, 0});
    ExpectInvokeError(m, "GATHER: position -1 is out of range [0, 3)");
  }
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}));
    m.Input(TensorType_INT32, {2});
    m.Output(TensorType_INT8, {2, 2});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(0)), 7);
    testing::ExpectPrepareError(m, "GATHER: input type INT4 does not match output type INT8");
  }
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}));
    m.Input(TensorType_FLOAT32, {2});
    m.Output(TensorType_INT4, {2, 2});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(0)), 7);
    testing::ExpectPrepareError(m, "GATHER: positions type FLOAT32 is not supported");
  }
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}));
    m.Input(TensorType_INT32, {2});
    m.Output(TensorType_INT4, {2, 2});
    m.Op(BuiltinOperator_GATHER, Opts(GatherOpts(2)), 7);
    testing::ExpectPrepareError(m, "GATHER: axis 2 is out of range for rank 2");
  }
}

// ---- EMBEDDING_LOOKUP -----------------------------------------------------------------

TEST(EmbeddingLookupInt4Test, PerTensorScaleOddRows) {
  // value [3, 3] (rows start mid-byte), scale 0.5.
  OneOpModel m;
  m.Input(TensorType_INT32, {4});
  m.ConstBytes(TensorType_INT4, {3, 3}, PackInt4({-8, -7, -6, 1, 2, 3, 5, 6, 7}),
               testing::Q(0.5f, 0));
  m.Output(TensorType_FLOAT32, {4, 3});
  m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {2, 0, 1, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{4, 3}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{2.5f, 3, 3.5f, -4, -3.5f, -3, 0.5f, 1, 1.5f,
                                                2.5f, 3, 3.5f}));
}

TEST(EmbeddingLookupInt4Test, PerRowScalesRank3RuntimeValue) {
  // value [3, 1, 3], one scale per row; given at run time (a byte per value).
  Quantization q{{1.0f, 0.25f, 2.0f}, {0, 0, 0}, 0};
  OneOpModel m;
  m.Input(TensorType_INT32, {3});
  m.Input(TensorType_INT4, {3, 1, 3}, q);
  m.Output(TensorType_FLOAT32, {3, 1, 3});
  m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 0});
  m.SetBytes(1, PackInt4({-8, 0, 7, -1, -4, 3, 1, -2, -8}, 9));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 1, 3}));
  EXPECT_EQ(m.Get<float>(),
            (std::vector<float>{-0.25f, -1, 0.75f, 2, -4, -16, -8, 0, 7}));
}

TEST(EmbeddingLookupInt4Test, Errors) {
  {
    OneOpModel m;
    m.Input(TensorType_INT32, {1});
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}), testing::Q(1.0f, 0));
    m.Output(TensorType_FLOAT32, {1, 2});
    m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {3});
    ExpectInvokeError(m, "EMBEDDING_LOOKUP: index 3 is out of range [0, 3)");
    m.Set<int32_t>(0, {-1});
    ExpectInvokeError(m, "EMBEDDING_LOOKUP: index -1 is out of range [0, 3)");
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT32, {1});
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}), testing::Q(1.0f, 0));
    m.Output(TensorType_INT4, {1, 2});
    m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
    testing::ExpectPrepareError(
        m, "EMBEDDING_LOOKUP: INT4 value with a INT4 output is not supported (needs FLOAT32)");
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT32, {1});
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}), testing::Q(1.0f, 2));
    m.Output(TensorType_FLOAT32, {1, 2});
    m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
    testing::ExpectPrepareError(m, "hybrid value needs zero point 0");
  }
  {  // one scale per column is not per row
    OneOpModel m;
    m.Input(TensorType_INT32, {1});
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}),
                 Quantization{{1.0f, 2.0f}, {0, 0}, 1});
    m.Output(TensorType_FLOAT32, {1, 2});
    m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
    testing::ExpectPrepareError(m, "one scale per tensor or row");
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT8, {1});
    m.ConstBytes(TensorType_INT4, {3, 2}, PackInt4({1, 2, 3, 4, 5, 6}), testing::Q(1.0f, 0));
    m.Output(TensorType_FLOAT32, {1, 2});
    m.Op(BuiltinOperator_EMBEDDING_LOOKUP, {}, 4);
    testing::ExpectPrepareError(m, "EMBEDDING_LOOKUP: lookup type INT8 is not supported");
  }
}

// ---- TRANSPOSE --------------------------------------------------------------------------

TEST(TransposeInt4Test, ConstantPerm2D) {
  // [2, 3] = [[-8, 1, 7], [-1, 0, 3]] -> [3, 2].
  OneOpModel m;
  m.Input(TensorType_INT4, {2, 3});
  m.Const<int32_t>({2}, {1, 0});
  m.Output(TensorType_INT4, {3, 2});
  m.Op(BuiltinOperator_TRANSPOSE, {}, 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.SetBytes(0, PackInt4({-8, 1, 7, -1, 0, 3}, 6));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 2}));
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 6), (std::vector<int>{-8, -1, 1, 0, 7, 3}));
}

TEST(TransposeInt4Test, NegativePermOddCount3D) {
  // [3, 1, 3] with perm {-1, 0, -2} = {2, 0, 1}: output [3, 3, 1],
  // out[k][i][0] = in[i][0][k].
  OneOpModel m;
  m.ConstBytes(TensorType_INT4, {3, 1, 3}, PackInt4({-8, -7, -6, 1, 2, 3, 5, 6, 7}));
  m.Const<int64_t>({3}, {-1, 0, -2});
  m.Output(TensorType_INT4, {3, 3, 1});
  m.Op(BuiltinOperator_TRANSPOSE, {}, 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 3, 1}));
  const std::vector<uint8_t> got = m.GetBytes();
  EXPECT_EQ(UnpackInt4(got, 9), (std::vector<int>{-8, 1, 5, -7, 2, 6, -6, 3, 7}));
  EXPECT_EQ(got[4] >> 4, 0);
}

TEST(TransposeInt4Test, RuntimePerm) {
  // perm given at run time: the output is resized at Invoke.
  OneOpModel m;
  m.Input(TensorType_INT4, {1, 5});
  m.Input(TensorType_INT32, {2});
  m.Output(TensorType_INT4, {5, 1});
  m.Op(BuiltinOperator_TRANSPOSE, {}, 7);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.SetBytes(0, PackInt4({7, -8, 3, -3, -1}, 5));
  m.Set<int32_t>(1, {1, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{5, 1}));
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 5), (std::vector<int>{7, -8, 3, -3, -1}));
  m.Set<int32_t>(1, {0, 0});
  ExpectInvokeError(m, "TRANSPOSE: perm repeats dimension 0");
}

TEST(TransposeInt4Test, Errors) {
  {
    OneOpModel m;
    m.Input(TensorType_INT4, {2, 3});
    m.Const<int32_t>({2}, {1, 0});
    m.Output(TensorType_INT8, {3, 2});
    m.Op(BuiltinOperator_TRANSPOSE, {}, 7);
    testing::ExpectPrepareError(m, "TRANSPOSE: input type INT4 does not match output type INT8");
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT4, {2, 3});
    m.Const<int32_t>({2}, {1, 2});
    m.Output(TensorType_INT4, {3, 2});
    m.Op(BuiltinOperator_TRANSPOSE, {}, 7);
    testing::ExpectPrepareError(m, "TRANSPOSE: axis 2 is out of range for rank 2");
  }
}

}  // namespace
}  // namespace tflite_c

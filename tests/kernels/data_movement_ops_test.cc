// Tests of the data-movement ops REVERSE_SEQUENCE, BITCAST and DILATE:
// element-by-element references over coordinates written here (or byte
// copies for BITCAST), every element type upstream supports, runtime
// parameters and the errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

int Count(const Shape& shape) {
  int n = 1;
  for (int d : shape) n *= d;
  return n;
}

// Row-major coordinates of flat position `flat` in `shape`.
Shape Coordinates(int flat, const Shape& shape) {
  Shape c(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    c[d] = flat % shape[d];
    flat /= shape[d];
  }
  return c;
}

int Flat(const Shape& coords, const Shape& shape) {
  int flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + coords[d];
  return flat;
}

// ---- REVERSE_SEQUENCE ------------------------------------------------------------------------

tflite::BuiltinOptionsUnion SeqOpts(int seq_dim, int batch_dim) {
  tflite::ReverseSequenceOptionsT o;
  o.seq_dim = seq_dim;
  o.batch_dim = batch_dim;
  return Opts(o);
}

template <typename T, typename L = int32_t>
void ExpectReverseSequence(const Shape& shape, int seq_dim, int batch_dim,
                           const std::vector<L>& lengths) {
  const int n = Count(shape);
  std::vector<T> in(n), want(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<T>(i + 1);
  for (int i = 0; i < n; ++i) {
    Shape c = Coordinates(i, shape);
    const int len = static_cast<int>(lengths[c[batch_dim]]);
    if (c[seq_dim] < len) c[seq_dim] = len - 1 - c[seq_dim];
    want[i] = in[Flat(c, shape)];
  }
  OneOpModel m;
  m.Input(testing::TensorTypeOf<T>(), shape);
  m.Const<L>({static_cast<int>(lengths.size())}, lengths);
  m.Output(testing::TensorTypeOf<T>(), shape);
  m.Op(tflite::BuiltinOperator_REVERSE_SEQUENCE, SeqOpts(seq_dim, batch_dim));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<T>(), want) << "seq_dim " << seq_dim << " batch_dim " << batch_dim;
}

TEST(ReverseSequenceTest, HandCheckedVector) {
  // [[1,2,3,4],[5,6,7,8]], batch 0 reverses 3, batch 1 reverses 2.
  OneOpModel m;
  m.Input(F32, {2, 4});
  m.Const<int32_t>({2}, {3, 2});
  m.Output(F32, {2, 4});
  m.Op(tflite::BuiltinOperator_REVERSE_SEQUENCE, SeqOpts(1, 0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{3, 2, 1, 4, 6, 5, 7, 8}));
}

TEST(ReverseSequenceTest, AxisOrdersAndElementTypes) {
  ExpectReverseSequence<float>({4, 3, 2}, 1, 0, {3, 0, 2, 1});
  ExpectReverseSequence<float>({4, 3, 2}, 0, 2, {4, 2});
  ExpectReverseSequence<int32_t, int64_t>({2, 3, 4, 2}, 2, 0, {4, 3});
  ExpectReverseSequence<int32_t>({2, 3, 4, 2}, 1, 3, {0, 3});
  ExpectReverseSequence<uint8_t>({3, 5}, 1, 0, {5, 1, 4});
  ExpectReverseSequence<int16_t>({5, 3}, 0, 1, {5, 2, 3});
  ExpectReverseSequence<int64_t, int64_t>({2, 2, 3}, 2, 1, {3, 2});
  ExpectReverseSequence<int8_t>({2, 4}, 1, 0, {4, 4});
}

TEST(ReverseSequenceTest, HostileLengthsFailInvoke) {
  OneOpModel m;
  m.Input(F32, {2, 3});
  m.Input(I32, {2});
  m.Output(F32, {2, 3});
  m.Op(tflite::BuiltinOperator_REVERSE_SEQUENCE, SeqOpts(1, 0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  for (const std::vector<int32_t>& bad : {std::vector<int32_t>{4, 0}, {0, -1}}) {
    m.Set<int32_t>(1, bad);
    EXPECT_FALSE(m.Invoke());
    EXPECT_NE(m.log().find("REVERSE_SEQUENCE: sequence length"), std::string::npos) << m.log();
  }
  m.Set<int32_t>(1, {3, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{3, 2, 1, 4, 5, 6}));
}

TEST(ReverseSequenceTest, Errors) {
  struct Case {
    int seq_dim, batch_dim;
    Shape lengths_shape;
    tflite::TensorType lengths_type;
    const char* message;
  };
  for (const Case& c :
       {Case{1, 1, {2}, I32, "seq_dim and batch_dim must be distinct dimensions in [0, 2)"},
        Case{2, 0, {2}, I32, "got 2 and 0"},
        Case{1, -1, {2}, I32, "got 1 and -1"},
        Case{1, 0, {3}, I32, "seq_lengths must be 1-D with one entry per batch (2)"},
        Case{1, 0, {2, 1}, I32, "seq_lengths must be 1-D"},
        Case{1, 0, {2}, F32, "REVERSE_SEQUENCE: seq_lengths type FLOAT32 is not supported"}}) {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Input(c.lengths_type, c.lengths_shape);
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_REVERSE_SEQUENCE, SeqOpts(c.seq_dim, c.batch_dim));
    ExpectPrepareError(m, c.message);
  }
}

// ---- BITCAST ------------------------------------------------------------------------------------

template <typename From, typename To>
void ExpectBitcast(const Shape& in_shape, const std::vector<From>& in, const Shape& out_shape) {
  std::vector<To> want(in.size() * sizeof(From) / sizeof(To));
  std::memcpy(want.data(), in.data(), want.size() * sizeof(To));
  OneOpModel m;
  m.Input(testing::TensorTypeOf<From>(), in_shape);
  m.Output(testing::TensorTypeOf<To>(), out_shape);
  m.Op(tflite::BuiltinOperator_BITCAST);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<From>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), out_shape);
  EXPECT_EQ(m.Get<To>(), want);
}

TEST(BitcastTest, SameWiderAndNarrowerElements) {
  ExpectBitcast<float, int32_t>({2}, {1.0f, -2.5f}, {2});
  // 1.0f is 0x3f800000: checked by hand once.
  std::vector<int32_t> bits(1);
  const float one = 1.0f;
  std::memcpy(bits.data(), &one, 4);
  EXPECT_EQ(bits[0], 0x3f800000);
  ExpectBitcast<int32_t, uint8_t>({2}, {0x01020304, -1}, {2, 4});
  ExpectBitcast<uint8_t, int32_t>({3, 4}, std::vector<uint8_t>(12, 0x7f), {3});
  ExpectBitcast<int16_t, float>({2, 2}, {0, 0x3f80, 1, 2}, {2});
  ExpectBitcast<int64_t, int32_t>({1, 2}, {int64_t{1} << 33, -3}, {1, 2, 2});
  ExpectBitcast<int8_t, uint8_t>({3}, {-1, 0, 5}, {3});
  ExpectBitcast<uint8_t, int64_t>({8}, {1, 0, 0, 0, 0, 0, 0, 0}, {});
}

TEST(BitcastTest, Errors) {
  struct Case {
    tflite::TensorType input_type;
    Shape input_shape;
    const char* message;
  };
  for (const Case& c :
       {Case{U8, {3, 3}, "BITCAST: a UINT8 input cast to INT32 needs a last dimension of 4"},
        Case{U8, {}, "needs a last dimension of 4 elements"},
        Case{STRING, {2}, "BITCAST: input type STRING is not supported"}}) {
    OneOpModel m;
    m.Input(c.input_type, c.input_shape);
    m.Output(I32, {});
    m.Op(tflite::BuiltinOperator_BITCAST);
    ExpectPrepareError(m, c.message);
  }
}

// ---- DILATE -----------------------------------------------------------------------------------

template <typename T>
std::vector<T> ReferenceDilate(const std::vector<T>& in, const Shape& shape,
                               const std::vector<int32_t>& dilations, T pad, Shape* out_shape) {
  out_shape->clear();
  for (size_t d = 0; d < shape.size(); ++d) {
    out_shape->push_back(shape[d] == 0 ? 0 : (shape[d] - 1) * dilations[d] + 1);
  }
  std::vector<T> out(Count(*out_shape), pad);
  for (int i = 0; i < Count(shape); ++i) {
    Shape c = Coordinates(i, shape);
    for (size_t d = 0; d < c.size(); ++d) c[d] *= dilations[d];
    out[Flat(c, *out_shape)] = in[i];
  }
  return out;
}

template <typename T>
void ExpectDilate(const Shape& shape, const std::vector<int32_t>& dilations, T pad) {
  std::vector<T> in(Count(shape));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>(i + 1);
  Shape out_shape;
  const std::vector<T> want = ReferenceDilate(in, shape, dilations, pad, &out_shape);
  OneOpModel m;
  m.Input(testing::TensorTypeOf<T>(), shape);
  m.Const<int32_t>({static_cast<int>(dilations.size())}, dilations);
  m.Const<T>({}, {pad});
  m.Output(testing::TensorTypeOf<T>(), out_shape);
  m.Op(tflite::BuiltinOperator_DILATE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), out_shape);
  EXPECT_EQ(m.Get<T>(), want);
}

TEST(DilateTest, UpstreamExample) {
  // dilate([[1,2,3],[4,5,6],[7,8,9]], [2, 3]), padded with 0.
  OneOpModel m;
  m.Input(I32, {3, 3});
  m.Const<int32_t>({2}, {2, 3});
  m.Const<int32_t>({}, {0});
  m.Output(I32, {5, 7});
  m.Op(tflite::BuiltinOperator_DILATE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{5, 7}));
  EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{1, 0, 0, 2, 0, 0, 3,  //
                                                    0, 0, 0, 0, 0, 0, 0,  //
                                                    4, 0, 0, 5, 0, 0, 6,  //
                                                    0, 0, 0, 0, 0, 0, 0,  //
                                                    7, 0, 0, 8, 0, 0, 9}));
}

TEST(DilateTest, ShapesAndElementTypes) {
  ExpectDilate<float>({2, 3, 2}, {1, 2, 1}, -1.5f);
  ExpectDilate<float>({2, 2, 2}, {3, 1, 2}, 0.0f);
  ExpectDilate<int8_t>({1, 4}, {5, 2}, int8_t{-7});
  ExpectDilate<uint8_t>({3}, {4}, uint8_t{200});
  ExpectDilate<int16_t>({2, 1, 3}, {2, 3, 1}, int16_t{9});
  ExpectDilate<int64_t>({2, 2}, {1, 1}, int64_t{5});
  ExpectDilate<int32_t>({0, 3}, {2, 2}, 4);
}

TEST(DilateTest, RuntimeDilations) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Input(I32, {2});
  m.Const<float>({}, {9});
  m.Output(F32, {});
  m.Op(tflite::BuiltinOperator_DILATE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  m.Set<int32_t>(1, {2, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{3, 2}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 2, 9, 9, 3, 4}));
  for (const std::vector<int32_t>& bad : {std::vector<int32_t>{0, 1}, {1, -4}}) {
    m.Set<int32_t>(1, bad);
    EXPECT_FALSE(m.Invoke());
    EXPECT_NE(m.log().find("is below 1"), std::string::npos) << m.log();
  }
  m.Set<int32_t>(1, {1, 0x7fffffff});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("DILATE: dilated axis 2147483647 + 1 overflows"), std::string::npos)
      << m.log();
}

TEST(DilateTest, Errors) {
  struct Case {
    Shape input_shape, dilations_shape;
    tflite::TensorType dilations_type, pad_type;
    const char* message;
  };
  for (const Case& c :
       {Case{{2, 2}, {3}, I32, F32, "dilations must be 1-D with one entry per input axis (2)"},
        Case{{2, 2}, {2}, I64, F32, "DILATE: dilations type INT64 is not supported"},
        Case{{2, 2}, {2}, I32, I32, "DILATE: input type FLOAT32 does not match padding_value type INT32"},
        Case{{}, {0}, I32, F32, "DILATE: input must have rank >= 1, got a scalar"}}) {
    OneOpModel m;
    m.Input(F32, c.input_shape);
    m.Input(c.dilations_type, c.dilations_shape);
    m.Input(c.pad_type, {});
    m.Output(F32, c.input_shape);
    m.Op(tflite::BuiltinOperator_DILATE);
    ExpectPrepareError(m, c.message);
  }
}

}  // namespace
}  // namespace tflite_c

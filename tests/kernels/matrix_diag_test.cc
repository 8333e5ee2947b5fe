// Tests of MATRIX_DIAG and MATRIX_SET_DIAG for every element type upstream
// supports, against element-by-element references written here, plus the
// shape and type errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

using namespace testing::names;  // NOLINT(build/namespaces)

template <typename T>
std::vector<T> Iota(int n, int start) {
  std::vector<T> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<T>(start + i));
  return v;
}

// MATRIX_DIAG of `batches` diagonals of length n.
template <typename T>
void ExpectDiag(int batches, int n) {
  const std::vector<T> in = Iota<T>(batches * n, 1);
  std::vector<T> want;
  for (int b = 0; b < batches; ++b) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) want.push_back(i == j ? in[b * n + i] : T(0));
    }
  }
  OneOpModel m;
  m.Input(testing::TensorTypeOf<T>(), {batches, n});
  m.Output(testing::TensorTypeOf<T>(), {batches, n, n});
  m.Op(tflite::BuiltinOperator_MATRIX_DIAG);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{batches, n, n}));
  EXPECT_EQ(m.Get<T>(), want);
}

TEST(MatrixDiagTest, EveryElementType) {
  ExpectDiag<float>(2, 3);
  ExpectDiag<int8_t>(1, 4);
  ExpectDiag<uint8_t>(3, 2);
  ExpectDiag<int16_t>(2, 2);
  ExpectDiag<int32_t>(2, 3);
  ExpectDiag<int64_t>(1, 3);
}

TEST(MatrixDiagTest, VectorGivesOneMatrix) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Output(F32, {3, 3});
  m.Op(tflite::BuiltinOperator_MATRIX_DIAG);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
}

// MATRIX_SET_DIAG of [batches, rows, cols] matrices.
template <typename T>
void ExpectSetDiag(int batches, int rows, int cols) {
  const int len = std::min(rows, cols);
  const std::vector<T> in = Iota<T>(batches * rows * cols, 1);
  const std::vector<T> diag = Iota<T>(batches * len, 100);
  std::vector<T> want = in;
  for (int b = 0; b < batches; ++b) {
    for (int i = 0; i < len; ++i) want[(b * rows + i) * cols + i] = diag[b * len + i];
  }
  OneOpModel m;
  m.Input(testing::TensorTypeOf<T>(), {batches, rows, cols});
  m.Input(testing::TensorTypeOf<T>(), {batches, len});
  m.Output(testing::TensorTypeOf<T>(), {batches, rows, cols});
  m.Op(tflite::BuiltinOperator_MATRIX_SET_DIAG);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  m.Set<T>(1, diag);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{batches, rows, cols}));
  EXPECT_EQ(m.Get<T>(), want);
}

TEST(MatrixSetDiagTest, EveryElementTypeAndNonSquare) {
  ExpectSetDiag<float>(2, 3, 3);
  ExpectSetDiag<float>(2, 3, 4);
  ExpectSetDiag<int8_t>(1, 4, 2);
  ExpectSetDiag<uint8_t>(2, 2, 3);
  ExpectSetDiag<int16_t>(1, 3, 3);
  ExpectSetDiag<int32_t>(3, 2, 2);
  ExpectSetDiag<int64_t>(1, 2, 5);
}

TEST(MatrixDiagTest, Errors) {
  {
    OneOpModel m;
    m.Input(F32, {});
    m.Output(F32, {1, 1});
    m.Op(tflite::BuiltinOperator_MATRIX_DIAG);
    ExpectPrepareError(m, "MATRIX_DIAG: input must have rank >= 1, got a scalar");
  }
  {
    OneOpModel m;
    m.Input(F32, {3});
    m.Output(I32, {3, 3});
    m.Op(tflite::BuiltinOperator_MATRIX_DIAG);
    ExpectPrepareError(m, "MATRIX_DIAG: input type FLOAT32 does not match output type INT32");
  }
}

TEST(MatrixSetDiagTest, Errors) {
  struct Case {
    Shape input_shape, diagonal_shape;
    tflite::TensorType diagonal_type;
    const char* message;
  };
  for (const Case& c :
       {Case{{3}, {3}, F32, "MATRIX_SET_DIAG: input must have rank >= 2, got 1"},
        Case{{2, 3, 4}, {2, 4}, F32,
             "MATRIX_SET_DIAG: diagonal shape [2,4] does not fit input shape [2,3,4]"},
        Case{{2, 3, 3}, {1, 3}, F32, "does not fit input shape"},
        Case{{3, 3}, {3}, I32,
             "MATRIX_SET_DIAG: input type FLOAT32 does not match diagonal type INT32"}}) {
    OneOpModel m;
    m.Input(F32, c.input_shape);
    m.Input(c.diagonal_type, c.diagonal_shape);
    m.Output(F32, c.input_shape);
    m.Op(tflite::BuiltinOperator_MATRIX_SET_DIAG);
    ExpectPrepareError(m, c.message);
  }
}

}  // namespace
}  // namespace tflite_c

// DYNAMIC_UPDATE_SLICE, SLICE and CONCATENATION on INT4 tensors: values packed two per
// byte, low nibble first, as upstream reads and writes them. Expected outputs
// are worked out on unpacked values here and compared nibble by nibble.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/kernels/internal/int4_copy.h"
#include "tests/kernels/int4_test_util.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::PackInt4;
using testing::UnpackInt4;
using testing::Opts;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options


// operand [rows, cols] with `update` [urows, ucols] written at the clamped start.
std::vector<int> Reference(std::vector<int> operand, int rows, int cols,
                           const std::vector<int>& update, int urows, int ucols, int r0, int c0) {
  r0 = std::min(std::max(r0, 0), rows - urows);
  c0 = std::min(std::max(c0, 0), cols - ucols);
  for (int i = 0; i < urows; ++i)
    for (int j = 0; j < ucols; ++j) operand[(r0 + i) * cols + c0 + j] = update[i * ucols + j];
  return operand;
}

// The unpacker behind the INT4 weights of FULLY_CONNECTED, CONV_2D and
// DEQUANTIZE: every byte value in both nibbles, even and odd counts, to int8
// and to float, against the nibble-by-nibble reading of the test helpers.
TEST(Int4UnpackTest, EveryByteEveryCount) {
  std::vector<uint8_t> bytes(256 + 3);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
  for (int b = 0; b < 256; ++b) bytes[b] = static_cast<uint8_t>(b);
  for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{31}, size_t{64},
                       size_t{511}, size_t{512}, size_t{517}}) {
    SCOPED_TRACE(count);
    const std::vector<int> want = UnpackInt4(bytes, count);
    std::vector<int8_t> got(count + 1, 99);
    std::vector<float> got_f(count + 1, 99.0f);
    tflite_c::kernels::internal::UnpackInt4(bytes.data(), static_cast<int64_t>(count), got.data());
    tflite_c::kernels::internal::UnpackInt4(bytes.data(), static_cast<int64_t>(count),
                                            got_f.data());
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(got[i], want[i]) << i;
      ASSERT_EQ(got_f[i], static_cast<float>(want[i])) << i;
    }
    EXPECT_EQ(got[count], 99);  // nothing written past `count`
    EXPECT_EQ(got_f[count], 99.0f);
  }
}

TEST(DynamicUpdateSliceInt4Test, ConstantOperandOddWidth) {
  const std::vector<int> operand = {-8, -7, -6, -5, -4, -3, -2, -1, 0};  // [3, 3]
  const std::vector<int> update = {7, 6, 5, 4};                           // [2, 2]
  OneOpModel m;
  m.ConstBytes(TensorType_INT4, {3, 3}, PackInt4(operand));
  m.ConstBytes(TensorType_INT4, {2, 2}, PackInt4(update));
  m.Input(TensorType_INT32, {2});
  m.Output(TensorType_INT4, {3, 3});
  m.Op(BuiltinOperator_DYNAMIC_UPDATE_SLICE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  for (const auto& start : std::vector<std::vector<int32_t>>{{1, 1}, {0, 1}, {5, -3}, {0, 0}}) {
    m.Set<int32_t>(0, start);
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 9),
              Reference(operand, 3, 3, update, 2, 2, start[0], start[1]))
        << start[0] << ", " << start[1];
  }
}

TEST(DynamicUpdateSliceInt4Test, RuntimeOperandAndUpdate) {
  // Runtime INT4 tensors get a byte per element; the values are packed at the start.
  OneOpModel m;
  m.Input(TensorType_INT4, {2, 5});
  m.Input(TensorType_INT4, {1, 3});
  m.Input(TensorType_INT64, {2});
  m.Output(TensorType_INT4, {2, 5});
  m.Op(BuiltinOperator_DYNAMIC_UPDATE_SLICE, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  const std::vector<int> operand = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  const std::vector<int> update = {7, -8, 0};
  m.SetBytes(0, PackInt4(operand, 10));
  m.SetBytes(1, PackInt4(update, 3));
  m.Set<int64_t>(2, {1, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 10), Reference(operand, 2, 5, update, 1, 3, 1, 1));
  m.Set<int64_t>(2, {0, 4});  // clamped to column 2
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(UnpackInt4(m.GetBytes(), 10), Reference(operand, 2, 5, update, 1, 3, 0, 2));
}

TEST(DynamicUpdateSliceInt4Test, Errors) {
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {4}, PackInt4({1, 2, 3, 4}));
    m.Const<int8_t>({2}, {1, 2});
    m.Input(TensorType_INT32, {1});
    m.Output(TensorType_INT4, {4});
    m.Op(BuiltinOperator_DYNAMIC_UPDATE_SLICE);
    testing::ExpectPrepareError(m, "operand type INT4 does not match update type INT8");
  }
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {4}, PackInt4({1, 2, 3, 4}));
    m.ConstBytes(TensorType_INT4, {5}, PackInt4({1, 2, 3, 4, 5}));
    m.Input(TensorType_INT32, {1});
    m.Output(TensorType_INT4, {4});
    m.Op(BuiltinOperator_DYNAMIC_UPDATE_SLICE);
    testing::ExpectPrepareError(m, "does not fit in operand shape");
  }
}


// ---- SLICE on INT4 ---------------------------------------------------------------

TEST(SliceInt4Test, ConstantAndRuntimeInputs) {
  // [3, 5] values, slice [1:3, 1:4]: crosses nibble boundaries both ways.
  std::vector<int> values;
  for (int i = 0; i < 15; ++i) values.push_back(i % 16 - 8);
  std::vector<int> want;
  for (int r = 1; r < 3; ++r)
    for (int c = 1; c < 4; ++c) want.push_back(values[r * 5 + c]);
  {
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {3, 5}, PackInt4(values));
    m.Input(TensorType_INT32, {2});
    m.Const<int32_t>({2}, {2, 3});
    m.Output(TensorType_INT4, {2, 3});
    m.Op(BuiltinOperator_SLICE, {}, 7);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {1, 1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 3}));
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 6), want);
    m.Set<int32_t>(0, {0, 2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 6),
              (std::vector<int>{values[2], values[3], values[4], values[7], values[8], values[9]}));
  }
  {
    OneOpModel m;
    m.Input(TensorType_INT4, {3, 5});
    m.Const<int64_t>({2}, {1, 1});
    m.Const<int64_t>({2}, {-1, 3});
    m.Output(TensorType_INT4, {2, 3});
    m.Op(BuiltinOperator_SLICE, {}, 7);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.SetBytes(0, PackInt4(values, 15));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 6), want);
  }
}


// ---- CONCATENATION on INT4 -------------------------------------------------------

TEST(ConcatenationInt4Test, OddWidthsRuntimeAndConstant) {
  const std::vector<int> a = {-8, -7, -6, 5, 6, 7};  // [2, 3]
  const std::vector<int> b = {1, -1, 2, -2};         // [2, 2]
  const std::vector<int> axis1 = {-8, -7, -6, 1, -1, 5, 6, 7, 2, -2};
  const std::vector<int> axis0 = {-8, -7, -6, 5, 6, 7, 1, -1, 2, -2, 3, 4};
  {
    OneOpModel m;
    m.Input(TensorType_INT4, {2, 3});
    m.ConstBytes(TensorType_INT4, {2, 2}, PackInt4(b));
    m.Output(TensorType_INT4, {2, 5});
    ConcatenationOptionsT o;
    o.axis = -1;
    m.Op(BuiltinOperator_CONCATENATION, Opts(o), 5);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.SetBytes(0, PackInt4(a, 6));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 5}));
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 10), axis1);
  }
  {  // all constant: folded in Prepare
    OneOpModel m;
    m.ConstBytes(TensorType_INT4, {2, 3}, PackInt4(a));
    m.ConstBytes(TensorType_INT4, {2, 3}, PackInt4({1, -1, 2, -2, 3, 4}));
    m.Output(TensorType_INT4, {4, 3});
    ConcatenationOptionsT o;
    o.axis = 0;
    m.Op(BuiltinOperator_CONCATENATION, Opts(o), 5);
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(UnpackInt4(m.GetBytes(), 12), axis0);
  }
  {  // no fused activation on INT4
    OneOpModel m;
    m.Input(TensorType_INT4, {2, 3});
    m.Input(TensorType_INT4, {2, 3});
    m.Output(TensorType_INT4, {4, 3});
    ConcatenationOptionsT o;
    o.fused_activation_function = ActivationFunctionType_RELU;
    m.Op(BuiltinOperator_CONCATENATION, Opts(o), 5);
    testing::ExpectPrepareError(m, "a fused activation is not supported for type INT4");
  }
}

}  // namespace
}  // namespace tflite_c

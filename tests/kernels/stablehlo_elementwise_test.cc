// Tests of StableHLO's element-wise binary ops (ADD, MULTIPLY, MAXIMUM,
// MINIMUM, AND, SHIFT_LEFT) on every element type upstream's kernels take,
// against references computed here in wider arithmetic (integers reduced
// modulo 2^bits), plus BOOL, FLOAT16, NaN ordering, out-of-range shifts, and
// the shape and type errors (no broadcasting).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

using namespace testing::names;  // NOLINT(build/namespaces)

using Op = tflite::BuiltinOperator;
constexpr Op kAdd = tflite::BuiltinOperator_STABLEHLO_ADD;
constexpr Op kMul = tflite::BuiltinOperator_STABLEHLO_MULTIPLY;
constexpr Op kMax = tflite::BuiltinOperator_STABLEHLO_MAXIMUM;
constexpr Op kMin = tflite::BuiltinOperator_STABLEHLO_MINIMUM;
constexpr Op kAnd = tflite::BuiltinOperator_STABLEHLO_AND;
constexpr Op kShl = tflite::BuiltinOperator_STABLEHLO_SHIFT_LEFT;

// Runs `op` on two fed operands of shape `shape` and returns the output bytes.
std::vector<uint8_t> RunOp(Op op, tflite::TensorType type, const Shape& shape,
                         const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  OneOpModel m;
  m.Input(type, shape);
  m.Input(type, shape);
  m.Output(type, shape);
  m.Op(op);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.SetBytes(0, a);
  m.SetBytes(1, b);
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), shape);
  return m.GetBytes();
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// The exact result reduced to T: integers modulo 2^bits, floats rounded once.
template <typename T>
T Reference(Op op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    const uint64_t x = static_cast<uint64_t>(static_cast<Wide>(a));
    const uint64_t y = static_cast<uint64_t>(static_cast<Wide>(b));
    switch (op) {
      case kAdd: return static_cast<T>(x + y);
      case kMul: return static_cast<T>(x * y);
      case kAnd: return static_cast<T>(x & y);
      case kMax: return static_cast<Wide>(a) >= static_cast<Wide>(b) ? a : b;
      default: return static_cast<Wide>(a) <= static_cast<Wide>(b) ? a : b;
    }
  } else {
    const double x = static_cast<double>(a), y = static_cast<double>(b);
    switch (op) {
      case kAdd: return static_cast<T>(x + y);
      case kMul: return static_cast<T>(x * y);
      case kMax: return x >= y ? a : b;
      default: return x <= y ? a : b;
    }
  }
}

// Operands covering signs, the type's limits and overflow.
template <typename T>
void Operands(std::vector<T>* a, std::vector<T>* b) {
  const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  if constexpr (std::is_integral_v<T>) {
    *a = {T(0), T(1), T(5), hi, lo, T(hi - 3), T(7), T(100), T(lo + 1), T(-1)};
    *b = {T(3), T(1), T(12), T(1), lo, T(hi - 1), T(-2), T(100), T(-3), T(9)};
  } else {
    *a = {T(0), T(1.5), T(-2.25), T(1e30), T(-7), T(0.1), T(3), T(-0.0), T(8), T(-1e-3)};
    *b = {T(3), T(-1.5), T(-2.5), T(1e10), T(7), T(0.2), T(3), T(0.0), T(-0.125), T(1e3)};
  }
}

template <typename T>
void ExpectAgainstReference(const std::vector<Op>& ops) {
  std::vector<T> a, b;
  Operands(&a, &b);
  for (Op op : ops) {
    std::vector<T> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(Reference(op, a[i], b[i]));
    const auto got = Values<T>(RunOp(op, testing::TensorTypeOf<T>(), {2, 5}, Bytes(a), Bytes(b)));
    EXPECT_EQ(got, want) << tflite::EnumNameBuiltinOperator(op);
  }
}

TEST(StablehloElementwiseTest, IntegerTypes) {
  const std::vector<Op> ops = {kAdd, kMul, kMax, kMin, kAnd};
  ExpectAgainstReference<int8_t>(ops);
  ExpectAgainstReference<int16_t>(ops);
  ExpectAgainstReference<int32_t>(ops);
  ExpectAgainstReference<int64_t>(ops);
  ExpectAgainstReference<uint8_t>(ops);
  ExpectAgainstReference<uint16_t>(ops);
  ExpectAgainstReference<uint32_t>(ops);
  ExpectAgainstReference<uint64_t>(ops);
}

TEST(StablehloElementwiseTest, FloatTypes) {
  ExpectAgainstReference<float>({kAdd, kMul, kMax, kMin});
  ExpectAgainstReference<double>({kAdd, kMul, kMax, kMin});
}

TEST(StablehloElementwiseTest, Float16RoundsEachResultOnce) {
  auto half = [](float f) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(f)); };
  const std::vector<uint16_t> a = {half(1.5f), half(-0.5f), half(1000.0f), half(0.1f)};
  const std::vector<uint16_t> b = {half(2.25f), half(3.0f), half(0.3f), half(0.2f)};
  const auto t = tflite::TensorType_FLOAT16;
  // Exact results rounded to nearest-even half.
  EXPECT_EQ(Values<uint16_t>(RunOp(kAdd, t, {4}, Bytes(a), Bytes(b))),
            (std::vector<uint16_t>{half(3.75f), half(2.5f), half(1000.0f + 0.300048828125f),
                                   half(0.0999755859375f + 0.199951171875f)}));
  EXPECT_EQ(Values<uint16_t>(RunOp(kMul, t, {4}, Bytes(a), Bytes(b))),
            (std::vector<uint16_t>{half(3.375f), half(-1.5f), half(1000.0f * 0.300048828125f),
                                   half(0.0999755859375f * 0.199951171875f)}));
  EXPECT_EQ(Values<uint16_t>(RunOp(kMax, t, {4}, Bytes(a), Bytes(b))),
            (std::vector<uint16_t>{b[0], b[1], a[2], b[3]}));
  EXPECT_EQ(Values<uint16_t>(RunOp(kMin, t, {4}, Bytes(a), Bytes(b))),
            (std::vector<uint16_t>{a[0], a[1], b[2], a[3]}));
}

TEST(StablehloElementwiseTest, BoolOperandsAreLogical) {
  const std::vector<uint8_t> a = {0, 0, 1, 1}, b = {0, 1, 0, 1};
  EXPECT_EQ(RunOp(kAdd, BOOL, {4}, a, b), (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(RunOp(kMax, BOOL, {4}, a, b), (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(RunOp(kMul, BOOL, {4}, a, b), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(RunOp(kMin, BOOL, {4}, a, b), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(RunOp(kAnd, BOOL, {4}, a, b), (std::vector<uint8_t>{0, 0, 0, 1}));
}

TEST(StablehloElementwiseTest, NanOrderingFollowsStdMaxAndMin) {
  // std::max(a, b) is b only when a < b; std::min(a, b) is b only when b < a.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {nan, 1.0f}, b = {1.0f, nan};
  const Floats max = Values<float>(RunOp(kMax, F32, {2}, Bytes(a), Bytes(b)));
  const Floats min = Values<float>(RunOp(kMin, F32, {2}, Bytes(a), Bytes(b)));
  EXPECT_TRUE(std::isnan(max[0]));
  EXPECT_EQ(max[1], 1.0f);
  EXPECT_TRUE(std::isnan(min[0]));
  EXPECT_EQ(min[1], 1.0f);
}

template <typename T>
void ExpectShiftLeft() {
  constexpr int kBits = sizeof(T) * 8;
  const std::vector<T> a = {T(1), T(3), T(-1), T(5), T(1), T(7), T(-8), T(1)};
  const std::vector<T> b = {T(0), T(2), T(4), T(kBits - 1), T(kBits), T(-1), T(1), T(100 % 128)};
  std::vector<T> want;
  for (size_t i = 0; i < a.size(); ++i) {
    const int64_t s = b[i];
    // Shifts outside [0, bits) give 0; otherwise the low bits of a * 2^s.
    want.push_back(s < 0 || s >= kBits ? T(0)
                                       : static_cast<T>(static_cast<uint64_t>(a[i]) *
                                                        (uint64_t{1} << s)));
  }
  EXPECT_EQ(Values<T>(RunOp(kShl, testing::TensorTypeOf<T>(), {8}, Bytes(a), Bytes(b))), want);
}

TEST(StablehloElementwiseTest, ShiftLeft) {
  ExpectShiftLeft<int8_t>();
  ExpectShiftLeft<int16_t>();
  ExpectShiftLeft<int32_t>();
}

TEST(StablehloElementwiseTest, RejectsBroadcastingAndBadTypes) {
  struct Case {
    Op op;
    tflite::TensorType a, b, out;
    Shape shape_a, shape_b;
    const char* message;
  };
  for (const Case& c : {
           Case{kAdd, F32, F32, F32, {2, 3}, {1, 3}, "STABLEHLO_ADD: operand shapes [2,3] and [1,3]"},
           Case{kMul, I32, I32, I32, {4}, {}, "STABLEHLO_MULTIPLY: operand shapes [4] and []"},
           Case{kMax, F32, I32, F32, {2}, {2}, "STABLEHLO_MAXIMUM: input 0 type FLOAT32 does not match input 1 type INT32"},
           Case{kMin, I8, I8, I16, {2}, {2}, "STABLEHLO_MINIMUM: input type INT8 does not match output type INT16"},
           Case{kAnd, F32, F32, F32, {2}, {2}, "STABLEHLO_AND: input type FLOAT32 is not supported"},
           Case{kShl, I64, I64, I64, {2}, {2},
                "STABLEHLO_SHIFT_LEFT: input type INT64 is not supported"},
           Case{kShl, U8, U8, U8, {2}, {2}, "STABLEHLO_SHIFT_LEFT: input type UINT8 is not supported"},
           Case{kAdd, STRING, STRING, STRING, {2}, {2},
                "STABLEHLO_ADD: input type STRING is not supported"},
       }) {
    OneOpModel m;
    m.Input(c.a, c.shape_a);
    m.Input(c.b, c.shape_b);
    m.Output(c.out, c.shape_a);
    m.Op(c.op);
    ExpectPrepareError(m, c.message);
  }
}

}  // namespace
}  // namespace tflite_c

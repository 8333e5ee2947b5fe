// CUMSUM and ADD_N: one-op models run through the public C API; expected
// values are computed by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::SameTypeOp;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I64 = tflite::TensorType_INT64;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto I16 = tflite::TensorType_INT16;

using Floats = std::vector<float>;
using Ints = std::vector<int32_t>;

// ---- CUMSUM -------------------------------------------------------------------------

tflite::BuiltinOptionsUnion CumsumOpts(bool exclusive, bool reverse) {
  tflite::CumsumOptionsT o;
  o.exclusive = exclusive;
  o.reverse = reverse;
  return Opts(o);
}

struct CumsumCase {
  bool exclusive, reverse;
  int axis;
  Floats expected;
};

TEST(CumsumTest, AllFlagCombinationsOnBothAxes) {
  // input [[1, 2, 3], [4, 5, 6]]
  const std::vector<CumsumCase> cases = {
      {false, false, 1, {1, 3, 6, 4, 9, 15}},
      {true, false, 1, {0, 1, 3, 0, 4, 9}},
      {false, true, 1, {6, 5, 3, 15, 11, 6}},
      {true, true, 1, {5, 3, 0, 11, 6, 0}},
      {false, false, 0, {1, 2, 3, 5, 7, 9}},
      {true, true, -2, {4, 5, 6, 0, 0, 0}},
  };
  for (const CumsumCase& c : cases) {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({}, {c.axis});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(c.exclusive, c.reverse));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), c.expected)
        << "exclusive " << c.exclusive << " reverse " << c.reverse << " axis " << c.axis;
  }
}

TEST(CumsumTest, Int64AndDynamicAxis) {
  OneOpModel m;
  m.Input(I64, {3});
  m.Input(I32, {});
  m.Output(I64, {3});
  m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int64_t>(0, {int64_t{1} << 40, 2, -3});
  m.Set<int32_t>(1, {0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int64_t>(), (std::vector<int64_t>{int64_t{1} << 40, (int64_t{1} << 40) + 2,
                                                    (int64_t{1} << 40) - 1}));
  m.Set<int32_t>(1, {1});  // out of range for rank 1
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("axis"), std::string::npos) << m.log();
}

TEST(CumsumTest, Errors) {
  {
    OneOpModel m;
    m.Input(I8, {3});
    m.Const<int32_t>({}, {0});
    m.Output(I8, {3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "CUMSUM: input type INT8 is not supported");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({}, {2});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "CUMSUM");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Const<int32_t>({2}, {0, 0});
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_CUMSUM, CumsumOpts(false, false));
    ExpectPrepareError(m, "axis must have exactly one element");
  }
}

// ---- ADD_N --------------------------------------------------------------------------

TEST(AddNTest, SumsThreeFloatInputs) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Input(F32, {2, 2});
  m.Const<float>({2, 2}, {100, 200, 300, 400});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_ADD_N);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  m.Set<float>(1, {-1, 0.5f, 10, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{100, 202.5f, 313, 404}));
}

TEST(AddNTest, Int32WrapsAndErrors) {
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, I32, {{2}, {2}}, {2});
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {std::numeric_limits<int32_t>::max(), -5});
    m.Set<int32_t>(1, {1, 7});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{std::numeric_limits<int32_t>::min(), 2}));
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, F32, {{2}, {3}}, {2});
    ExpectPrepareError(m, "input 1 shape [3] differs from input 0 shape [2]");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, F32, {{2}}, {2});
    ExpectPrepareError(m, "at least 2 inputs");
  }
  {
    OneOpModel m;
    SameTypeOp(m, tflite::BuiltinOperator_ADD_N, I16, {{2}, {2}}, {2});
    ExpectPrepareError(m, "ADD_N: input type INT16 is not supported");
  }
}

}  // namespace
}  // namespace tflite_c

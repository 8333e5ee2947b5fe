// CAST between numeric and bool types, and its refusal of strings. Each test is
// a one-op model run through the public C API; expected values are
// hand-computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- CAST --------------------------------------------------------------------------------

TEST(CastTest, NumericAndBoolPairs) {
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Output(I32, {4});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1.9f, -1.9f, 0.0f, 100.5f});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{1, -1, 0, 100}));
  }
  {
    OneOpModel m;
    m.Input(I64, {3});
    m.Output(BOOL, {3});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int64_t>(0, {0, 5, -1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));
  }
  {
    OneOpModel m;
    m.Input(U8, {2});
    m.Output(tflite::TensorType_FLOAT16, {2});
    m.Op(tflite::BuiltinOperator_CAST);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 255});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0x5bf8}));  // 1.0, 255.0
  }
}

TEST(CastTest, RejectsStrings) {
  OneOpModel m;
  m.Input(tflite::TensorType_STRING, {1});
  m.Output(F32, {1});
  m.Op(tflite::BuiltinOperator_CAST);
  ExpectPrepareError(m, "CAST: input type STRING is not supported");
}

}  // namespace
}  // namespace tflite_c

// SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND and EMBEDDING_LOOKUP. Each test is a
// one-op model run through the public C API; expected values are hand-computed.
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
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND ---------------------------------------------------

TEST(SpaceBatchTest, RoundTripWithPaddingAndCrops) {
  // [1, 2, 3, 1] padded to 2x4 (one zero column in front), blocks of 2x2.
  OneOpModel s;
  s.Input(U8, {1, 2, 3, 1}, Q(1.0f, 7));
  s.Const<int32_t>({2}, {2, 2});
  s.Const<int32_t>({2, 2}, {0, 0, 1, 0});
  s.Output(U8, {4, 1, 2, 1}, Q(1.0f, 7));
  s.Op(tflite::BuiltinOperator_SPACE_TO_BATCH_ND);
  ASSERT_TRUE(s.Allocate()) << s.log();
  s.Set<uint8_t>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(s.Invoke()) << s.log();
  EXPECT_EQ(s.Shape(), (Shape{4, 1, 2, 1}));
  // Padded rows: [7 1 2 3], [7 4 5 6]; batch k = (row parity, column parity).
  EXPECT_EQ(s.Get<uint8_t>(), (std::vector<uint8_t>{7, 2, 1, 3, 7, 5, 4, 6}));

  OneOpModel b;
  b.Input(U8, {4, 1, 2, 1}, Q(1.0f, 7));
  b.Const<int32_t>({2}, {2, 2});
  b.Const<int32_t>({2, 2}, {0, 0, 1, 0});
  b.Output(U8, {1, 2, 3, 1}, Q(1.0f, 7));
  b.Op(tflite::BuiltinOperator_BATCH_TO_SPACE_ND);
  ASSERT_TRUE(b.Allocate()) << b.log();
  b.Set<uint8_t>(0, {7, 2, 1, 3, 7, 5, 4, 6});
  ASSERT_TRUE(b.Invoke()) << b.log();
  EXPECT_EQ(b.Shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(b.Get<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

TEST(SpaceBatchTest, RejectsPaddingNotMultipleOfBlock) {
  OneOpModel m;
  m.Input(F32, {1, 3, 1});
  m.Const<int32_t>({1}, {2});
  m.Const<int32_t>({1, 2}, {0, 0});
  m.Output(F32, {2, 1, 1});
  m.Op(tflite::BuiltinOperator_SPACE_TO_BATCH_ND);
  ExpectPrepareError(m, "padded size 3 of dimension 1 is not a multiple of 2");
}

// ---- EMBEDDING_LOOKUP --------------------------------------------------------------------------

TEST(EmbeddingLookupTest, FloatAndHybridRows) {
  OneOpModel m;
  m.Input(I32, {2});
  m.Const<float>({3, 2}, {0, 1, 10, 11, 20, 21});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {2, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (Floats{20, 21, 0, 1}));
  m.Set<int32_t>(0, {3, 0});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("index 3 is out of range [0, 3)"), std::string::npos) << m.log();

  OneOpModel h;
  h.Input(I32, {1});
  h.Const<int8_t>({2, 2}, {1, -2, 3, 4}, I8, Q(0.5f, 0));
  h.Output(F32, {1, 2});
  h.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP);
  ASSERT_TRUE(h.Allocate()) << h.log();
  h.Set<int32_t>(0, {0});
  ASSERT_TRUE(h.Invoke()) << h.log();
  EXPECT_EQ(h.Get<float>(), (Floats{0.5f, -1.0f}));
}

}  // namespace
}  // namespace tflite_c

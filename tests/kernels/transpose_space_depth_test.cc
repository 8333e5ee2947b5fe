// Tests of TRANSPOSE, SPACE_TO_DEPTH and DEPTH_TO_SPACE. Each test builds a
// one-op model with ModelBuilder and runs it through the public C API, so it
// also covers loading, AllocateTensors (Prepare) and Invoke. Expected values
// are hand-computed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- TRANSPOSE -----------------------------------------------------------------------

TEST(TransposeTest, ThreeDimensions) {
  OneOpModel m;
  m.Input(F32, {2, 3, 1});
  m.Const<int32_t>({3}, {1, 2, 0});
  m.Output(F32, {3, 1, 2});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(TransposeTest, SixDimensionsWithRuntimePerm) {
  OneOpModel m;
  m.Input(I8, {1, 2, 1, 2, 1, 2});
  m.Input(I32, {6});
  m.Output(I8, {2, 2, 2, 1, 1, 1});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {0, 1, 2, 3, 4, 5, 6, 7});
  m.Set<int32_t>(1, {5, 3, 1, 0, 2, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2, 2, 1, 1, 1}));
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{0, 4, 2, 6, 1, 5, 3, 7}));
}

// Every permutation of a 4-D shape whose dimensions include short ones (1 to
// 3) and long ones (8 to 12), so NCHW <-> NHWC style transposes with short
// innermost rows are among them, for 1-, 2-, 4- and 8-byte elements; each
// output element is checked against the input element its coordinates name.
template <typename T>
void CheckAllPermutations(tflite::TensorType type, const std::vector<int>& shape) {
  int64_t count = 1;
  for (int n : shape) count *= n;
  std::vector<T> in(count);
  for (int64_t i = 0; i < count; ++i) in[i] = static_cast<T>(i * 7 + 1);
  std::vector<int> perm = {0, 1, 2, 3};
  do {
    std::vector<int> out_shape(4);
    for (int i = 0; i < 4; ++i) out_shape[i] = shape[perm[i]];
    const int64_t in_strides[4] = {int64_t{shape[1]} * shape[2] * shape[3],
                                   int64_t{shape[2]} * shape[3], shape[3], 1};
    std::vector<T> expected;
    for (int a = 0; a < out_shape[0]; ++a) {
      for (int b = 0; b < out_shape[1]; ++b) {
        for (int c = 0; c < out_shape[2]; ++c) {
          for (int d = 0; d < out_shape[3]; ++d) {
            expected.push_back(in[a * in_strides[perm[0]] + b * in_strides[perm[1]] +
                                  c * in_strides[perm[2]] + d * in_strides[perm[3]]]);
          }
        }
      }
    }
    SCOPED_TRACE(::testing::Message() << "perm " << perm[0] << perm[1] << perm[2] << perm[3]
                                      << ", element bytes " << sizeof(T));
    OneOpModel m;
    m.Input(type, shape);
    m.Const<int32_t>({4}, perm);
    m.Output(type, out_shape);
    m.Op(tflite::BuiltinOperator_TRANSPOSE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<T>(0, in);
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<T>(), expected);
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(TransposeTest, EveryPermutationWithShortAndLongDimensions) {
  CheckAllPermutations<int8_t>(I8, {2, 3, 9, 12});
  CheckAllPermutations<int16_t>(I16, {1, 3, 8, 10});
  CheckAllPermutations<float>(F32, {3, 2, 11, 1});
  CheckAllPermutations<int64_t>(I64, {2, 9, 3, 8});
}

TEST(TransposeTest, RejectsRepeatedAxis) {
  OneOpModel m;
  m.Input(F32, {2, 2});
  m.Const<int32_t>({2}, {0, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_TRANSPOSE);
  ExpectPrepareError(m, "perm repeats dimension 0");
}

// ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE ------------------------------------------------

TEST(SpaceDepthTest, SpaceToDepthAndBack) {
  tflite::SpaceToDepthOptionsT s2d;
  s2d.block_size = 2;
  OneOpModel m;
  m.Input(F32, {1, 2, 4, 1});
  m.Output(F32, {1, 1, 2, 4});
  m.Op(tflite::BuiltinOperator_SPACE_TO_DEPTH, Opts(s2d));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 1, 2, 4}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8}));

  tflite::DepthToSpaceOptionsT d2s;
  d2s.block_size = 2;
  OneOpModel back;
  back.Input(I8, {1, 1, 2, 4});
  back.Output(I8, {1, 2, 4, 1});
  back.Op(tflite::BuiltinOperator_DEPTH_TO_SPACE, Opts(d2s));
  ASSERT_TRUE(back.Allocate()) << back.log();
  back.Set<int8_t>(0, {1, 2, 5, 6, 3, 4, 7, 8});
  ASSERT_TRUE(back.Invoke()) << back.log();
  EXPECT_EQ(back.Get<int8_t>(), (std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(SpaceDepthTest, RejectsIndivisibleInput) {
  tflite::SpaceToDepthOptionsT o;
  o.block_size = 2;
  OneOpModel m;
  m.Input(F32, {1, 3, 2, 1});
  m.Output(F32, {1, 1, 1, 4});
  m.Op(tflite::BuiltinOperator_SPACE_TO_DEPTH, Opts(o));
  ExpectPrepareError(m, "block size 2 does not divide the input [1, 3, 2, 1]");
}

}  // namespace
}  // namespace tflite_c

// Tests of PAD, PADV2 and MIRROR_PAD. Each test builds a one-op model with
// ModelBuilder and runs it through the public C API, so it also covers loading,
// AllocateTensors (Prepare) and Invoke. Expected values are hand-computed;
// quantized cases check upstream's rounding rules bit for bit.
#include <gtest/gtest.h>

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
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- PAD / PADV2 / MIRROR_PAD ----------------------------------------------------

TEST(PadTest, FloatConstantPaddings) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Const<int32_t>({4, 2}, {0, 0, 1, 0, 0, 2, 0, 0});
  m.Output(F32, {1, 3, 4, 1});
  m.Op(tflite::BuiltinOperator_PAD, Opts(tflite::PadOptionsT{}));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 3, 4, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
}

TEST(PadTest, QuantizedPadsWithZeroPoint) {
  OneOpModel m;
  m.Input(I8, {3}, Q(0.5f, -3));
  m.Const<int64_t>({1, 2}, {2, 1});
  m.Output(I8, {6}, Q(0.5f, -3));
  m.Op(tflite::BuiltinOperator_PAD);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {5, 6, 7});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-3, -3, 5, 6, 7, -3}));
}

TEST(PadTest, PadV2ConstantValueAndDynamicPaddings) {
  OneOpModel m;
  m.Input(F32, {2, 1});
  m.Input(I32, {2, 2});  // paddings only known at Invoke
  m.Const<float>({}, {9.5f});
  m.Output(F32, {2, 1});
  m.Op(tflite::BuiltinOperator_PADV2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2});
  m.Set<int32_t>(1, {1, 0, 0, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 2}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{9.5f, 9.5f, 1, 9.5f, 2, 9.5f}));
}

// Output element by output element: inside the input's box it is the input
// element at the same coordinates less the leading padding, else the fill.
template <typename T>
std::vector<T> ReferencePad(const std::vector<int>& in_shape, const std::vector<int>& pads,
                            const std::vector<T>& in, T fill, std::vector<int>* out_shape) {
  const int rank = static_cast<int>(in_shape.size());
  out_shape->resize(rank);
  int64_t total = 1;
  for (int d = 0; d < rank; ++d) {
    (*out_shape)[d] = in_shape[d] + pads[2 * d] + pads[2 * d + 1];
    total *= (*out_shape)[d];
  }
  std::vector<T> out(total);
  for (int64_t o = 0; o < total; ++o) {
    int64_t rest = o, in_index = 0, in_stride = 1;
    bool inside = true;
    for (int d = rank - 1; d >= 0; --d) {
      const int c = static_cast<int>(rest % (*out_shape)[d]) - pads[2 * d];
      rest /= (*out_shape)[d];
      inside = inside && c >= 0 && c < in_shape[d];
      in_index += int64_t{c} * in_stride;
      in_stride *= in_shape[d];
    }
    out[o] = inside ? in[in_index] : fill;
  }
  return out;
}

// Paddings on every subset of the dimensions of NHWC-like shapes (trailing
// dimensions padded or not, a middle one alone, none at all), for 1-, 2- and
// 4-byte elements.
template <typename T>
void CheckPadSubsets(tflite::TensorType type, std::vector<int> in_shape) {
  const int rank = static_cast<int>(in_shape.size());
  int64_t count = 1;
  for (int n : in_shape) count *= n;
  std::vector<T> in(count);
  for (int64_t i = 0; i < count; ++i) in[i] = static_cast<T>(i % 97 + 1);
  for (int mask = 0; mask < (1 << rank); ++mask) {
    std::vector<int> pads(2 * rank, 0);
    for (int d = 0; d < rank; ++d) {
      if (mask & (1 << d)) {
        pads[2 * d] = d % 2 == 0 ? 1 : 2;
        pads[2 * d + 1] = d % 3 == 0 ? 0 : 1;
      }
    }
    SCOPED_TRACE(::testing::Message() << "rank " << rank << ", padded dimensions mask " << mask);
    std::vector<int> out_shape;
    const std::vector<T> expected = ReferencePad<T>(in_shape, pads, in, T(0), &out_shape);
    OneOpModel m;
    m.Input(type, in_shape);
    m.Const<int32_t>({rank, 2}, pads);
    m.Output(type, out_shape);
    m.Op(tflite::BuiltinOperator_PAD);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<T>(0, in);
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), out_shape);
    EXPECT_EQ(m.Get<T>(), expected);
  }
}

TEST(PadTest, EverySubsetOfPaddedDimensionsMatchesTheDefinition) {
  CheckPadSubsets<int8_t>(I8, {2, 5, 4, 3});
  CheckPadSubsets<int16_t>(I16, {3, 2, 7});
  CheckPadSubsets<float>(F32, {1, 4, 3, 2, 2});
  CheckPadSubsets<int32_t>(I32, {6});
}

TEST(PadTest, RejectsBadPaddingsShapeAndNegativePadding) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2});
    m.Const<int32_t>({3, 2}, {0, 0, 0, 0, 0, 0});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_PAD);
    ExpectPrepareError(m, "paddings must have shape [2, 2]");
  }
  {
    OneOpModel m;
    m.Input(F32, {2});
    m.Const<int32_t>({1, 2}, {-1, 0});
    m.Output(F32, {1});
    m.Op(tflite::BuiltinOperator_PAD);
    ExpectPrepareError(m, "negative");
  }
}

tflite::BuiltinOptionsUnion MirrorOpts(tflite::MirrorPadMode mode) {
  tflite::MirrorPadOptionsT o;
  o.mode = mode;
  return Opts(o);
}

TEST(MirrorPadTest, ReflectAndSymmetric) {
  for (auto mode : {tflite::MirrorPadMode_REFLECT, tflite::MirrorPadMode_SYMMETRIC}) {
    OneOpModel m;
    m.Input(F32, {2, 3});
    m.Const<int32_t>({2, 2}, {1, 0, 2, 2});
    m.Output(F32, {3, 7});
    m.Op(tflite::BuiltinOperator_MIRROR_PAD, MirrorOpts(mode));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{3, 7}));
    if (mode == tflite::MirrorPadMode_REFLECT) {
      EXPECT_EQ(m.Get<float>(), (std::vector<float>{6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1,  //
                                                    6, 5, 4, 5, 6, 5, 4}));
    } else {
      EXPECT_EQ(m.Get<float>(), (std::vector<float>{2, 1, 1, 2, 3, 3, 2,  //
                                                    2, 1, 1, 2, 3, 3, 2,  //
                                                    5, 4, 4, 5, 6, 6, 5}));
    }
  }
}

TEST(MirrorPadTest, RejectsPaddingLargerThanReflectAllows) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Const<int32_t>({1, 2}, {3, 0});
  m.Output(F32, {6});
  m.Op(tflite::BuiltinOperator_MIRROR_PAD, MirrorOpts(tflite::MirrorPadMode_REFLECT));
  ExpectPrepareError(m, "must be in [0, 2] for REFLECT");
}

}  // namespace
}  // namespace tflite_c

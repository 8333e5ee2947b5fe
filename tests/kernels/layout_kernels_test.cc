// Tests of the layout / data-movement kernels (their section of
// src/kernels/registrations.inc). Each test builds a one-op model with
// ModelBuilder and runs it through the public C API, so it also covers
// loading, AllocateTensors (Prepare) and Invoke.
// Expected values are hand-computed; quantized cases check upstream's
// rounding rules bit for bit.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;
using testing::ModelBuilder;
using testing::Quantization;
using testing::TensorTypeOf;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto U8 = tflite::TensorType_UINT8;
constexpr auto I16 = tflite::TensorType_INT16;

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

// ---- pooling ----------------------------------------------------------------------

tflite::BuiltinOptionsUnion PoolOpts(tflite::Padding padding, int stride, int filter,
                                     tflite::ActivationFunctionType act =
                                         tflite::ActivationFunctionType_NONE) {
  tflite::Pool2DOptionsT o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.filter_width = o.filter_height = filter;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(PoolTest, MaxPoolFloatSamePadding) {
  OneOpModel m;
  m.Input(F32, {1, 3, 3, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_SAME, 2, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2, 3, -4, 5, -6, 7, -8, -9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 2, 2, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{5, 3, 7, -9}));
}

TEST(PoolTest, MaxPoolInt8WithRelu) {
  OneOpModel m;
  m.Input(I8, {1, 2, 2, 1}, Q(0.5f, 10));
  m.Output(I8, {1, 1, 1, 1}, Q(0.5f, 10));
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D,
       PoolOpts(tflite::Padding_VALID, 1, 2, tflite::ActivationFunctionType_RELU));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-20, 3, 8, -1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{10}));  // max 8 < zero point 10
}

TEST(PoolTest, AveragePoolFloatCountsOnlyValidTaps) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_SAME, 1, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{2.5f, 3, 3.5f, 4}));
}

TEST(PoolTest, AveragePoolQuantizedRounding) {
  {
    // uint8: (1 + 2 + 2 + 2 + 2/2) / 4 → 7/4 rounds to 2 (half up).
    OneOpModel m;
    m.Input(U8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(U8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 1, 2, 2});  // sum 6 / 4 = 1.5 → 2
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{2}));
  }
  {
    // int8: negative sums round half away from zero: -6 / 4 = -1.5 → -2.
    OneOpModel m;
    m.Input(I8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(I8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {-1, -1, -2, -2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-2}));
  }
}

TEST(PoolTest, RejectsWrongRankAndType) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2, 1});
    m.Output(F32, {1, 1, 1});
    m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "input must be 4-D");
  }
  {
    OneOpModel m;
    m.Input(I32, {1, 2, 2, 1});
    m.Output(I32, {1, 1, 1, 1});
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "AVERAGE_POOL_2D: input type INT32 is not supported");
  }
}

// ---- CONCATENATION ---------------------------------------------------------------

tflite::BuiltinOptionsUnion ConcatOpts(int axis, tflite::ActivationFunctionType act =
                                                     tflite::ActivationFunctionType_NONE) {
  tflite::ConcatenationOptionsT o;
  o.axis = axis;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(ConcatenationTest, FloatAxisAndNegativeAxis) {
  for (int axis : {1, -1}) {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {2, 2});
    m.Output(F32, {2, 3});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(axis));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2});
    m.Set<float>(1, {3, 4, 5, 6});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 3}));
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  }
}

TEST(ConcatenationTest, FusedReluAndConstantInput) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Const<float>({1}, {-7});
  m.Output(F32, {3});
  m.Op(tflite::BuiltinOperator_CONCATENATION,
       ConcatOpts(0, tflite::ActivationFunctionType_RELU));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-1, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0, 2, 0}));
}

TEST(ConcatenationTest, Uint8InputsWithOtherScalesAreRequantized) {
  OneOpModel m;
  m.Input(U8, {2}, Q(1.0f, 128));
  m.Input(U8, {2}, Q(0.5f, 0));
  m.Output(U8, {4}, Q(1.0f, 128));
  m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<uint8_t>(0, {0, 200});
  m.Set<uint8_t>(1, {3, 255});  // reals 1.5 → round(1.5) = 2, 127.5 → 128
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{0, 200, 130, 255}));
}

TEST(ConcatenationTest, AllConstantInputsAreFoldedInPrepare) {
  OneOpModel m;
  m.Const<int32_t>({1}, {4});
  m.Const<int32_t>({2}, {5, 6});
  m.Output(I32, {3});
  m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(0));
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{4, 5, 6}));
}

TEST(ConcatenationTest, RejectsMismatchedShapesAndBadAxis) {
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {3});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(1));
    ExpectPrepareError(m, "input 1 has rank 1");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Input(F32, {3, 1});
    m.Output(F32, {2, 2});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(1));
    ExpectPrepareError(m, "does not match the first input");
  }
  {
    OneOpModel m;
    m.Input(F32, {2, 1});
    m.Output(F32, {2, 1});
    m.Op(tflite::BuiltinOperator_CONCATENATION, ConcatOpts(2));
    ExpectPrepareError(m, "axis 2 is out of range for rank 2");
  }
}

// ---- DEQUANTIZE / QUANTIZE ---------------------------------------------------------

TEST(DequantizeTest, Int8Uint8Int16) {
  {
    OneOpModel m;
    m.Input(I8, {3}, Q(0.5f, -1));
    m.Output(F32, {3});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {-128, -1, 127});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{-63.5f, 0, 64}));
  }
  {
    OneOpModel m;
    m.Input(U8, {2}, Q(0.25f, 128));
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {0, 255});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), (std::vector<float>{-32, 31.75f}));
  }
  {
    OneOpModel m;
    m.Input(I16, {2}, Q(0.5f, 3));
    m.Output(F32, {2});
    m.Op(tflite::BuiltinOperator_DEQUANTIZE);
    ExpectPrepareError(m, "INT16 input must have zero point 0");
  }
}

TEST(DequantizeTest, ConstantFloat16WeightsAreConvertedOnce) {
  OneOpModel m;
  // 1.0, -2.5, 65504 (largest half), 2^-24 (smallest subnormal half)
  m.Const<uint16_t>({4}, {0x3c00, 0xc100, 0x7bff, 0x0001}, tflite::TensorType_FLOAT16);
  m.Output(F32, {4});
  m.Op(tflite::BuiltinOperator_DEQUANTIZE, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1.0f, -2.5f, 65504.0f, 5.9604645e-8f}));
}

TEST(DequantizeTest, PerChannelConstant) {
  OneOpModel m;
  m.Const<int8_t>({2, 2}, {1, 2, 3, 4}, I8, Quantization{{0.5f, 2.0f}, {0, 1}, 0});
  m.Output(F32, {2, 2});
  m.Op(tflite::BuiltinOperator_DEQUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{0.5f, 1, 4, 6}));
}

TEST(QuantizeTest, FloatToInt8RoundsHalfAwayAndClamps) {
  OneOpModel m;
  m.Input(F32, {5});
  m.Output(I8, {5}, Q(0.5f, 1));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {0.25f, -0.25f, 1.0f, 1000.0f, -1000.0f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{2, 0, 3, 127, -128}));
}

TEST(QuantizeTest, Uint8ToInt8Requantize) {
  OneOpModel m;
  m.Input(U8, {3}, Q(0.5f, 128));
  m.Output(I8, {3}, Q(1.0f, 0));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  // The fixed-point multiply rounds ties upwards: 0.5 → 1, -0.5 → 0, 63.5 → 64.
  m.Set<uint8_t>(0, {129, 127, 255});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{1, 0, 64}));
}

TEST(QuantizeTest, RejectsUnsupportedPair) {
  OneOpModel m;
  m.Input(F32, {2});
  m.Output(I32, {2}, Q(1.0f, 0));
  m.Op(tflite::BuiltinOperator_QUANTIZE);
  ExpectPrepareError(m, "FLOAT32 input to INT32 output is not supported");
}

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

// ---- RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR -----------------------------------------

tflite::BuiltinOptionsUnion BilinearOpts(bool align_corners, bool half_pixel_centers) {
  tflite::ResizeBilinearOptionsT o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return Opts(o);
}

std::vector<float> RunResize(BuiltinOperator op, tflite::BuiltinOptionsUnion options, int size) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Const<int32_t>({2}, {size, size});
  m.Output(F32, {1, size, size, 1});
  m.Op(op, std::move(options));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, size, size, 1}));
  return m.Get<float>();
}

void ExpectAllNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

TEST(ResizeTest, Bilinear) {
  ExpectAllNear(RunResize(tflite::BuiltinOperator_RESIZE_BILINEAR, BilinearOpts(false, false), 3),
                {1, 5.f / 3, 2, 7.f / 3, 3, 10.f / 3, 3, 11.f / 3, 4});
  ExpectAllNear(RunResize(tflite::BuiltinOperator_RESIZE_BILINEAR, BilinearOpts(true, false), 3),
                {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4});
  // Pixel centres: source x = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25.
  ExpectAllNear(RunResize(tflite::BuiltinOperator_RESIZE_BILINEAR, BilinearOpts(false, true), 4),
                {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f,  //
                 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4});
}

TEST(ResizeTest, NearestNeighbor) {
  tflite::ResizeNearestNeighborOptionsT plain;
  EXPECT_EQ(RunResize(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Opts(plain), 4),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
  tflite::ResizeNearestNeighborOptionsT centers;
  centers.half_pixel_centers = true;
  EXPECT_EQ(RunResize(tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Opts(centers), 3),
            (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
}

TEST(ResizeTest, RejectsBothSamplingFlagsAndIntegerBilinear) {
  {
    OneOpModel m;
    m.Input(F32, {1, 2, 2, 1});
    m.Const<int32_t>({2}, {3, 3});
    m.Output(F32, {1, 3, 3, 1});
    m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, BilinearOpts(true, true));
    ExpectPrepareError(m, "cannot both be set");
  }
  {
    OneOpModel m;
    m.Input(I32, {1, 2, 2, 1});
    m.Const<int32_t>({2}, {3, 3});
    m.Output(I32, {1, 3, 3, 1});
    m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, BilinearOpts(false, false));
    ExpectPrepareError(m, "RESIZE_BILINEAR: input type INT32 is not supported");
  }
}

// ---- SLICE / TILE / BROADCAST_TO ----------------------------------------------------------

TEST(SliceTest, SizeMinusOneTakesTheRest) {
  OneOpModel m;
  m.Input(F32, {3, 2});
  m.Const<int32_t>({2}, {1, 0});
  m.Const<int32_t>({2}, {-1, 1});
  m.Output(F32, {2, 1});
  m.Op(tflite::BuiltinOperator_SLICE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{2, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{3, 5}));
}

TEST(SliceTest, RuntimeBeginOutOfRangeFailsAtInvoke) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Input(I32, {1});
  m.Const<int32_t>({1}, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_SLICE);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3});
  m.Set<int32_t>(1, {2});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("do not fit dimension 0 of size 3"), std::string::npos) << m.log();
}

TEST(TileTest, ConstantAndRuntimeMultiples) {
  {
    OneOpModel m;
    m.Input(I32, {2});
    m.Const<int32_t>({1}, {3});
    m.Output(I32, {6});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {1, 2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{1, 2, 1, 2, 1, 2}));
  }
  {
    OneOpModel m;
    m.Input(tflite::TensorType_BOOL, {2, 1});
    m.Input(tflite::TensorType_INT64, {2});
    m.Output(tflite::TensorType_BOOL, {2, 1});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 0});
    m.Set<int64_t>(1, {1, 2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), (std::vector<int>{2, 2}));
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 0}));
  }
}

// Found by fuzz/model_fuzzer (a 8 GB allocation from TILE's plan): runtime
// multiples asking for a huge output are refused by the allocation limit
// before any per-axis plan is built, and an output with a zero dimension
// builds no plan for its other (huge) axes.
TEST(TileTest, MalformedHugeMultiplesBuildNoPlan) {
  struct Case {
    std::vector<int32_t> multiples;
    bool ok;
    std::vector<int> shape;
  };
  for (const Case& c : {Case{{1, 1073741823}, false, {}}, Case{{0, 2147483647}, true, {0, 2147483647}}}) {
    OneOpModel m;
    m.configure_options = [](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetMaxAllocationBytes(o, 64 << 20);
    };
    m.Input(F32, {2, 1});
    m.Input(I32, {2});
    m.Output(F32, {2, 1});
    m.Op(tflite::BuiltinOperator_TILE);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, {1, 2});
    m.Set<int32_t>(1, c.multiples);
    EXPECT_EQ(m.Invoke(), c.ok) << m.log();
    if (c.ok) {
      EXPECT_EQ(m.Shape(), c.shape);
    } else {
      EXPECT_TRUE(testing::RefusedAsTooBig(m.log(), "allocation limit")) << m.log();
    }
  }
}

TEST(BroadcastToTest, AddsAndExpandsDimensions) {
  OneOpModel m;
  m.Input(F32, {2, 1});
  m.Const<int32_t>({3}, {2, 2, 3});
  m.Output(F32, {2, 2, 3});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
}

TEST(BroadcastToTest, RejectsIncompatibleShape) {
  OneOpModel m;
  m.Input(F32, {3});
  m.Const<int32_t>({1}, {2});
  m.Output(F32, {2});
  m.Op(tflite::BuiltinOperator_BROADCAST_TO, {}, 2);
  ExpectPrepareError(m, "input [3] does not broadcast to dimension 0 of size 2");
}

}  // namespace
}  // namespace tflite_c

// Tests of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR. Each test builds a
// one-op model with ModelBuilder and runs it through the public C API, so it
// also covers loading, AllocateTensors (Prepare) and Invoke. Expected values
// are hand-computed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using tflite::BuiltinOperator;
using testing::ModelBuilder;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

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

}  // namespace
}  // namespace tflite_c

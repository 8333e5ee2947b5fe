// MediaPipe's TransformTensorBilinear / TransformTensor, run through the C API
// on model-builder graphs. Expected values come from geometric properties (a
// 90-degree rotation permutes pixels, bilinear sampling of a linear ramp is
// exact) rather than from the kernel's formulas.
#include <string>
#include <vector>

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/kernels/mediapipe_op_test_util.h"

namespace {
using tflite_c::testing::ModelBuilder;
using tflite_c::testing::Affine;
using tflite_c::testing::Apply;
using tflite_c::testing::Flex;
using tflite_c::testing::OpRun;
using tflite_c::testing::Raw;

// ---- TransformTensorBilinear -----------------------------------------------------------

std::vector<uint8_t> BilinearOptions(int h, int w) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("output_height", h);
    b.Int("output_width", w);
  });
}

// Builds data [1, h, w, c] + matrix -> [1, oh, ow, c].
std::vector<uint8_t> BilinearModel(int h, int w, int c, std::vector<uint8_t> options,
                                   const char* name = "TransformTensorBilinear", int version = 2,
                                   std::vector<int> matrix_shape = {1, 4, 4},
                                   tflite::TensorType type = tflite::TensorType_FLOAT32) {
  ModelBuilder mb;
  const int in = mb.AddInput(type, {1, h, w, c}, "x");
  const int m = mb.AddInput(tflite::TensorType_FLOAT32, matrix_shape, "m");
  // The declared output shape is wrong on purpose: Prepare sets it.
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1, c}, "y");
  mb.AddCustomOperator(name, {in, m}, {out}, std::move(options), version);
  return mb.Finish();
}

std::vector<float> Ramp(int h, int w, int c) {
  std::vector<float> v(static_cast<size_t>(h) * w * c);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) v[(y * w + x) * c + k] = 2.0f * x + 3.0f * y + 100.0f * k + 1.0f;
  return v;
}

TEST(TransformTensorBilinearTest, IdentityCopiesAndTranslationCrops) {
  const int h = 5, w = 6, c = 2;
  const std::vector<float> x = Ramp(h, w, c);
  {
    OpRun run(BilinearModel(h, w, c, BilinearOptions(h, w)));
    ASSERT_EQ(run.Invoke({Raw(x), Raw(Affine(1, 0, 0, 0, 1, 0))}), kTfLiteOk) << run.log;
    EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, h, w, c}));
    EXPECT_EQ(run.Output(), x);
  }
  {
    // A 2x3 crop starting at column 1, row 2.
    OpRun run(BilinearModel(h, w, c, BilinearOptions(2, 3)));
    ASSERT_EQ(run.Invoke({Raw(x), Raw(Affine(1, 0, 1, 0, 1, 2))}), kTfLiteOk) << run.log;
    EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, 2, 3, c}));
    std::vector<float> expected;
    for (int y = 0; y < 2; ++y)
      for (int xx = 0; xx < 3; ++xx)
        for (int k = 0; k < c; ++k) expected.push_back(x[((y + 2) * w + xx + 1) * c + k]);
    EXPECT_EQ(run.Output(), expected);
  }
}

TEST(TransformTensorBilinearTest, QuarterTurnPermutesPixels) {
  // Output (ox, oy) takes input column w-1-oy of row ox: a quarter turn. In
  // version 2 the matrix maps pixel centres, so its translation is w rather
  // than w - 1; version 1 ("TransformTensor") uses coordinates as they are.
  const int h = 3, w = 4;
  const std::vector<float> x = Ramp(h, w, 1);
  for (int version : {1, 2}) {
    SCOPED_TRACE(version);
    std::vector<uint8_t> options =
        version == 2 ? BilinearOptions(w, h) : Flex([&](flexbuffers::Builder& b) {
          b.String("mode", "bilinear");
          b.Vector("output_size", [&] {
            b.Int(w);
            b.Int(h);
          });
        });
    const float shift = version == 2 ? w : w - 1;
    OpRun run(BilinearModel(h, w, 1, options, version == 2 ? "TransformTensorBilinear" : "TransformTensor",
                            version));
    ASSERT_EQ(run.Invoke({Raw(x), Raw(Affine(0, -1, shift, 1, 0, 0))}), kTfLiteOk) << run.log;
    ASSERT_EQ(run.OutputShape(), (std::vector<int>{1, w, h, 1}));
    const std::vector<float> y = run.Output();
    for (int oy = 0; oy < w; ++oy)
      for (int ox = 0; ox < h; ++ox) {
        EXPECT_EQ(y[oy * h + ox], x[ox * w + (w - 1 - oy)]) << ox << "," << oy;
      }
  }
}

TEST(TransformTensorBilinearTest, ScaledSamplingOfARampIsExact) {
  // Bilinear interpolation reproduces a linear function exactly, so every
  // in-bounds sample equals the ramp at the sample point; points outside
  // the input give 0. Version 2: the sample point of output pixel (ox, oy)
  // is M * (ox + 0.5, oy + 0.5) - 0.5.
  const int h = 6, w = 7, c = 2, oh = 9, ow = 11;
  const std::vector<float> x = Ramp(h, w, c);
  const std::vector<float> m = Affine(0.55f, 0.1f, 0.3f, -0.05f, 0.6f, 0.2f);
  OpRun run(BilinearModel(h, w, c, BilinearOptions(oh, ow)));
  ASSERT_EQ(run.Invoke({Raw(x), Raw(m)}), kTfLiteOk) << run.log;
  const std::vector<float> y = run.Output();
  int inside = 0, outside = 0;
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox) {
      double sx, sy;
      Apply(m, ox + 0.5, oy + 0.5, &sx, &sy);
      sx -= 0.5;
      sy -= 0.5;
      const bool in = sx >= 0 && sy >= 0 && sx <= w - 1 && sy <= h - 1;
      (in ? inside : outside)++;
      for (int k = 0; k < c; ++k) {
        const double expected = in ? 2 * sx + 3 * sy + 100 * k + 1 : 0.0;
        EXPECT_NEAR(y[(oy * ow + ox) * c + k], expected, 2e-4) << ox << "," << oy << "," << k;
      }
    }
  EXPECT_GT(inside, 20);
  EXPECT_GT(outside, 5);
}

// TransformTensorBilinear v2 with a 2x2 output size and the given FLOAT32
// input and output shapes; `with_matrix` false leaves out the matrix input.
std::vector<uint8_t> BilinearShapesModel(const std::vector<int>& in_shape,
                                         const std::vector<int>& out_shape,
                                         bool with_matrix = true) {
  ModelBuilder mb;
  std::vector<int> inputs = {mb.AddInput(tflite::TensorType_FLOAT32, in_shape, "x")};
  if (with_matrix) inputs.push_back(mb.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4}, "m"));
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, out_shape, "y");
  mb.AddCustomOperator("TransformTensorBilinear", inputs, {out}, BilinearOptions(2, 2), 2);
  return mb.Finish();
}

TEST(TransformTensorBilinearTest, RejectsBadGraphs) {
  struct Bad {
    const char* what;
    std::vector<uint8_t> model;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"no options", BilinearModel(2, 2, 1, {}), "not a flexbuffer map"},
      {"struct options", BilinearModel(2, 2, 1, std::vector<uint8_t>(12, 1)), "not a flexbuffer map"},
      {"missing width", BilinearModel(2, 2, 1, Flex([](flexbuffers::Builder& b) { b.Int("output_height", 2); })),
       "'output_width' is missing"},
      {"zero size", BilinearModel(2, 2, 1, BilinearOptions(0, 2)), "invalid output size"},
      {"huge size", BilinearModel(2, 2, 3, BilinearOptions(1 << 20, 1 << 20)), "too large"},
      {"string size", BilinearModel(2, 2, 1, Flex([](flexbuffers::Builder& b) {
         b.String("output_height", "2");
         b.Int("output_width", 2);
       })),
       "not a 32-bit integer"},
      {"3x3 matrix", BilinearModel(2, 2, 1, BilinearOptions(2, 2), "TransformTensorBilinear", 2, {1, 3, 3}),
       "must be 4x4"},
      {"int input", BilinearModel(2, 2, 1, BilinearOptions(2, 2), "TransformTensorBilinear", 2, {1, 4, 4},
                                  tflite::TensorType_INT32),
       "not supported"},
      {"v1 nearest", BilinearModel(2, 2, 1, Flex([](flexbuffers::Builder& b) {
         b.String("mode", "nearest");
         b.Vector("output_size", [&] { b.Int(2); b.Int(2); });
       }), "TransformTensor", 1),
       "'nearest' is not supported"},
      {"v1 no size", BilinearModel(2, 2, 1, Flex([](flexbuffers::Builder& b) { b.String("mode", "bilinear"); }),
                                   "TransformTensor", 1),
       "'output_size' must be"},
      {"rank 3 input", BilinearShapesModel({2, 2, 1}, {1, 2, 2, 1}), "must be 4-D"},
      {"batch 2", BilinearShapesModel({2, 2, 2, 1}, {2, 2, 2, 1}), "batch 2 is not supported"},
      {"one input", BilinearShapesModel({1, 2, 2, 1}, {1, 2, 2, 1}, /*with_matrix=*/false),
       "expects 2 inputs"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    OpRun run(c.model);
    run.ExpectPrepareError(c.message);
  }
}

}  // namespace

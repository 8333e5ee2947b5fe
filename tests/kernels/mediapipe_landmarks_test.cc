// MediaPipe's TransformLandmarks and Landmarks2TransformMatrix, run through the
// C API on model-builder graphs. Expected values come from geometric
// properties (corners of a crop land on the landmarks that define it)
// rather than from the kernels' formulas.
#include <algorithm>
#include <cmath>
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

// ---- TransformLandmarks ------------------------------------------------------------------

std::vector<uint8_t> LandmarksModel(std::vector<int> shape, int version = 2,
                                    std::vector<uint8_t> options = {}) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, shape, "landmarks");
  const int m = mb.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4}, "m");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, std::vector<int>(shape.size(), 1), "y");
  mb.AddCustomOperator("TransformLandmarks", {in, m}, {out}, std::move(options), version);
  return mb.Finish();
}

TEST(TransformLandmarksTest, RotatesAndTranslatesXYKeepsZ) {
  // A quarter turn plus translation: (x, y) -> (-y + 10, x + 20).
  const std::vector<float> m = Affine(0, -1, 10, 1, 0, 20);
  {
    OpRun run(LandmarksModel({1, 3, 2}));
    ASSERT_EQ(run.Invoke({Raw(std::vector<float>{1, 2, 3, 4, -5, 6}), Raw(m)}), kTfLiteOk) << run.log;
    EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, 3, 2}));
    EXPECT_EQ(run.Output(), (std::vector<float>{8, 21, 6, 23, 4, 15}));
  }
  {
    OpRun run(LandmarksModel({1, 2, 3}));
    ASSERT_EQ(run.Invoke({Raw(std::vector<float>{1, 2, 0.5f, 3, 4, -7}), Raw(m)}), kTfLiteOk) << run.log;
    EXPECT_EQ(run.Output(), (std::vector<float>{8, 21, 0.5f, 6, 23, -7}));
  }
}

TEST(TransformLandmarksTest, Version1ScalesTheTranslation) {
  // [1, 1, 1, 6]: two 3-D landmarks; scale 2 doubles the translation.
  const std::vector<uint8_t> options = Flex([](flexbuffers::Builder& b) {
    b.Int("dimensions", 3);
    b.Float("scale", 2.0f);
  });
  OpRun run(LandmarksModel({1, 1, 1, 6}, 1, options));
  ASSERT_EQ(run.Invoke({Raw(std::vector<float>{1, 2, 9, 3, 4, 8}), Raw(Affine(2, 0, 1, 0, 3, -1))}),
            kTfLiteOk)
      << run.log;
  EXPECT_EQ(run.Output(), (std::vector<float>{4, 4, 9, 8, 10, 8}));
  // Without options: three dimensions, scale 1.
  OpRun plain(LandmarksModel({1, 1, 1, 3}, 1));
  ASSERT_EQ(plain.Invoke({Raw(std::vector<float>{1, 2, 9}), Raw(Affine(2, 0, 1, 0, 3, -1))}), kTfLiteOk)
      << plain.log;
  EXPECT_EQ(plain.Output(), (std::vector<float>{3, 5, 9}));
}

TEST(TransformLandmarksTest, RejectsBadGraphs) {
  OpRun four(LandmarksModel({1, 3, 4}));
  four.ExpectPrepareError("4 values per landmark are not supported");
  OpRun rank(LandmarksModel({1, 1, 3, 2}));
  rank.ExpectPrepareError("must be 3-D");
  OpRun multiple(LandmarksModel({1, 1, 1, 4}, 1));  // 4 is no multiple of 3
  multiple.ExpectPrepareError("not a multiple of 3");
  OpRun zero(LandmarksModel({1, 1, 1, 3}, 1, Flex([](flexbuffers::Builder& b) { b.Float("scale", 0); })));
  zero.ExpectPrepareError("'scale' must not be 0");
  OpRun garbage(LandmarksModel({1, 1, 1, 3}, 1, {1, 2, 3, 4, 5}));
  garbage.ExpectPrepareError("not a flexbuffer map");
}

// ---- Landmarks2TransformMatrix -----------------------------------------------------------

// The corners of a w x h rectangle centred on (cx, cy) and turned by phi:
// top-left, top-right, bottom-left, bottom-right (y grows downwards), plus
// a distractor landmark far away that is not in the subset. z is junk.
std::vector<float> RectangleLandmarks(double cx, double cy, double w, double h, double phi) {
  std::vector<float> v;
  const double corners[4][2] = {{-w / 2, -h / 2}, {w / 2, -h / 2}, {-w / 2, h / 2}, {w / 2, h / 2}};
  for (const auto& c : corners) {
    v.push_back(static_cast<float>(cx + std::cos(phi) * c[0] - std::sin(phi) * c[1]));
    v.push_back(static_cast<float>(cy + std::sin(phi) * c[0] + std::cos(phi) * c[1]));
    v.push_back(-3.5f);
  }
  v.insert(v.end(), {1000.0f, -1000.0f, 42.0f});
  return v;
}

std::vector<uint8_t> MatrixV2Options(float scale, float target = 0.0f, int ow = 16, int oh = 8,
                                     std::vector<int> subset = {0, 1, 2, 3}) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("left_rotation_idx", 0);
    b.Int("right_rotation_idx", 1);
    b.Int("output_height", oh);
    b.Int("output_width", ow);
    b.Float("scale_x", scale);
    b.Float("scale_y", scale);
    b.Vector("subset_idxs", [&] {
      for (int i : subset) b.Int(i);
    });
    b.Float("target_rotation_radians", target);
  });
}

std::vector<uint8_t> MatrixModel(std::vector<int> shape, std::vector<uint8_t> options, int version = 2) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, shape, "landmarks");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1}, "m");
  mb.AddCustomOperator("Landmarks2TransformMatrix", {in}, {out}, std::move(options), version);
  return mb.Finish();
}

void ExpectMapsTo(const std::vector<float>& m, double x, double y, double ex, double ey) {
  double ox, oy;
  Apply(m, x, y, &ox, &oy);
  EXPECT_NEAR(ox, ex, 1e-3) << "(" << x << ", " << y << ")";
  EXPECT_NEAR(oy, ey, 1e-3) << "(" << x << ", " << y << ")";
}

void ExpectAffineLayout(const std::vector<float>& m) {
  ASSERT_EQ(m.size(), 16u);
  EXPECT_EQ(m[2], 0.0f);
  EXPECT_EQ(m[6], 0.0f);
  EXPECT_EQ(std::vector<float>(m.begin() + 8, m.end()),
            (std::vector<float>{0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(Landmarks2TransformMatrixTest, CropCornersLandOnTheRectangle) {
  // Output 16 x 8 for a 40 x 20 rectangle turned by 30 degrees: the crop's
  // corners map onto the rectangle's corners, its centre onto the centre.
  const double phi = M_PI / 6, cx = 100, cy = 60, w = 40, h = 20;
  const std::vector<float> lm = RectangleLandmarks(cx, cy, w, h, phi);
  OpRun run(MatrixModel({1, 5, 3}, MatrixV2Options(1.0f)));
  ASSERT_EQ(run.Invoke({Raw(lm)}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, 4, 4}));
  const std::vector<float> m = run.Output();
  ExpectAffineLayout(m);
  ExpectMapsTo(m, 0, 0, lm[0], lm[1]);
  ExpectMapsTo(m, 16, 0, lm[3], lm[4]);
  ExpectMapsTo(m, 0, 8, lm[6], lm[7]);
  ExpectMapsTo(m, 16, 8, lm[9], lm[10]);
  ExpectMapsTo(m, 8, 4, cx, cy);
}

TEST(Landmarks2TransformMatrixTest, ScaleGrowsTheCropAroundItsCentre) {
  const double phi = -0.4, cx = 50, cy = 70, w = 30, h = 12;
  const std::vector<float> lm = RectangleLandmarks(cx, cy, w, h, phi);
  OpRun run(MatrixModel({1, 5, 3}, MatrixV2Options(1.5f)));
  ASSERT_EQ(run.Invoke({Raw(lm)}), kTfLiteOk) << run.log;
  const std::vector<float> m = run.Output();
  ExpectMapsTo(m, 8, 4, cx, cy);
  // The left edge's midpoint moves 1.5 * w / 2 from the centre along -u.
  ExpectMapsTo(m, 0, 4, cx - 1.5 * w / 2 * std::cos(phi), cy - 1.5 * w / 2 * std::sin(phi));
  ExpectMapsTo(m, 8, 0, cx + 1.5 * h / 2 * std::sin(phi), cy - 1.5 * h / 2 * std::cos(phi));
}

TEST(Landmarks2TransformMatrixTest, TargetRotationKeepsTheTurn) {
  // With target rotation = the rectangle's own angle nothing is undone: the
  // crop is the axis-aligned bounding box of the turned rectangle.
  const double phi = 0.3, cx = 10, cy = 20, w = 8, h = 4;
  const std::vector<float> lm = RectangleLandmarks(cx, cy, w, h, phi);
  OpRun run(MatrixModel({1, 5, 3}, MatrixV2Options(1.0f, static_cast<float>(phi))));
  ASSERT_EQ(run.Invoke({Raw(lm)}), kTfLiteOk) << run.log;
  const std::vector<float> m = run.Output();
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  for (int i = 0; i < 4; ++i) {
    x0 = std::min<double>(x0, lm[3 * i]);
    x1 = std::max<double>(x1, lm[3 * i]);
    y0 = std::min<double>(y0, lm[3 * i + 1]);
    y1 = std::max<double>(y1, lm[3 * i + 1]);
  }
  EXPECT_NEAR(m[1], 0, 1e-6);
  EXPECT_NEAR(m[4], 0, 1e-6);
  ExpectMapsTo(m, 0, 0, x0, y0);
  ExpectMapsTo(m, 16, 8, x1, y1);
}

TEST(Landmarks2TransformMatrixTest, Version1MapsCornerPixelsOntoTheRectangle) {
  // Version 1 works in [-1, 1] units of landmarks_range; with input_hw =
  // range + 1 those are the landmark coordinates again, and the corner
  // pixels (0 and size - 1) of the output map onto the rectangle corners.
  const double phi = 0.25, cx = 60, cy = 50, w = 30, h = 20;
  const int range = 128, ow = 9, oh = 5;
  const std::vector<float> lm = RectangleLandmarks(cx, cy, w, h, phi);
  const std::vector<uint8_t> options = Flex([&](flexbuffers::Builder& b) {
    b.TypedVector("input_hw", [&] {
      b.Int(range + 1);
      b.Int(range + 1);
    });
    b.TypedVector("output_hw", [&] {
      b.Int(oh);
      b.Int(ow);
    });
    b.Int("dimensions", 3);
    b.Int("landmarks_range", range);
    b.Float("bbox_size_multiplier", 1.0f);
    b.Int("left_rotation_idx", 0);
    b.Int("right_rotation_idx", 1);
    b.TypedVector("subset", [&] {
      for (int i : {0, 1, 2, 3}) b.Int(i);
    });
  });
  OpRun run(MatrixModel({1, 1, 1, 15}, options, 1));
  ASSERT_EQ(run.Invoke({Raw(lm)}), kTfLiteOk) << run.log;
  const std::vector<float> m = run.Output();
  ExpectAffineLayout(m);
  ExpectMapsTo(m, 0, 0, lm[0], lm[1]);
  ExpectMapsTo(m, ow - 1, 0, lm[3], lm[4]);
  ExpectMapsTo(m, 0, oh - 1, lm[6], lm[7]);
  ExpectMapsTo(m, ow - 1, oh - 1, lm[9], lm[10]);
}

TEST(Landmarks2TransformMatrixTest, RejectsBadGraphs) {
  struct Bad {
    const char* what;
    std::vector<uint8_t> model;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"no options", MatrixModel({1, 5, 3}, {}), "not a flexbuffer map"},
      {"index out of range", MatrixModel({1, 5, 3}, MatrixV2Options(1, 0, 16, 8, {0, 5})),
       "landmark index 5 is out of range"},
      {"negative index", MatrixModel({1, 5, 3}, MatrixV2Options(1, 0, 16, 8, {0, -1})), "invalid index -1"},
      {"empty subset", MatrixModel({1, 5, 3}, MatrixV2Options(1, 0, 16, 8, {})), "non-empty list"},
      {"zero scale", MatrixModel({1, 5, 3}, MatrixV2Options(0)), "must be positive"},
      {"zero width", MatrixModel({1, 5, 3}, MatrixV2Options(1, 0, 0)), "must be positive"},
      {"2-D landmarks", MatrixModel({1, 5, 2}, MatrixV2Options(1)), "x, y, z per landmark"},
      {"rank 2", MatrixModel({5, 3}, MatrixV2Options(1)), "must be 3-D"},
      {"missing key", MatrixModel({1, 5, 3}, Flex([](flexbuffers::Builder& b) { b.Int("output_height", 2); })),
       "'left_rotation_idx' is missing"},
      {"v1 2-D", MatrixModel({1, 1, 1, 15}, Flex([](flexbuffers::Builder& b) {
         b.TypedVector("input_hw", [&] { b.Int(2); b.Int(2); });
         b.TypedVector("output_hw", [&] { b.Int(2); b.Int(2); });
         b.Int("dimensions", 2);
         b.Int("landmarks_range", 1);
         b.Float("bbox_size_multiplier", 1);
         b.Int("left_rotation_idx", 0);
         b.Int("right_rotation_idx", 1);
         b.TypedVector("subset", [&] { b.Int(0); });
       }), 1),
       "dimensions 2 are not supported"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    OpRun run(c.model);
    run.ExpectPrepareError(c.message);
  }
}

}  // namespace

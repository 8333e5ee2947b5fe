// MediaPipe's landmark/transform ops (Landmarks2TransformMatrix,
// TransformLandmarks, TransformTensorBilinear / TransformTensor), LiteRT's
// LiteRtMaxUnpooling2D and the flexbuffer reader they use, run through the
// C API on model-builder graphs. Expected values come from geometric
// properties (corners of a crop land on the landmarks that define it, a
// 90-degree rotation permutes pixels, bilinear sampling of a linear ramp is
// exact) rather than from the kernels' formulas. The last tests run the
// face landmark model with attention end to end.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "src/kernels/internal/flex_map.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/test_paths.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::kernels::internal::FlexMap;
using tflite_c::testing::ModelBuilder;

// A model + interpreter built with the default resolver.
struct OpRun {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  std::string log;

  explicit OpRun(std::vector<uint8_t> b) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
  }
  ~OpRun() {
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  // Inputs are raw bytes so that int32 and float inputs can be mixed.
  TfLiteStatus Invoke(const std::vector<std::vector<uint8_t>>& inputs) {
    if (interpreter == nullptr) return kTfLiteError;
    TfLiteStatus s = TfLiteInterpreterAllocateTensors(interpreter);
    if (s != kTfLiteOk) return s;
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, static_cast<int>(i));
      s = TfLiteTensorCopyFromBuffer(t, inputs[i].data(), inputs[i].size());
      if (s != kTfLiteOk) return s;
    }
    return TfLiteInterpreterInvoke(interpreter);
  }
  std::vector<float> Output(int i = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<float> v(TfLiteTensorByteSize(t) / sizeof(float));
    TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
    return v;
  }
  std::vector<int> OutputShape(int i = 0) const {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<int> d;
    for (int k = 0; k < TfLiteTensorNumDims(t); ++k) d.push_back(TfLiteTensorDim(t, k));
    return d;
  }
  // AllocateTensors must fail with `message` in the log.
  void ExpectPrepareError(const std::string& message) {
    ASSERT_NE(interpreter, nullptr) << log;
    EXPECT_NE(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
    EXPECT_NE(log.find(message), std::string::npos) << "log: " << log;
  }
};

template <typename T>
std::vector<uint8_t> Raw(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// A flexbuffer map built by flatbuffers' own encoder.
template <typename F>
std::vector<uint8_t> Flex(F fill) {
  flexbuffers::Builder fbb;
  fbb.Map([&] { fill(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Row-major 4x4 affine matrix [a b p tx; c d q ty; ...]; p and q (the z
// column) and the last two rows are filled with junk the ops must ignore.
std::vector<float> Affine(float a, float b, float tx, float c, float d, float ty) {
  return {a, b, 7.0f, tx, c, d, -5.0f, ty, 3.0f, 4.0f, 9.0f, 1.0f, 2.0f, 8.0f, 6.0f, 1.0f};
}

// Applies a [1, 4, 4] matrix (as the ops define it) to (x, y).
void Apply(const std::vector<float>& m, double x, double y, double* ox, double* oy) {
  *ox = m[0] * x + m[1] * y + m[3];
  *oy = m[4] * x + m[5] * y + m[7];
}

// ---- FlexMap -------------------------------------------------------------------------

std::vector<uint8_t> SampleFlex() {
  return Flex([](flexbuffers::Builder& b) {
    b.Int("small", -5);
    b.Int("wide", 70000);
    b.Int("huge", int64_t{1} << 40);
    b.UInt("unsigned", 300);
    b.Float("half", 0.5f);
    b.Double("third", 1.0 / 3.0);
    b.Double("whole", 12.0);
    b.Bool("flag", true);
    b.String("mode", "bilinear");
    b.Vector("ints", [&] {
      b.Int(1);
      b.Int(-2);
      b.Int(300);
    });
    b.Vector("mixed", [&] {
      b.Int(4);
      b.Double(5.0);
      b.UInt(6);
    });
    b.TypedVector("typed", [&] {
      b.Int(7);
      b.Int(70000);
    });
    b.Vector("floats", [&] { b.Double(1.5); });
  });
}

TEST(FlexMapTest, ReadsScalarsStringsAndVectors) {
  const std::vector<uint8_t> buf = SampleFlex();
  FlexMap map;
  ASSERT_TRUE(map.Parse(buf.data(), buf.size()));
  int64_t i = 0;
  double d = 0;
  EXPECT_TRUE(map.GetInt("small", &i));
  EXPECT_EQ(i, -5);
  EXPECT_TRUE(map.GetInt("wide", &i));
  EXPECT_EQ(i, 70000);
  EXPECT_TRUE(map.GetInt("huge", &i));
  EXPECT_EQ(i, int64_t{1} << 40);
  EXPECT_TRUE(map.GetInt("unsigned", &i));
  EXPECT_EQ(i, 300);
  EXPECT_TRUE(map.GetInt("flag", &i));
  EXPECT_EQ(i, 1);
  EXPECT_TRUE(map.GetInt("whole", &i));  // a whole float converts
  EXPECT_EQ(i, 12);
  EXPECT_FALSE(map.GetInt("half", &i));  // a fraction does not
  EXPECT_TRUE(map.GetDouble("half", &d));
  EXPECT_EQ(d, 0.5);
  EXPECT_TRUE(map.GetDouble("third", &d));
  EXPECT_EQ(d, 1.0 / 3.0);
  EXPECT_TRUE(map.GetDouble("small", &d));
  EXPECT_EQ(d, -5.0);
  std::string s;
  EXPECT_TRUE(map.GetString("mode", &s));
  EXPECT_EQ(s, "bilinear");
  EXPECT_FALSE(map.GetString("small", &s));
  EXPECT_FALSE(map.GetDouble("mode", &d));
  std::vector<int64_t> v;
  EXPECT_TRUE(map.GetIntVector("ints", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{1, -2, 300}));
  EXPECT_TRUE(map.GetIntVector("mixed", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{4, 5, 6}));
  EXPECT_TRUE(map.GetIntVector("typed", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{7, 70000}));
  EXPECT_FALSE(map.GetIntVector("floats", &v));  // 1.5 is no index
  EXPECT_FALSE(map.GetIntVector("small", &v));
  EXPECT_FALSE(map.Has("missing"));
  EXPECT_FALSE(map.GetInt("missing", &i));
  EXPECT_FALSE(map.Has("smal"));  // no prefix matches
  EXPECT_FALSE(map.Has("smallest"));
}

TEST(FlexMapTest, RejectsNonMaps) {
  FlexMap map;
  EXPECT_FALSE(map.Parse(nullptr, 0));
  const uint8_t tiny[] = {1, 2};
  EXPECT_FALSE(map.Parse(tiny, sizeof(tiny)));
  flexbuffers::Builder fbb;
  fbb.Int(42);
  fbb.Finish();
  EXPECT_FALSE(map.Parse(fbb.GetBuffer().data(), fbb.GetBuffer().size()));
  // A TfLitePoolParams struct is not a flexbuffer map either.
  TfLitePoolParams p{};
  p.padding = kTfLitePaddingSame;
  p.stride_width = p.stride_height = 2;
  EXPECT_FALSE(map.Parse(&p, sizeof(p)));
}

// Truncated and corrupted buffers: every getter either fails or returns
// something, never reads outside the buffer (each copy is exactly sized so
// that a sanitizer build sees any overrun).
TEST(FlexMapTest, SurvivesTruncationAndCorruption) {
  const std::vector<uint8_t> good = SampleFlex();
  auto probe = [](const std::vector<uint8_t>& bytes) {
    std::vector<uint8_t> copy(bytes);  // heap block of exactly this size
    FlexMap map;
    if (!map.Parse(copy.data(), copy.size())) return;
    int64_t i;
    double d;
    std::string s;
    std::vector<int64_t> v;
    for (const char* key : {"small", "wide", "huge", "unsigned", "half", "third", "whole", "flag",
                            "mode", "ints", "mixed", "typed", "floats"}) {
      map.Has(key);
      map.GetInt(key, &i);
      map.GetDouble(key, &d);
      map.GetString(key, &s);
      map.GetIntVector(key, &v);
    }
  };
  for (size_t n = 0; n < good.size(); ++n) {
    probe(std::vector<uint8_t>(good.end() - n, good.end()));  // keeps the root bytes
    probe(std::vector<uint8_t>(good.begin(), good.begin() + n));
  }
  for (size_t at = 0; at < good.size(); ++at) {
    for (uint8_t value : {uint8_t{0}, uint8_t{0x7f}, uint8_t{0xff}, uint8_t{0x27}, uint8_t{3}}) {
      std::vector<uint8_t> bad = good;
      bad[at] = value;
      probe(bad);
    }
  }
}

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

// ---- LiteRtMaxUnpooling2D -----------------------------------------------------------------

std::vector<uint8_t> PoolOptions(TfLitePadding padding, int stride_h, int stride_w, int filter) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.stride_height = stride_h;
  p.stride_width = stride_w;
  p.filter_height = p.filter_width = filter;
  std::vector<uint8_t> b(sizeof(p));
  std::memcpy(b.data(), &p, sizeof(p));
  return b;
}

std::vector<uint8_t> UnpoolModel(std::vector<int> shape, std::vector<uint8_t> options,
                                 tflite::TensorType index_type = tflite::TensorType_INT32,
                                 std::vector<int> index_shape = {}) {
  ModelBuilder mb;
  const int in = mb.AddInput(tflite::TensorType_FLOAT32, shape, "x");
  const int idx = mb.AddInput(index_type, index_shape.empty() ? shape : index_shape, "i");
  const int out = mb.AddOutput(tflite::TensorType_FLOAT32, shape, "y");
  mb.AddCustomOperator("LiteRtMaxUnpooling2D", {in, idx}, {out}, std::move(options));
  return mb.Finish();
}

TEST(LiteRtMaxUnpoolingTest, FlatIndicesPlaceValuesPerBatch) {
  // [2, 1, 2, 2] -> VALID, stride 2x3, filter 2: output [2, 2, 5, 2]. An
  // index names (oy * 5 + ox) * 2 + c inside its own batch.
  OpRun run(UnpoolModel({2, 1, 2, 2}, PoolOptions(kTfLitePaddingValid, 2, 3, 2)));
  struct Place {
    int oy, ox, c;
  };
  const Place places[8] = {{0, 0, 0}, {1, 4, 1}, {0, 2, 1}, {1, 1, 0},
                           {1, 0, 0}, {0, 4, 0}, {1, 3, 1}, {0, 1, 1}};
  std::vector<int32_t> indices;
  for (const Place& p : places) indices.push_back((p.oy * 5 + p.ox) * 2 + p.c);
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(run.Invoke({Raw(values), Raw(indices)}), kTfLiteOk) << run.log;
  EXPECT_EQ(run.OutputShape(), (std::vector<int>{2, 2, 5, 2}));
  const std::vector<float> y = run.Output();
  std::vector<float> expected(40, 0.0f);
  for (int i = 0; i < 8; ++i) {
    const int batch = i / 4;
    expected[batch * 20 + places[i].oy * 10 + places[i].ox * 2 + places[i].c] = values[i];
  }
  EXPECT_EQ(y, expected);
}

TEST(LiteRtMaxUnpoolingTest, SamePaddingDropsOutOfRangeIndices) {
  // [1, 2, 2, 1] SAME stride 2 -> [1, 4, 4, 1]; indices -1 and 16 are outside.
  OpRun run(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2)));
  ASSERT_EQ(run.Invoke({Raw(std::vector<float>{1, 2, 3, 4}), Raw(std::vector<int32_t>{5, -1, 16, 15})}),
            kTfLiteOk)
      << run.log;
  EXPECT_EQ(run.OutputShape(), (std::vector<int>{1, 4, 4, 1}));
  std::vector<float> expected(16, 0.0f);
  expected[5] = 1;
  expected[15] = 4;
  EXPECT_EQ(run.Output(), expected);
}

TEST(LiteRtMaxUnpoolingTest, RejectsBadGraphs) {
  OpRun no_options(UnpoolModel({1, 2, 2, 1}, {}));
  no_options.ExpectPrepareError("neither SAME nor VALID");
  OpRun float_indices(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2),
                                  tflite::TensorType_FLOAT32));
  float_indices.ExpectPrepareError("int32 only");
  OpRun shapes(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2),
                           tflite::TensorType_INT32, {1, 2, 1, 1}));
  shapes.ExpectPrepareError("shapes differ");
  OpRun rank(UnpoolModel({2, 2, 1}, PoolOptions(kTfLitePaddingSame, 2, 2, 2)));
  rank.ExpectPrepareError("must be 4-D");
  OpRun huge(UnpoolModel({1, 2, 2, 1}, PoolOptions(kTfLitePaddingSame, 1 << 30, 2, 2)));
  huge.ExpectPrepareError("too large");
}

// ---- models ------------------------------------------------------------------------------------

std::string SharedFile(const std::string& path) {
  return std::string(TFLITE_C_SHARED_DIR) + "/models/" + path;
}

std::vector<char> ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

TEST(LiteRtMaxUnpoolingTest, LiteRtModel) {
  const std::string path = SharedFile("files/litert_max_unpooling_2d.tflite");
  TfLiteModel* model = TfLiteModelCreateFromFile(path.c_str());
  if (model == nullptr) GTEST_SKIP() << path << " not found";
  std::string log;
  TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, o);
  TfLiteInterpreterOptionsDelete(o);
  ASSERT_NE(interpreter, nullptr) << log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << log;
  // SAME, stride 2: [1, 8, 8, 128] -> [1, 16, 16, 128] (the converter's
  // declared [1, 8, 8, 128] is replaced, as upstream's kernel does).
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  ASSERT_EQ(TfLiteTensorNumDims(out), 4);
  EXPECT_EQ(TfLiteTensorDim(out, 1), 16);
  EXPECT_EQ(TfLiteTensorDim(out, 2), 16);
  EXPECT_EQ(TfLiteTensorDim(out, 3), 128);
  // Element i goes to 4 * i + 1 (in range: 4 * 8191 + 1 < 16 * 16 * 128).
  std::vector<float> x(8192);
  std::vector<int32_t> idx(8192);
  for (int i = 0; i < 8192; ++i) {
    x[i] = static_cast<float>(i + 1);
    idx[i] = 4 * i + 1;
  }
  TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x.data(), x.size() * 4);
  TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 1), idx.data(), idx.size() * 4);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk) << log;
  std::vector<float> y(16 * 16 * 128);
  ASSERT_EQ(TfLiteTensorCopyToBuffer(out, y.data(), y.size() * 4), kTfLiteOk);
  for (size_t k = 0; k < y.size(); ++k) {
    const float expected = k % 4 == 1 ? static_cast<float>(k / 4 + 1) : 0.0f;
    ASSERT_EQ(y[k], expected) << k;
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
}

struct FaceModel {
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  std::string log;
  explicit FaceModel(const std::string& path) {
    model = TfLiteModelCreateFromFile(path.c_str());
    if (model == nullptr) return;
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
    TfLiteInterpreterOptionsSetNumThreads(o, 1);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
  }
  ~FaceModel() {
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  const TfLiteTensor* Output(const std::string& name) const {
    for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(interpreter); ++i) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
      if (name == TfLiteTensorName(t)) return t;
    }
    return nullptr;
  }
  std::vector<float> Values(const std::string& name) const {
    const TfLiteTensor* t = Output(name);
    if (t == nullptr) return {};
    std::vector<float> v(TfLiteTensorByteSize(t) / sizeof(float));
    TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
    return v;
  }
};

TEST(FaceLandmarkWithAttentionTest, RunsWithFiniteStableOutputs) {
  const std::string path = SharedFile("files/mp_face_landmark_with_attention.tflite");
  const std::vector<char> input = ReadAll(SharedFile("golden/mp_face_landmark/input_0.bin"));
  FaceModel face(path);
  if (face.model == nullptr || input.empty()) GTEST_SKIP() << "model or golden input not found";
  ASSERT_NE(face.interpreter, nullptr) << face.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(face.interpreter), kTfLiteOk) << face.log;
  TfLiteTensor* in = TfLiteInterpreterGetInputTensor(face.interpreter, 0);
  ASSERT_EQ(TfLiteTensorByteSize(in), input.size());
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(in, input.data(), input.size()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(face.interpreter), kTfLiteOk) << face.log;

  const std::pair<const char*, int> outputs[] = {
      {"output_mesh_identity", 1404}, {"output_lips", 160},      {"output_left_eye", 142},
      {"output_right_eye", 142},      {"output_left_iris", 10},  {"output_right_iris", 10},
      {"conv_faceflag", 1}};
  std::vector<std::vector<float>> first;
  for (const auto& [name, size] : outputs) {
    SCOPED_TRACE(name);
    const TfLiteTensor* t = face.Output(name);
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(TfLiteTensorNumDims(t), 4);
    EXPECT_EQ(TfLiteTensorDim(t, 0), 1);
    EXPECT_EQ(TfLiteTensorDim(t, 1), 1);
    EXPECT_EQ(TfLiteTensorDim(t, 2), 1);
    EXPECT_EQ(TfLiteTensorDim(t, 3), size);
    first.push_back(face.Values(name));
    for (float v : first.back()) ASSERT_TRUE(std::isfinite(v));
  }
  ASSERT_EQ(TfLiteInterpreterInvoke(face.interpreter), kTfLiteOk) << face.log;
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(face.Values(outputs[i].first), first[i]) << outputs[i].first;
  }
}

// The attention model crops the lips and eyes out of a feature map with
// Landmarks2TransformMatrix + TransformTensorBilinear, refines them, and maps
// the refined points back with TransformLandmarks. Its lips and eye outputs
// list the same landmarks as these mesh indices (the subset_idxs of its
// Landmarks2TransformMatrix nodes), so if the three ops were wrong the
// refined points would land far from the mesh. Measured here: mean 1.1-1.4
// px, max 4.5 px (in a 192 px image); the non-attention model's mesh on the
// same input differs by 7.3 px on average (max 17.7).
TEST(FaceLandmarkWithAttentionTest, RefinedRegionsAgreeWithTheMesh) {
  const std::vector<char> input = ReadAll(SharedFile("golden/mp_face_landmark/input_0.bin"));
  const std::vector<char> golden = ReadAll(SharedFile("golden/mp_face_landmark/output_0.bin"));
  FaceModel face(SharedFile("files/mp_face_landmark_with_attention.tflite"));
  if (face.model == nullptr || input.empty() || golden.size() != 1404 * sizeof(float)) {
    GTEST_SKIP() << "model or golden files not found";
  }
  ASSERT_NE(face.interpreter, nullptr) << face.log;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(face.interpreter), kTfLiteOk) << face.log;
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(face.interpreter, 0),
                                       input.data(), input.size()),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(face.interpreter), kTfLiteOk) << face.log;
  const std::vector<float> mesh = face.Values("output_mesh_identity");
  ASSERT_EQ(mesh.size(), 1404u);

  // Mean and max distance per coordinate between refined (x, y) points and
  // the mesh landmarks they stand for.
  auto compare = [&](const char* output, const std::vector<int>& indices, double mean_limit,
                     double max_limit) {
    SCOPED_TRACE(output);
    const std::vector<float> refined = face.Values(output);
    ASSERT_EQ(refined.size(), 2 * indices.size());
    double sum = 0, worst = 0;
    for (size_t k = 0; k < indices.size(); ++k) {
      for (int c = 0; c < 2; ++c) {
        const double d = std::fabs(refined[2 * k + c] - mesh[3 * indices[k] + c]);
        sum += d;
        worst = std::max(worst, d);
      }
    }
    EXPECT_LT(sum / refined.size(), mean_limit);
    EXPECT_LT(worst, max_limit);
  };
  compare("output_lips",
          {61,  146, 91,  181, 84,  17,  314, 405, 321, 375, 291, 185, 40,  39,  37,  0,
           267, 269, 270, 409, 78,  95,  88,  178, 87,  14,  317, 402, 318, 324, 308, 191,
           80,  81,  82,  13,  312, 311, 310, 415, 76,  77,  90,  180, 85,  16,  315, 404,
           320, 307, 306, 184, 74,  73,  72,  11,  302, 303, 304, 408, 62,  96,  89,  179,
           86,  15,  316, 403, 319, 325, 292, 183, 42,  41,  38,  12,  268, 271, 272, 407},
          3.0, 8.0);
  compare("output_left_eye",
          {33,  7,   163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
           130, 25,  110, 24,  23,  22,  26,  112, 243, 247, 30,  29,  27,  28,  56,  190,
           226, 31,  228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
           35,  124, 46,  53,  52,  65,  143, 111, 117, 118, 119, 120, 121, 128, 245, 156,
           70,  63,  105, 66,  107, 55,  193},
          3.0, 8.0);
  compare("output_right_eye",
          {263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
           359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
           446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
           265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465, 383,
           300, 293, 334, 296, 336, 285, 417},
          3.0, 8.0);

  // Loose: the two models' meshes on the same (non-face) input.
  const auto* g = reinterpret_cast<const float*>(golden.data());
  double sum = 0;
  for (int i = 0; i < 1404; ++i) {
    if (i % 3 != 2) sum += std::fabs(mesh[i] - g[i]);
  }
  EXPECT_LT(sum / 936, 12.0);
}

}  // namespace

// TFLite_Detection_PostProcess through the C API's default resolver:
// upstream's published 6-anchor vectors (detection_postprocess_test.cc),
// hand-worked cases, and (opt-in) a real SSD model. Random inputs against a
// reference are in detection_postprocess_reference_test.cc, the refusals in
// detection_postprocess_errors_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/kernels/detection_postprocess_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

using detection::DetectionModel;
using detection::Opts;
using detection::QSpec;
using detection::Result;
using detection::Zeros;

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol,
                const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << what << "[" << i << "]";
}

// ---- upstream's six anchors ----------------------------------------------------------

const std::vector<float> kEnc6 = {0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0,
                                  0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  0, 0};
const std::vector<float> kScores6 = {0., .9, .8, 0., .75, .72, 0., .6, .5,
                                     0., .93, .95, 0., .5, .4, 0., .3, .2};
const std::vector<float> kAnchors6 = {0.5, 0.5, 1, 1, 0.5, 0.5,  1, 1, 0.5, 0.5,   1, 1,
                                      0.5, 10.5, 1, 1, 0.5, 10.5, 1, 1, 0.5, 100.5, 1, 1};
const QSpec kBoxQ{TensorType_UINT8, -1, 1}, kScoreQ{TensorType_UINT8, 0, 1},
    kAnchorQ{TensorType_UINT8, 0, 100.5};

// Box encodings with a fifth value per anchor (a keypoint), which the op
// ignores.
std::vector<float> WithKeypoint(const std::vector<float>& enc) {
  std::vector<float> out;
  for (size_t i = 0; i < enc.size(); i += 4) {
    out.insert(out.end(), enc.begin() + i, enc.begin() + i + 4);
    out.push_back(1.0f);
  }
  return out;
}

TEST(DetectionPostProcess, UpstreamFastNmsFloat) {
  DetectionModel m(Opts{}, 6, 4, 3);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  EXPECT_EQ(m.model().Shape(0), (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(m.model().Shape(1), (std::vector<int>{1, 3}));
  EXPECT_EQ(m.model().Shape(3), (std::vector<int>{1}));
  Result r;
  ASSERT_TRUE(m.Run(kEnc6, kScores6, kAnchors6, &r)) << m.model().log();
  ExpectNear(r.boxes, {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101}, 1e-5f, "boxes");
  EXPECT_EQ(r.classes, (std::vector<float>{1, 0, 0}));
  ExpectNear(r.scores, {0.95f, 0.9f, 0.3f}, 0, "scores");
  EXPECT_EQ(r.num, 3);
}

TEST(DetectionPostProcess, UpstreamFastNmsTwoClassesPerDetection) {
  Opts o;
  o.max_classes_per_detection = 2;
  DetectionModel m(o, 6, 4, 3);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  ASSERT_TRUE(m.Run(kEnc6, kScores6, kAnchors6, &r)) << m.model().log();
  ExpectNear(r.boxes, {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 1, 1, 0, 0, 1, 1, 0, 100, 1, 101, 0, 100, 1, 101},
             1e-5f, "boxes");
  EXPECT_EQ(r.classes, (std::vector<float>{1, 0, 0, 1, 0, 1}));
  ExpectNear(r.scores, {0.95f, 0.93f, 0.9f, 0.8f, 0.3f, 0.2f}, 0, "scores");
  EXPECT_EQ(r.num, 3);  // anchors, not rows
}

TEST(DetectionPostProcess, UpstreamRegularNms) {
  for (bool quantized : {false, true}) {
    SCOPED_TRACE(quantized ? "uint8" : "float");
    Opts o;
    o.regular = true;
    o.set_detections_per_class = true;
    o.detections_per_class = 1;
    DetectionModel m(o, 6, 4, 3, quantized ? kBoxQ : QSpec{}, quantized ? kScoreQ : QSpec{},
                     quantized ? kAnchorQ : QSpec{});
    ASSERT_TRUE(m.Allocate()) << m.model().log();
    Result r;
    ASSERT_TRUE(m.Run(kEnc6, kScores6, kAnchors6, &r)) << m.model().log();
    const float tol = quantized ? 0.3f : 1e-5f;
    ExpectNear(r.boxes, {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 0, 0}, tol, "boxes");
    EXPECT_EQ(r.classes, (std::vector<float>{1, 0, 0}));
    ExpectNear(r.scores, {0.95f, 0.93f, 0.0f}, quantized ? 0.01f : 0.0f, "scores");
    EXPECT_EQ(r.num, 2);
  }
}

TEST(DetectionPostProcess, UpstreamQuantizedUint8AndInt8) {
  for (TensorType type : {TensorType_UINT8, TensorType_INT8}) {
    SCOPED_TRACE(type == TensorType_UINT8 ? "uint8" : "int8");
    QSpec bq = kBoxQ, sq = kScoreQ, aq = kAnchorQ;
    bq.type = sq.type = aq.type = type;
    DetectionModel m(Opts{}, 6, 4, 3, bq, sq, aq);
    ASSERT_TRUE(m.Allocate()) << m.model().log();
    Result r;
    ASSERT_TRUE(m.Run(kEnc6, kScores6, kAnchors6, &r)) << m.model().log();
    ExpectNear(r.boxes, {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101}, 0.3f, "boxes");
    EXPECT_EQ(r.classes, (std::vector<float>{1, 0, 0}));
    // Scores are the dequantized inputs: anchor 3 class 1, anchor 0 class 0,
    // anchor 5 class 0.
    const std::vector<float> seen = sq.Seen(kScores6);
    EXPECT_EQ(r.scores, (std::vector<float>{seen[3 * 3 + 2], seen[0 * 3 + 1], seen[5 * 3 + 1]}));
    EXPECT_EQ(r.num, 3);
  }
}

// Upstream's "StableSort" vector: quantized scores tie (4/255 three times);
// equal scores keep anchor order and an anchor's tied classes resolve to the
// first. No background class, five values per box encoding.
TEST(DetectionPostProcess, UpstreamQuantizedTiesKeepAnchorOrder) {
  const std::vector<float> enc = WithKeypoint(kEnc6);
  const std::vector<float> scores = {0.015625, 0.007812, 0.003906, 0.015625, 0.015625, 0.007812,
                                     0.019531, 0.019531, 0.007812, 0.003906, 0.003906, 0.003906};
  DetectionModel m(Opts{}, 6, 5, 2, kBoxQ, kScoreQ, kAnchorQ);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  ASSERT_TRUE(m.Run(enc, scores, kAnchors6, &r)) << m.model().log();
  ExpectNear(r.boxes, {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101}, 0.3f, "boxes");
  EXPECT_EQ(r.classes, (std::vector<float>{0, 0, 0}));
  ExpectNear(r.scores, {5 / 255.0f, 4 / 255.0f, 1 / 255.0f}, 1e-7f, "scores");
  EXPECT_EQ(r.num, 3);
}

TEST(DetectionPostProcess, UpstreamNoBackgroundAndKeypoints) {
  // [1, 6, 2] scores (no background); encodings with a fifth value.
  const std::vector<float> scores = {.9, .8, .75, .72, .6, .5, .93, .95, .5, .4, .3, .2};
  const std::vector<float> enc = WithKeypoint(kEnc6);
  DetectionModel m(Opts{}, 6, 5, 2);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  ASSERT_TRUE(m.Run(enc, scores, kAnchors6, &r)) << m.model().log();
  ExpectNear(r.boxes, {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101}, 1e-5f, "boxes");
  EXPECT_EQ(r.classes, (std::vector<float>{1, 0, 0}));
  ExpectNear(r.scores, {0.95f, 0.9f, 0.3f}, 0, "scores");
}

// A point-sized box (zero area) overlaps nothing, so it is neither
// suppressed nor suppressing (upstream's degenerated-box vector).
TEST(DetectionPostProcess, UpstreamDegenerateBoxIsKept) {
  DetectionModel m(Opts{}, 2, 4, 3);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  ASSERT_TRUE(m.Run(std::vector<float>(8, 0.0f), {0, .9, .8, 0, .2, .7},
                    {0.5, 0.5, 1, 1, 0.5, 0.5, 0, 0}, &r))
      << m.model().log();
  EXPECT_EQ(r.num, 2);
  ExpectNear(r.boxes, {0, 0, 1, 1, 0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0}, 1e-6f, "boxes");
  EXPECT_EQ(r.classes, (std::vector<float>{0, 1, 0}));
  ExpectNear(r.scores, {0.9f, 0.7f, 0}, 0, "scores");
}

TEST(DetectionPostProcess, ThresholdIsInclusiveAndIouMustExceed) {
  // Two 1x2 boxes overlapping by half a unit: IoU = 1 / 3.
  const std::vector<float> anchors = {0.5, 1.0, 1, 2, 0.5, 2.0, 1, 2};
  const std::vector<float> scores = {0.5f, 0.4f};  // one class, no background
  Opts o;
  o.num_classes = 1;
  o.score_threshold = 0.4f;          // inclusive: 0.4 is a candidate
  o.iou_threshold = 1.0f / 3.0f;     // IoU equal to the threshold does not suppress
  DetectionModel keep(o, 2, 4, 1);
  ASSERT_TRUE(keep.Allocate()) << keep.model().log();
  Result r;
  ASSERT_TRUE(keep.Run(Zeros(2), scores, anchors, &r));
  EXPECT_EQ(r.num, 2);
  ExpectNear(r.scores, {0.5f, 0.4f, 0}, 0, "scores");

  o.iou_threshold = 0.33f;
  DetectionModel drop(o, 2, 4, 1);
  ASSERT_TRUE(drop.Allocate()) << drop.model().log();
  ASSERT_TRUE(drop.Run(Zeros(2), scores, anchors, &r));
  EXPECT_EQ(r.num, 1);
  ExpectNear(r.boxes, {0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0}, 1e-6f, "boxes");
}

TEST(DetectionPostProcess, ScalesAndExponentialSizes) {
  // y = 1 / 10 * h_a + cy_a, h = exp(h_enc / 5) * h_a.
  Opts o;
  o.num_classes = 1;
  o.max_detections = 1;
  DetectionModel m(o, 1, 4, 1);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  ASSERT_TRUE(m.Run({1, -2, 5, 0}, {0.7f}, {2, 3, 4, 6}, &r));
  const double yc = 1.0 / 10 * 4 + 2, xc = -2.0 / 10 * 6 + 3;
  const double hh = 0.5 * std::exp(1.0) * 4, hw = 0.5 * 1 * 6;
  ExpectNear(r.boxes, {float(yc - hh), float(xc - hw), float(yc + hh), float(xc + hw)}, 1e-5f,
             "box");
}

TEST(DetectionPostProcess, NanScoresAreNeverCandidates) {
  Opts o;
  o.num_classes = 1;
  DetectionModel m(o, 3, 4, 1);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ASSERT_TRUE(m.Run(Zeros(3), {nan, 0.2f, nan}, {0, 0, 1, 1, 0, 5, 1, 1, 0, 9, 1, 1}, &r));
  EXPECT_EQ(r.num, 1);
  ExpectNear(r.scores, {0.2f, 0, 0}, 0, "scores");
}

TEST(DetectionPostProcess, HugeMaxDetectionsOnlySizesTheOutputs) {
  Opts o;
  o.max_detections = 100000;
  o.regular = true;
  o.set_detections_per_class = true;
  o.detections_per_class = std::numeric_limits<int>::max();
  DetectionModel m(o, 6, 4, 3);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  EXPECT_EQ(m.model().Shape(0), (std::vector<int>{1, 100000, 4}));
  Result r;
  ASSERT_TRUE(m.Run(kEnc6, kScores6, kAnchors6, &r)) << m.model().log();
  // Per class: class 0 keeps anchors 3 (.93), 0 (.9), 5 (.3); class 1 keeps
  // 3 (.95), 0 (.8), 5 (.2). Merged by score.
  EXPECT_EQ(r.num, 6);
  ExpectNear(std::vector<float>(r.scores.begin(), r.scores.begin() + 7),
             {.95f, .93f, .9f, .8f, .3f, .2f, 0}, 0, "scores");
  EXPECT_EQ(std::vector<float>(r.classes.begin(), r.classes.begin() + 6),
            (std::vector<float>{1, 0, 0, 1, 0, 1}));
}
// ---- a real SSD model (opt-in) -------------------------------------------------------

// Runs detect.tflite (TensorFlow's coco_ssd_mobilenet_v1 1.0 quant example
// model: uint8 [1, 300, 300, 3] in, the op's four outputs out) from the
// directory TFLITE_C_EXTRA_MODELS names, on a synthetic image, and checks
// the outputs are well formed. The model is not part of the repository.
TEST(DetectionPostProcess, SsdMobilenetDetectModel) {
  const char* dir = std::getenv("TFLITE_C_EXTRA_MODELS");
  if (dir == nullptr) {
    GTEST_SKIP() << "set TFLITE_C_EXTRA_MODELS to a directory holding detect.tflite "
                    "(coco_ssd_mobilenet_v1_1.0_quant) to run this test";
  }
  const std::string path = std::string(dir) + "/detect.tflite";
  TfLiteModel* model = TfLiteModelCreateFromFile(path.c_str());
  if (model == nullptr) GTEST_SKIP() << path << " not found or not a model";
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, nullptr);
  ASSERT_NE(interpreter, nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  ASSERT_EQ(TfLiteTensorType(input), kTfLiteUInt8);
  std::vector<uint8_t> image(TfLiteTensorByteSize(input));
  const int side = TfLiteTensorDim(input, 1);
  for (size_t i = 0; i < image.size(); ++i) {
    const int pixel = static_cast<int>(i / 3), y = pixel / side, x = pixel % side;
    const bool square = y > side / 4 && y < side / 2 && x > side / 3 && x < 2 * side / 3;
    image[i] = static_cast<uint8_t>(square ? 230 - 40 * (i % 3) : (x + y) / 3);
  }
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(input, image.data(), image.size()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterGetOutputTensorCount(interpreter), 4);
  auto values = [&](int i) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter, i);
    std::vector<float> v(TfLiteTensorByteSize(t) / sizeof(float));
    TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
    return v;
  };
  const std::vector<float> boxes = values(0), classes = values(1), scores = values(2);
  const float num = values(3).at(0);
  ASSERT_EQ(boxes.size(), classes.size() * 4);
  ASSERT_EQ(scores.size(), classes.size());
  ASSERT_GE(num, 0);
  ASSERT_LE(num, classes.size());
  ASSERT_EQ(num, std::floor(num));
  for (int i = 0; i < static_cast<int>(num); ++i) {
    EXPECT_GE(scores[i], 0);
    EXPECT_LE(scores[i], 1);
    if (i > 0) EXPECT_LE(scores[i], scores[i - 1]) << i;
    EXPECT_EQ(classes[i], std::floor(classes[i]));
    EXPECT_GE(classes[i], 0);
    EXPECT_LT(classes[i], 91);
    EXPECT_LE(boxes[i * 4 + 0], boxes[i * 4 + 2]);
    EXPECT_LE(boxes[i * 4 + 1], boxes[i * 4 + 3]);
  }
  for (size_t i = static_cast<size_t>(num); i < scores.size(); ++i) EXPECT_EQ(scores[i], 0);
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

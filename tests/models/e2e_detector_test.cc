// End to end: a detector whose conv backbone XNNPACK takes by default while
// TFLite_Detection_PostProcess stays on the builtin kernel. The graph is built
// here, run with the default delegate and without it, and checked three ways:
// the delegate took the backbone, both runs agree within float tolerance, and
// the detections are what a plain reference written here (or the hand-worked
// numbers beside it) expects.
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "schema_generated.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/audio_reference.h"
#include "tests/models/e2e_test_util.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace testing {
namespace {

using namespace names;  // NOLINT(build/namespaces)

// ---- detector: conv backbone + TFLite_Detection_PostProcess -----------------------------

constexpr int kSide = 8;  // 8x8 RGB image, one anchor per pixel
constexpr int kAnchors = kSide * kSide;
const double kLn2 = std::log(2.0);

// Per pixel p (RGB in [0, 1]): d = 2p - 1 (DEPTHWISE_CONV_2D 1x1, weights 2,
// bias -1); box encoding (CONV_2D 1x1) ty = tx = 0, th = tw = d_r + d_g +
// 5 ln 2, so a saturated red or green pixel's box is twice its anchor;
// class logits (CONV_2D 1x1, then LOGISTIC) background 0, red = 6 d_r -
// 3 d_g - 3 d_b - 6, green = 6 d_g - 3 d_r - 3 d_b - 6.
const Floats kBoxWeights = {0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0};  // [4 out][3 in]
const Floats kBoxBias = {0, 0, static_cast<float>(5 * kLn2), static_cast<float>(5 * kLn2)};
const Floats kClassWeights = {0, 0, 0, 6, -3, -3, -3, 6, -3};  // [3 out][3 in]
const Floats kClassBias = {0, -6, -6};

std::vector<uint8_t> DetectionOptions() {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    fbb.Int("max_detections", 4);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Float("nms_score_threshold", 0.5f);
    fbb.Float("nms_iou_threshold", 0.1f);
    fbb.Int("num_classes", 2);
    fbb.Float("y_scale", 10);
    fbb.Float("x_scale", 10);
    fbb.Float("h_scale", 5);
    fbb.Float("w_scale", 5);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Anchor (ycenter, xcenter, h, w) of pixel (y, x).
Floats Anchors() {
  Floats a;
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      a.insert(a.end(), {(y + 0.5f) / kSide, (x + 0.5f) / kSide, 1.0f / kSide, 1.0f / kSide});
    }
  }
  return a;
}

std::vector<uint8_t> DetectorModel() {
  ModelBuilder b;
  const int image = b.AddInput(F32, {1, kSide, kSide, 3}, "image");
  tflite::DepthwiseConv2DOptionsT dw;
  dw.padding = tflite::Padding_VALID;
  dw.stride_w = dw.stride_h = 1;
  dw.depth_multiplier = 1;
  const int dw_w = b.AddConstant<float>({1, 1, 1, 3}, {2, 2, 2});
  const int dw_b = b.AddConstant<float>({3}, {-1, -1, -1});
  const int d = b.AddTensor(F32, {1, kSide, kSide, 3}, "d");
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {image, dw_w, dw_b}, {d}, dw);

  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  const int box_w = b.AddConstant<float>({4, 1, 1, 3}, kBoxWeights);
  const int box_b = b.AddConstant<float>({4}, kBoxBias);
  const int box_map = b.AddTensor(F32, {1, kSide, kSide, 4}, "box_map");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {d, box_w, box_b}, {box_map}, conv);
  const int cls_w = b.AddConstant<float>({3, 1, 1, 3}, kClassWeights);
  const int cls_b = b.AddConstant<float>({3}, kClassBias);
  const int cls_map = b.AddTensor(F32, {1, kSide, kSide, 3}, "class_map");
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {d, cls_w, cls_b}, {cls_map}, conv);

  const int box_shape = b.AddConstant<int32_t>({3}, {1, kAnchors, 4});
  const int encodings = b.AddTensor(F32, {1, kAnchors, 4}, "box_encodings");
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {box_map, box_shape}, {encodings},
                tflite::ReshapeOptionsT());
  const int cls_shape = b.AddConstant<int32_t>({3}, {1, kAnchors, 3});
  const int logits = b.AddTensor(F32, {1, kAnchors, 3}, "class_logits");
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {cls_map, cls_shape}, {logits},
                tflite::ReshapeOptionsT());
  const int scores = b.AddTensor(F32, {1, kAnchors, 3}, "class_scores");
  b.AddOperator(tflite::BuiltinOperator_LOGISTIC, {logits}, {scores});

  const int anchors = b.AddConstant<float>({kAnchors, 4}, Anchors(), "anchors");
  std::vector<int> outs;
  for (const char* name : {"boxes", "classes", "scores", "num_detections"}) {
    outs.push_back(b.AddOutput(F32, {}, name));
  }
  b.AddCustomOperator("TFLite_Detection_PostProcess", {encodings, scores, anchors}, outs,
                      DetectionOptions());
  return b.Finish();
}

// A dark gradient with a 2x2 red square at rows 2-3, columns 4-5 (red 1.0,
// 0.95, 0.9, 0.85) and one green pixel (0.8) at row 6, column 1.
Floats SyntheticImage() {
  Floats img(kAnchors * 3);
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      float* p = &img[(y * kSide + x) * 3];
      p[0] = p[1] = p[2] = 0.01f * (x + y);
    }
  }
  const float reds[] = {1.0f, 0.95f, 0.9f, 0.85f};
  for (int i = 0; i < 4; ++i) {
    float* p = &img[((2 + i / 2) * kSide + 4 + i % 2) * 3];
    p[0] = reds[i];
    p[1] = p[2] = 0;
  }
  float* g = &img[(6 * kSide + 1) * 3];
  g[0] = g[2] = 0;
  g[1] = 0.8f;
  return img;
}

struct Detection {
  double box[4];  // ymin, xmin, ymax, xmax
  int cls;
  double score;
};

// The backbone in double, then the op's fast (class-agnostic) NMS: each
// anchor's best class, scores below the threshold dropped, sorted by score,
// an anchor dropped when its IoU with a kept one exceeds the threshold.
std::vector<Detection> ReferenceDetections(const Floats& img, int max_detections) {
  const Floats anchors = Anchors();
  std::vector<Detection> all;
  for (int a = 0; a < kAnchors; ++a) {
    double d[3];
    for (int c = 0; c < 3; ++c) d[c] = 2.0 * img[a * 3 + c] - 1.0;
    double t[4], logit[3];
    for (int o = 0; o < 4; ++o) {
      t[o] = kBoxBias[o];
      for (int c = 0; c < 3; ++c) t[o] += kBoxWeights[o * 3 + c] * d[c];
    }
    for (int o = 0; o < 3; ++o) {
      logit[o] = kClassBias[o];
      for (int c = 0; c < 3; ++c) logit[o] += kClassWeights[o * 3 + c] * d[c];
    }
    const float* an = &anchors[a * 4];
    const double yc = t[0] / 10 * an[2] + an[0], xc = t[1] / 10 * an[3] + an[1];
    const double h = std::exp(t[2] / 5) * an[2], w = std::exp(t[3] / 5) * an[3];
    const int best = Sigmoid(logit[2]) > Sigmoid(logit[1]) ? 1 : 0;
    const Detection det{
        {yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2}, best, Sigmoid(logit[1 + best])};
    if (det.score >= 0.5) all.push_back(det);
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Detection& x, const Detection& y) { return x.score > y.score; });
  auto iou = [](const Detection& p, const Detection& q) {
    const double ih = std::max(0.0, std::min(p.box[2], q.box[2]) - std::max(p.box[0], q.box[0]));
    const double iw = std::max(0.0, std::min(p.box[3], q.box[3]) - std::max(p.box[1], q.box[1]));
    const double area_p = (p.box[2] - p.box[0]) * (p.box[3] - p.box[1]);
    const double area_q = (q.box[2] - q.box[0]) * (q.box[3] - q.box[1]);
    return ih * iw / (area_p + area_q - ih * iw);
  };
  std::vector<Detection> kept;
  for (const Detection& det : all) {
    bool overlaps = false;
    for (const Detection& k : kept) overlaps = overlaps || iou(det, k) > 0.1;
    if (!overlaps && static_cast<int>(kept.size()) < max_detections) kept.push_back(det);
  }
  return kept;
}

TEST(EndToEnd, DetectorBackboneDelegatedPostProcessOnBuiltinKernel) {
  const std::vector<uint8_t> bytes = DetectorModel();
  const Floats img = SyntheticImage();
  ModelRun def(bytes, true, {img}), plain(bytes, false, {img});
  // DEPTHWISE_CONV_2D, 2 CONV_2D, 2 RESHAPE, LOGISTIC -> XNNPACK; the custom
  // op stays.
  ExpectBackboneDelegated(def, plain, 7, {kTfLiteBuiltinCustom});
  ExpectSameOutputs(def, plain, 1e-5f);

  ASSERT_EQ(def.outputs.size(), 4u);
  const Floats &boxes = def.outputs[0], &classes = def.outputs[1], &scores = def.outputs[2];
  ASSERT_EQ(def.outputs[3].size(), 1u);
  // By hand: the red square gives one detection (its brightest pixel, row 2
  // column 4, logit 6; the other three overlap it by IoU > 0.1), the green
  // pixel (logit 3.6) the second; nothing else reaches 0.5.
  ASSERT_EQ(def.outputs[3][0], 2.0f);
  EXPECT_EQ(classes[0], 0.0f);
  EXPECT_EQ(classes[1], 1.0f);
  EXPECT_NEAR(scores[0], Sigmoid(6.0), 1e-6);
  EXPECT_NEAR(scores[1], Sigmoid(3.6), 1e-5);
  // The red pixel's box: centre (2.5/8, 4.5/8), side 2/8.
  const float red_box[4] = {1.5f / 8, 3.5f / 8, 3.5f / 8, 5.5f / 8};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(boxes[i], red_box[i], 1e-5) << i;

  const std::vector<Detection> want = ReferenceDetections(img, 4);
  ASSERT_EQ(want.size(), 2u);
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(classes[k], want[k].cls) << k;
    EXPECT_NEAR(scores[k], want[k].score, 1e-5) << k;
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(boxes[k * 4 + i], want[k].box[i], 1e-5) << k;
  }
  for (size_t k = want.size(); k < scores.size(); ++k) EXPECT_EQ(scores[k], 0.0f) << k;
}

TEST(EndToEnd, DetectorFindsTheSquareWherePlaced) {
  // The red square moved around the image: the top detection follows it.
  const std::vector<uint8_t> bytes = DetectorModel();
  for (int y0 : {0, 3, 6}) {
    for (int x0 : {0, 2, 6}) {
      Floats img(kAnchors * 3, 0.05f);
      for (int i = 0; i < 4; ++i) {
        float* p = &img[((y0 + i / 2) * kSide + x0 + i % 2) * 3];
        p[0] = 1.0f - 0.05f * i;
        p[1] = p[2] = 0;
      }
      ModelRun def(bytes, true, {img});
      ASSERT_EQ(def.outputs.size(), 4u);
      EXPECT_EQ(def.outputs[3][0], 1.0f) << y0 << "," << x0;
      EXPECT_EQ(def.outputs[1][0], 0.0f);
      EXPECT_NEAR(def.outputs[0][0], (y0 - 0.5f) / kSide, 1e-5);
      EXPECT_NEAR(def.outputs[0][1], (x0 - 0.5f) / kSide, 1e-5);
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

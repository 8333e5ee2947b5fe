// TFLite_Detection_PostProcess through the C API's default resolver.
// Expected values: upstream's published 6-anchor vectors
// (detection_postprocess_test.cc), hand-worked cases, and for random inputs
// a plain reference written here from the op's definition (decode, keep
// scores >= threshold, stable sort by score, drop IoU > threshold).
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

constexpr char kName[] = "TFLite_Detection_PostProcess";

struct Opts {
  int max_detections = 3;
  int max_classes_per_detection = 1;
  int detections_per_class = 100;
  bool regular = false;
  float score_threshold = 0.0f;
  float iou_threshold = 0.5f;
  int num_classes = 2;
  float y_scale = 10, x_scale = 10, h_scale = 5, w_scale = 5;
  bool set_detections_per_class = false;
  std::vector<std::string> omit;  // keys left out
};

std::vector<uint8_t> Encode(const Opts& o) {
  flexbuffers::Builder fbb;
  auto keep = [&](const char* key) {
    return std::find(o.omit.begin(), o.omit.end(), key) == o.omit.end();
  };
  fbb.Map([&] {
    if (keep("max_detections")) fbb.Int("max_detections", o.max_detections);
    if (keep("max_classes_per_detection")) {
      fbb.Int("max_classes_per_detection", o.max_classes_per_detection);
    }
    if (o.set_detections_per_class) fbb.Int("detections_per_class", o.detections_per_class);
    if (o.regular) fbb.Bool("use_regular_nms", true);
    if (keep("nms_score_threshold")) fbb.Float("nms_score_threshold", o.score_threshold);
    if (keep("nms_iou_threshold")) fbb.Float("nms_iou_threshold", o.iou_threshold);
    if (keep("num_classes")) fbb.Int("num_classes", o.num_classes);
    if (keep("y_scale")) fbb.Float("y_scale", o.y_scale);
    if (keep("x_scale")) fbb.Float("x_scale", o.x_scale);
    if (keep("h_scale")) fbb.Float("h_scale", o.h_scale);
    if (keep("w_scale")) fbb.Float("w_scale", o.w_scale);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

// Upstream's asymmetric uint8 quantization of [min, max] (test_util's
// QuantizationParams): scale (max - min) / 255, zero point round(-min /
// scale); int8 shifts both by 128.
struct QSpec {
  TensorType type = TensorType_FLOAT32;
  float min = 0, max = 0;
  float scale() const { return (max - min) / 255.0f; }
  int zero_point() const {
    const int zp = static_cast<int>(std::round(-min / scale()));
    return type == TensorType_INT8 ? zp - 128 : zp;
  }
  Quantization q() const {
    if (type == TensorType_FLOAT32) return {};
    return Q(scale(), zero_point());
  }
  // Raw bytes of `values` in this type.
  std::vector<uint8_t> Bytes(const std::vector<float>& values) const {
    std::vector<uint8_t> out;
    if (type == TensorType_FLOAT32) {
      out.resize(values.size() * 4);
      std::memcpy(out.data(), values.data(), out.size());
      return out;
    }
    const int lo = type == TensorType_INT8 ? -128 : 0;
    for (float v : values) {
      const int q = std::min(lo + 255, std::max(lo, static_cast<int>(std::round(v / scale())) +
                                                         zero_point()));
      out.push_back(static_cast<uint8_t>(q));
    }
    return out;
  }
  // What the kernel should see after dequantization.
  std::vector<float> Seen(const std::vector<float>& values) const {
    if (type == TensorType_FLOAT32) return values;
    std::vector<float> out;
    for (uint8_t b : Bytes(values)) {
      const int q = type == TensorType_INT8 ? static_cast<int8_t>(b) : b;
      out.push_back((static_cast<float>(q) - zero_point()) * scale());
    }
    return out;
  }
};

struct Result {
  std::vector<float> boxes, classes, scores;
  float num = -1;
};

// Runs the op on [1, anchors, enc_len] encodings, [1, anchors, cols] scores
// and [anchors, 4] anchors.
class DetectionModel {
 public:
  DetectionModel(const Opts& o, int anchors, int enc_len, int cols, QSpec box_q = {},
                 QSpec score_q = {}, QSpec anchor_q = {})
      : box_q_(box_q), score_q_(score_q), anchor_q_(anchor_q) {
    m_.Input(box_q.type, {1, anchors, enc_len}, box_q.q());
    m_.Input(score_q.type, {1, anchors, cols}, score_q.q());
    m_.Input(anchor_q.type, {anchors, 4}, anchor_q.q());
    for (int i = 0; i < 4; ++i) m_.Output(TensorType_FLOAT32, {});
    m_.CustomOp(kName, Encode(o));
  }
  bool Allocate() { return m_.Allocate(); }
  bool Run(const std::vector<float>& enc, const std::vector<float>& scores,
           const std::vector<float>& anchors, Result* r) {
    m_.SetBytes(0, box_q_.Bytes(enc));
    m_.SetBytes(1, score_q_.Bytes(scores));
    m_.SetBytes(2, anchor_q_.Bytes(anchors));
    if (!m_.Invoke()) return false;
    r->boxes = m_.Get<float>(0);
    r->classes = m_.Get<float>(1);
    r->scores = m_.Get<float>(2);
    r->num = m_.Get<float>(3).at(0);
    return true;
  }
  OneOpModel& model() { return m_; }

 private:
  OneOpModel m_;
  QSpec box_q_, score_q_, anchor_q_;
};

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

// ---- hand-worked semantics -------------------------------------------------------------

// Unit anchors at the origin and zero encodings decode to the anchors
// themselves, so boxes can be written directly as anchors (cy, cx, h, w).
std::vector<float> Zeros(int anchors) { return std::vector<float>(anchors * 4, 0.0f); }

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

// ---- random inputs against a reference -------------------------------------------------

struct RefBox {
  float ymin, xmin, ymax, xmax;
};

float RefIou(const RefBox& a, const RefBox& b) {
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0;
  const float h = std::max(std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin), 0.0f);
  const float w = std::max(std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin), 0.0f);
  return h * w / (area_a + area_b - h * w);
}

// Indices of `scores` kept by greedy NMS, at most `limit`.
std::vector<int> RefNms(const std::vector<RefBox>& boxes, const std::vector<float>& scores,
                        float threshold, float iou, int limit) {
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(scores.size()); ++i) {
    if (scores[i] >= threshold) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return scores[a] > scores[b]; });
  std::vector<int> kept;
  for (int c : order) {
    if (static_cast<int>(kept.size()) >= limit) break;
    bool ok = true;
    for (int k : kept) ok = ok && RefIou(boxes[k], boxes[c]) <= iou;
    if (ok) kept.push_back(c);
  }
  return kept;
}

Result Reference(const Opts& o, int anchors, int enc_len, int cols, const std::vector<float>& enc,
                 const std::vector<float>& scores, const std::vector<float>& anc) {
  std::vector<RefBox> boxes(anchors);
  for (int i = 0; i < anchors; ++i) {
    const float* e = &enc[i * enc_len];
    const float* a = &anc[i * 4];
    const float yc = static_cast<float>(double(e[0]) / o.y_scale * a[2] + a[0]);
    const float xc = static_cast<float>(double(e[1]) / o.x_scale * a[3] + a[1]);
    const float hh = static_cast<float>(0.5 * std::exp(double(e[2]) / o.h_scale) * a[2]);
    const float hw = static_cast<float>(0.5 * std::exp(double(e[3]) / o.w_scale) * a[3]);
    boxes[i] = {yc - hh, xc - hw, yc + hh, xc + hw};
  }
  const int offset = cols - o.num_classes;
  auto score = [&](int a, int c) { return scores[a * cols + offset + c]; };
  const int rows = o.max_detections * o.max_classes_per_detection;
  Result r;
  r.boxes.assign(rows * 4, 0);
  r.classes.assign(rows, 0);
  r.scores.assign(rows, 0);
  auto put = [&](int row, int a, int c, float s) {
    r.boxes[row * 4 + 0] = boxes[a].ymin;
    r.boxes[row * 4 + 1] = boxes[a].xmin;
    r.boxes[row * 4 + 2] = boxes[a].ymax;
    r.boxes[row * 4 + 3] = boxes[a].xmax;
    r.classes[row] = c;
    r.scores[row] = s;
  };
  if (!o.regular) {
    std::vector<float> best(anchors);
    for (int a = 0; a < anchors; ++a) {
      best[a] = score(a, 0);
      for (int c = 1; c < o.num_classes; ++c) best[a] = std::max(best[a], score(a, c));
    }
    const std::vector<int> kept =
        RefNms(boxes, best, o.score_threshold, o.iou_threshold, o.max_detections);
    for (size_t k = 0; k < kept.size(); ++k) {
      std::vector<int> cls(o.num_classes);
      std::iota(cls.begin(), cls.end(), 0);
      std::stable_sort(cls.begin(), cls.end(),
                       [&](int x, int y) { return score(kept[k], x) > score(kept[k], y); });
      for (int c = 0; c < std::min(o.max_classes_per_detection, o.num_classes); ++c) {
        put(k * o.max_classes_per_detection + c, kept[k], cls[c], score(kept[k], cls[c]));
      }
    }
    r.num = kept.size();
    return r;
  }
  struct Det {
    float s;
    int a, c;
  };
  std::vector<Det> all;
  for (int c = 0; c < o.num_classes; ++c) {
    std::vector<float> column(anchors);
    for (int a = 0; a < anchors; ++a) column[a] = score(a, c);
    for (int a : RefNms(boxes, column, o.score_threshold, o.iou_threshold, o.detections_per_class)) {
      all.push_back({column[a], a, c});
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Det& x, const Det& y) { return x.s > y.s; });
  all.resize(std::min<size_t>(all.size(), o.max_detections));
  for (size_t k = 0; k < all.size(); ++k) put(k, all[k].a, all[k].c, all[k].s);
  r.num = all.size();
  return r;
}

void RandomCase(const Opts& o, int anchors, int enc_len, int cols, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), enc_dist(-3.0f, 3.0f);
  std::vector<float> enc(anchors * enc_len), scores(anchors * cols), anc(anchors * 4);
  for (float& v : enc) v = enc_dist(rng);
  for (float& v : scores) v = unit(rng);
  for (int a = 0; a < anchors; ++a) {
    anc[a * 4 + 0] = unit(rng);
    anc[a * 4 + 1] = unit(rng);
    anc[a * 4 + 2] = 0.05f + 0.3f * unit(rng);
    anc[a * 4 + 3] = 0.05f + 0.3f * unit(rng);
  }
  DetectionModel m(o, anchors, enc_len, cols);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result got;
  ASSERT_TRUE(m.Run(enc, scores, anc, &got)) << m.model().log();
  const Result want = Reference(o, anchors, enc_len, cols, enc, scores, anc);
  EXPECT_EQ(got.num, want.num);
  EXPECT_EQ(got.classes, want.classes);
  EXPECT_EQ(got.scores, want.scores);
  EXPECT_EQ(got.boxes, want.boxes);
}

TEST(DetectionPostProcess, RandomFastNmsMatchesReference) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    Opts o;
    o.num_classes = 7;
    o.max_detections = 12;
    o.max_classes_per_detection = 1 + seed % 3;
    o.score_threshold = seed % 2 ? 0.3f : 0.0f;
    o.iou_threshold = 0.2f + 0.1f * seed;
    o.y_scale = o.x_scale = 10;
    o.h_scale = o.w_scale = 5;
    RandomCase(o, 150, 4 + seed % 2, 7 + seed % 2, seed);
  }
}

TEST(DetectionPostProcess, RandomRegularNmsMatchesReference) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    Opts o;
    o.regular = true;
    o.set_detections_per_class = true;
    o.detections_per_class = 2 + seed;
    o.num_classes = 5;
    o.max_detections = 4 + 3 * seed;
    o.score_threshold = seed % 2 ? 0.25f : 0.0f;
    o.iou_threshold = 0.3f + 0.1f * (seed % 4);
    RandomCase(o, 120, 4, 5 + seed % 2, 100 + seed);
  }
}

// ---- errors ---------------------------------------------------------------------------

// The op's tensors for error cases: inputs (type, shape, quantization) and
// the type of the last output.
struct TensorSpec {
  TensorType type;
  std::vector<int> shape;
  Quantization q = {};
};

void ExpectError(const std::vector<TensorSpec>& inputs, const std::vector<uint8_t>& options,
                 const std::string& message, TensorType last_output = TensorType_FLOAT32) {
  OneOpModel m;
  for (const TensorSpec& t : inputs) m.Input(t.type, t.shape, t.q);
  for (int i = 0; i < 3; ++i) m.Output(TensorType_FLOAT32, {});
  m.Output(last_output, {});
  m.CustomOp(kName, options);
  ExpectPrepareError(m, message);
}

// Float inputs [1, anchors, enc_len], [1, anchors, cols] and `anchor_shape`
// (default [anchors, 4]).
void ExpectError(const Opts& o, int anchors, int enc_len, int cols, const std::string& message,
                 std::vector<int> anchor_shape = {}) {
  if (anchor_shape.empty()) anchor_shape = {anchors, 4};
  ExpectError({{TensorType_FLOAT32, {1, anchors, enc_len}},
               {TensorType_FLOAT32, {1, anchors, cols}},
               {TensorType_FLOAT32, anchor_shape}},
              Encode(o), message);
}

TEST(DetectionPostProcess, RejectsBadOptions) {
  Opts missing;
  missing.omit = {"num_classes"};
  ExpectError(missing, 6, 4, 3, "option 'num_classes' is missing");
  missing.omit = {"max_classes_per_detection"};
  ExpectError(missing, 6, 4, 3, "option 'max_classes_per_detection' is missing");
  Opts o;
  o.iou_threshold = 0;
  ExpectError(o, 6, 4, 3, "nms_iou_threshold must be in (0, 1]");
  o = Opts{};
  o.iou_threshold = 1.5f;
  ExpectError(o, 6, 4, 3, "nms_iou_threshold must be in (0, 1]");
  o = Opts{};
  o.max_detections = -1;
  ExpectError(o, 6, 4, 3, "max_detections must not be negative");
  o = Opts{};
  o.max_classes_per_detection = 0;
  ExpectError(o, 6, 4, 3, "max_classes_per_detection must be at least 1");
  o = Opts{};
  o.regular = true;
  o.set_detections_per_class = true;
  o.detections_per_class = 0;
  ExpectError(o, 6, 4, 3, "detections_per_class must be at least 1");
  o = Opts{};
  o.h_scale = 0;
  ExpectError(o, 6, 4, 3, "must not be zero");
  o = Opts{};
  o.max_detections = std::numeric_limits<int>::max();
  o.max_classes_per_detection = 2;
  ExpectError(o, 6, 4, 3, "is too large");
  ExpectError({{TensorType_FLOAT32, {1, 6, 4}}, {TensorType_FLOAT32, {1, 6, 3}},
               {TensorType_FLOAT32, {6, 4}}},
              {1, 2, 3}, "options are not a flexbuffer map");
}

TEST(DetectionPostProcess, RejectsBadShapes) {
  Opts o;
  o.num_classes = 4;  // more than the 3 columns
  ExpectError(o, 6, 4, 3, "num_classes 4 needs 4 or 5");
  o.num_classes = 1;  // two columns too many
  ExpectError(o, 6, 4, 3, "num_classes 1 needs 1 or 2");
  ExpectError(Opts{}, 6, 3, 3, "box encodings must have shape [1, anchors, >= 4]");
  ExpectError(Opts{}, 6, 4, 3, "anchors must have shape [6, 4]", {5, 4});
  ExpectError(Opts{}, 6, 4, 3, "anchors must have shape [6, 4]", {6, 3});
  ExpectError(Opts{}, 6, 4, 3, "anchors must have 2 dimensions", {1, 6, 4});
  ExpectError({{TensorType_FLOAT32, {1, 6, 4}}, {TensorType_FLOAT32, {1, 5, 3}},
               {TensorType_FLOAT32, {6, 4}}},
              Encode(Opts{}), "class predictions must have shape [1, 6, classes]");
}

TEST(DetectionPostProcess, RejectsBadTypesAndArity) {
  const TensorSpec scores = {TensorType_FLOAT32, {1, 6, 3}}, anchors = {TensorType_FLOAT32, {6, 4}};
  ExpectError({{tflite::TensorType_INT16, {1, 6, 4}, Q(0.1f, 0)}, scores, anchors}, Encode(Opts{}),
              "box encodings type INT16 is not supported");
  ExpectError({{TensorType_FLOAT32, {1, 6, 4}}, {TensorType_UINT8, {1, 6, 3}}, anchors},
              Encode(Opts{}), "class predictions of type UINT8 must have affine quantization");
  ExpectError({{TensorType_FLOAT32, {1, 6, 4}}, scores, anchors}, Encode(Opts{}),
              "num detections type INT32 is not supported", tflite::TensorType_INT32);
  ExpectError({{TensorType_FLOAT32, {1, 6, 4}}, scores}, Encode(Opts{}), kName);
}

// A negative anchor size inverts the decoded box; upstream refuses such
// boxes at Invoke, and so does this kernel, with a message.
TEST(DetectionPostProcess, InvertedBoxesFailInvoke) {
  DetectionModel m(Opts{}, 2, 4, 3);
  ASSERT_TRUE(m.Allocate()) << m.model().log();
  Result r;
  EXPECT_FALSE(m.Run(Zeros(2), {0, .9, .8, 0, .2, .7}, {0.5, 0.5, 1, 1, 0.5, 0.5, -1, 1}, &r));
  EXPECT_NE(m.model().log().find("decoded box 1 is inverted"), std::string::npos)
      << m.model().log();
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

// TFLite_Detection_PostProcess on random inputs (fast and regular NMS)
// against a plain reference written here from the op's definition (decode,
// keep scores >= threshold, stable sort by score, drop IoU > threshold).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/kernels/detection_postprocess_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using detection::DetectionModel;
using detection::Opts;
using detection::Result;

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

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// NON_MAX_SUPPRESSION_V4 / V5 through the C API. Expected values:
// upstream's published vectors (non_max_suppression_test.cc), hand-worked
// soft-NMS decays, and for random inputs a plain reference written here
// (greedy selection by current score, each selection decaying or dropping
// the rest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V4;
using tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT32;

// Upstream's six boxes; corners come in either order.
const std::vector<float> kBoxes = {1, 1,     0, 0,     0, 0.1f,  1, 1.1f, 0, .9f, 1, -0.1f,
                                   0, 10,    1, 11,    1, 10.1f, 0, 11.1f, 1, 101, 0, 100};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

// Inputs fed at Invoke: boxes 0, scores 1, then max_output_size 2 (unless
// constant) and the score threshold; iou threshold and sigma are constant.
struct NmsModel {
  OneOpModel m;
  bool soft;
  int max_output_input = -1;  // input slot of max_output_size when not constant
  int score_threshold_input = 2;

  NmsModel(bool soft_nms, int num_boxes, float iou_threshold, int const_max_output = -1,
           float sigma = 0.0f)
      : soft(soft_nms) {
    m.Input(TensorType_FLOAT32, {num_boxes, 4});
    m.Input(TensorType_FLOAT32, {num_boxes});
    if (const_max_output >= 0) {
      m.Const<int32_t>({}, {const_max_output});
    } else {
      m.Input(TensorType_INT32, {});
      max_output_input = 2;
      score_threshold_input = 3;
    }
    m.Const<float>({}, {iou_threshold});
    m.Input(TensorType_FLOAT32, {});
    if (soft) m.Const<float>({}, {sigma});
    m.Output(TensorType_INT32, {});
    if (soft) m.Output(TensorType_FLOAT32, {});
    m.Output(TensorType_INT32, {});
    m.Op(soft ? BuiltinOperator_NON_MAX_SUPPRESSION_V5 : BuiltinOperator_NON_MAX_SUPPRESSION_V4);
  }
  bool Run(const std::vector<float>& boxes, const std::vector<float>& scores,
           float score_threshold, int max_output = -1) {
    m.Set<float>(0, boxes);
    m.Set<float>(1, scores);
    if (max_output_input >= 0) m.Set<int32_t>(max_output_input, {max_output});
    m.Set<float>(score_threshold_input, {score_threshold});
    return m.Invoke();
  }
  std::vector<int32_t> indices() const { return m.Get<int32_t>(0); }
  std::vector<float> scores() const { return m.Get<float>(1); }
  int num() const { return m.Get<int32_t>(soft ? 2 : 1).at(0); }
};

TEST(NonMaxSuppression, UpstreamV4StaticOutput) {
  NmsModel nms(false, 6, 0.5f, 6);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  EXPECT_EQ(nms.m.Shape(0), (std::vector<int>{6}));
  EXPECT_EQ(nms.m.Shape(1), (std::vector<int>{}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.4f)) << nms.m.log();
  EXPECT_EQ(nms.num(), 2);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.99f));
  EXPECT_EQ(nms.num(), 0);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 0, 0, 0, 0, 0}));
}

TEST(NonMaxSuppression, UpstreamV4DynamicOutput) {
  NmsModel nms(false, 6, 0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.4f, 1)) << nms.m.log();
  EXPECT_EQ(nms.num(), 1);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.4f, 2));
  EXPECT_EQ(nms.num(), 2);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3, 0}));
  EXPECT_EQ(nms.m.Shape(0), (std::vector<int>{2}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.99f, 2));
  EXPECT_EQ(nms.num(), 0);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 0}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.4f, 0));
  EXPECT_EQ(nms.num(), 0);
  EXPECT_TRUE(nms.indices().empty());
  EXPECT_FALSE(nms.Run(kBoxes, kScores, 0.4f, -1));
  EXPECT_NE(nms.m.log().find("max_output_size must not be negative, got -1"), std::string::npos)
      << nms.m.log();
}

TEST(NonMaxSuppression, UpstreamV4ZeroMaxOutput) {
  NmsModel nms(false, 6, 0.5f, 0);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.4f));
  EXPECT_EQ(nms.num(), 0);
}

TEST(NonMaxSuppression, UpstreamV5StaticOutput) {
  NmsModel nms(true, 6, 0.5f, 6, 0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.0f)) << nms.m.log();
  EXPECT_EQ(nms.num(), 3);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3, 0, 5, 0, 0, 0}));
  EXPECT_EQ(nms.scores(), (std::vector<float>{0.95f, 0.9f, 0.3f, 0, 0, 0}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.99f));
  EXPECT_EQ(nms.num(), 0);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>(6, 0)));
  EXPECT_EQ(nms.scores(), (std::vector<float>(6, 0.0f)));
}

TEST(NonMaxSuppression, UpstreamV5DynamicOutput) {
  NmsModel nms(true, 6, 0.5f, -1, 0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.0f, 2)) << nms.m.log();
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3, 0}));
  EXPECT_EQ(nms.scores(), (std::vector<float>{0.95f, 0.9f}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.0f, 1));
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.0f, 3));
  EXPECT_EQ(nms.num(), 3);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{3, 0, 5}));
  EXPECT_EQ(nms.scores(), (std::vector<float>{0.95f, 0.9f, 0.3f}));
  ASSERT_TRUE(nms.Run(kBoxes, kScores, 0.99f, 3));
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(nms.scores(), (std::vector<float>{0, 0, 0}));
}

// A = [0,0,1,1] (0.9), B = [0,0.5,1,1.5] (0.8) overlaps A with IoU 1/3,
// C far away (0.75). With sigma 0.5 B decays to 0.8 * exp(-(1/3)^2) ~ 0.716
// and so comes after C.
TEST(NonMaxSuppression, SoftNmsDecaysOverlappingScores) {
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 0.5f, 1, 1.5f, 5, 5, 6, 6};
  const std::vector<float> scores = {0.9f, 0.8f, 0.75f};
  const float iou = 0.5f / 1.5f;
  const float decayed = 0.8f * std::exp(-1.0f * iou * iou);
  NmsModel nms(true, 3, 0.5f, 3, 0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(boxes, scores, 0.0f)) << nms.m.log();
  EXPECT_EQ(nms.num(), 3);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 2, 1}));
  const std::vector<float> got = nms.scores();
  EXPECT_EQ(got[0], 0.9f);
  EXPECT_EQ(got[1], 0.75f);
  EXPECT_NEAR(got[2], decayed, 1e-6f);
  // A decayed score at or below the threshold drops the box.
  ASSERT_TRUE(nms.Run(boxes, scores, 0.72f));
  EXPECT_EQ(nms.num(), 2);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 2, 0}));
  // Without sigma B only competes by its IoU: 1/3 < 0.5 keeps it whole.
  NmsModel hard(true, 3, 0.5f, 3, 0.0f);
  ASSERT_TRUE(hard.m.Allocate()) << hard.m.log();
  ASSERT_TRUE(hard.Run(boxes, scores, 0.0f));
  EXPECT_EQ(hard.indices(), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(hard.scores(), (std::vector<float>{0.9f, 0.8f, 0.75f}));
}

TEST(NonMaxSuppression, IouAtThresholdSuppresses) {
  // IoU exactly 1/3 against an iou_threshold of 1/3: dropped (>=).
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 0.5f, 1, 1.5f};
  NmsModel nms(false, 2, 0.5f / 1.5f, 2);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run(boxes, {0.9f, 0.8f}, 0.0f));
  EXPECT_EQ(nms.num(), 1);
  // Scores must exceed the threshold: 0.8 at 0.8 is out.
  ASSERT_TRUE(nms.Run({0, 0, 1, 1, 5, 5, 6, 6}, {0.9f, 0.8f}, 0.8f));
  EXPECT_EQ(nms.num(), 1);
}

// Upstream puts a selected box back on its queue and drops it when it meets
// itself (IoU 1). A zero-area box has IoU 0 with itself, so upstream selects
// it twice; this kernel reproduces that.
TEST(NonMaxSuppression, ZeroAreaBoxIsSelectedTwiceAsUpstream) {
  NmsModel nms(false, 2, 0.5f, 3);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run({0, 0, 0, 0, 0, 0, 1, 1}, {0.9f, 0.8f}, 0.0f));
  EXPECT_EQ(nms.num(), 2);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{0, 0, 0}));
}

TEST(NonMaxSuppression, NanScoresAndBoxesDoNotCrash) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NmsModel nms(true, 3, 0.5f, 3, 0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  ASSERT_TRUE(nms.Run({0, 0, 1, 1, nan, 0, 1, 1, 5, 5, 6, 6}, {nan, 0.8f, 0.7f}, 0.0f));
  // NaN score: no candidate. NaN box: selected first (nothing to compare),
  // then C's IoU with it is NaN, which decays C's score to NaN: dropped.
  EXPECT_EQ(nms.num(), 1);
  EXPECT_EQ(nms.indices(), (std::vector<int32_t>{1, 0, 0}));
}

// ---- random inputs against a reference -------------------------------------------------

float RefIou(const float* a, const float* b) {
  const float ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]);
  const float ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
  const float by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]);
  const float bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
  const float area_a = (ay1 - ay0) * (ax1 - ax0), area_b = (by1 - by0) * (bx1 - bx0);
  if (area_a <= 0 || area_b <= 0) return 0;
  const float inter = std::max(std::min(ay1, by1) - std::max(ay0, by0), 0.0f) *
                      std::max(std::min(ax1, bx1) - std::max(ax0, bx0), 0.0f);
  return inter / (area_a + area_b - inter);
}

// Eager soft-NMS: take the best current score, then decay (or drop) every
// remaining box by its overlap with it.
void Reference(const std::vector<float>& boxes, std::vector<float> scores, int max_output,
               float iou_threshold, float score_threshold, float sigma,
               std::vector<int32_t>* indices, std::vector<float>* selected) {
  std::vector<int> alive;
  for (int i = 0; i < static_cast<int>(scores.size()); ++i) {
    if (scores[i] > score_threshold) alive.push_back(i);
  }
  indices->assign(max_output, 0);
  selected->assign(max_output, 0.0f);
  int count = 0;
  while (count < max_output && !alive.empty()) {
    auto best = std::max_element(alive.begin(), alive.end(),
                                 [&](int a, int b) { return scores[a] < scores[b]; });
    const int s = *best;
    alive.erase(best);
    (*indices)[count] = s;
    (*selected)[count++] = scores[s];
    std::vector<int> next;
    for (int c : alive) {
      const float iou = RefIou(&boxes[c * 4], &boxes[s * 4]);
      if (iou >= iou_threshold) continue;
      if (sigma > 0) scores[c] *= std::exp(-0.5f / sigma * iou * iou);
      if (scores[c] > score_threshold) next.push_back(c);
    }
    alive = next;
  }
}

TEST(NonMaxSuppression, RandomMatchesReference) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE(round);
    const int n = 40 + round * 7;
    const bool soft = round % 2 == 1;
    const float sigma = soft ? 0.2f + 0.1f * (round % 4) : 0.0f;
    const float iou_threshold = 0.3f + 0.05f * (round % 5);
    const float score_threshold = round % 3 == 0 ? 0.0f : 0.2f;
    const int max_output = 5 + round * 2;
    std::vector<float> boxes(n * 4), scores(n);
    for (int i = 0; i < n; ++i) {
      const float y = unit(rng), x = unit(rng), h = 0.05f + 0.3f * unit(rng),
                  w = 0.05f + 0.3f * unit(rng);
      // Corners in either order.
      if (i % 2) {
        boxes[i * 4 + 0] = y + h, boxes[i * 4 + 1] = x, boxes[i * 4 + 2] = y,
                      boxes[i * 4 + 3] = x + w;
      } else {
        boxes[i * 4 + 0] = y, boxes[i * 4 + 1] = x + w, boxes[i * 4 + 2] = y + h,
                      boxes[i * 4 + 3] = x;
      }
      scores[i] = unit(rng);
    }
    NmsModel nms(soft, n, iou_threshold, -1, sigma);
    ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
    ASSERT_TRUE(nms.Run(boxes, scores, score_threshold, max_output)) << nms.m.log();
    std::vector<int32_t> want_indices;
    std::vector<float> want_scores;
    Reference(boxes, scores, max_output, iou_threshold, score_threshold, sigma, &want_indices,
              &want_scores);
    EXPECT_EQ(nms.indices(), want_indices);
    EXPECT_EQ(nms.num(), static_cast<int>(std::count_if(want_scores.begin(), want_scores.end(),
                                                         [](float s) { return s > 0; })));
    if (soft) {
      const std::vector<float> got = nms.scores();
      ASSERT_EQ(got.size(), want_scores.size());
      for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want_scores[i], 1e-6f) << i;
    }
  }
}

// ---- errors ---------------------------------------------------------------------------

TEST(NonMaxSuppression, RejectsBadInputs) {
  auto model = [](std::vector<int> boxes, std::vector<int> scores, tflite::TensorType box_type,
                  tflite::TensorType max_type, std::vector<int> iou_shape, int max_output) {
    auto m = std::make_unique<OneOpModel>();
    m->Input(box_type, boxes);
    m->Input(TensorType_FLOAT32, scores);
    if (max_type == TensorType_INT32) {
      m->Const<int32_t>({}, {max_output});
    } else {
      m->Const<float>({}, {1.0f});
    }
    m->Const<float>(iou_shape, std::vector<float>(iou_shape.empty() ? 1 : iou_shape[0], 0.5f));
    m->Input(TensorType_FLOAT32, {});
    m->Output(TensorType_INT32, {});
    m->Output(TensorType_INT32, {});
    m->Op(BuiltinOperator_NON_MAX_SUPPRESSION_V4);
    return m;
  };
  const auto f32 = TensorType_FLOAT32;
  ExpectPrepareError(*model({6, 3}, {6}, f32, TensorType_INT32, {}, 2),
                     "boxes must have shape [num_boxes, 4]");
  ExpectPrepareError(*model({6, 4}, {5}, f32, TensorType_INT32, {}, 2),
                     "scores must have shape [6] (one per box)");
  ExpectPrepareError(*model({6, 4}, {6}, TensorType_INT32, TensorType_INT32, {}, 2),
                     "boxes type INT32 is not supported");
  ExpectPrepareError(*model({6, 4}, {6}, f32, f32, {}, 2),
                     "max_output_size type FLOAT32 is not supported");
  ExpectPrepareError(*model({6, 4}, {6}, f32, TensorType_INT32, {2}, 2),
                     "iou_threshold must be a scalar, got 2 elements");
  ExpectPrepareError(*model({6, 4}, {6}, f32, TensorType_INT32, {}, -3),
                     "max_output_size must not be negative, got -3");

  OneOpModel v5_as_v4;  // V5 needs sigma and three outputs
  v5_as_v4.Input(f32, {6, 4});
  v5_as_v4.Input(f32, {6});
  v5_as_v4.Const<int32_t>({}, {2});
  v5_as_v4.Const<float>({}, {0.5f});
  v5_as_v4.Input(f32, {});
  v5_as_v4.Output(TensorType_INT32, {});
  v5_as_v4.Output(TensorType_INT32, {});
  v5_as_v4.Op(BuiltinOperator_NON_MAX_SUPPRESSION_V5);
  ExpectPrepareError(v5_as_v4, "NON_MAX_SUPPRESSION_V5");
}

TEST(NonMaxSuppression, NegativeSigmaFailsInvoke) {
  NmsModel nms(true, 6, 0.5f, 6, -0.5f);
  ASSERT_TRUE(nms.m.Allocate()) << nms.m.log();
  EXPECT_FALSE(nms.Run(kBoxes, kScores, 0.0f));
  EXPECT_NE(nms.m.log().find("soft_nms_sigma must not be negative"), std::string::npos)
      << nms.m.log();
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// End to end: NON_MAX_SUPPRESSION_V5 (soft NMS) on boxes and scores computed
// by a part XNNPACK takes by default; run with the default delegate and
// without it, checked against hand-worked scores.
#include <gtest/gtest.h>

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

// ---- NON_MAX_SUPPRESSION_V5 after a delegated part ----------------------------------------

// boxes = x + 0.25 (ADD), scores = LOGISTIC(logits); then soft NMS with
// max 3 outputs, IoU threshold 0.5, score threshold 0, sigma 0.5.
std::vector<uint8_t> NmsModel() {
  ModelBuilder b;
  const int x = b.AddInput(F32, {3, 4}, "x");
  const int logits = b.AddInput(F32, {3}, "logits");
  const int offset = b.AddConstant<float>({4}, {0.25f, 0.25f, 0.25f, 0.25f});
  const int boxes = b.AddTensor(F32, {3, 4}, "boxes");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, offset}, {boxes}, tflite::AddOptionsT());
  const int scores = b.AddTensor(F32, {3}, "scores");
  b.AddOperator(tflite::BuiltinOperator_LOGISTIC, {logits}, {scores});
  const int max_out = b.AddConstant<int32_t>({}, {3});
  const int iou = b.AddConstant<float>({}, {0.5f});
  const int threshold = b.AddConstant<float>({}, {0.0f});
  const int sigma = b.AddConstant<float>({}, {0.5f});
  const int selected = b.AddOutput(I32, {3}, "selected");
  const int selected_scores = b.AddOutput(F32, {3}, "selected_scores");
  const int count = b.AddOutput(I32, {}, "count");
  b.AddOperator(tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5,
                {boxes, scores, max_out, iou, threshold, sigma},
                {selected, selected_scores, count});
  return b.Finish();
}

TEST(EndToEnd, SoftNmsAfterDelegatedBoxesAndScores) {
  // A = [0,0,1,1], B = [0,0.5,1,1.5] (IoU 1/3 with A), C = [5,5,6,6];
  // scores ~0.9, 0.8, 0.75. B decays to s_B exp(-IoU^2) ~ 0.716 < s_C.
  const Floats x = {-0.25f, -0.25f, 0.75f, 0.75f, -0.25f, 0.25f,
                    0.75f,  1.25f,  4.75f, 4.75f, 5.75f,  5.75f};
  const double want_scores[3] = {0.9, 0.8, 0.75};
  Floats logits;
  for (double s : want_scores) logits.push_back(static_cast<float>(std::log(s / (1 - s))));
  const std::vector<uint8_t> bytes = NmsModel();
  ModelRun def(bytes, true, {x, logits}), plain(bytes, false, {x, logits});
  ExpectBackboneDelegated(def, plain, 3, {kTfLiteBuiltinNonMaxSuppressionV5});
  ExpectSameOutputs(def, plain, 1e-6f);
  ASSERT_EQ(def.outputs.size(), 3u);
  EXPECT_EQ(def.outputs[0], (Floats{0, 2, 1}));
  EXPECT_EQ(def.outputs[2], (Floats{3}));
  const double s[3] = {Sigmoid(logits[0]), Sigmoid(logits[1]), Sigmoid(logits[2])};
  const double decayed = s[1] * std::exp(-1.0 / 9.0);
  EXPECT_NEAR(def.outputs[1][0], s[0], 1e-6);
  EXPECT_NEAR(def.outputs[1][1], s[2], 1e-6);
  EXPECT_NEAR(def.outputs[1][2], decayed, 1e-5);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// Shared by the TFLite_Detection_PostProcess tests
// (detection_postprocess_test.cc, detection_postprocess_reference_test.cc,
// detection_postprocess_errors_test.cc): the op's options and their
// flexbuffer encoding, the one-op model with float or quantized inputs, and
// zero encodings. In their own namespace: `Opts` would clash with
// one_op_model.h's.
#ifndef TFLITE_C_TESTS_KERNELS_DETECTION_POSTPROCESS_TEST_UTIL_H_
#define TFLITE_C_TESTS_KERNELS_DETECTION_POSTPROCESS_TEST_UTIL_H_

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace testing {
namespace detection {

using tflite::TensorType;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;
using tflite::TensorType_UINT8;

inline constexpr char kName[] = "TFLite_Detection_PostProcess";

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

inline std::vector<uint8_t> Encode(const Opts& o) {
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
// ---- hand-worked semantics -------------------------------------------------------------

// Unit anchors at the origin and zero encodings decode to the anchors
// themselves, so boxes can be written directly as anchors (cy, cx, h, w).
inline std::vector<float> Zeros(int anchors) { return std::vector<float>(anchors * 4, 0.0f); }

}  // namespace detection
}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_KERNELS_DETECTION_POSTPROCESS_TEST_UTIL_H_

// TFLite_Detection_PostProcess refusals: bad options, shapes, types and
// arity fail in AllocateTensors with a message; inverted boxes fail Invoke.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/kernels/detection_postprocess_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType;
using tflite::TensorType_FLOAT32;
using tflite::TensorType_UINT8;

using detection::DetectionModel;
using detection::Encode;
using detection::kName;
using detection::Opts;
using detection::Result;
using detection::Zeros;

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

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// End to end on real public detection and audio models (opt-in: put them in
// a directory named by TFLITE_C_EXTRA_MODELS, see the README's "Running real
// models that use post-processing and audio ops"), with and without XNNPACK.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// ---- real models (opt-in) ----------------------------------------------------------------
// Public models are not in the repository (size, licence); put them in a
// directory and name it in TFLITE_C_EXTRA_MODELS (README: "Running real
// models that use post-processing and audio ops").

std::string ExtraModelsDir() {
  const char* dir = std::getenv("TFLITE_C_EXTRA_MODELS");
  return dir == nullptr ? "" : dir;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// For a model with TFLite_Detection_PostProcess in subgraph 0: the positions
// among the subgraph's outputs of its boxes, classes, scores and count
// outputs (empty when there is no such op or its outputs are not all model
// outputs).
std::vector<int> DetectionOutputs(const std::vector<uint8_t>& bytes) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!tflite::VerifyModelBuffer(verifier)) return {};
  const tflite::Model* model = tflite::GetModel(bytes.data());
  if (model->subgraphs() == nullptr || model->subgraphs()->size() == 0) return {};
  const tflite::SubGraph* sg = model->subgraphs()->Get(0);
  if (sg->operators() == nullptr || sg->outputs() == nullptr) return {};
  for (const tflite::Operator* op : *sg->operators()) {
    const tflite::OperatorCode* code = model->operator_codes()->Get(op->opcode_index());
    if (code->custom_code() == nullptr ||
        code->custom_code()->str() != "TFLite_Detection_PostProcess" || op->outputs() == nullptr ||
        op->outputs()->size() != 4) {
      continue;
    }
    std::vector<int> positions;
    for (int32_t tensor : *op->outputs()) {
      for (size_t k = 0; k < sg->outputs()->size(); ++k) {
        if (sg->outputs()->Get(k) == tensor) positions.push_back(static_cast<int>(k));
      }
    }
    if (positions.size() == 4) return positions;
  }
  return {};
}

struct Detections {
  Floats boxes, classes, scores;
  int count = 0;
};

Detections ReadDetections(const ModelRun& r, const std::vector<int>& at) {
  Detections d;
  d.boxes = r.outputs.at(at[0]);
  d.classes = r.outputs.at(at[1]);
  d.scores = r.outputs.at(at[2]);
  d.count = static_cast<int>(r.outputs.at(at[3]).at(0));
  return d;
}

// Well-formed: count within the slots, scores in [0, 1] and sorted, integer
// classes, boxes with min <= max roughly inside the image, zeros after count.
void ExpectWellFormed(const Detections& d) {
  ASSERT_EQ(d.boxes.size(), d.scores.size() * 4);
  ASSERT_EQ(d.classes.size(), d.scores.size());
  ASSERT_GE(d.count, 0);
  ASSERT_LE(d.count, static_cast<int>(d.scores.size()));
  for (int i = 0; i < d.count; ++i) {
    EXPECT_GE(d.scores[i], 0.0f) << i;
    EXPECT_LE(d.scores[i], 1.0f) << i;
    if (i > 0) EXPECT_LE(d.scores[i], d.scores[i - 1]) << i;
    EXPECT_EQ(d.classes[i], std::floor(d.classes[i])) << i;
    EXPECT_GE(d.classes[i], 0.0f) << i;
    const float* b = &d.boxes[i * 4];
    EXPECT_LE(b[0], b[2]) << i;
    EXPECT_LE(b[1], b[3]) << i;
    for (int k = 0; k < 4; ++k) {
      EXPECT_GT(b[k], -0.5f) << i;  // decoded boxes may spill a little past the image
      EXPECT_LT(b[k], 1.5f) << i;
    }
  }
  for (size_t i = d.count; i < d.scores.size(); ++i) EXPECT_EQ(d.scores[i], 0.0f) << i;
}

double Iou(const float* a, const float* b) {
  const double ih = std::max(0.0f, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const double iw = std::max(0.0f, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const double u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ih * iw;
  return u > 0 ? ih * iw / u : 0;
}

// Every *.tflite in the directory with TFLite_Detection_PostProcess, on a
// dark gradient with a bright square: both runs well-formed; the top
// detection agrees between them (quantized and hybrid backbones round
// differently in XNNPACK, so scores only roughly).
TEST(RealModels, DetectorsRunEndToEndWithAndWithoutXnnpack) {
  const std::string dir = ExtraModelsDir();
  if (dir.empty()) GTEST_SKIP() << "set TFLITE_C_EXTRA_MODELS to a directory of .tflite models";
  int found = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".tflite") continue;
    const std::vector<uint8_t> bytes = ReadFile(entry.path().string());
    const std::vector<int> at = DetectionOutputs(bytes);
    if (at.empty()) continue;
    ++found;
    SCOPED_TRACE(entry.path().filename().string());
    ModelPtr model(TfLiteModelCreate(bytes.data(), bytes.size()));
    ASSERT_NE(model, nullptr);
    InterpreterPtr probe(TfLiteInterpreterCreate(model.get(), nullptr));
    ASSERT_NE(probe, nullptr);
    const TfLiteTensor* in = TfLiteInterpreterGetInputTensor(probe.get(), 0);
    ASSERT_EQ(TfLiteTensorNumDims(in), 4);
    const int h = TfLiteTensorDim(in, 1), w = TfLiteTensorDim(in, 2), c = TfLiteTensorDim(in, 3);
    const bool is_float = TfLiteTensorType(in) == kTfLiteFloat32;
    Floats image(static_cast<size_t>(h) * w * c);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const bool square = y > h / 4 && y < h / 2 && x > w / 3 && x < 2 * w / 3;
        for (int k = 0; k < c; ++k) {
          const float v = square ? 230.0f - 40.0f * k : (x + y) / 6.0f;
          image[(static_cast<size_t>(y) * w + x) * c + k] = is_float ? v / 127.5f - 1.0f : v;
        }
      }
    }
    ModelRun def(bytes, true, {image}), plain(bytes, false, {image});
    ASSERT_TRUE(def.s.ok() && plain.s.ok());
    if (kWithXnnpack) EXPECT_GE(def.delegate_nodes, 1) << "no part of the backbone delegated";
    const Detections a = ReadDetections(def, at), b = ReadDetections(plain, at);
    ExpectWellFormed(a);
    ExpectWellFormed(b);
    if (a.count > 0 && b.count > 0) {
      EXPECT_NEAR(a.scores[0], b.scores[0], 0.05f);
      if (a.scores[0] >= 0.5f && b.scores[0] >= 0.5f) {
        EXPECT_EQ(a.classes[0], b.classes[0]);
        EXPECT_GT(Iou(&a.boxes[0], &b.boxes[0]), 0.5);
      }
    }
    std::printf("%s: %d detections, top class %g score %.3f (no XNNPACK: %d, %g, %.3f)\n",
                entry.path().filename().c_str(), a.count, a.count ? a.classes[0] : -1.0f,
                a.count ? a.scores[0] : 0.0f, b.count, b.count ? b.classes[0] : -1.0f,
                b.count ? b.scores[0] : 0.0f);
  }
  if (found == 0) GTEST_SKIP() << "no model with TFLite_Detection_PostProcess in " << dir;
}

// YAMNet (yamnet.tflite: RFFT2D, COMPLEX_ABS, LOG, then a MobileNet with
// int8 weights): 0.975 s of 16 kHz audio in, 521 AudioSet class scores
// (independent sigmoids, each in [0, 1], not a distribution) out. A 1 kHz
// sine is "Beep, bleep" (475) or "Sine wave" (495); white noise is water or
// noise (282 Water, 283 Rain, 285-287, 507 Noise, 509 Static, 514/515 White
// and Pink noise). Its pointwise convolutions and fully connected layers
// have int8 weights: with XNNPACK they run dynamically quantized per pixel
// (as upstream's delegate runs them), on the builtin kernels per image,
// so the two runs quantize differently. On the sine they agree within 0.02.
// On noise only the top class is compared: every layer's input is quantized
// anew, and a 1e-6 relative change of the input alone moves some scores by
// 0.3.
TEST(RealModels, YamnetNamesASineWaveAndNoise) {
  const std::string dir = ExtraModelsDir();
  if (dir.empty()) GTEST_SKIP() << "set TFLITE_C_EXTRA_MODELS to a directory holding yamnet.tflite";
  const std::vector<uint8_t> bytes = ReadFile(dir + "/yamnet.tflite");
  if (bytes.empty()) GTEST_SKIP() << "no yamnet.tflite in " << dir;
  constexpr int kYamnetSamples = 15600;
  Floats sine(kYamnetSamples);
  for (int i = 0; i < kYamnetSamples; ++i) {
    sine[i] = static_cast<float>(0.5 * std::sin(2 * std::acos(-1.0) * 1000.0 * i / 16000));
  }
  const Floats noise = Random(kYamnetSamples, 11, -0.5f, 0.5f);
  struct Case {
    Floats audio;
    std::vector<int> classes;  // acceptable top classes
    bool compare_scores;       // XNNPACK on and off within 0.02
  };
  const Case cases[] = {{sine, {475, 495}, true},
                        {noise, {282, 283, 285, 286, 287, 507, 509, 514, 515}, false}};
  for (const Case& c : cases) {
    const Floats& audio = c.audio;
    const std::vector<int>& classes = c.classes;
    ModelRun def(bytes, true, {audio}), plain(bytes, false, {audio});
    ASSERT_TRUE(def.s.ok() && plain.s.ok());
    if (kWithXnnpack) EXPECT_GE(def.delegate_nodes, 1);
    ASSERT_EQ(def.outputs.size(), 1u);
    const Floats& scores = def.outputs[0];
    ASSERT_EQ(scores.size(), 521u);
    for (float v : scores) {
      EXPECT_GE(v, 0.0f);
      EXPECT_LE(v, 1.0f);
    }
    const int top =
        static_cast<int>(std::max_element(scores.begin(), scores.end()) - scores.begin());
    const Floats& other = plain.outputs.at(0);
    const int top_plain =
        static_cast<int>(std::max_element(other.begin(), other.end()) - other.begin());
    std::printf("yamnet: top class %d score %.3f (no XNNPACK: %d, %.3f)\n", top, scores[top],
                top_plain, other[top_plain]);
    EXPECT_NE(std::find(classes.begin(), classes.end(), top), classes.end()) << top;
    EXPECT_EQ(top, top_plain);
    if (c.compare_scores) {
      for (size_t i = 0; i < scores.size(); ++i) EXPECT_NEAR(scores[i], other[i], 0.02f) << i;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

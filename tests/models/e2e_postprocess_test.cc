// End-to-end detection models: models whose backbone XNNPACK takes and whose post-processing
// or front end it does not (TFLite_Detection_PostProcess, AudioSpectrogram,
// Mfcc, NON_MAX_SUPPRESSION_V5) run end to end with the default options.
// Each graph is built here, run with the default delegate and without it,
// and checked three ways: the delegate took the backbone (a delegate kernel
// in the plan, the post-processing node left to the builtin kernel), both
// runs agree within float tolerance, and the result is what a plain
// reference written in this file (or the hand-worked numbers beside it)
// expects.
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "schema_generated.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/audio_reference.h"

namespace tflite_c {
namespace testing {
namespace {

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
using Floats = std::vector<float>;

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// A session with the default options (XNNPACK on unless `xnnpack` is false),
// allocated; all outputs of one Invoke as floats (int32 outputs converted).
// Inputs are floats; a UINT8 input takes them as 0..255 (truncated).
struct ModelRun {
  Session s;
  std::vector<Floats> outputs;
  int plan_size = 0;
  int delegate_nodes = 0;

  ModelRun(const std::vector<uint8_t>& bytes, bool xnnpack, const std::vector<Floats>& inputs) {
    s.model.reset(TfLiteModelCreate(bytes.data(), bytes.size()));
    EXPECT_NE(s.model, nullptr);
    if (!s.model) return;
    OptionsPtr options(TfLiteInterpreterOptionsCreate());
    TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &s.errors);
    if (!xnnpack) TfLiteInterpreterOptionsSetUseXNNPACK(options.get(), false);
    s.interpreter.reset(TfLiteInterpreterCreate(s.model.get(), options.get()));
    EXPECT_TRUE(s.ok()) << s.errors;
    if (!s.ok()) return;
    plan_size = static_cast<int>(s.plan().size());
    delegate_nodes = s.DelegateNodes();
    TfLiteInterpreter* it = s.interpreter.get();
    EXPECT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* in = TfLiteInterpreterGetInputTensor(it, static_cast<int>(i));
      if (TfLiteTensorType(in) == kTfLiteUInt8) {  // values given as 0..255
        std::vector<uint8_t> q;
        for (float v : inputs[i]) q.push_back(static_cast<uint8_t>(std::clamp(v, 0.0f, 255.0f)));
        EXPECT_EQ(TfLiteTensorCopyFromBuffer(in, q.data(), q.size()), kTfLiteOk);
      } else {
        EXPECT_TRUE(s.SetInput(static_cast<int>(i), inputs[i]));
      }
    }
    EXPECT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s.errors;
    for (int i = 0; i < TfLiteInterpreterGetOutputTensorCount(it); ++i) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, i);
      Floats v;
      if (TfLiteTensorType(t) == kTfLiteInt32) {
        std::vector<int32_t> raw(TfLiteTensorByteSize(t) / sizeof(int32_t));
        TfLiteTensorCopyToBuffer(t, raw.data(), raw.size() * sizeof(int32_t));
        v.assign(raw.begin(), raw.end());
      } else {
        v.resize(TfLiteTensorByteSize(t) / sizeof(float));
        TfLiteTensorCopyToBuffer(t, v.data(), v.size() * sizeof(float));
      }
      outputs.push_back(v);
    }
  }
  // The builtin code of every node in the plan, in order.
  std::vector<int> PlanCodes() {
    std::vector<int> codes;
    for (int i : s.plan())
      codes.push_back(s.primary().node_and_registration(i)->second.builtin_code);
    return codes;
  }
};

void ExpectSameOutputs(const ModelRun& a, const ModelRun& b, float tol) {
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    ASSERT_EQ(a.outputs[i].size(), b.outputs[i].size()) << "output " << i;
    for (size_t j = 0; j < a.outputs[i].size(); ++j) {
      EXPECT_NEAR(a.outputs[i][j], b.outputs[i][j], tol * (1 + std::fabs(a.outputs[i][j])))
          << "output " << i << " element " << j;
    }
  }
}

// Checks the default run delegated exactly `delegated` nodes into one
// partition and kept `builtin` nodes (custom ops count as kTfLiteBuiltinCustom).
void ExpectBackboneDelegated(ModelRun& def, ModelRun& plain, int total_nodes,
                             const std::vector<int>& builtin) {
  EXPECT_EQ(plain.plan_size, total_nodes);
  EXPECT_EQ(plain.delegate_nodes, 0);
  if (!kWithXnnpack) {
    EXPECT_EQ(def.plan_size, total_nodes);
    return;
  }
  EXPECT_EQ(def.delegate_nodes, 1) << "the backbone should form one XNNPACK partition";
  EXPECT_EQ(def.plan_size, static_cast<int>(builtin.size()) + 1);
  std::vector<int> kept;
  for (int code : def.PlanCodes()) {
    if (code != kTfLiteBuiltinDelegate) kept.push_back(code);
  }
  EXPECT_EQ(kept, builtin);
}

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

// ---- audio: AudioSpectrogram -> Mfcc -> FULLY_CONNECTED -> SOFTMAX ---------------------

constexpr int kRate = 8000, kSamples = 2000, kWindow = 256, kStride = 128;
constexpr int kFrames = 1 + (kSamples - kWindow) / kStride;  // 14
constexpr int kCoefficients = 13;
constexpr int kBins = 256 / 2 + 1;

MfccOptions AudioMfcc() {
  MfccOptions o;
  o.upper = 3800;
  o.lower = 60;
  o.channels = 20;
  o.coefficients = kCoefficients;
  return o;
}

// Two classes from the first cepstral coefficient (the spectral tilt) of
// every frame: class 0 "low" weighs +0.05 c1, class 1 "high" -0.05 c1.
Floats ClassifierWeights() {
  Floats w(2 * kFrames * kCoefficients, 0.0f);
  for (int f = 0; f < kFrames; ++f) {
    w[f * kCoefficients + 1] = 0.05f;
    w[(kFrames + f) * kCoefficients + 1] = -0.05f;
  }
  return w;
}

std::vector<uint8_t> AudioModel() {
  ModelBuilder b;
  const int audio = b.AddInput(F32, {kSamples, 1}, "audio");
  const int spectrogram = b.AddTensor(F32, {1, kFrames, kBins}, "spectrogram");
  flexbuffers::Builder sp;
  sp.Map([&] {
    sp.Int("window_size", kWindow);
    sp.Int("stride", kStride);
    sp.Bool("magnitude_squared", true);
  });
  sp.Finish();
  b.AddCustomOperator("AudioSpectrogram", {audio}, {spectrogram}, sp.GetBuffer());
  const MfccOptions o = AudioMfcc();
  flexbuffers::Builder mf;
  mf.Map([&] {
    mf.Int("upper_frequency_limit", static_cast<int64_t>(o.upper));
    mf.Int("lower_frequency_limit", static_cast<int64_t>(o.lower));
    mf.Int("filterbank_channel_count", o.channels);
    mf.Int("dct_coefficient_count", o.coefficients);
  });
  mf.Finish();
  const int rate = b.AddConstant<int32_t>({1}, {kRate});
  const int mfcc = b.AddOutput(F32, {1, kFrames, kCoefficients}, "mfcc");
  b.AddCustomOperator("Mfcc", {spectrogram, rate}, {mfcc}, mf.GetBuffer());
  const int shape = b.AddConstant<int32_t>({2}, {1, kFrames * kCoefficients});
  const int flat = b.AddTensor(F32, {1, kFrames * kCoefficients});
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {mfcc, shape}, {flat}, tflite::ReshapeOptionsT());
  const int w = b.AddConstant<float>({2, kFrames * kCoefficients}, ClassifierWeights());
  const int bias = b.AddConstant<float>({2}, {0.0f, 0.0f});
  const int logits = b.AddTensor(F32, {1, 2});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {flat, w, bias}, {logits},
                tflite::FullyConnectedOptionsT());
  const int probs = b.AddOutput(F32, {1, 2}, "probabilities");
  tflite::SoftmaxOptionsT softmax;
  softmax.beta = 1.0f;
  b.AddOperator(tflite::BuiltinOperator_SOFTMAX, {logits}, {probs}, softmax);
  b.SetOutputs({probs, mfcc});
  return b.Finish();
}

// A sine of amplitude 0.5 over a little white noise (which keeps every mel
// band well above float rounding, so the log compares).
Floats Tone(double hz) {
  const Floats noise = Random(kSamples, 7, -0.02f, 0.02f);
  Floats a(kSamples);
  for (int i = 0; i < kSamples; ++i) {
    a[i] = static_cast<float>(0.5 * std::sin(2 * std::acos(-1.0) * hz * i / kRate)) + noise[i];
  }
  return a;
}

TEST(EndToEnd, AudioClassifierFrontEndOnBuiltinKernelsClassifierDelegated) {
  const std::vector<uint8_t> bytes = AudioModel();
  const Floats w = ClassifierWeights();
  for (double hz : {250.0, 440.0, 2500.0, 3300.0}) {
    SCOPED_TRACE(std::to_string(hz) + " Hz");
    const Floats audio = Tone(hz);
    ModelRun def(bytes, true, {audio}), plain(bytes, false, {audio});
    ExpectBackboneDelegated(def, plain, 5, {kTfLiteBuiltinCustom, kTfLiteBuiltinCustom});
    ExpectSameOutputs(def, plain, 1e-4f);
    ASSERT_EQ(def.outputs.size(), 2u);
    const Floats &probs = def.outputs[0], &mfcc = def.outputs[1];

    // Front end against the DFT / mel / DCT references.
    const std::vector<double> power =
        ReferenceSpectrogram(audio, kSamples, 1, kWindow, kStride, true);
    const std::vector<double> want_mfcc =
        ReferenceMfcc(Floats(power.begin(), power.end()), kBins, kRate, AudioMfcc());
    ASSERT_EQ(mfcc.size(), want_mfcc.size());
    for (size_t i = 0; i < mfcc.size(); ++i) {
      EXPECT_NEAR(mfcc[i], want_mfcc[i], 1e-3 * std::max(1.0, std::fabs(want_mfcc[i]))) << i;
    }
    // Classifier on the reference MFCCs.
    double logit[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < kFrames * kCoefficients; ++i) {
        logit[k] += w[k * kFrames * kCoefficients + i] * want_mfcc[i];
      }
    }
    const double p0 = 1.0 / (1.0 + std::exp(logit[1] - logit[0]));
    ASSERT_EQ(probs.size(), 2u);
    EXPECT_NEAR(probs[0], p0, 1e-3);
    EXPECT_NEAR(probs[0] + probs[1], 1.0, 1e-6);
    // Low tones tilt the mel spectrum down (c1 > 0), high tones up.
    EXPECT_EQ(probs[0] > probs[1], hz < 1000) << probs[0] << " " << probs[1];
  }
}

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
// and Pink noise). On the sine XNNPACK on and off agree closely. On noise
// only the top class is compared: the dynamic-range (hybrid) convolutions,
// on the builtin kernels in both runs, quantize each layer's input anew,
// and a 1e-6 relative change of the input alone moves some scores by 0.3.
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
    bool compare_scores;       // XNNPACK on and off within 0.01
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
      for (size_t i = 0; i < scores.size(); ++i) EXPECT_NEAR(scores[i], other[i], 0.01f) << i;
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

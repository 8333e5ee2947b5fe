// End to end: an audio classifier whose front end (AudioSpectrogram -> Mfcc)
// stays on the builtin kernels while XNNPACK takes FULLY_CONNECTED -> SOFTMAX.
// Run with the default delegate and without it: the delegate took the
// classifier, both runs agree, and each tone gets the class it was built for.
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

}  // namespace
}  // namespace testing
}  // namespace tflite_c

// The audio custom ops upstream's default resolver carries, AudioSpectrogram
// and Mfcc, run as one-op models through the public C API with the default
// resolver. Expected values: upstream's published vectors
// (audio_spectrogram_test.cc, mfcc_test.cc) and references written here from
// the documented formulas: a periodic Hann window and a direct DFT per frame;
// a triangular mel filterbank, a log and a DCT-II.
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/util/audio_reference.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::MfccOptions;
using testing::OneOpModel;
using testing::ReferenceMfcc;
using testing::ReferenceSpectrogram;

constexpr auto F32 = tflite::TensorType_FLOAT32;
constexpr auto I32 = tflite::TensorType_INT32;
using Shape = std::vector<int>;
using Floats = std::vector<float>;

std::vector<uint8_t> Flex(const std::function<void(flexbuffers::Builder&)>& fill) {
  flexbuffers::Builder fbb;
  fbb.Map([&] { fill(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

void ExpectAllNear(const Floats& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i]))) << "element " << i;
  }
}

// Options that make Prepare fail with `message`.
struct OptionsCase {
  std::vector<uint8_t> options;
  const char* message;
};
void ExpectOptionErrors(const std::vector<OptionsCase>& cases,
                        const std::function<void(OneOpModel&, std::vector<uint8_t>)>& declare) {
  for (const OptionsCase& c : cases) {
    OneOpModel m;
    declare(m, c.options);
    ExpectPrepareError(m, c.message);
  }
}

// ---- AudioSpectrogram -----------------------------------------------------------------

std::vector<uint8_t> SpectrogramOptions(int window_size, int stride, bool magnitude_squared) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("window_size", window_size);
    b.Int("stride", stride);
    b.Bool("magnitude_squared", magnitude_squared);
  });
}

void SpectrogramOp(OneOpModel& m, const Shape& in_shape, std::vector<uint8_t> options,
                   tflite::TensorType type = F32) {
  m.Input(type, in_shape);
  m.Output(F32, {});
  m.CustomOp("AudioSpectrogram", std::move(options));
}

Floats RunSpectrogram(const Shape& in_shape, const Floats& audio, int window, int stride,
                      bool squared, Shape* out_shape) {
  OneOpModel m;
  SpectrogramOp(m, in_shape, SpectrogramOptions(window, stride, squared));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, audio);
  EXPECT_TRUE(m.Invoke()) << m.log();
  *out_shape = m.Shape();
  return m.Get<float>();
}

TEST(AudioSpectrogramTest, UpstreamVectors) {
  const Floats audio = {-1, 0, 1, 0, -1, 0, 1, 0};
  Shape shape;
  Floats got = RunSpectrogram({8, 1}, audio, 8, 1, false, &shape);
  EXPECT_EQ(shape, (Shape{1, 1, 5}));
  ExpectAllNear(got, {0, 1, 2, 1, 0}, 1e-3);

  got = RunSpectrogram({8, 1}, audio, 8, 1, true, &shape);
  EXPECT_EQ(shape, (Shape{1, 1, 5}));
  ExpectAllNear(got, {0, 1, 4, 1, 0}, 1e-3);

  got = RunSpectrogram({10, 1}, {-1, 0, 1, 0, -1, 0, 1, 0, 1, 0}, 8, 2, true, &shape);
  EXPECT_EQ(shape, (Shape{1, 2, 5}));
  ExpectAllNear(got, {0, 1, 4, 1, 0, 1, 2, 1, 2, 1}, 1e-3);
}

TEST(AudioSpectrogramTest, MatchesWindowedDftOnRandomAudio) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  struct Case {
    int samples, channels, window, stride;
  };
  const Case cases[] = {{100, 2, 12, 5}, {64, 1, 64, 64}, {257, 3, 33, 7}, {9, 1, 2, 1}};
  for (const Case& c : cases) {
    Floats audio(static_cast<size_t>(c.samples) * c.channels);
    for (float& v : audio) v = dist(rng);
    for (bool squared : {false, true}) {
      SCOPED_TRACE("window " + std::to_string(c.window) + (squared ? " squared" : ""));
      Shape shape;
      const Floats got =
          RunSpectrogram({c.samples, c.channels}, audio, c.window, c.stride, squared, &shape);
      int fft = 1;
      while (fft < c.window) fft *= 2;
      EXPECT_EQ(shape, (Shape{c.channels, 1 + (c.samples - c.window) / c.stride, fft / 2 + 1}));
      ExpectAllNear(got,
                    ReferenceSpectrogram(audio, c.samples, c.channels, c.window, c.stride, squared),
                    1e-5);
    }
  }
}

TEST(AudioSpectrogramTest, AudioShorterThanWindowHasNoFrames) {
  OneOpModel m;
  SpectrogramOp(m, {5, 2}, SpectrogramOptions(8, 1, true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, Floats(10, 1.0f));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 0, 5}));
}

TEST(AudioSpectrogramTest, HugeWindowOnShortAudioAllocatesNothing) {
  OneOpModel m;
  SpectrogramOp(m, {16, 1}, SpectrogramOptions(1 << 30, 1, false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, Floats(16, 1.0f));
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{1, 0, (1 << 29) + 1}));
}

TEST(AudioSpectrogramTest, MagnitudeSquaredDefaultsToFalse) {
  OneOpModel m;
  SpectrogramOp(m, {8, 1}, Flex([](flexbuffers::Builder& b) {
                  b.Int("window_size", 8);
                  b.Int("stride", 1);
                }));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-1, 0, 1, 0, -1, 0, 1, 0});
  ASSERT_TRUE(m.Invoke()) << m.log();
  ExpectAllNear(m.Get<float>(), {0, 1, 2, 1, 0}, 1e-3);
}

TEST(AudioSpectrogramTest, RejectsBadOptionsAndTensors) {
  ExpectOptionErrors({
      {{}, "AudioSpectrogram: custom options are missing or not a flexbuffer map"},
      {Flex([](flexbuffers::Builder& b) { b.Int("stride", 1); }),
       "AudioSpectrogram: option 'window_size' is missing"},
      {SpectrogramOptions(1, 1, false), "AudioSpectrogram: window_size 1 is outside [2, 2^30]"},
      {SpectrogramOptions(8, 0, false), "AudioSpectrogram: stride 0 must be positive"},
      {Flex([](flexbuffers::Builder& b) {
         b.Int("window_size", 8);
         b.String("stride", "two");
       }),
       "AudioSpectrogram: option 'stride' is not a 32-bit integer"},
  }, [](OneOpModel& m, std::vector<uint8_t> options) { SpectrogramOp(m, {16, 1}, options); });
  {
    OneOpModel m;
    SpectrogramOp(m, {16, 1, 1}, SpectrogramOptions(8, 1, false));
    ExpectPrepareError(m, "AudioSpectrogram: input shape [16,1,1] must be [samples, channels]");
  }
  {
    OneOpModel m;
    SpectrogramOp(m, {16, 1}, SpectrogramOptions(8, 1, false), I32);
    ExpectPrepareError(m, "AudioSpectrogram: input type INT32 is not supported");
  }
}

// ---- Mfcc ----------------------------------------------------------------------------

std::vector<uint8_t> MfccFlex(const MfccOptions& o) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("upper_frequency_limit", static_cast<int64_t>(o.upper));
    b.Int("lower_frequency_limit", static_cast<int64_t>(o.lower));
    b.Int("filterbank_channel_count", o.channels);
    b.Int("dct_coefficient_count", o.coefficients);
  });
}

void MfccOp(OneOpModel& m, const Shape& shape, std::vector<uint8_t> options,
            const Shape& rate_shape = {1}, tflite::TensorType rate_type = I32) {
  m.Input(F32, shape);
  m.Input(rate_type, rate_shape);
  m.Output(F32, {});
  m.CustomOp("Mfcc", std::move(options));
}

Floats RunMfcc(const Shape& shape, const Floats& spectrogram, int rate, const MfccOptions& o,
               const Shape& rate_shape = {1}) {
  OneOpModel m;
  MfccOp(m, shape, MfccFlex(o), rate_shape);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, spectrogram);
  m.Set<int32_t>(1, {rate});
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{shape[0], shape[1], o.coefficients}));
  return m.Get<float>();
}

TEST(MfccTest, UpstreamVector) {
  Floats spectrum(513);
  for (size_t i = 0; i < spectrum.size(); ++i) spectrum[i] = static_cast<float>(i + 1);
  const std::vector<double> expected = {29.13970072, -6.41568601, -0.61903012, -0.96778652,
                                        -0.26819878, -0.40907028, -0.15614748, -0.23203119,
                                        -0.10481487, -0.1543029,  -0.0769791,  -0.10806114,
                                        -0.06047613};
  for (const Shape& rate_shape : {Shape{1}, Shape{}}) {
    const Floats got = RunMfcc({1, 1, 513}, spectrum, 22050, MfccOptions(), rate_shape);
    ExpectAllNear(got, expected, 1e-3);
  }
}

TEST(MfccTest, MatchesMelFilterbankAndDctReference) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.0f, 10.0f);
  struct Case {
    int channels, frames, bins, rate;
    MfccOptions options;
  };
  const Case cases[] = {
      {1, 3, 257, 16000, {}},
      {2, 2, 129, 8000, {3900, 100, 20, 12}},
      {1, 1, 1025, 44100, {20000, 0, 64, 64}},
      {1, 2, 33, 16000, {8000, 300, 8, 5}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("bins " + std::to_string(c.bins));
    Floats power(static_cast<size_t>(c.channels) * c.frames * c.bins);
    for (float& v : power) v = dist(rng);
    const Floats got = RunMfcc({c.channels, c.frames, c.bins}, power, c.rate, c.options);
    const std::vector<double> want = ReferenceMfcc(power, c.bins, c.rate, c.options);
    ExpectAllNear(got, want, 1e-4);
  }
}

TEST(MfccTest, SpectrumBelowTheUpperLimitGivesZeros) {
  // 8 kHz audio has no bins up to 5 kHz: upstream leaves every band empty
  // and outputs zeros.
  MfccOptions o;
  o.upper = 5000;
  const Floats got = RunMfcc({1, 1, 65}, Floats(65, 1.0f), 8000, o);
  EXPECT_EQ(got, Floats(13, 0.0f));
}

TEST(MfccTest, SilenceHitsTheLogFloor) {
  // Every band is log(1e-12); the DCT of a constant is sqrt(2/n) * n * value
  // at k = 0 and zero elsewhere.
  MfccOptions o;
  const Floats got = RunMfcc({1, 1, 257}, Floats(257, 0.0f), 16000, o);
  const double c0 = std::sqrt(2.0 / 40) * 40 * std::log(1e-12);
  ASSERT_EQ(got.size(), 13u);
  EXPECT_NEAR(got[0], c0, 1e-3);
  for (int k = 1; k < 13; ++k) EXPECT_NEAR(got[k], 0.0, 1e-3) << k;
}

TEST(MfccTest, FloatOptionsAreTruncatedLikeUpstream) {
  MfccOptions o;
  OneOpModel m;
  MfccOp(m, {1, 1, 257}, Flex([](flexbuffers::Builder& b) {
           b.Double("upper_frequency_limit", 4000.9);
           b.Double("lower_frequency_limit", 20.7);
           b.Int("filterbank_channel_count", 40);
           b.Int("dct_coefficient_count", 13);
         }));
  ASSERT_TRUE(m.Allocate()) << m.log();
  Floats power(257);
  for (size_t i = 0; i < power.size(); ++i) power[i] = static_cast<float>(i % 7);
  m.Set<float>(0, power);
  m.Set<int32_t>(1, {16000});
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<double> want = ReferenceMfcc(power, 257, 16000, o);  // 4000 / 20
  const Floats got = m.Get<float>();
  ExpectAllNear(got, want, 1e-4);
}

TEST(MfccTest, RejectsBadOptionsAndTensors) {
  auto with = [](const std::function<void(MfccOptions&)>& edit) {
    MfccOptions o;
    edit(o);
    return MfccFlex(o);
  };
  ExpectOptionErrors({
      {{}, "Mfcc: custom options are missing or not a flexbuffer map"},
      {Flex([](flexbuffers::Builder& b) { b.Int("upper_frequency_limit", 4000); }),
       "Mfcc: option 'lower_frequency_limit' is missing"},
      {with([](MfccOptions& o) { o.lower = -1; }),
       "Mfcc: lower_frequency_limit must not be negative"},
      {with([](MfccOptions& o) { o.upper = 20; }),
       "Mfcc: upper_frequency_limit must be above lower_frequency_limit"},
      {with([](MfccOptions& o) { o.channels = 0; }),
       "Mfcc: filterbank_channel_count 0 is outside [1, 4096]"},
      {with([](MfccOptions& o) { o.coefficients = 41; }),
       "Mfcc: dct_coefficient_count 41 is outside [1, filterbank_channel_count]"},
      {with([](MfccOptions& o) { o.coefficients = 0; }),
       "Mfcc: dct_coefficient_count 0 is outside [1, filterbank_channel_count]"},
  }, [](OneOpModel& m, std::vector<uint8_t> options) { MfccOp(m, {1, 1, 257}, options); });
  {
    OneOpModel m;
    MfccOp(m, {1, 257}, MfccFlex({}));
    ExpectPrepareError(m, "Mfcc: spectrogram shape [1,257] must be [channels, frames, bins >= 2]");
  }
  {
    OneOpModel m;
    MfccOp(m, {1, 1, 1}, MfccFlex({}));
    ExpectPrepareError(m, "must be [channels, frames, bins >= 2]");
  }
  {
    OneOpModel m;
    MfccOp(m, {1, 1, 257}, MfccFlex({}), {2});
    ExpectPrepareError(m, "Mfcc: sample_rate shape [2] must hold one value");
  }
  {
    OneOpModel m;
    MfccOp(m, {1, 1, 257}, MfccFlex({}), {1}, F32);
    ExpectPrepareError(m, "Mfcc: sample_rate type FLOAT32 is not supported");
  }
}

TEST(MfccTest, NonPositiveSampleRateFailsAtInvoke) {
  for (int rate : {0, -16000}) {
    OneOpModel m;
    MfccOp(m, {1, 1, 257}, MfccFlex({}));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, Floats(257, 1.0f));
    m.Set<int32_t>(1, {rate});
    EXPECT_FALSE(m.Invoke());
    EXPECT_NE(m.log().find("Mfcc: sample_rate " + std::to_string(rate) + " must be positive"),
              std::string::npos)
        << m.log();
  }
}

TEST(MfccTest, TinySampleRatesStayDefined) {
  // 1 Hz audio puts the 20 Hz lower limit far past the last bin: no band
  // gets any energy, but nothing overflows.
  MfccOptions o;
  o.upper = 1000000;
  const Floats got = RunMfcc({1, 1, 9}, Floats(9, 1.0f), 1, o);
  EXPECT_EQ(got, Floats(13, 0.0f));  // the upper limit is past the last bin too
}

TEST(AudioPipelineTest, SpectrogramThenMfccMatchesReferences) {
  // The usual speech front end: AudioSpectrogram feeding Mfcc through an
  // intermediate tensor, with the sample rate as a constant.
  constexpr int kSamples = 1000, kWindow = 240, kStride = 160, kRate = 16000;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  Floats audio(kSamples);
  for (float& v : audio) v = dist(rng);
  OneOpModel m;
  const int in = m.Input(F32, {kSamples, 1});
  const int rate = m.Const<int32_t>({1}, {kRate});
  const int spectrogram = m.builder().AddTensor(F32, {});
  const int out = m.Output(F32, {});
  m.builder().AddCustomOperator("AudioSpectrogram", {in}, {spectrogram},
                                SpectrogramOptions(kWindow, kStride, true));
  MfccOptions o;
  m.builder().AddCustomOperator("Mfcc", {spectrogram, rate}, {out}, MfccFlex(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, audio);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const int frames = 1 + (kSamples - kWindow) / kStride;
  EXPECT_EQ(m.Shape(), (Shape{1, frames, 13}));
  const std::vector<double> power = ReferenceSpectrogram(audio, kSamples, 1, kWindow, kStride, true);
  const std::vector<double> want =
      ReferenceMfcc(Floats(power.begin(), power.end()), 256 / 2 + 1, kRate, o);
  const Floats got = m.Get<float>();
  ExpectAllNear(got, want, 1e-3);
}

}  // namespace
}  // namespace tflite_c

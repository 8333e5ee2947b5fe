// The flexbuffer reader (src/kernels/internal/flex_map.h) that MediaPipe's and
// LiteRT's custom ops use for their options: every value kind, non-maps, and
// truncated or corrupted buffers, against buffers built by flatbuffers' own encoder.
#include <string>
#include <vector>

#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include "src/kernels/internal/flex_map.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api.h"
#include "tests/kernels/mediapipe_op_test_util.h"

namespace {
using tflite_c::kernels::internal::FlexMap;
using tflite_c::testing::Flex;

// ---- FlexMap -------------------------------------------------------------------------

std::vector<uint8_t> SampleFlex() {
  return Flex([](flexbuffers::Builder& b) {
    b.Int("small", -5);
    b.Int("wide", 70000);
    b.Int("huge", int64_t{1} << 40);
    b.UInt("unsigned", 300);
    b.Float("half", 0.5f);
    b.Double("third", 1.0 / 3.0);
    b.Double("whole", 12.0);
    b.Bool("flag", true);
    b.String("mode", "bilinear");
    b.Vector("ints", [&] {
      b.Int(1);
      b.Int(-2);
      b.Int(300);
    });
    b.Vector("mixed", [&] {
      b.Int(4);
      b.Double(5.0);
      b.UInt(6);
    });
    b.TypedVector("typed", [&] {
      b.Int(7);
      b.Int(70000);
    });
    b.Vector("floats", [&] { b.Double(1.5); });
  });
}

TEST(FlexMapTest, ReadsScalarsStringsAndVectors) {
  const std::vector<uint8_t> buf = SampleFlex();
  FlexMap map;
  ASSERT_TRUE(map.Parse(buf.data(), buf.size()));
  int64_t i = 0;
  double d = 0;
  EXPECT_TRUE(map.GetInt("small", &i));
  EXPECT_EQ(i, -5);
  EXPECT_TRUE(map.GetInt("wide", &i));
  EXPECT_EQ(i, 70000);
  EXPECT_TRUE(map.GetInt("huge", &i));
  EXPECT_EQ(i, int64_t{1} << 40);
  EXPECT_TRUE(map.GetInt("unsigned", &i));
  EXPECT_EQ(i, 300);
  EXPECT_TRUE(map.GetInt("flag", &i));
  EXPECT_EQ(i, 1);
  EXPECT_TRUE(map.GetInt("whole", &i));  // a whole float converts
  EXPECT_EQ(i, 12);
  EXPECT_FALSE(map.GetInt("half", &i));  // a fraction does not
  EXPECT_TRUE(map.GetDouble("half", &d));
  EXPECT_EQ(d, 0.5);
  EXPECT_TRUE(map.GetDouble("third", &d));
  EXPECT_EQ(d, 1.0 / 3.0);
  EXPECT_TRUE(map.GetDouble("small", &d));
  EXPECT_EQ(d, -5.0);
  std::string s;
  EXPECT_TRUE(map.GetString("mode", &s));
  EXPECT_EQ(s, "bilinear");
  EXPECT_FALSE(map.GetString("small", &s));
  EXPECT_FALSE(map.GetDouble("mode", &d));
  std::vector<int64_t> v;
  EXPECT_TRUE(map.GetIntVector("ints", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{1, -2, 300}));
  EXPECT_TRUE(map.GetIntVector("mixed", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{4, 5, 6}));
  EXPECT_TRUE(map.GetIntVector("typed", &v));
  EXPECT_EQ(v, (std::vector<int64_t>{7, 70000}));
  EXPECT_FALSE(map.GetIntVector("floats", &v));  // 1.5 is no index
  EXPECT_FALSE(map.GetIntVector("small", &v));
  EXPECT_FALSE(map.Has("missing"));
  EXPECT_FALSE(map.GetInt("missing", &i));
  EXPECT_FALSE(map.Has("smal"));  // no prefix matches
  EXPECT_FALSE(map.Has("smallest"));
}

TEST(FlexMapTest, RejectsNonMaps) {
  FlexMap map;
  EXPECT_FALSE(map.Parse(nullptr, 0));
  const uint8_t tiny[] = {1, 2};
  EXPECT_FALSE(map.Parse(tiny, sizeof(tiny)));
  flexbuffers::Builder fbb;
  fbb.Int(42);
  fbb.Finish();
  EXPECT_FALSE(map.Parse(fbb.GetBuffer().data(), fbb.GetBuffer().size()));
  // A TfLitePoolParams struct is not a flexbuffer map either.
  TfLitePoolParams p{};
  p.padding = kTfLitePaddingSame;
  p.stride_width = p.stride_height = 2;
  EXPECT_FALSE(map.Parse(&p, sizeof(p)));
}

// Truncated and corrupted buffers: every getter either fails or returns
// something, never reads outside the buffer (each copy is exactly sized so
// that a sanitizer build sees any overrun).
TEST(FlexMapTest, SurvivesTruncationAndCorruption) {
  const std::vector<uint8_t> good = SampleFlex();
  auto probe = [](const std::vector<uint8_t>& bytes) {
    std::vector<uint8_t> copy(bytes);  // heap block of exactly this size
    FlexMap map;
    if (!map.Parse(copy.data(), copy.size())) return;
    int64_t i;
    double d;
    std::string s;
    std::vector<int64_t> v;
    for (const char* key : {"small", "wide", "huge", "unsigned", "half", "third", "whole", "flag",
                            "mode", "ints", "mixed", "typed", "floats"}) {
      map.Has(key);
      map.GetInt(key, &i);
      map.GetDouble(key, &d);
      map.GetString(key, &s);
      map.GetIntVector(key, &v);
    }
  };
  for (size_t n = 0; n < good.size(); ++n) {
    probe(std::vector<uint8_t>(good.end() - n, good.end()));  // keeps the root bytes
    probe(std::vector<uint8_t>(good.begin(), good.begin() + n));
  }
  for (size_t at = 0; at < good.size(); ++at) {
    for (uint8_t value : {uint8_t{0}, uint8_t{0x7f}, uint8_t{0xff}, uint8_t{0x27}, uint8_t{3}}) {
      std::vector<uint8_t> bad = good;
      bad[at] = value;
      probe(bad);
    }
  }
}

}  // namespace

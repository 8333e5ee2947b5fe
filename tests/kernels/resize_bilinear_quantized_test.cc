// RESIZE_BILINEAR on int8, uint8 and int16 tensors against a float reference
// computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

constexpr auto I32 = tflite::TensorType_INT32;
constexpr auto I8 = tflite::TensorType_INT8;
constexpr auto I16 = tflite::TensorType_INT16;

// ---- RESIZE_BILINEAR quantized ---------------------------------------------------------

tflite::BuiltinOptionsUnion ResizeOpts(bool align_corners, bool half_pixel_centers) {
  tflite::ResizeBilinearOptionsT o;
  o.align_corners = align_corners;
  o.half_pixel_centers = half_pixel_centers;
  return Opts(o);
}

// Bilinear resize of one-channel [h, w] data in double, with upstream's
// sampling rules; each value is rounded by `round`.
template <typename T>
std::vector<T> ReferenceResize(const std::vector<int>& in, int h, int w, int oh, int ow,
                               bool align, bool half, double (*round)(double)) {
  auto scale = [&](int i, int o) {
    return align && o > 1 ? double(i - 1) / (o - 1) : double(i) / o;
  };
  auto src = [&](int o, double sc) { return half ? (o + 0.5) * sc - 0.5 : o * sc; };
  std::vector<T> out;
  for (int y = 0; y < oh; ++y) {
    const double py = src(y, scale(h, oh));
    const int y0 = std::max(static_cast<int>(std::floor(py)), 0);
    const int y1 = std::min(static_cast<int>(std::ceil(py)), h - 1);
    const double dy = py - y0;
    for (int x = 0; x < ow; ++x) {
      const double px = src(x, scale(w, ow));
      const int x0 = std::max(static_cast<int>(std::floor(px)), 0);
      const int x1 = std::min(static_cast<int>(std::ceil(px)), w - 1);
      const double dx = px - x0;
      const double v = in[y0 * w + x0] * (1 - dy) * (1 - dx) + in[y0 * w + x1] * (1 - dy) * dx +
                       in[y1 * w + x0] * dy * (1 - dx) + in[y1 * w + x1] * dy * dx;
      out.push_back(static_cast<T>(round(v)));
    }
  }
  return out;
}

double RoundHalfAway(double v) { return std::round(v); }
double RoundHalfUp(double v) { return std::floor(v + 0.5); }

struct ResizeCase {
  int h, w, oh, ow;
  bool align, half;
};

template <typename T>
void CheckQuantizedResize(tflite::TensorType type, const std::vector<int>& values,
                          double (*round)(double)) {
  // Dyadic scales (1/2, 1/4, ...) keep upstream's 1/1024 fixed point exact.
  const std::vector<ResizeCase> cases = {{2, 2, 4, 4, false, true},
                                         {2, 2, 4, 4, false, false},
                                         {3, 3, 5, 5, true, false},
                                         {2, 4, 4, 2, false, true}};
  for (const ResizeCase& c : cases) {
    OneOpModel m;
    m.Input(type, {1, c.h, c.w, 1}, testing::Q(0.5f, 3));
    m.Const<int32_t>({2}, {c.oh, c.ow});
    m.Output(type, {1, c.oh, c.ow, 1}, testing::Q(0.5f, 3));
    m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, ResizeOpts(c.align, c.half));
    ASSERT_TRUE(m.Allocate()) << m.log();
    const std::vector<int> in(values.begin(), values.begin() + c.h * c.w);
    m.Set<T>(0, std::vector<T>(in.begin(), in.end()));
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<T>(), ReferenceResize<T>(in, c.h, c.w, c.oh, c.ow, c.align, c.half, round))
        << c.h << "x" << c.w << " -> " << c.oh << "x" << c.ow << " align " << c.align
        << " half " << c.half;
  }
}

TEST(ResizeBilinearQuantizedTest, Int8IntegerRounding) {
  CheckQuantizedResize<int8_t>(I8, {-100, 51, 20, 127, -128, 3, 7, -9, 64}, RoundHalfAway);
}

TEST(ResizeBilinearQuantizedTest, UInt8FloatWeights) {
  CheckQuantizedResize<uint8_t>(tflite::TensorType_UINT8, {0, 255, 17, 100, 3, 250, 1, 129, 64},
                                RoundHalfUp);
}

TEST(ResizeBilinearQuantizedTest, Int16IntegerRounding) {
  CheckQuantizedResize<int16_t>(I16, {-30000, 12345, -7, 32767, 0, 5, -5, 1001, -1001},
                                RoundHalfAway);
}

TEST(ResizeBilinearQuantizedTest, UnsupportedType) {
  OneOpModel m;
  m.Input(I32, {1, 2, 2, 1});
  m.Const<int32_t>({2}, {4, 4});
  m.Output(I32, {1, 4, 4, 1});
  m.Op(tflite::BuiltinOperator_RESIZE_BILINEAR, ResizeOpts(false, false));
  ExpectPrepareError(m, "RESIZE_BILINEAR: input type INT32 is not supported");
}


// INT16 LOGISTIC / TANH: int16_activation_test.cc.

}  // namespace
}  // namespace tflite_c

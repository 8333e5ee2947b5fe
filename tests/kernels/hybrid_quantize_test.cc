// Row quantization of the hybrid (dynamic-range) kernels with non-finite
// inputs: a NaN or infinite activation must give defined int8 values (NaN
// quantizes to 0, values never leave the int8 range) rather than an undefined
// float-to-int conversion.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "src/kernels/internal/hybrid_fc.h"

namespace tflite_c {
namespace kernels {
namespace internal {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(HybridQuantizeTest, SymmetricFiniteRow) {
  const std::vector<float> x = {-2.0f, 1.0f, 0.5f, 2.0f};
  std::vector<int8_t> q(x.size());
  float scale = 0;
  QuantizeRowSymmetric(x.data(), 4, q.data(), &scale);
  EXPECT_FLOAT_EQ(scale, 2.0f / 127.0f);
  EXPECT_EQ(q, (std::vector<int8_t>{-127, 64, 32, 127}));
}

TEST(HybridQuantizeTest, SymmetricNaNQuantizesToZero) {
  // max_element ignores nothing: NaN compares false, so the range comes from
  // the other values; the NaN itself must map to 0.
  const std::vector<float> x = {1.0f, kNaN, -1.0f};
  std::vector<int8_t> q(x.size(), 99);
  float scale = 0;
  QuantizeRowSymmetric(x.data(), 3, q.data(), &scale);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], 0);
  EXPECT_EQ(q[2], -127);
}

TEST(HybridQuantizeTest, SymmetricInfiniteRowStaysDefined) {
  const std::vector<float> x = {kInf, 1.0f, -kInf};
  std::vector<int8_t> q(x.size(), 99);
  float scale = 0;
  QuantizeRowSymmetric(x.data(), 3, q.data(), &scale);
  // The range is infinite: every finite value rounds to 0 and inf * 0 is
  // NaN, which also quantizes to 0.
  EXPECT_EQ(q, (std::vector<int8_t>{0, 0, 0}));
}

TEST(HybridQuantizeTest, AsymmetricNonFiniteRowsStayDefined) {
  for (const std::vector<float>& x : {std::vector<float>{kNaN, 1.0f, -3.0f},
                                      std::vector<float>{kInf, 0.5f},
                                      std::vector<float>{-kInf, kNaN, 2.0f}}) {
    std::vector<int8_t> q(x.size(), 99);
    float scale = 0;
    int32_t offset = 1000;
    QuantizeRowAsymmetric(x.data(), static_cast<int>(x.size()), q.data(), &scale, &offset);
    EXPECT_GE(offset, -128);
    EXPECT_LE(offset, 127);
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(x[i])) EXPECT_EQ(q[i], 0) << i;
    }
  }
}

TEST(HybridQuantizeTest, AsymmetricFiniteRowUsesZeroPoint) {
  const std::vector<float> x = {0.0f, 1.0f, 2.0f};
  std::vector<int8_t> q(x.size());
  float scale = 0;
  int32_t offset = 0;
  QuantizeRowAsymmetric(x.data(), 3, q.data(), &scale, &offset);
  EXPECT_FLOAT_EQ(scale, 2.0f / 255.0f);
  EXPECT_EQ(offset, -128);
  EXPECT_EQ(q, (std::vector<int8_t>{-128, -1, 127}));  // -128 + 127.5 rounds away from 0
}

}  // namespace
}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

// Quantized REDUCE_PROD (INT8, INT16) as upstream computes it: every product
// step and the final value are rescaled by in_scale / out_scale^(1/N) with
// the 64-bit requantization (16-bit multiplier), and unquantized INT8 is a
// plain wrapping integer product.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

tflite::BuiltinOptionsUnion Keep(bool keep) {
  tflite::ReducerOptionsT o;
  o.keep_dims = keep;
  return Opts(o);
}

TEST(ReduceProdQuantized, Int16CloseToRealProduct) {
  // 2 x 24 values in [0.8, 1.2]; product over the 24 of each row.
  std::vector<int16_t> q;
  const float in_scale = 1.5f / 32767;
  std::vector<double> want(2, 1.0);
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 24; ++i) {
      const int16_t v = static_cast<int16_t>(std::lround((0.8 + 0.4 * ((i * 7 + r * 3) % 24) / 23.0) / in_scale));
      q.push_back(v);
      want[r] *= v * static_cast<double>(in_scale);
    }
  const float out_scale = 8.f / 32767;
  OneOpModel m;
  m.Input(tflite::TensorType_INT16, {2, 24}, Q(in_scale, 0));
  m.Const<int32_t>({1}, {1});
  m.Output(tflite::TensorType_INT16, {2}, Q(out_scale, 0));
  m.Op(tflite::BuiltinOperator_REDUCE_PROD, Keep(false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int16_t>(0, q);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<int16_t> got = m.Get<int16_t>();
  ASSERT_EQ(got.size(), 2u);
  for (int r = 0; r < 2; ++r) {
    // The 16-bit step multiplier bounds the relative error by ~N * 2^-16.
    EXPECT_NEAR(got[r] * out_scale, want[r], want[r] * 2e-3 + out_scale) << "row " << r;
  }
}

TEST(ReduceProdQuantized, Int8ExactPowersOfTwo) {
  // Scales 1/64 in and 1/16 out, N = 2: step multiplier 1/64 / (1/16)^(1/2)
  // = 1/16 exactly, so (q0 - zp) * (q1 - zp) / 16 / 16 is exact here.
  OneOpModel m;
  m.Input(tflite::TensorType_INT8, {3, 2}, Q(1.f / 64, -2));
  m.Const<int32_t>({1}, {-1});
  m.Output(tflite::TensorType_INT8, {3, 1}, Q(1.f / 16, 3));
  m.Op(tflite::BuiltinOperator_REDUCE_PROD, Keep(true));
  ASSERT_TRUE(m.Allocate()) << m.log();
  // Real values: (1, 2) -> 2, (-0.5, 1) -> -0.5, (1.5, 1.5) -> 2.25
  m.Set<int8_t>(0, {62, 126, -34, 62, 94, 94});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{35, -5, 39}));
  EXPECT_EQ(m.Shape(), (std::vector<int>{3, 1}));
}

TEST(ReduceProdQuantized, UnquantizedInt8IsPlainProduct) {
  OneOpModel m;
  m.Input(tflite::TensorType_INT8, {2, 3});
  m.Const<int32_t>({1}, {1});
  m.Output(tflite::TensorType_INT8, {2});
  m.Op(tflite::BuiltinOperator_REDUCE_PROD, Keep(false));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {2, 3, -4, 16, 16, 1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-24, 0}));  // 256 wraps to 0
}

TEST(ReduceProdQuantized, Int16NeedsZeroPointZero) {
  OneOpModel m;
  m.Input(tflite::TensorType_INT16, {2, 3}, Q(0.01f, 5));
  m.Const<int32_t>({1}, {1});
  m.Output(tflite::TensorType_INT16, {2}, Q(0.01f, 0));
  m.Op(tflite::BuiltinOperator_REDUCE_PROD, Keep(false));
  ExpectPrepareError(m, "REDUCE_PROD: INT16 input and output must have zero point 0");
}

TEST(ReduceProdQuantized, UInt8IsNotSupported) {
  OneOpModel m;
  m.Input(tflite::TensorType_UINT8, {2, 3}, Q(0.01f, 5));
  m.Const<int32_t>({1}, {1});
  m.Output(tflite::TensorType_UINT8, {2}, Q(0.01f, 0));
  m.Op(tflite::BuiltinOperator_REDUCE_PROD, Keep(false));
  ExpectPrepareError(m, "not supported");
}

}  // namespace
}  // namespace tflite_c

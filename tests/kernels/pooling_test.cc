// Tests of MAX_POOL_2D and AVERAGE_POOL_2D. Each test builds a one-op model
// with ModelBuilder and runs it through the public C API, so it also covers
// loading, AllocateTensors (Prepare) and Invoke. Expected values are
// hand-computed; quantized cases check upstream's rounding rules bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ModelBuilder;

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::Q;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- pooling ----------------------------------------------------------------------

tflite::BuiltinOptionsUnion PoolOpts(tflite::Padding padding, int stride, int filter,
                                     tflite::ActivationFunctionType act =
                                         tflite::ActivationFunctionType_NONE) {
  tflite::Pool2DOptionsT o;
  o.padding = padding;
  o.stride_w = o.stride_h = stride;
  o.filter_width = o.filter_height = filter;
  o.fused_activation_function = act;
  return Opts(o);
}

TEST(PoolTest, MaxPoolFloatSamePadding) {
  OneOpModel m;
  m.Input(F32, {1, 3, 3, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_SAME, 2, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, -2, 3, -4, 5, -6, 7, -8, -9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (std::vector<int>{1, 2, 2, 1}));
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{5, 3, 7, -9}));
}

TEST(PoolTest, MaxPoolInt8WithRelu) {
  OneOpModel m;
  m.Input(I8, {1, 2, 2, 1}, Q(0.5f, 10));
  m.Output(I8, {1, 1, 1, 1}, Q(0.5f, 10));
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D,
       PoolOpts(tflite::Padding_VALID, 1, 2, tflite::ActivationFunctionType_RELU));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int8_t>(0, {-20, 3, 8, -1});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{10}));  // max 8 < zero point 10
}

TEST(PoolTest, AveragePoolFloatCountsOnlyValidTaps) {
  OneOpModel m;
  m.Input(F32, {1, 2, 2, 1});
  m.Output(F32, {1, 2, 2, 1});
  m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_SAME, 1, 2));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{2.5f, 3, 3.5f, 4}));
}

TEST(PoolTest, AveragePoolQuantizedRounding) {
  {
    // uint8: (1 + 2 + 2 + 2 + 2/2) / 4 → 7/4 rounds to 2 (half up).
    OneOpModel m;
    m.Input(U8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(U8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<uint8_t>(0, {1, 1, 2, 2});  // sum 6 / 4 = 1.5 → 2
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<uint8_t>(), (std::vector<uint8_t>{2}));
  }
  {
    // int8: negative sums round half away from zero: -6 / 4 = -1.5 → -2.
    OneOpModel m;
    m.Input(I8, {1, 2, 2, 1}, Q(1.0f, 0));
    m.Output(I8, {1, 1, 1, 1}, Q(1.0f, 0));
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int8_t>(0, {-1, -1, -2, -2});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int8_t>(), (std::vector<int8_t>{-2}));
  }
}

TEST(PoolTest, RejectsWrongRankAndType) {
  {
    OneOpModel m;
    m.Input(F32, {2, 2, 1});
    m.Output(F32, {1, 1, 1});
    m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "input must be 4-D");
  }
  {
    OneOpModel m;
    m.Input(I32, {1, 2, 2, 1});
    m.Output(I32, {1, 1, 1, 1});
    m.Op(tflite::BuiltinOperator_AVERAGE_POOL_2D, PoolOpts(tflite::Padding_VALID, 1, 2));
    ExpectPrepareError(m, "AVERAGE_POOL_2D: input type INT32 is not supported");
  }
}

// A hostile 2^30 x 2^30 SAME window covers the whole 4x4 image from every
// output position: each output is its channel's maximum (and the work
// estimate, taps times pixels, must not overflow).
TEST(PoolTest, HugeSameWindowCoversTheWholeImage) {
  OneOpModel m;
  m.Input(F32, {1, 4, 4, 2});
  m.Output(F32, {1, 4, 4, 2});
  m.Op(tflite::BuiltinOperator_MAX_POOL_2D, PoolOpts(tflite::Padding_SAME, 1, 1 << 30));
  ASSERT_TRUE(m.Allocate()) << m.log();
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i) in[i] = static_cast<float>((i * 7) % 32) - (i % 2 ? 100.f : 0.f);
  m.Set<float>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  float max0 = -1e30f, max1 = -1e30f;
  for (int i = 0; i < 32; i += 2) max0 = std::max(max0, in[i]);
  for (int i = 1; i < 32; i += 2) max1 = std::max(max1, in[i]);
  std::vector<float> want;
  for (int p = 0; p < 16; ++p) {
    want.push_back(max0);
    want.push_back(max1);
  }
  EXPECT_EQ(m.Get<float>(), want);
}

// The pooling definition, one channel at a time with taps in (ky, kx) order
// over the window clipped to the image, in double for the float kinds (the
// float kernel must equal its float rounding, checked to a few ulps below)
// and exactly for the integer ones.
struct PoolCase {
  int n, h, w, c, filter_h, filter_w, stride_h, stride_w;
  tflite::Padding padding;
};

std::vector<double> ReferencePool(const PoolCase& pc, tflite::BuiltinOperator op,
                                  const std::vector<double>& in, bool integer, int* out_h,
                                  int* out_w) {
  const bool same = pc.padding == tflite::Padding_SAME;
  *out_h = same ? (pc.h + pc.stride_h - 1) / pc.stride_h
                : (pc.h - pc.filter_h + pc.stride_h) / pc.stride_h;
  *out_w = same ? (pc.w + pc.stride_w - 1) / pc.stride_w
                : (pc.w - pc.filter_w + pc.stride_w) / pc.stride_w;
  const int pad_h = same ? std::max(0, (*out_h - 1) * pc.stride_h + pc.filter_h - pc.h) / 2 : 0;
  const int pad_w = same ? std::max(0, (*out_w - 1) * pc.stride_w + pc.filter_w - pc.w) / 2 : 0;
  std::vector<double> out;
  for (int b = 0; b < pc.n; ++b) {
    for (int oy = 0; oy < *out_h; ++oy) {
      for (int ox = 0; ox < *out_w; ++ox) {
        for (int ch = 0; ch < pc.c; ++ch) {
          double acc = op == tflite::BuiltinOperator_MAX_POOL_2D ? -1e300 : 0;
          int count = 0;
          for (int ky = 0; ky < pc.filter_h; ++ky) {
            for (int kx = 0; kx < pc.filter_w; ++kx) {
              const int y = oy * pc.stride_h - pad_h + ky, x = ox * pc.stride_w - pad_w + kx;
              if (y < 0 || y >= pc.h || x < 0 || x >= pc.w) continue;
              const double v = in[((size_t(b) * pc.h + y) * pc.w + x) * pc.c + ch];
              ++count;
              if (op == tflite::BuiltinOperator_MAX_POOL_2D) {
                acc = std::max(acc, v);
              } else if (op == tflite::BuiltinOperator_L2_POOL_2D) {
                acc += v * v;
              } else {
                acc += v;
              }
            }
          }
          if (op == tflite::BuiltinOperator_AVERAGE_POOL_2D) {
            // Integers: round half away from zero, as upstream's kernels.
            acc = integer ? std::round(acc / count) : acc / count;
          } else if (op == tflite::BuiltinOperator_L2_POOL_2D) {
            acc = std::sqrt(acc / count);
          }
          out.push_back(acc);
        }
      }
    }
  }
  return out;
}

// Many geometries (odd channel counts, strides above the window, SAME
// padding on every side), large enough that two threads split the rows, for
// every kind and element type, at one and two threads.
TEST(PoolTest, MatchesTheDefinitionAcrossShapesTypesAndThreads) {
  const PoolCase cases[] = {
      {1, 112, 112, 16, 2, 2, 2, 2, tflite::Padding_VALID},
      {1, 57, 43, 7, 3, 3, 2, 2, tflite::Padding_SAME},
      {2, 30, 31, 33, 3, 2, 1, 3, tflite::Padding_SAME},
      {1, 64, 64, 24, 5, 5, 3, 3, tflite::Padding_SAME},
      {3, 17, 9, 1, 4, 4, 4, 4, tflite::Padding_VALID},
      {1, 40, 40, 128, 7, 7, 1, 1, tflite::Padding_SAME},
  };
  const tflite::BuiltinOperator ops[] = {tflite::BuiltinOperator_MAX_POOL_2D,
                                         tflite::BuiltinOperator_AVERAGE_POOL_2D,
                                         tflite::BuiltinOperator_L2_POOL_2D};
  const tflite::TensorType types[] = {F32, I8, U8, I16};
  uint32_t seed = 12345;
  const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (const PoolCase& pc : cases) {
    for (tflite::BuiltinOperator op : ops) {
      for (tflite::TensorType type : types) {
        if (op == tflite::BuiltinOperator_L2_POOL_2D && type != F32) continue;
        const bool integer = type != F32;
        const size_t count = size_t(pc.n) * pc.h * pc.w * pc.c;
        std::vector<double> in(count);
        const int lo = type == I8 ? -128 : type == U8 ? 0 : -32768;
        const int span = type == I8 || type == U8 ? 256 : 65536;
        for (double& v : in) {
          v = integer ? lo + int(next() >> 8) % span
                    : static_cast<float>((int(next() >> 8) % 20001 - 10000) / 997.0);
        }
        int out_h, out_w;
        const std::vector<double> want = ReferencePool(pc, op, in, integer, &out_h, &out_w);
        for (int threads : {1, 2}) {
          SCOPED_TRACE(::testing::Message()
                       << tflite::EnumNameBuiltinOperator(op) << " " << tflite::EnumNameTensorType(type)
                       << " " << pc.n << "x" << pc.h << "x" << pc.w << "x" << pc.c << " filter "
                       << pc.filter_h << "x" << pc.filter_w << " stride " << pc.stride_h << "x"
                       << pc.stride_w << " threads " << threads);
          OneOpModel m;
          m.configure_options = [threads](TfLiteInterpreterOptions* o) {
            TfLiteInterpreterOptionsSetNumThreads(o, threads);
          };
          const auto q = Q(0.25f, type == I16 ? 0 : type == U8 ? 128 : -3);
          if (integer) {
            m.Input(type, {pc.n, pc.h, pc.w, pc.c}, q);
            m.Output(type, {pc.n, out_h, out_w, pc.c}, q);
          } else {
            m.Input(type, {pc.n, pc.h, pc.w, pc.c});
            m.Output(type, {pc.n, out_h, out_w, pc.c});
          }
          tflite::Pool2DOptionsT o;
          o.padding = pc.padding;
          o.stride_h = pc.stride_h;
          o.stride_w = pc.stride_w;
          o.filter_height = pc.filter_h;
          o.filter_width = pc.filter_w;
          m.Op(op, Opts(o));
          ASSERT_TRUE(m.Allocate()) << m.log();
          if (type == F32) {
            m.Set<float>(0, std::vector<float>(in.begin(), in.end()));
          } else if (type == I8) {
            m.Set<int8_t>(0, std::vector<int8_t>(in.begin(), in.end()));
          } else if (type == U8) {
            m.Set<uint8_t>(0, std::vector<uint8_t>(in.begin(), in.end()));
          } else {
            m.Set<int16_t>(0, std::vector<int16_t>(in.begin(), in.end()));
          }
          ASSERT_TRUE(m.Invoke()) << m.log();
          std::vector<double> got;
          if (type == F32) {
            for (float v : m.Get<float>()) got.push_back(v);
          } else if (type == I8) {
            for (int8_t v : m.Get<int8_t>()) got.push_back(v);
          } else if (type == U8) {
            for (uint8_t v : m.Get<uint8_t>()) got.push_back(v);
          } else {
            for (int16_t v : m.Get<int16_t>()) got.push_back(v);
          }
          ASSERT_EQ(got.size(), want.size());
          int bad = 0;
          for (size_t i = 0; i < want.size() && bad < 5; ++i) {
            // Float sums of up to 49 taps in float: a few ulps of the largest tap.
            const double tol = integer || op == tflite::BuiltinOperator_MAX_POOL_2D
                                   ? 0
                                   : 1e-5 * (1 + std::fabs(want[i]));
            if (std::fabs(got[i] - want[i]) > tol) {
              ADD_FAILURE() << "element " << i << ": got " << got[i] << ", want " << want[i];
              ++bad;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace tflite_c

// Hybrid (dynamic-range) BATCH_MATMUL: FLOAT32 lhs, INT8 rhs with one scale
// or one per output column, FLOAT32 output. The expected outputs are computed
// here independently with upstream's procedure: quantize every lhs row (K
// values) symmetrically, or asymmetrically with a zero point when
// asymmetric_quantize_inputs is set, sum the integer products
// (q - zero point) * rhs exactly, and scale by row scale x rhs scale. A looser
// check compares with a float matmul on the dequantized rhs, within a bound
// derived from the quantization step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/kernels/hybrid_test_util.h"
#include "tests/util/one_op_model.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using testing::Quantization;
using testing::QuantizeAsymmetric;
using testing::QuantizeSymmetric;
using testing::RowQ;
using namespace tflite;  // NOLINT(build/namespaces): schema enums and options

struct Case {
  std::vector<int> lhs_shape, rhs_shape;  // as stored (adj_x / adj_y applied by the op)
  bool adj_x = false, adj_y = false, asymmetric = false;
  std::vector<float> scales;  // one, or one per output column
  uint32_t seed = 1;
};

int Size(const std::vector<int>& s) {
  int n = 1;
  for (int d : s) n *= d;
  return n;
}

struct Expected {
  std::vector<int> shape;
  std::vector<float> exact;  // upstream's hybrid arithmetic
  std::vector<float> real;   // float matmul with the dequantized rhs
  std::vector<float> bound;  // |exact - real| allowed by the lhs quantization step
};

Expected Reference(const Case& c, const std::vector<float>& lhs, const std::vector<int8_t>& rhs) {
  const int lr = static_cast<int>(c.lhs_shape.size()), rr = static_cast<int>(c.rhs_shape.size());
  const int rank = std::max(lr, rr);
  auto dim = [&](const std::vector<int>& s, int d) {
    const int i = d - (rank - static_cast<int>(s.size()));
    return i < 0 ? 1 : s[i];
  };
  const int m = c.adj_x ? c.lhs_shape[lr - 1] : c.lhs_shape[lr - 2];
  const int k = c.adj_x ? c.lhs_shape[lr - 2] : c.lhs_shape[lr - 1];
  const int n = c.adj_y ? c.rhs_shape[rr - 2] : c.rhs_shape[rr - 1];
  Expected e;
  int batches = 1;
  for (int d = 0; d < rank - 2; ++d) {
    e.shape.push_back(std::max(dim(c.lhs_shape, d), dim(c.rhs_shape, d)));
    batches *= e.shape.back();
  }
  e.shape.push_back(m);
  e.shape.push_back(n);
  for (int b = 0; b < batches; ++b) {
    // Matrix indices of lhs and rhs for output batch b (broadcasting).
    int li = 0, ri = 0, rest = b, lstride = 1, rstride = 1;
    for (int d = rank - 3; d >= 0; --d) {
      const int idx = rest % e.shape[d];
      rest /= e.shape[d];
      if (dim(c.lhs_shape, d) != 1) li += idx * lstride;
      if (dim(c.rhs_shape, d) != 1) ri += idx * rstride;
      lstride *= dim(c.lhs_shape, d);
      rstride *= dim(c.rhs_shape, d);
    }
    const float* l = lhs.data() + static_cast<size_t>(li) * m * k;
    const int8_t* r = rhs.data() + static_cast<size_t>(ri) * k * n;
    for (int i = 0; i < m; ++i) {
      std::vector<float> row(k);
      for (int p = 0; p < k; ++p) row[p] = c.adj_x ? l[p * m + i] : l[i * k + p];
      const RowQ q = c.asymmetric ? QuantizeAsymmetric(row.data(), k)
                                  : QuantizeSymmetric(row.data(), k);
      for (int j = 0; j < n; ++j) {
        int32_t sum = 0;
        double real = 0, abs_w = 0;
        const float ws = c.scales.size() == 1 ? c.scales[0] : c.scales[j];
        for (int p = 0; p < k; ++p) {
          const int32_t w = c.adj_y ? r[j * k + p] : r[p * n + j];
          sum += (q.q[p] - q.zero_point) * w;
          real += static_cast<double>(row[p]) * w * ws;
          abs_w += std::fabs(static_cast<double>(w) * ws);
        }
        const float scale = c.scales.size() == 1 ? q.scale * c.scales[0] : q.scale * c.scales[j];
        e.exact.push_back(scale * static_cast<float>(sum));
        e.real.push_back(static_cast<float>(real));
        // Each lhs value is off by at most half a step (plus float slack).
        e.bound.push_back(static_cast<float>(0.5 * q.scale * abs_w * 1.001 + 1e-6));
      }
    }
  }
  return e;
}

std::vector<float> RandomFloats(int n, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pick(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = pick(rng);
  return v;
}

std::vector<int8_t> RandomInt8(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(-127, 127);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(pick(rng));
  return v;
}

BatchMatMulOptionsT Options(const Case& c) {
  BatchMatMulOptionsT o;
  o.adj_x = c.adj_x;
  o.adj_y = c.adj_y;
  o.asymmetric_quantize_inputs = c.asymmetric;
  return o;
}

Quantization RhsQuantization(const Case& c) {
  Quantization q;
  q.scale = c.scales;
  q.zero_point.assign(c.scales.size(), 0);
  const int rr = static_cast<int>(c.rhs_shape.size());
  q.quantized_dimension = c.adj_y ? rr - 2 : rr - 1;
  return q;
}

// Builds the one-op model with a constant (or fed) rhs, runs it and checks
// the output: equal to the exact reference up to float rounding of the final
// product, and within the quantization bound of the float matmul.
void RunCase(const Case& c, bool rhs_is_input) {
  const std::vector<float> lhs = RandomFloats(Size(c.lhs_shape), c.seed, -2, 2);
  const std::vector<int8_t> rhs = RandomInt8(Size(c.rhs_shape), c.seed + 100);
  const Expected e = Reference(c, lhs, rhs);
  OneOpModel m;
  m.Input(TensorType_FLOAT32, c.lhs_shape);
  if (rhs_is_input) {
    m.Input(TensorType_INT8, c.rhs_shape, RhsQuantization(c));
  } else {
    m.Const<int8_t>(c.rhs_shape, rhs, TensorType_INT8, RhsQuantization(c));
  }
  m.Output(TensorType_FLOAT32, e.shape);
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(Options(c)));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, lhs);
  if (rhs_is_input) m.Set<int8_t>(1, rhs);
  // Twice: the second run reuses the packed rhs (constant) or repacks it.
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Shape(), e.shape);
    const std::vector<float> got = m.Get<float>();
    ASSERT_EQ(got.size(), e.exact.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_FLOAT_EQ(got[i], e.exact[i]) << "element " << i;
      EXPECT_NEAR(got[i], e.real[i], e.bound[i]) << "element " << i;
    }
  }
}

TEST(BatchMatMulHybrid, SmallExactPerTensor) {
  // lhs row [1, -2, 0.5]: scale 2/127, q = [64, -127, 32] (63.5 rounds away
  // from zero). rhs [3 x 2] = [[1, 2], [3, 4], [5, 6]], scale 0.5.
  OneOpModel m;
  m.Input(TensorType_FLOAT32, {1, 3});
  m.Const<int8_t>({3, 2}, {1, 2, 3, 4, 5, 6}, TensorType_INT8, testing::Q(0.5f, 0));
  m.Output(TensorType_FLOAT32, {1, 2});
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1.0f, -2.0f, 0.5f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // sums: 64 - 381 + 160 = -157; 128 - 508 + 192 = -188.
  const float s = (2.0f / 127.0f) * 0.5f;
  const std::vector<float> got = m.Get<float>();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FLOAT_EQ(got[0], s * -157.0f);
  EXPECT_FLOAT_EQ(got[1], s * -188.0f);
}

TEST(BatchMatMulHybrid, SmallExactPerChannelAsymmetric) {
  // lhs row [0, 1, 2]: range [0, 2], scale 2/255, zero point -128,
  // q = [-128, round(-0.5) = -1, 127], q - zp = [0, 127, 255]; sums 1656 and
  // 2038. The all-zero second row gives exact zeros.
  Case c;
  c.lhs_shape = {2, 3};
  c.rhs_shape = {3, 2};
  c.asymmetric = true;
  c.scales = {0.5f, 0.25f};
  const std::vector<float> lhs = {0, 1, 2, 0, 0, 0};
  const std::vector<int8_t> rhs = {1, 2, 3, 4, 5, 6};
  const Expected e = Reference(c, lhs, rhs);
  OneOpModel m;
  m.Input(TensorType_FLOAT32, c.lhs_shape);
  m.Const<int8_t>(c.rhs_shape, rhs, TensorType_INT8, RhsQuantization(c));
  m.Output(TensorType_FLOAT32, {2, 2});
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(Options(c)));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, lhs);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<float> got = m.Get<float>();
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(got[i], e.exact[i]) << i;
  EXPECT_FLOAT_EQ(got[0], (2.0f / 255.0f) * 0.5f * 1656.0f);
  EXPECT_FLOAT_EQ(got[1], (2.0f / 255.0f) * 0.25f * 2038.0f);
  EXPECT_EQ(got[2], 0.0f);
  EXPECT_EQ(got[3], 0.0f);
  // Real values: [13, 16] * scales = [6.5, 4]; within one quantization step.
  EXPECT_NEAR(got[0], 6.5f, 0.05f);
  EXPECT_NEAR(got[1], 4.0f, 0.05f);
}

TEST(BatchMatMulHybrid, MatchesReferenceAcrossLayouts) {
  for (bool adj_x : {false, true}) {
    for (bool adj_y : {false, true}) {
      for (bool asymmetric : {false, true}) {
        for (bool per_channel : {false, true}) {
          Case c;
          c.adj_x = adj_x;
          c.adj_y = adj_y;
          c.asymmetric = asymmetric;
          const int m = 5, k = 7, n = 6;
          c.lhs_shape = adj_x ? std::vector<int>{2, k, m} : std::vector<int>{2, m, k};
          c.rhs_shape = adj_y ? std::vector<int>{2, n, k} : std::vector<int>{2, k, n};
          c.scales = per_channel ? std::vector<float>{0.01f, 0.02f, 0.005f, 0.03f, 0.015f, 0.008f}
                                 : std::vector<float>{0.0125f};
          c.seed = 10 + adj_x * 8 + adj_y * 4 + asymmetric * 2 + per_channel;
          SCOPED_TRACE("adj_x=" + std::to_string(adj_x) + " adj_y=" + std::to_string(adj_y) +
                       " asymmetric=" + std::to_string(asymmetric) +
                       " per_channel=" + std::to_string(per_channel));
          RunCase(c, /*rhs_is_input=*/false);
        }
      }
    }
  }
}

TEST(BatchMatMulHybrid, BroadcastsBatchDimensions) {
  Case c;
  c.lhs_shape = {2, 1, 3, 8};  // batch [2, 1]
  c.rhs_shape = {3, 8, 4};     // batch [3]: output batch [2, 3]
  c.scales = {0.02f};
  RunCase(c, false);
  Case d;
  d.lhs_shape = {4, 9};        // one lhs matrix for every rhs matrix
  d.rhs_shape = {2, 3, 5, 9};
  d.adj_y = true;
  d.asymmetric = true;
  d.scales = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
  RunCase(d, false);
}

TEST(BatchMatMulHybrid, NonConstantRhsIsRepackedEveryRun) {
  Case c;
  c.lhs_shape = {3, 4, 6};
  c.rhs_shape = {3, 6, 5};
  c.scales = {0.05f};
  RunCase(c, /*rhs_is_input=*/true);
  // Changing the fed rhs changes the result.
  OneOpModel m;
  m.Input(TensorType_FLOAT32, {1, 2});
  m.Input(TensorType_INT8, {2, 1}, testing::Q(1.0f, 0));
  m.Output(TensorType_FLOAT32, {1, 1});
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1.27f, 0.0f});  // q = [127, 0], scale 0.01
  m.Set<int8_t>(1, {2, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_FLOAT_EQ(m.Get<float>()[0], 0.01f * 254.0f);
  m.Set<int8_t>(1, {-5, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_FLOAT_EQ(m.Get<float>()[0], 0.01f * -635.0f);
}

TEST(BatchMatMulHybrid, LargerShapesPerChannel) {
  Case c;
  c.lhs_shape = {2, 33, 70};
  c.rhs_shape = {70, 19};
  c.scales = std::vector<float>(19);
  for (int j = 0; j < 19; ++j) c.scales[j] = 0.001f * (j + 1);
  RunCase(c, false);
}

// Runs a hybrid model through the C API with `threads` threads.
std::vector<float> RunWithThreads(const std::vector<uint8_t>& model, const std::vector<float>& x,
                                  int threads) {
  TfLiteModel* mdl = TfLiteModelCreate(model.data(), model.size());
  TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetNumThreads(o, threads);
  TfLiteInterpreterOptionsSetUseXNNPACK(o, false);
  TfLiteInterpreter* it = TfLiteInterpreterCreate(mdl, o);
  std::vector<float> out;
  if (it && TfLiteInterpreterAllocateTensors(it) == kTfLiteOk) {
    TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), x.data(),
                               x.size() * sizeof(float));
    if (TfLiteInterpreterInvoke(it) == kTfLiteOk) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, 0);
      out.resize(TfLiteTensorByteSize(t) / sizeof(float));
      TfLiteTensorCopyToBuffer(t, out.data(), out.size() * sizeof(float));
    }
  }
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(o);
  TfLiteModelDelete(mdl);
  return out;
}

TEST(BatchMatMulHybrid, ThreadsGiveIdenticalResults) {
  // Large enough that the kernel splits the rows across threads.
  testing::ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {3, 64, 256}, "x");
  const int w = b.AddConstant<int8_t>(TensorType_INT8, {256, 96}, RandomInt8(256 * 96, 5));
  b.SetQuantization(w, testing::Q(0.01f, 0));
  const int y = b.AddOutput(TensorType_FLOAT32, {3, 64, 96}, "y");
  b.AddOperator(BuiltinOperator_BATCH_MATMUL, {x, w}, {y}, BatchMatMulOptionsT());
  const std::vector<uint8_t> model = b.Finish();
  const std::vector<float> in = RandomFloats(3 * 64 * 256, 3, -1, 1);
  const std::vector<float> one = RunWithThreads(model, in, 1);
  const std::vector<float> two = RunWithThreads(model, in, 2);
  ASSERT_EQ(one.size(), size_t{3 * 64 * 96});
  EXPECT_EQ(one, two);
  Case c;
  c.lhs_shape = {3, 64, 256};
  c.rhs_shape = {256, 96};
  c.scales = {0.01f};
  const Expected e = Reference(c, in, RandomInt8(256 * 96, 5));
  for (size_t i = 0; i < two.size(); ++i) ASSERT_FLOAT_EQ(two[i], e.exact[i]) << i;
}

TEST(BatchMatMulHybrid, ResizedLhsIsPreparedAgain) {
  Case c;
  c.lhs_shape = {1, 2, 8};
  c.rhs_shape = {8, 3};
  c.scales = {0.02f, 0.03f, 0.04f};
  const std::vector<int8_t> rhs = RandomInt8(24, 77);
  testing::ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, c.lhs_shape, "x");
  const int w = b.AddConstant<int8_t>(TensorType_INT8, c.rhs_shape, rhs);
  b.SetQuantization(w, RhsQuantization(c));
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 2, 3}, "y");
  b.AddOperator(BuiltinOperator_BATCH_MATMUL, {x, w}, {y}, BatchMatMulOptionsT());
  const std::vector<uint8_t> model = b.Finish();
  TfLiteModel* mdl = TfLiteModelCreate(model.data(), model.size());
  TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetUseXNNPACK(o, false);
  TfLiteInterpreter* it = TfLiteInterpreterCreate(mdl, o);
  ASSERT_NE(it, nullptr);
  for (const std::vector<int>& shape : {std::vector<int>{1, 2, 8}, std::vector<int>{3, 5, 8}}) {
    c.lhs_shape = shape;
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, shape.data(), 3), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk);
    const std::vector<float> lhs = RandomFloats(Size(shape), 5, -2, 2);
    const Expected e = Reference(c, lhs, rhs);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), lhs.data(),
                                         lhs.size() * sizeof(float)),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk);
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, 0);
    std::vector<float> got(TfLiteTensorByteSize(t) / sizeof(float));
    ASSERT_EQ(got.size(), e.exact.size());
    TfLiteTensorCopyToBuffer(t, got.data(), got.size() * sizeof(float));
    for (size_t i = 0; i < got.size(); ++i) EXPECT_FLOAT_EQ(got[i], e.exact[i]) << i;
  }
  TfLiteInterpreterDelete(it);
  TfLiteInterpreterOptionsDelete(o);
  TfLiteModelDelete(mdl);
}

// Empty shapes: no inner dimension gives zero sums (outputs 0); no rows
// gives an empty output. Neither may touch absent data.
TEST(BatchMatMulHybrid, EmptyDimensions) {
  {
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {2, 0});
    m.Const<int8_t>({0, 3}, {}, TensorType_INT8, testing::Q(0.5f, 0));
    m.Output(TensorType_FLOAT32, {2, 3});
    m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), std::vector<float>(6, 0.0f));
  }
  {
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {0, 4});
    m.Const<int8_t>({4, 3}, std::vector<int8_t>(12, 1), TensorType_INT8, testing::Q(0.5f, 0));
    m.Output(TensorType_FLOAT32, {0, 3});
    BatchMatMulOptionsT o;
    o.asymmetric_quantize_inputs = true;
    m.Op(BuiltinOperator_BATCH_MATMUL, Opts(o));
    ASSERT_TRUE(m.Allocate()) << m.log();
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_TRUE(m.Get<float>().empty());
  }
}

TEST(BatchMatMulHybrid, RejectsUnsupportedQuantization) {
  struct Bad {
    const char* name;
    Quantization q;
    const char* message;
  };
  const std::vector<Bad> bad = {
      {"no scales", {}, "needs quantization scales"},
      {"scales along K", {{0.1f, 0.1f, 0.1f}, {0, 0, 0}, 0}, "only along the output columns"},
      {"zero scale", {{0.0f}, {0}, 0}, "must be positive"},
      {"zero point", {{0.1f}, {3}, 0}, "nonzero zero point is not supported"},
  };
  for (const Bad& c : bad) {
    SCOPED_TRACE(c.name);
    OneOpModel m;
    m.Input(TensorType_FLOAT32, {2, 3});
    m.Const<int8_t>({3, 2}, {1, 2, 3, 4, 5, 6}, TensorType_INT8, c.q);
    m.Output(TensorType_FLOAT32, {2, 2});
    m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
    testing::ExpectPrepareError(m, c.message);
  }
  // As many scales as output columns, but along a batch dimension.
  OneOpModel m;
  m.Input(TensorType_FLOAT32, {2, 2, 3});
  m.Const<int8_t>({2, 3, 2}, std::vector<int8_t>(12, 1), TensorType_INT8,
                  Quantization{{0.1f, 0.2f}, {0, 0}, 0});
  m.Output(TensorType_FLOAT32, {2, 2, 2});
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
  testing::ExpectPrepareError(m, "only along the output columns (2 scales, dimension 2)");
}

TEST(BatchMatMulHybrid, RejectsOtherOutputTypes) {
  OneOpModel m;
  m.Input(TensorType_FLOAT32, {2, 3});
  m.Const<int8_t>({3, 2}, {1, 2, 3, 4, 5, 6}, TensorType_INT8, testing::Q(0.5f, 0));
  m.Output(TensorType_INT8, {2, 2}, testing::Q(0.5f, 0));
  m.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
  testing::ExpectPrepareError(m, "unsupported types FLOAT32 x INT8 -> INT8");
  OneOpModel u;
  u.Input(TensorType_FLOAT32, {2, 3});
  u.Const<uint8_t>({3, 2}, {1, 2, 3, 4, 5, 6}, TensorType_UINT8, testing::Q(0.5f, 0));
  u.Output(TensorType_FLOAT32, {2, 2});
  u.Op(BuiltinOperator_BATCH_MATMUL, Opts(BatchMatMulOptionsT()));
  testing::ExpectPrepareError(u, "unsupported types FLOAT32 x UINT8");
}

}  // namespace
}  // namespace tflite_c

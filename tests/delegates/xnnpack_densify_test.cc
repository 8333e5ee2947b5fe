// XNNPACK delegate, sparse weights: a DENSIFY feeding a convolution is done
// once by the delegate, which takes it, and matches the builtin kernels; a
// DENSIFY with an undelegated consumer stays on the builtin kernels.
// Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/sparsity.h"
#include "tests/delegates/xnnpack_ops_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType_FLOAT32;

// ---- sparse weights (DENSIFY) ------------------------------------------------------------

// Sparse encoding of a [oc, 1, 1, ic] filter: rows dense, input channels CSR
// (in blocks of `block` along ic when block > 1). Returns the stored values.
std::vector<float> EncodeFilter(const std::vector<float>& dense, int oc, int ic, int block,
                                tflite::SparsityParametersT* s) {
  std::vector<float> values;
  std::vector<int32_t> segments = {0}, indices;
  for (int o = 0; o < oc; ++o) {
    for (int c = 0; c < ic / block; ++c) {
      bool any = false;
      for (int t = 0; t < block; ++t) any |= dense[o * ic + c * block + t] != 0.0f;
      if (!any) continue;
      indices.push_back(c);
      for (int t = 0; t < block; ++t) values.push_back(dense[o * ic + c * block + t]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  s->dim_metadata.push_back(Dense(oc));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Csr(segments, indices));
  if (block > 1) {
    s->traversal_order = {0, 1, 2, 3, 4};
    s->block_map = {3};
    s->dim_metadata.push_back(Dense(block));
  } else {
    s->traversal_order = {0, 1, 2, 3};
  }
  return values;
}

uint16_t ToHalf(float f) {  // normal range only, round to nearest even
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) == 0) return static_cast<uint16_t>(bits >> 16);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  uint32_t h = sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(h);
}

// x -> CONV_2D 1x1 (filter = DENSIFY(sparse constant) [-> DEQUANTIZE]) ->
// RELU -> y: the DENSIFY is done once by the delegate, which takes it.
std::vector<uint8_t> SparseConvNet(bool fp16, int block) {
  const int ic = 16, oc = 8;
  std::vector<float> dense = Random(oc * ic, 21, -1, 1);
  for (size_t i = 0; i < dense.size(); ++i)  // about 3/4 zeros (whole blocks)
    if ((i / static_cast<size_t>(block)) % 4 != 1) dense[i] = 0.0f;
  for (float& v : dense)  // stored values stay well inside float16's normal range
    if (v != 0.0f && std::fabs(v) < 1e-3f) v = 0.5f;
  auto s = std::make_unique<tflite::SparsityParametersT>();
  const std::vector<float> values = EncodeFilter(dense, oc, ic, block, s.get());
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, ic}, "x");
  int w;
  if (fp16) {
    std::vector<uint8_t> bytes(values.size() * 2);
    for (size_t i = 0; i < values.size(); ++i) {
      const uint16_t h = ToHalf(values[i]);
      std::memcpy(bytes.data() + 2 * i, &h, 2);
    }
    w = b.AddConstantBytes(tflite::TensorType_FLOAT16, {oc, 1, 1, ic}, bytes);
  } else {
    w = b.AddConstant<float>({oc, 1, 1, ic}, values);
  }
  b.tensor(w).sparsity = std::move(s);
  const int dense_w = b.AddTensor(fp16 ? tflite::TensorType_FLOAT16 : TensorType_FLOAT32,
                                  {oc, 1, 1, ic});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dense_w});
  int filter = dense_w;
  if (fp16) {
    filter = b.AddTensor(TensorType_FLOAT32, {oc, 1, 1, ic});
    b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {dense_w}, {filter}, 3);
  }
  const int bias = b.AddConstant<float>({oc}, Random(oc, 22, -0.5f, 0.5f));
  const int c = b.AddTensor(TensorType_FLOAT32, {1, 5, 5, oc});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, filter, bias}, {c}, conv);
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 5, 5, oc}, "y");
  b.AddOperator(tflite::BuiltinOperator_RELU, {c}, {y});
  return b.Finish();
}

TEST(XnnpackSparse, DensifiedWeightsMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (bool fp16 : {false, true}) {
    for (int block : {1, 4}) {
      SCOPED_TRACE(std::string(fp16 ? "float16" : "float32") + " block " + std::to_string(block));
      Expect e;  // everything, DENSIFY (and DEQUANTIZE) included, in one partition
      e.atol = 1e-4;
      CompareWithBuiltin(SparseConvNet(fp16, block), e);
    }
  }
}

TEST(XnnpackSparse, DensifyWithUndelegatedConsumerStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  // The densified tensor also feeds a builtin-only op (SIGN), so DENSIFY runs
  // on its builtin kernel; the convolution still uses the unpacked weights.
  ModelBuilder b;
  std::vector<float> dense = {0, 1.5f, 0, -2, 0, 0, 3, 0};
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  s->dim_metadata.push_back(Dense(2));
  s->dim_metadata.push_back(Csr({0, 2, 3}, {1, 3, 2}));
  const int x = b.AddInput(TensorType_FLOAT32, {3, 4}, "x");
  const int w = b.AddConstant<float>({2, 4}, {1.5f, -2, 3});
  b.tensor(w).sparsity = std::move(s);
  const int dw = b.AddTensor(TensorType_FLOAT32, {2, 4});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dw});
  const int y = b.AddOutput(TensorType_FLOAT32, {3, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, dw}, {y},
                tflite::FullyConnectedOptionsT());
  const int z = b.AddOutput(TensorType_FLOAT32, {2, 4}, "z");
  b.AddOperator(tflite::BuiltinOperator_SIGN, {dw}, {z});
  Expect e;
  e.plan_size = 3;  // DENSIFY, [FULLY_CONNECTED], SIGN
  CompareWithBuiltin(b.Finish(), e);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

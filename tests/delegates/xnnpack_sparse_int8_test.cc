// XNNPACK delegate: an int8 sparse constant behind DENSIFY feeding a
// quantized FULLY_CONNECTED (per-tensor weights) or CONV_2D (per-channel
// weights) is densified once by the delegate, as upstream does, and the
// DENSIFY goes with its consumer; results match the builtin kernels (which
// run the DENSIFY kernel) within one step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"
#include "tests/util/sparsity.h"

namespace tflite_c {
namespace testing {
namespace {

// [rows, cols] dense int8 matrix with about 3/4 zeros, rows dense and columns
// CSR; returns the stored values.
std::vector<int8_t> EncodeRows(const std::vector<int8_t>& dense, int rows, int cols,
                               tflite::SparsityParametersT* s) {
  std::vector<int8_t> values;
  std::vector<int32_t> segments = {0}, indices;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (dense[r * cols + c] == 0) continue;
      indices.push_back(c);
      values.push_back(dense[r * cols + c]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  s->dim_metadata.push_back(Dense(rows));
  s->dim_metadata.push_back(Csr(segments, indices));
  return values;
}

std::vector<int8_t> SparseValues(int n, uint32_t seed) {
  std::vector<int8_t> v = RandomValues<int8_t>(n, seed, -127, 127);
  for (int i = 0; i < n; ++i)
    if (i % 4 != 1 || v[i] == 0) v[i] = (i % 4 == 1) ? 5 : 0;
  return v;
}

std::vector<uint8_t> SparseFcModel() {
  const int ic = 24, oc = 10;
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_INT8, {3, ic}, "x");
  b.SetQuantization(x, {{0.04f}, {-2}});
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  const std::vector<int8_t> values = EncodeRows(SparseValues(oc * ic, 5), oc, ic, s.get());
  const int w = b.AddConstant<int8_t>({oc, ic}, values);
  b.tensor(w).sparsity = std::move(s);
  b.SetQuantization(w, {{0.01f}, {0}});
  const int dw = b.AddTensor(tflite::TensorType_INT8, {oc, ic});
  b.SetQuantization(dw, {{0.01f}, {0}});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dw});
  std::vector<int32_t> bias_values(oc);
  for (int i = 0; i < oc; ++i) bias_values[i] = 40 * i - 150;
  const int bias = b.AddConstant<int32_t>({oc}, bias_values);
  b.SetQuantization(bias, {{0.04f * 0.01f}, {0}});
  const int y = b.AddOutput(tflite::TensorType_INT8, {3, oc}, "y");
  b.SetQuantization(y, {{0.05f}, {4}});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, dw, bias}, {y},
                tflite::FullyConnectedOptionsT(), 4);
  return b.Finish();
}

std::vector<uint8_t> SparseConvModel() {
  const int ic = 8, oc = 4;
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_INT8, {1, 5, 5, ic}, "x");
  b.SetQuantization(x, {{0.03f}, {1}});
  // [oc, 1, 1, ic]: dims 0-2 dense, input channels CSR.
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1, 2, 3};
  const std::vector<int8_t> dense = SparseValues(oc * ic, 9);
  std::vector<int8_t> values;
  std::vector<int32_t> segments = {0}, indices;
  for (int o = 0; o < oc; ++o) {
    for (int c = 0; c < ic; ++c) {
      if (dense[o * ic + c] == 0) continue;
      indices.push_back(c);
      values.push_back(dense[o * ic + c]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  s->dim_metadata.push_back(Dense(oc));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Dense(1));
  s->dim_metadata.push_back(Csr(segments, indices));
  const std::vector<float> scales = {0.01f, 0.02f, 0.005f, 0.015f};
  const int w = b.AddConstant<int8_t>({oc, 1, 1, ic}, values);
  b.tensor(w).sparsity = std::move(s);
  b.SetQuantization(w, {scales, {0, 0, 0, 0}, 0});
  const int dw = b.AddTensor(tflite::TensorType_INT8, {oc, 1, 1, ic});
  b.SetQuantization(dw, {scales, {0, 0, 0, 0}, 0});
  b.AddOperator(tflite::BuiltinOperator_DENSIFY, {w}, {dw});
  std::vector<float> bias_scales;
  for (float v : scales) bias_scales.push_back(v * 0.03f);
  const int bias = b.AddConstant<int32_t>({oc}, {100, -50, 0, 700});
  b.SetQuantization(bias, {bias_scales, {0, 0, 0, 0}, 0});
  const int y = b.AddOutput(tflite::TensorType_INT8, {1, 5, 5, oc}, "y");
  b.SetQuantization(y, {{0.02f}, {-3}});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_VALID;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, dw, bias}, {y}, conv, 3);
  return b.Finish();
}

TEST(XnnpackSparseInt8, DensifiedFullyConnectedMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Tolerance t;  // DENSIFY and FULLY_CONNECTED in one delegate partition
  t.atol = 1;
  t.rtol = 0;
  t.min_distinct = 10;
  RunBothAndCompare(SparseFcModel(), t);
}

TEST(XnnpackSparseInt8, DensifiedPerChannelConvMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Tolerance t;
  t.atol = 1;
  t.rtol = 0;
  t.min_distinct = 10;
  RunBothAndCompare(SparseConvModel(), t);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

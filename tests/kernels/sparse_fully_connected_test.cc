// FULLY_CONNECTED with sparse FLOAT32 weights (src/kernels/internal/
// sparse_fully_connected): CSR and 1xk block-sparse encodings, checked
// against the same weights densified by hand, and malformed encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/sparsity.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace {

using tflite_c::testing::CaptureError;
using testing::Csr;
using testing::Dense;
using testing::OneOpModel;
using testing::Opts;

constexpr auto F32 = tflite::TensorType_FLOAT32;

// Encodes a dense [units, depth] matrix with 1 x `block` blocks along the
// depth (block 0: plain CSR), keeping blocks with any non-zero value.
struct Encoded {
  std::vector<float> values;
  std::unique_ptr<tflite::SparsityParametersT> sparsity;
};

Encoded Encode(const std::vector<float>& dense, int units, int depth, int block) {
  Encoded e;
  const int b = block > 0 ? block : 1;
  std::vector<int32_t> segments = {0}, indices;
  for (int u = 0; u < units; ++u) {
    for (int c = 0; c < depth / b; ++c) {
      bool any = false;
      for (int t = 0; t < b; ++t) any |= dense[u * depth + c * b + t] != 0.f;
      if (!any) continue;
      indices.push_back(c);
      for (int t = 0; t < b; ++t) e.values.push_back(dense[u * depth + c * b + t]);
    }
    segments.push_back(static_cast<int32_t>(indices.size()));
  }
  e.sparsity = std::make_unique<tflite::SparsityParametersT>();
  e.sparsity->dim_metadata.push_back(Dense(units));
  e.sparsity->dim_metadata.push_back(Csr(segments, indices));
  if (block > 0) {
    e.sparsity->traversal_order = {0, 1, 2};
    e.sparsity->block_map = {1};
    e.sparsity->dim_metadata.push_back(Dense(block));
  } else {
    e.sparsity->traversal_order = {0, 1};
  }
  return e;
}

std::vector<float> Reference(const std::vector<float>& in, const std::vector<float>& w,
                             const std::vector<float>& bias, int batches, int units, int depth,
                             bool relu) {
  std::vector<float> out(batches * units);
  for (int b = 0; b < batches; ++b) {
    for (int u = 0; u < units; ++u) {
      float acc = bias.empty() ? 0.f : bias[u];
      for (int k = 0; k < depth; ++k) acc += in[b * depth + k] * w[u * depth + k];
      out[b * units + u] = relu && acc < 0 ? 0.f : acc;
    }
  }
  return out;
}

struct Case {
  const char* name;
  int block;  // 0: plain CSR
  int units, depth, batches;
  bool with_bias, relu;
};

class SparseFullyConnectedTest : public ::testing::TestWithParam<Case> {};

TEST_P(SparseFullyConnectedTest, MatchesDenseWeights) {
  const Case& c = GetParam();
  // Deterministic weights, about two thirds zero (in whole blocks and not).
  std::vector<float> w(c.units * c.depth);
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = (i * 7 + i / 5) % 3 == 0 ? 0.25f * static_cast<float>(static_cast<int>(i % 11) - 5) : 0.f;
  }
  if (c.block > 0) {  // one all-zero block row and one fully dense row
    for (int k = 0; k < c.depth; ++k) w[k] = 0.f;
    for (int k = 0; k < c.depth; ++k) w[(c.units - 1) * c.depth + k] = 0.5f + k;
  }
  std::vector<float> bias;
  if (c.with_bias) {
    for (int u = 0; u < c.units; ++u) bias.push_back(0.5f * u - 1);
  }
  std::vector<float> in(c.batches * c.depth);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.7f * i);

  Encoded e = Encode(w, c.units, c.depth, c.block);
  OneOpModel m;
  m.Input(F32, {c.batches, c.depth});
  const int wt = m.Const<float>({c.units, c.depth}, e.values);
  m.builder().tensor(wt).sparsity = std::move(e.sparsity);
  if (c.with_bias) m.Const<float>({c.units}, bias);
  m.Output(F32, {c.batches, c.units});
  tflite::FullyConnectedOptionsT o;
  o.fused_activation_function =
      c.relu ? tflite::ActivationFunctionType_RELU : tflite::ActivationFunctionType_NONE;
  m.Op(tflite::BuiltinOperator_FULLY_CONNECTED, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<float> expected =
      Reference(in, w, bias, c.batches, c.units, c.depth, c.relu);
  const std::vector<float> got = m.Get<float>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-4f) << i;
}

INSTANTIATE_TEST_SUITE_P(
    Encodings, SparseFullyConnectedTest,
    ::testing::Values(Case{"Csr", 0, 5, 12, 3, true, false},
                      Case{"CsrRelu", 0, 4, 7, 2, false, true},
                      Case{"Block1x4", 4, 6, 16, 2, true, false},
                      Case{"Block1x4Relu", 4, 3, 8, 4, true, true},
                      Case{"Block1x2", 2, 5, 6, 1, false, false}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// FC over [[1, 0, 2, 0], [0, 3, 0, 4]] with `sparsity` and stored `values`;
// expects loading or AllocateTensors to fail with `message` in the log.
void ExpectRejected(std::unique_ptr<tflite::SparsityParametersT> sparsity,
                    std::vector<float> values, const std::string& message,
                    tflite::TensorType io_type = F32) {
  testing::ModelBuilder b;
  const int x = b.AddInput(io_type, {1, 4}, "x");
  const int w = b.AddConstant<float>({2, 4}, values, "w");
  b.tensor(w).sparsity = std::move(sparsity);
  const int y = b.AddOutput(io_type, {1, 2}, "y");
  if (io_type == tflite::TensorType_INT8) {
    b.SetQuantization(x, testing::Q(0.5f, 0));
    b.SetQuantization(y, testing::Q(0.5f, 0));
  }
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, w}, {y},
                tflite::FullyConnectedOptionsT{});
  const std::vector<uint8_t> bytes = b.Finish();
  std::string log;
  TfLiteModel* model = TfLiteModelCreateWithErrorReporter(bytes.data(), bytes.size(), CaptureError,
                                                          &log);
  bool ok = model != nullptr;
  if (ok) {
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &log);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
    ok = interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk;
    TfLiteInterpreterDelete(interpreter);
    TfLiteInterpreterOptionsDelete(options);
  }
  TfLiteModelDelete(model);
  EXPECT_FALSE(ok);
  EXPECT_NE(log.find(message), std::string::npos) << log;
}

std::unique_ptr<tflite::SparsityParametersT> RowCsr(std::vector<int32_t> segments,
                                                    std::vector<int32_t> indices) {
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  s->dim_metadata.push_back(Dense(2));
  s->dim_metadata.push_back(Csr(std::move(segments), std::move(indices)));
  return s;
}

TEST(SparseFullyConnectedTest, RejectsMalformedEncodings) {
  // Caught by the model loader, or by the kernel: the message says so.
  ExpectRejected(RowCsr({0, 2, 4}, {0, 9, 1, 3}), {1, 2, 3, 4}, "nvalid sparsity parameters");
  ExpectRejected(RowCsr({0, 3, 2}, {0, 2, 1, 3}), {1, 2, 3, 4}, "nvalid sparsity parameters");
  // More values needed than stored.
  ExpectRejected(RowCsr({0, 2, 4}, {0, 2, 1, 3}), {1, 2, 3}, "sparse values");
}

TEST(SparseFullyConnectedTest, RejectsUnsupportedEncodings) {
  // Column-major CSR: a valid encoding upstream's kernel does not run either.
  {
    auto s = std::make_unique<tflite::SparsityParametersT>();
    s->traversal_order = {1, 0};
    s->dim_metadata.push_back(Dense(4));
    s->dim_metadata.push_back(Csr({0, 1, 2, 3, 4}, {0, 1, 0, 1}));
    ExpectRejected(std::move(s), {1, 3, 2, 4}, "sparse weight format not supported");
  }
  // 2x1 blocks (along the units).
  {
    auto s = std::make_unique<tflite::SparsityParametersT>();
    s->traversal_order = {0, 1, 2};
    s->block_map = {0};
    s->dim_metadata.push_back(Dense(1));
    s->dim_metadata.push_back(Csr({0, 4}, {0, 1, 2, 3}));
    s->dim_metadata.push_back(Dense(2));
    ExpectRejected(std::move(s), {1, 0, 0, 3, 2, 0, 0, 4}, "sparse weight format not supported");
  }
  // Integer activations.
  ExpectRejected(RowCsr({0, 2, 4}, {0, 2, 1, 3}), {1, 2, 3, 4}, "not supported",
                 tflite::TensorType_INT8);
}

}  // namespace
}  // namespace tflite_c

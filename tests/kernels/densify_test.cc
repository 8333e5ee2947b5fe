// Tests of DENSIFY (register_control_flow.cc): CSR and block-sparse encodings
// and the refused ones. Each test builds a multi-subgraph model with
// ModelBuilder and runs it through the public C API.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"
#include "tests/util/model_runner.h"
#include "tests/util/sparsity.h"
#include "tests/util/tensor_type_names.h"
#include "tests/kernels/control_flow_test_util.h"

namespace tflite_c {
namespace {

using testing::Csr;
using testing::Dense;
using testing::ExpectAllocateError;
using testing::ModelBuilder;
using tflite::BuiltinOperator;

using Runner = testing::ControlFlowRunner;
using namespace testing::names;  // NOLINT(build/namespaces)

// ---- DENSIFY
// ----------------------------------------------------------------------------

// main: y = DENSIFY(sparse constant of `shape`) + x.
ModelBuilder Densify(const std::vector<int>& shape, const std::vector<float>& values,
                     std::unique_ptr<tflite::SparsityParametersT> sparsity) {
  ModelBuilder b;
  const int x = b.AddInput(F32, shape, "x");
  const int w = b.AddConstant<float>(shape, values, "sparse");
  b.tensor(w).sparsity = std::move(sparsity);
  const int dense = b.AddTensor(F32, shape, "dense");
  const int y = b.AddOutput(F32, shape, "y");
  b.AddOperator(BuiltinOperator::BuiltinOperator_DENSIFY, {w}, {dense});
  b.AddOperator(BuiltinOperator::BuiltinOperator_ADD, {dense, x}, {y}, tflite::AddOptionsT{});
  return b;
}

TEST(DensifyTest, CsrMatrix) {
  // [[0, 1, 0], [2, 0, 3]]: rows dense, columns CSR.
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1};
  s->dim_metadata.push_back(Dense(2));
  s->dim_metadata.push_back(Csr({0, 1, 3}, {1, 0, 2}));
  Runner r(Densify({2, 3}, {1, 2, 3}, std::move(s)));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, {0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{0, 1, 0, 2, 0, 3}));
  r.Set<float>(0, {1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{1, 2, 1, 3, 1, 4}));
}

TEST(DensifyTest, BlockSparseMatrix) {
  // [[0, 0, 5, 6], [7, 8, 0, 0]] in 1x2 blocks along dimension 1.
  auto s = std::make_unique<tflite::SparsityParametersT>();
  s->traversal_order = {0, 1, 2};
  s->block_map = {1};
  s->dim_metadata.push_back(Dense(2));
  s->dim_metadata.push_back(Csr({0, 1, 2}, {1, 0}));
  s->dim_metadata.push_back(Dense(2));
  Runner r(Densify({2, 4}, {5, 6, 7, 8}, std::move(s)));
  ASSERT_TRUE(r.Allocate()) << r.log();
  r.Set<float>(0, std::vector<float>(8, 0.f));
  ASSERT_TRUE(r.Invoke()) << r.log();
  EXPECT_EQ(r.Get<float>(), (std::vector<float>{0, 0, 5, 6, 7, 8, 0, 0}));
}

// The model checker refuses these at load time; DENSIFY checks again.
TEST(DensifyTest, RejectsMalformedEncodings) {
  {
    auto s = std::make_unique<tflite::SparsityParametersT>();
    s->traversal_order = {0, 1};
    s->dim_metadata.push_back(Dense(2));
    s->dim_metadata.push_back(Csr({0, 1, 3}, {1, 0, 9}));  // column 9 of 3
    ExpectAllocateError(Densify({2, 3}, {1, 2, 3}, std::move(s)), "invalid sparsity parameters");
  }
  {
    auto s = std::make_unique<tflite::SparsityParametersT>();
    s->traversal_order = {0, 1};
    s->dim_metadata.push_back(Dense(2));
    s->dim_metadata.push_back(Csr({0, 2, 3}, {0, 1, 2}));  // 3 values needed, 2 stored
    ExpectAllocateError(Densify({2, 3}, {1, 2}, std::move(s)),
                        "needs 12 bytes for its sparse values");
  }
  {
    auto s = std::make_unique<tflite::SparsityParametersT>();
    s->traversal_order = {0, 0};
    s->dim_metadata.push_back(Dense(2));
    s->dim_metadata.push_back(Dense(3));
    ExpectAllocateError(Densify({2, 3}, {1, 2, 3, 4, 5, 6}, std::move(s)),
                        "invalid sparsity parameters");
  }
}

}  // namespace
}  // namespace tflite_c

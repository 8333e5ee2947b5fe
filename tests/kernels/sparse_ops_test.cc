// Tests of the sparse-input ops SPARSE_TO_DENSE and EMBEDDING_LOOKUP_SPARSE.
// Expected values are computed by hand in the comments next to them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- SPARSE_TO_DENSE ---------------------------------------------------------------------

tflite::BuiltinOptionsUnion SparseOpts(bool validate = true) {
  tflite::SparseToDenseOptionsT o;
  o.validate_indices = validate;
  return Opts(o);
}

// indices (constant, of type I), output_shape (constant INT32), values and
// default_value (inputs of type T).
template <typename T, typename I = int32_t>
std::vector<T> SparseToDense(const Shape& indices_shape, const std::vector<I>& indices,
                             const Ints& output_shape, const Shape& values_shape,
                             const std::vector<T>& values, T default_value, int version = 1) {
  OneOpModel m;
  m.Const<I>(indices_shape, indices);
  m.Const<int32_t>({static_cast<int>(output_shape.size())}, output_shape);
  m.Input(testing::TensorTypeOf<T>(), values_shape);
  m.Input(testing::TensorTypeOf<T>(), {});
  m.Output(testing::TensorTypeOf<T>(), Shape(output_shape.begin(), output_shape.end()));
  m.Op(tflite::BuiltinOperator_SPARSE_TO_DENSE, SparseOpts(), version);
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, values);
  m.Set<T>(1, {default_value});
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), Shape(output_shape.begin(), output_shape.end()));
  return m.Get<T>();
}

TEST(SparseToDenseTest, ScalarIndex) {
  EXPECT_EQ(SparseToDense<float>({}, {3}, {5}, {}, {7.0f}, 0.0f), (Floats{0, 0, 0, 7, 0}));
}

TEST(SparseToDenseTest, VectorIndicesEveryValueType) {
  EXPECT_EQ(SparseToDense<float>({2}, {1, 3}, {5}, {2}, {7.5f, 9}, -1.0f),
            (Floats{-1, 7.5f, -1, 9, -1}));
  EXPECT_EQ(SparseToDense<int32_t>({2}, {1, 3}, {5}, {2}, {7, 9}, 0), (Ints{0, 7, 0, 9, 0}));
  EXPECT_EQ((SparseToDense<int64_t, int64_t>({2}, {4, 0}, {5}, {2}, {int64_t{1} << 40, -2}, 3)),
            (std::vector<int64_t>{-2, 3, 3, 3, int64_t{1} << 40}));
  EXPECT_EQ(SparseToDense<int8_t>({2}, {1, 3}, {5}, {2}, {-7, 9}, 1, 3),
            (std::vector<int8_t>{1, -7, 1, 9, 1}));
  EXPECT_EQ(SparseToDense<uint8_t>({2}, {1, 3}, {5}, {2}, {200, 9}, 1, 3),
            (std::vector<uint8_t>{1, 200, 1, 9, 1}));
}

TEST(SparseToDenseTest, CoordinateRowsIntoA3DOutput) {
  // indices [[0,0,0], [1,2,1], [2,0,1]] into [3,3,3]: flat positions 0, 9+6+1=16, 18+1=19.
  std::vector<float> expected(27, -1.0f);
  expected[0] = 2;
  expected[16] = 4;
  expected[19] = 6;
  EXPECT_EQ((SparseToDense<float, int64_t>({3, 3}, {0, 0, 0, 1, 2, 1, 2, 0, 1}, {3, 3, 3}, {3},
                                            {2, 4, 6}, -1.0f)),
            expected);
}

TEST(SparseToDenseTest, ScalarValueGoesToEveryIndexAndLaterIndicesWin) {
  EXPECT_EQ(SparseToDense<int32_t>({3}, {4, 0, 4}, {5}, {}, {8}, 1), (Ints{8, 1, 1, 1, 8}));
  EXPECT_EQ(SparseToDense<int32_t>({3}, {4, 0, 4}, {5}, {3}, {5, 6, 7}, 1), (Ints{6, 1, 1, 1, 7}));
}

TEST(SparseToDenseTest, RuntimeOutputShapeAndHostileIndices) {
  OneOpModel m;
  m.Input(I32, {2, 2});  // indices
  m.Input(I64, {2});     // output_shape
  m.Const<float>({2}, {1, 2});
  m.Const<float>({}, {0});
  m.Output(F32, {});
  m.Op(tflite::BuiltinOperator_SPARSE_TO_DENSE, SparseOpts(), 2);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {0, 1, 1, 2});
  m.Set<int64_t>(1, {2, 3});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), (Shape{2, 3}));
  EXPECT_EQ(m.Get<float>(), (Floats{0, 1, 0, 0, 0, 2}));
  for (const Ints& bad : {Ints{0, 3, 0, 0}, Ints{-1, 0, 0, 0}, Ints{2, 0, 0, 0}}) {
    m.Set<int32_t>(0, bad);
    EXPECT_FALSE(m.Invoke());
    EXPECT_NE(m.log().find("SPARSE_TO_DENSE: index"), std::string::npos) << m.log();
  }
  m.Set<int32_t>(0, {0, 0, 0, 0});
  m.Set<int64_t>(1, {2, -3});
  EXPECT_FALSE(m.Invoke());
  EXPECT_NE(m.log().find("negative size -3"), std::string::npos) << m.log();
}

TEST(SparseToDenseTest, Errors) {
  struct Case {
    Shape indices_shape;
    int shape_entries;
    Shape values_shape;
    tflite::TensorType values_type, default_type;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{1, 1, 1}, 1, {1}, F32, F32, "indices must be 0-D, 1-D or 2-D"},
      {{2}, 2, {2}, F32, F32, "output_shape has 2 entries but each index has 1 coordinates"},
      {{2, 3}, 2, {2}, F32, F32, "output_shape has 2 entries but each index has 3 coordinates"},
      {{2}, 1, {3}, F32, F32, "values must be a scalar or hold one value per index (2)"},
      {{2}, 1, {2, 1}, F32, F32, "values must be a scalar or hold one value per index"},
      {{2}, 1, {2}, F32, I32, "values type FLOAT32 does not match default_value type INT32"},
      {{2}, 1, {2}, I16, I16, "SPARSE_TO_DENSE: values type INT16 is not supported"},
  };
  for (const Case& c : cases) {
    OneOpModel m;
    int n = 1;
    for (int d : c.indices_shape) n *= d;
    m.Const<int32_t>(c.indices_shape, Ints(n, 0));
    m.Const<int32_t>({c.shape_entries}, Ints(c.shape_entries, 4));
    m.Input(c.values_type, c.values_shape);
    m.Input(c.default_type, {});
    m.Output(c.values_type, Shape(c.shape_entries, 4));
    m.Op(tflite::BuiltinOperator_SPARSE_TO_DENSE, SparseOpts());
    ExpectPrepareError(m, c.message);
  }
}

// ---- EMBEDDING_LOOKUP_SPARSE -----------------------------------------------------------

tflite::BuiltinOptionsUnion CombinerOpts(tflite::CombinerType combiner) {
  tflite::EmbeddingLookupSparseOptionsT o;
  o.combiner = combiner;
  return Opts(o);
}

// params row r is {10r, 10r + 1}.
const Floats kParams = {0, 1, 10, 11, 20, 21, 30, 31};

struct LookupModel {
  OneOpModel m;
  LookupModel(tflite::CombinerType combiner, int entries, int lookup_rank,
              const Shape& params_shape = {4, 2}) {
    m.Input(I32, {entries});               // ids
    m.Input(I32, {entries, lookup_rank});  // indices
    m.Input(I32, {lookup_rank});           // dense_shape
    m.Input(F32, {entries});               // weights
    m.Const<float>(params_shape, kParams);
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE, CombinerOpts(combiner));
  }
  bool Run(const Ints& ids, const Ints& indices, const Ints& dense_shape, const Floats& weights) {
    m.Set<int32_t>(0, ids);
    m.Set<int32_t>(1, indices);
    m.Set<int32_t>(2, dense_shape);
    m.Set<float>(3, weights);
    return m.Invoke();
  }
};

// Entries: [0,0] id 1 w 2, [0,1] id 3 w 0.5, [1,0] id 0 w 1, [2,3] id 1 w 3.
const Ints kIds = {1, 3, 0, 1};
const Ints kIndices = {0, 0, 0, 1, 1, 0, 2, 3};
const Floats kWeights = {2.0f, 0.5f, 1.0f, 3.0f};

TEST(EmbeddingLookupSparseTest, Combiners) {
  // Weighted sums: row 0 = 2*{10,11} + 0.5*{30,31} = {35, 37.5}; row 1 = {0, 1};
  // row 2 = 3*{10,11} = {30, 33}; row 3 has no entry and stays 0.
  const float sqrtn0 = std::sqrt(4.25f);  // sqrt(2^2 + 0.5^2)
  struct Case {
    tflite::CombinerType combiner;
    Floats expected;
  };
  for (const Case& c : {Case{tflite::CombinerType_SUM, {35, 37.5f, 0, 1, 30, 33, 0, 0}},
                        Case{tflite::CombinerType_MEAN, {14, 15, 0, 1, 10, 11, 0, 0}},
                        Case{tflite::CombinerType_SQRTN,
                             {35 / sqrtn0, 37.5f / sqrtn0, 0, 1, 10, 11, 0, 0}}}) {
    LookupModel model(c.combiner, 4, 2);
    ASSERT_TRUE(model.m.Allocate()) << model.m.log();
    ASSERT_TRUE(model.Run(kIds, kIndices, {4, 5}, kWeights)) << model.m.log();
    EXPECT_EQ(model.m.Shape(), (Shape{4, 2}));
    const Floats got = model.m.Get<float>();
    ASSERT_EQ(got.size(), c.expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], c.expected[i], 1e-5f) << "combiner " << c.combiner << " at " << i;
    }
  }
}

TEST(EmbeddingLookupSparseTest, Rank3ParamsAndLookupRank3) {
  // dense_shape [2, 2, 9]: output rows are (i0, i1) flattened; params [4, 1, 2].
  LookupModel model(tflite::CombinerType_SUM, 3, 3, {4, 1, 2});
  ASSERT_TRUE(model.m.Allocate()) << model.m.log();
  ASSERT_TRUE(model.Run({2, 1, 3}, {1, 0, 4, 1, 0, 7, 0, 1, 0}, {2, 2, 9}, {1, 2, 1}))
      << model.m.log();
  EXPECT_EQ(model.m.Shape(), (Shape{2, 2, 1, 2}));
  // row (1,0) = {20,21} + 2*{10,11}; row (0,1) = {30,31}.
  EXPECT_EQ(model.m.Get<float>(), (Floats{0, 0, 30, 31, 40, 43, 0, 0}));
}

// Upstream combines runs of consecutive entries: a row that comes back after
// another row is divided again when its second run ends.
TEST(EmbeddingLookupSparseTest, SplitRunsAreDividedPerRunAsUpstream) {
  LookupModel model(tflite::CombinerType_MEAN, 3, 2);
  ASSERT_TRUE(model.m.Allocate()) << model.m.log();
  ASSERT_TRUE(model.Run({1, 0, 1}, {0, 0, 1, 0, 0, 1}, {2, 3}, {2, 1, 2})) << model.m.log();
  // row 0: (2*{10,11}) / 2 = {10,11}, then + 2*{10,11} = {30,33}, / 2 = {15, 16.5}.
  EXPECT_EQ(model.m.Get<float>(), (Floats{15, 16.5f, 0, 1}));
}

TEST(EmbeddingLookupSparseTest, HostileValuesFailInvoke) {
  LookupModel model(tflite::CombinerType_SUM, 4, 2);
  ASSERT_TRUE(model.m.Allocate()) << model.m.log();
  EXPECT_FALSE(model.Run({1, 3, 4, 1}, kIndices, {4, 5}, kWeights));
  EXPECT_NE(model.m.log().find("id 4 is out of range [0, 4)"), std::string::npos)
      << model.m.log();
  EXPECT_FALSE(model.Run(kIds, kIndices, {2, 5}, kWeights));  // entry 3 is in row 2
  EXPECT_NE(model.m.log().find("index 2 of entry 3 is outside dimension 0"), std::string::npos)
      << model.m.log();
  EXPECT_FALSE(model.Run(kIds, {0, 0, 0, 1, -1, 0, 2, 3}, {4, 5}, kWeights));
  EXPECT_FALSE(model.Run(kIds, kIndices, {-4, 5}, kWeights));
  EXPECT_NE(model.m.log().find("negative size -4"), std::string::npos) << model.m.log();
  EXPECT_TRUE(model.Run(kIds, kIndices, {4, 5}, kWeights)) << model.m.log();
}

TEST(EmbeddingLookupSparseTest, Errors) {
  struct Case {
    Shape indices_shape;
    tflite::TensorType weights_type;
    Shape params_shape;
    const char* message;
  };
  for (const Case& c :
       {Case{{2, 2}, I32, {4, 2}, "EMBEDDING_LOOKUP_SPARSE: weights type INT32 is not supported"},
        Case{{2, 3}, F32, {4, 2}, "indices rows (3) must match dense_shape's rank (2)"},
        Case{{3, 2}, F32, {4, 2}, "ids, indices and weights must have the same length"},
        Case{{2, 2}, F32, {8}, "params must have rank >= 2, got 1"}}) {
    OneOpModel m;
    m.Input(I32, {2});
    m.Input(I32, c.indices_shape);
    m.Input(I32, {2});
    m.Input(c.weights_type, {2});
    m.Const<float>(c.params_shape, kParams);
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE, CombinerOpts(tflite::CombinerType_SUM));
    ExpectPrepareError(m, c.message);
  }
}

}  // namespace
}  // namespace tflite_c

// Tests of UNIQUE: every value type with both index types against a
// quadratic first-appearance reference written here, NaN and signed zeros,
// and the option and shape errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
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

tflite::BuiltinOptionsUnion UniqueOpts(tflite::TensorType idx_type) {
  tflite::UniqueOptionsT o;
  o.idx_out_type = idx_type;
  return Opts(o);
}

// Distinct values in order of first appearance and each input's position
// among them, by comparing every pair with ==.
template <typename T>
void Reference(const std::vector<T>& in, std::vector<T>* values, std::vector<int64_t>* index) {
  for (const T& v : in) {
    size_t j = 0;
    while (j < values->size() && !((*values)[j] == v)) ++j;
    if (j == values->size()) values->push_back(v);
    index->push_back(static_cast<int64_t>(j));
  }
}

template <typename T, typename I>
void ExpectUnique(const std::vector<T>& in) {
  std::vector<T> want_values;
  std::vector<int64_t> want_index;
  Reference(in, &want_values, &want_index);
  OneOpModel m;
  const int n = static_cast<int>(in.size());
  m.Input(testing::TensorTypeOf<T>(), {n});
  m.Output(testing::TensorTypeOf<T>(), {n});
  m.Output(testing::TensorTypeOf<I>(), {n});
  m.Op(tflite::BuiltinOperator_UNIQUE, UniqueOpts(testing::TensorTypeOf<I>()));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(0), (std::vector<int>{static_cast<int>(want_values.size())}));
  EXPECT_EQ(m.Get<T>(0), want_values);
  const std::vector<I> index = m.Get<I>(1);
  EXPECT_EQ(std::vector<int64_t>(index.begin(), index.end()), want_index);
}

template <typename T>
void ExpectUniqueBothIndexTypes(const std::vector<T>& in) {
  ExpectUnique<T, int32_t>(in);
  ExpectUnique<T, int64_t>(in);
}

TEST(UniqueTest, UpstreamVectors) {
  ExpectUniqueBothIndexTypes<float>({-1});
  ExpectUniqueBothIndexTypes<float>({-1, -1, -1});
  ExpectUniqueBothIndexTypes<int32_t>({2, 3, 5, 7, 2, 7, 3, 5, 9});
  // Hand-checked once: values {2, 3, 5, 7, 9}, indices {0, 1, 2, 3, 0, 3, 1, 2, 4}.
  std::vector<int32_t> values;
  std::vector<int64_t> index;
  Reference<int32_t>({2, 3, 5, 7, 2, 7, 3, 5, 9}, &values, &index);
  EXPECT_EQ(values, (std::vector<int32_t>{2, 3, 5, 7, 9}));
  EXPECT_EQ(index, (std::vector<int64_t>{0, 1, 2, 3, 0, 3, 1, 2, 4}));
}

TEST(UniqueTest, EveryValueType) {
  ExpectUniqueBothIndexTypes<int8_t>({-128, 127, 0, 127, -128, 5});
  ExpectUniqueBothIndexTypes<uint8_t>({255, 0, 255, 1, 1, 0});
  ExpectUniqueBothIndexTypes<int16_t>({-300, 300, -300, 7});
  ExpectUniqueBothIndexTypes<int32_t>({9, 8, 9, 8, 7});
  ExpectUniqueBothIndexTypes<int64_t>({int64_t{1} << 40, 3, int64_t{1} << 40, (int64_t{1} << 40) + 1});
  ExpectUniqueBothIndexTypes<float>({1.5f, -2.0f, 1.5f, 3.25f, -2.0f});
  ExpectUniqueBothIndexTypes<float>({});
}

// 0.0 == -0.0, so they are one value (the first seen is kept); NaN != NaN,
// so each NaN is its own value.
TEST(UniqueTest, SignedZerosAndNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OneOpModel m;
  m.Input(F32, {6});
  m.Output(F32, {6});
  m.Output(I32, {6});
  m.Op(tflite::BuiltinOperator_UNIQUE, UniqueOpts(tflite::TensorType_INT32));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {-0.0f, nan, 0.0f, 1.0f, nan, -0.0f});
  ASSERT_TRUE(m.Invoke()) << m.log();
  const std::vector<float> values = m.Get<float>(0);
  ASSERT_EQ(values.size(), 4u);
  EXPECT_TRUE(values[0] == 0.0f && std::signbit(values[0]));
  EXPECT_TRUE(std::isnan(values[1]));
  EXPECT_EQ(values[2], 1.0f);
  EXPECT_TRUE(std::isnan(values[3]));
  EXPECT_EQ(m.Get<int32_t>(1), (std::vector<int32_t>{0, 1, 0, 2, 3, 0}));
}

TEST(UniqueTest, Errors) {
  struct Case {
    Shape input_shape;
    tflite::TensorType input_type, values_type, index_type;
    bool has_options;  // without an options table, upstream has no index type either
    tflite::TensorType idx_out_type;
    const char* message;
  };
  for (const Case& c :
       {Case{{2, 2}, F32, F32, I32, true, I32, "UNIQUE: input must be 1-D, got rank 2"},
        Case{{4}, F32, F32, I32, true, I64,
             "UNIQUE: idx_out_type type INT64 does not match index output type INT32"},
        Case{{4}, F32, F32, I32, false, I32, "UNIQUE: idx_out_type must be INT32 or INT64"},
        Case{{4}, BOOL, BOOL, I32, true, I32, "UNIQUE: input type BOOL is not supported"},
        Case{{4}, F32, I32, I32, true, I32,
             "UNIQUE: input type FLOAT32 does not match output type INT32"}}) {
    OneOpModel m;
    m.Input(c.input_type, c.input_shape);
    m.Output(c.values_type, {4});
    m.Output(c.index_type, c.input_shape);
    if (c.has_options) {
      m.Op(tflite::BuiltinOperator_UNIQUE, UniqueOpts(c.idx_out_type));
    } else {
      m.Op(tflite::BuiltinOperator_UNIQUE);
    }
    ExpectPrepareError(m, c.message);
  }
}

}  // namespace
}  // namespace tflite_c

// SUM, MEAN and REDUCE_MAX over every subset of the axes of 5-D inputs that
// have unit dimensions, with keep_dims. The expected values walk the input in
// row-major order and fold each element into the output its kept coordinates
// name, so float sums are the plain sequential sums upstream's reference
// kernel computes, and are compared exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::OneOpModel;
using testing::Opts;
using namespace testing::names;  // NOLINT(build/namespaces)

// Output index of every input element for `axes` reduced with keep_dims.
std::vector<int64_t> OutputIndexOf(const std::vector<int>& shape, const std::vector<bool>& reduced,
                                   std::vector<int>* out_shape) {
  const int rank = static_cast<int>(shape.size());
  out_shape->clear();
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    out_shape->push_back(reduced[d] ? 1 : shape[d]);
    count *= shape[d];
  }
  std::vector<int64_t> index(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, o = 0, stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int c = static_cast<int>(rest % shape[d]);
      rest /= shape[d];
      if (!reduced[d]) {
        o += c * stride;
        stride *= shape[d];
      }
    }
    index[i] = o;
  }
  return index;
}

template <typename T>
std::vector<T> Run(tflite::BuiltinOperator op, tflite::TensorType type,
                   const std::vector<int>& shape, const std::vector<int>& axes,
                   const std::vector<int>& out_shape, const std::vector<T>& in) {
  OneOpModel m;
  m.Input(type, shape);
  m.Const<int32_t>({static_cast<int>(axes.size())}, axes);
  m.Output(type, out_shape);
  tflite::ReducerOptionsT options;
  options.keep_dims = true;
  m.Op(op, Opts(options));
  EXPECT_TRUE(m.Allocate()) << m.log();
  m.Set<T>(0, in);
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), out_shape);
  return m.Get<T>();
}

void CheckEveryAxisSubset(const std::vector<int>& shape) {
  const int rank = static_cast<int>(shape.size());
  int64_t count = 1;
  for (int n : shape) count *= n;
  std::vector<float> in_f(count);
  std::vector<int32_t> in_i(count);
  for (int64_t i = 0; i < count; ++i) {
    in_f[i] = 0.1f * static_cast<float>((i * 37) % 101) - 3.3f;
    in_i[i] = static_cast<int32_t>((i * 53) % 211) - 100;
  }
  for (int mask = 0; mask < (1 << rank); ++mask) {
    std::vector<int> axes;
    std::vector<bool> reduced(rank);
    for (int d = 0; d < rank; ++d) {
      reduced[d] = (mask >> d) & 1;
      if (reduced[d]) axes.push_back(d);
    }
    if (axes.empty()) continue;
    SCOPED_TRACE(::testing::Message() << "reduced axes mask " << mask);
    std::vector<int> out_shape;
    const std::vector<int64_t> to = OutputIndexOf(shape, reduced, &out_shape);
    int64_t out_count = 1;
    for (int n : out_shape) out_count *= n;
    std::vector<float> sum(out_count, 0.0f);
    std::vector<int32_t> max(out_count, std::numeric_limits<int32_t>::lowest());
    for (int64_t i = 0; i < count; ++i) {
      sum[to[i]] += in_f[i];
      max[to[i]] = std::max(max[to[i]], in_i[i]);
    }
    std::vector<float> mean(out_count);
    const float per_output = static_cast<float>(count / out_count);
    for (int64_t o = 0; o < out_count; ++o) mean[o] = sum[o] / per_output;

    EXPECT_EQ(Run<float>(tflite::BuiltinOperator_SUM, F32, shape, axes, out_shape, in_f), sum);
    EXPECT_EQ(Run<float>(tflite::BuiltinOperator_MEAN, F32, shape, axes, out_shape, in_f), mean);
    EXPECT_EQ(Run<int32_t>(tflite::BuiltinOperator_REDUCE_MAX, I32, shape, axes, out_shape, in_i),
              max);
  }
}

TEST(ReduceAxesTest, EverySubsetOfAxesMatchesASequentialFold) {
  CheckEveryAxisSubset({2, 1, 3, 4, 5});
  CheckEveryAxisSubset({1, 7, 7, 1, 24});
  CheckEveryAxisSubset({3, 5, 1, 1, 2});
}

}  // namespace
}  // namespace tflite_c

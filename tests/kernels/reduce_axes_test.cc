// SUM, MEAN and REDUCE_MAX over every subset of the axes of 5-D inputs that
// have unit dimensions, with keep_dims. The expected values walk the input in
// row-major order and fold each element into the output its kept coordinates
// name, so float sums are the plain sequential sums upstream's reference
// kernel computes, and are compared exactly. ARG_MAX and ARG_MIN along every
// axis expect the first index of the extreme value.
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

// ARG_MAX / ARG_MIN along `axis` of `shape` (values with many ties), INT32
// and INT64 outputs: the first index holding the largest (smallest) value of
// its line, found with std::max_element / std::min_element.
template <typename T>
void CheckArgAlongEveryAxis(tflite::TensorType type, const std::vector<int>& shape) {
  const int rank = static_cast<int>(shape.size());
  int64_t count = 1;
  for (int n : shape) count *= n;
  std::vector<T> in(count);
  for (int64_t i = 0; i < count; ++i) in[i] = static_cast<T>((i * 7919) % 13) - T(6);
  for (int axis = 0; axis < rank; ++axis) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < rank; ++d) inner *= shape[d];
    const int n = shape[axis];
    std::vector<int> out_shape;
    for (int d = 0; d < rank; ++d) {
      if (d != axis) out_shape.push_back(shape[d]);
    }
    for (bool is_max : {true, false}) {
      std::vector<int64_t> expected(outer * inner);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          std::vector<T> line(n);
          for (int k = 0; k < n; ++k) line[k] = in[(o * n + k) * inner + i];
          const auto it = is_max ? std::max_element(line.begin(), line.end())
                                 : std::min_element(line.begin(), line.end());
          expected[o * inner + i] = it - line.begin();
        }
      }
      for (bool int64_out : {false, true}) {
        SCOPED_TRACE(::testing::Message() << (is_max ? "ARG_MAX" : "ARG_MIN") << " axis "
                                          << axis << (int64_out ? " INT64" : " INT32"));
        OneOpModel m;
        m.Input(type, shape);
        m.Const<int32_t>({1}, {axis});
        m.Output(int64_out ? I64 : I32, out_shape);
        if (is_max) {
          tflite::ArgMaxOptionsT o;
          o.output_type = int64_out ? tflite::TensorType_INT64 : tflite::TensorType_INT32;
          m.Op(tflite::BuiltinOperator_ARG_MAX, Opts(o));
        } else {
          tflite::ArgMinOptionsT o;
          o.output_type = int64_out ? tflite::TensorType_INT64 : tflite::TensorType_INT32;
          m.Op(tflite::BuiltinOperator_ARG_MIN, Opts(o));
        }
        ASSERT_TRUE(m.Allocate()) << m.log();
        m.Set<T>(0, in);
        ASSERT_TRUE(m.Invoke()) << m.log();
        if (int64_out) {
          EXPECT_EQ(m.Get<int64_t>(), expected);
        } else {
          const std::vector<int32_t> got = m.Get<int32_t>();
          EXPECT_EQ(std::vector<int64_t>(got.begin(), got.end()), expected);
        }
      }
    }
  }
}

TEST(ArgMinMaxTest, FirstExtremeIndexAlongEveryAxis) {
  // Inner sizes of 1 (last axis), 300 (over the kernel's 256-output blocks)
  // and others.
  CheckArgAlongEveryAxis<float>(F32, {2, 5, 3, 300});
  CheckArgAlongEveryAxis<int8_t>(I8, {3, 21, 4});
}

// A NaN is never larger or smaller than anything: it wins only where it comes
// first, and a later NaN never displaces the best value.
TEST(ArgMinMaxTest, NanKeepsItsPlaceOnlyWhenFirst) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OneOpModel m;
  m.Input(F32, {3, 4});
  m.Const<int32_t>({1}, {1});
  m.Output(I32, {3});
  tflite::ArgMaxOptionsT o;
  o.output_type = tflite::TensorType_INT32;
  m.Op(tflite::BuiltinOperator_ARG_MAX, Opts(o));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {nan, 1, 5, 2, /**/ 1, nan, 2, 0, /**/ 3, 4, nan, 9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<int32_t>(), (std::vector<int32_t>{0, 2, 3}));
}

}  // namespace
}  // namespace tflite_c

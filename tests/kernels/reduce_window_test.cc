// Tests of STABLEHLO_REDUCE_WINDOW and REDUCE_WINDOW. Expected values come
// from the StableHLO specification's example (a fact), hand computation, or
// the reference below, which builds the dilated and padded operand
// explicitly and then reduces each window of it; never from the kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;
using testing::TensorTypeOf;

using namespace testing::names;  // NOLINT(build/namespaces)

using I64s = std::vector<int64_t>;

struct Attrs {
  I64s window, strides, base_dilations, window_dilations, padding;  // padding: (low, high) pairs
};

// Row-major strides of `shape`.
I64s Strides(const I64s& shape) {
  I64s s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

int64_t Count(const I64s& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Calls fn(index vector) for every index of `shape` in row-major order.
void ForEachIndex(const I64s& shape, const std::function<void(const I64s&)>& fn) {
  if (Count(shape) == 0) return;
  I64s idx(shape.size(), 0);
  while (true) {
    fn(idx);
    int i = static_cast<int>(shape.size()) - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < shape[i]) break;
      idx[i] = 0;
    }
    if (i < 0) return;
  }
}

// stablehlo.reduce_window, step by step: dilate, pad (negative crops), then
// fold each window, init first. Returns the output shape in *out_shape.
template <typename T>
std::vector<T> Reference(const std::vector<T>& in, const I64s& shape, T init, const Attrs& a,
                         const std::function<T(T, T)>& op, I64s* out_shape) {
  const size_t rank = shape.size();
  I64s dilated(rank), padded(rank);
  for (size_t i = 0; i < rank; ++i) {
    dilated[i] = shape[i] == 0 ? 0 : (shape[i] - 1) * a.base_dilations[i] + 1;
    padded[i] = dilated[i] + a.padding[2 * i] + a.padding[2 * i + 1];
  }
  std::vector<T> dil(Count(dilated), init);
  const I64s in_strides = Strides(shape), dil_strides = Strides(dilated);
  ForEachIndex(shape, [&](const I64s& idx) {
    int64_t d = 0, s = 0;
    for (size_t i = 0; i < rank; ++i) {
      d += idx[i] * a.base_dilations[i] * dil_strides[i];
      s += idx[i] * in_strides[i];
    }
    dil[d] = in[s];
  });
  std::vector<T> pad(Count(padded), init);
  const I64s pad_strides = Strides(padded);
  ForEachIndex(padded, [&](const I64s& idx) {
    int64_t s = 0, p = 0;
    for (size_t i = 0; i < rank; ++i) {
      const int64_t src = idx[i] - a.padding[2 * i];
      if (src < 0 || src >= dilated[i]) return;
      s += src * dil_strides[i];
      p += idx[i] * pad_strides[i];
    }
    pad[p] = dil[s];
  });
  out_shape->assign(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t span = (a.window[i] - 1) * a.window_dilations[i] + 1;
    (*out_shape)[i] = padded[i] < span ? 0 : (padded[i] - span) / a.strides[i] + 1;
  }
  std::vector<T> out;
  ForEachIndex(*out_shape, [&](const I64s& o) {
    T acc = init;
    ForEachIndex(a.window, [&](const I64s& w) {
      int64_t p = 0;
      for (size_t i = 0; i < rank; ++i) {
        p += (o[i] * a.strides[i] + w[i] * a.window_dilations[i]) * pad_strides[i];
      }
      acc = op(acc, pad[p]);
    });
    out.push_back(acc);
  });
  return out;
}

std::vector<int> ToInts(const I64s& v) { return std::vector<int>(v.begin(), v.end()); }

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Adds subgraph 1, the body: one `body_op` (or none, or two) over two scalars
// of `type`, and leaves subgraph 0 current.
void AddBody(OneOpModel& m, tflite::TensorType type, tflite::BuiltinOperator body_op,
             int ops = 1) {
  testing::ModelBuilder& b = m.builder();
  b.SetCurrentSubgraph(b.AddSubgraph("body"));
  const int x = b.AddInput(type, {});
  const int y = b.AddInput(type, {});
  const int out = b.AddOutput(type, {});
  if (ops == 1) {
    b.AddOperator(body_op, {x, y}, {out});
  } else if (ops == 2) {
    const int t = b.AddTensor(type, {});
    b.AddOperator(body_op, {x, y}, {t});
    b.AddOperator(body_op, {t, y}, {out});
  }
  b.SetCurrentSubgraph(0);
}

tflite::StablehloReduceWindowOptionsT StablehloOpts(const Attrs& a, int body = 1) {
  tflite::StablehloReduceWindowOptionsT o;
  o.window_dimensions = a.window;
  o.window_strides = a.strides;
  o.base_dilations = a.base_dilations;
  o.window_dilations = a.window_dilations;
  o.padding = a.padding;
  o.body_subgraph_index = body;
  return o;
}

// A STABLEHLO_REDUCE_WINDOW model over an input fed at Invoke.
void BuildStablehlo(OneOpModel& m, tflite::TensorType type, const I64s& shape,
                    const std::vector<uint8_t>& init, const Attrs& a,
                    tflite::BuiltinOperator body_op, int body_ops = 1, int body_index = 1) {
  AddBody(m, type, body_op, body_ops);
  m.Input(type, ToInts(shape));
  m.ConstBytes(type, {}, init);
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW);
  m.builder().op(0).builtin_options_2.Set(StablehloOpts(a, body_index));
}

template <typename T>
std::vector<T> RunStablehlo(tflite::TensorType type, const std::vector<T>& in, const I64s& shape,
                            T init, const Attrs& a, tflite::BuiltinOperator body_op,
                            I64s* out_shape) {
  OneOpModel m;
  BuildStablehlo(m, type, shape, Bytes(std::vector<T>{init}), a, body_op);
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  m.SetBytes(0, Bytes(in));
  EXPECT_TRUE(m.Invoke()) << m.log();
  const std::vector<int> s = m.Shape();
  out_shape->assign(s.begin(), s.end());
  return m.Get<T>();
}

// ---- STABLEHLO_REDUCE_WINDOW ---------------------------------------------------------------

// The example of the StableHLO specification's reduce_window section.
TEST(StablehloReduceWindowTest, SpecificationExample) {
  const Attrs a{{2, 1}, {4, 1}, {2, 1}, {3, 1}, {2, 1, 0, 0}};
  I64s out_shape;
  EXPECT_EQ(RunStablehlo<int64_t>(I64, {1, 2, 3, 4, 5, 6}, {3, 2}, 0, a,
                                  tflite::BuiltinOperator_ADD, &out_shape),
            (I64s{0, 0, 3, 4}));
  EXPECT_EQ(out_shape, (I64s{2, 2}));
}

// 2x2 max pooling with stride 2 over a 4x4 matrix, computed by hand.
TEST(StablehloReduceWindowTest, MaxPoolByHand) {
  const Attrs a{{2, 2}, {2, 2}, {1, 1}, {1, 1}, {0, 0, 0, 0}};
  I64s out_shape;
  EXPECT_EQ(RunStablehlo<float>(F32, {1, 5, 2, 0, 3, -1, 7, 8, -4, -3, 0, 0, -2, -9, 1, 0}, {4, 4},
                                -std::numeric_limits<float>::infinity(), a,
                                tflite::BuiltinOperator_MAXIMUM, &out_shape),
            (Floats{5, 8, -2, 1}));
  EXPECT_EQ(out_shape, (I64s{2, 2}));
}

template <typename T>
void CheckAgainstReference(tflite::TensorType type, tflite::BuiltinOperator body_op,
                           const std::function<T(T, T)>& op, T init, const std::vector<T>& pool) {
  const struct {
    I64s shape;
    Attrs attrs;
  } cases[] = {
      {{7}, {{3}, {2}, {1}, {1}, {0, 0}}},
      {{5, 6}, {{2, 3}, {1, 2}, {2, 1}, {1, 2}, {1, 2, 0, 1}}},
      {{4, 5}, {{3, 2}, {2, 1}, {1, 3}, {2, 1}, {-1, 2, 3, -2}}},  // crops and pads
      {{2, 3, 4}, {{1, 2, 2}, {1, 1, 3}, {1, 2, 1}, {1, 1, 2}, {0, 0, 1, 1, -1, 0}}},
      {{2, 1, 3, 2, 2, 3}, {{1, 1, 2, 2, 1, 2}, {1, 1, 1, 1, 2, 1}, {1, 2, 1, 1, 1, 2},
                            {1, 1, 1, 1, 1, 1}, {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0}}},
      {{3, 3}, {{4, 4}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}}},  // window larger: empty output
  };
  int k = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << "case " << k++);
    std::vector<T> in(Count(c.shape));
    for (size_t i = 0; i < in.size(); ++i) in[i] = pool[(i * 7 + k) % pool.size()];
    I64s expected_shape, out_shape;
    const std::vector<T> expected = Reference(in, c.shape, init, c.attrs, op, &expected_shape);
    const std::vector<T> actual = RunStablehlo(type, in, c.shape, init, c.attrs, body_op,
                                               &out_shape);
    EXPECT_EQ(out_shape, expected_shape);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
      if (std::is_floating_point_v<T> && std::isnan(static_cast<double>(expected[i]))) {
        EXPECT_TRUE(std::isnan(static_cast<double>(actual[i]))) << "element " << i;
      } else {
        EXPECT_EQ(actual[i], expected[i]) << "element " << i;
      }
    }
  }
}

// Upstream's orderings: max keeps the accumulator when it is >= the element,
// min when <=, all/any give 0 or 1 in the element type, integers wrap.
template <typename T>
void CheckAllBodies(tflite::TensorType type, const std::vector<T>& pool) {
  using B = tflite::BuiltinOperator;
  auto add = [](T a, T b) -> T {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    } else {
      return a + b;
    }
  };
  auto mul = [](T a, T b) -> T {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    } else {
      return a * b;
    }
  };
  CheckAgainstReference<T>(type, B::BuiltinOperator_ADD, add, T(1), pool);
  CheckAgainstReference<T>(type, B::BuiltinOperator_MUL, mul, T(1), pool);
  CheckAgainstReference<T>(type, B::BuiltinOperator_MAXIMUM, [](T a, T b) { return a >= b ? a : b; },
                           std::numeric_limits<T>::lowest(), pool);
  CheckAgainstReference<T>(type, B::BuiltinOperator_MINIMUM, [](T a, T b) { return a <= b ? a : b; },
                           T(3), pool);
  CheckAgainstReference<T>(type, B::BuiltinOperator_LOGICAL_AND,
                           [](T a, T b) { return T(a && b); }, T(1), pool);
  CheckAgainstReference<T>(type, B::BuiltinOperator_LOGICAL_OR, [](T a, T b) { return T(a || b); },
                           T(0), pool);
}

TEST(StablehloReduceWindowTest, Float32) {
  CheckAllBodies<float>(F32, {0.5f, -1.25f, 2.0f, 0.0f, -0.0f, 3.5f, std::nanf(""), -7.0f});
}
TEST(StablehloReduceWindowTest, Float64) {
  CheckAllBodies<double>(tflite::TensorType_FLOAT64, {0.5, -1.25, 2.0, 0.0, 3.5, -7.0, 1e300});
}
TEST(StablehloReduceWindowTest, Int8) { CheckAllBodies<int8_t>(I8, {0, 1, -3, 127, -128, 5, 2}); }
TEST(StablehloReduceWindowTest, UInt8) { CheckAllBodies<uint8_t>(U8, {0, 1, 3, 255, 128, 5, 2}); }
TEST(StablehloReduceWindowTest, Int16) {
  CheckAllBodies<int16_t>(I16, {0, 1, -3, 32767, -32768, 500, 2});
}
TEST(StablehloReduceWindowTest, Int32) {
  CheckAllBodies<int32_t>(I32, {0, 1, -3, std::numeric_limits<int32_t>::max(), -70000, 5, 2});
}
TEST(StablehloReduceWindowTest, Int64) {
  CheckAllBodies<int64_t>(I64, {0, 1, -3, std::numeric_limits<int64_t>::min(), 1LL << 40, 5, 2});
}

// BOOL is reduced as int8 (upstream's choice): AND/OR give 0/1, MAX of
// 0/1 values is OR.
TEST(StablehloReduceWindowTest, Bool) {
  const Attrs a{{2}, {1}, {1}, {1}, {0, 1}};
  for (auto [body, init, expected] :
       {std::tuple{tflite::BuiltinOperator_LOGICAL_AND, uint8_t{1}, std::vector<uint8_t>{0, 0, 1, 1}},
        std::tuple{tflite::BuiltinOperator_LOGICAL_OR, uint8_t{0}, std::vector<uint8_t>{1, 1, 1, 1}},
        std::tuple{tflite::BuiltinOperator_MAXIMUM, uint8_t{0}, std::vector<uint8_t>{1, 1, 1, 1}},
        std::tuple{tflite::BuiltinOperator_MINIMUM, uint8_t{1}, std::vector<uint8_t>{0, 0, 1, 1}}}) {
    OneOpModel m;
    BuildStablehlo(m, BOOL, {4}, {init}, a, body);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.SetBytes(0, {1, 0, 1, 1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.GetBytes(), expected) << "body " << body;
  }
}

// The STABLEHLO_ forms of the body operators select the same reductions.
// The default resolver may lack them; the kernel only reads the body's
// operator code, so a kernel that does nothing stands in for them.
TEST(StablehloReduceWindowTest, StablehloBodies) {
  static const TfLiteRegistration stand_in = {};
  const Attrs a{{2}, {1}, {1}, {1}, {0, 0}};
  using B = tflite::BuiltinOperator;
  for (auto [body, init, expected] :
       {std::tuple{B::BuiltinOperator_STABLEHLO_ADD, 0, Ints{3, 5, 2}},
        std::tuple{B::BuiltinOperator_STABLEHLO_MULTIPLY, 1, Ints{2, 6, -3}},
        std::tuple{B::BuiltinOperator_STABLEHLO_MAXIMUM, -9, Ints{2, 3, 3}},
        std::tuple{B::BuiltinOperator_STABLEHLO_MINIMUM, 9, Ints{1, 2, -1}},
        std::tuple{B::BuiltinOperator_STABLEHLO_AND, 1, Ints{1, 1, 1}},
        std::tuple{B::BuiltinOperator_STABLEHLO_OR, 0, Ints{1, 1, 1}}}) {
    OneOpModel m;
    m.configure_options = [body = body](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsAddBuiltinOp(o, static_cast<TfLiteBuiltinOperator>(body), &stand_in,
                                           1, 1);
    };
    BuildStablehlo(m, I32, {4}, Bytes(Ints{init}), a, body);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {1, 2, 3, -1});  // windows {1, 2}, {2, 3}, {3, -1}
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), expected) << "body " << body;
  }
}

// ---- STABLEHLO_REDUCE_WINDOW: errors ---------------------------------------------------

void ExpectStablehloError(const Attrs& a, const std::string& message,
                          tflite::BuiltinOperator body_op = tflite::BuiltinOperator_ADD,
                          int body_ops = 1, int body_index = 1, tflite::TensorType type = F32,
                          tflite::TensorType init_type = F32) {
  OneOpModel m;
  AddBody(m, type, body_op, body_ops);
  m.Input(type, {4, 4});
  m.ConstBytes(init_type, {}, std::vector<uint8_t>(8, 0));
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW);
  m.builder().op(0).builtin_options_2.Set(StablehloOpts(a, body_index));
  ExpectPrepareError(m, message);
}

TEST(StablehloReduceWindowErrorsTest, RefusesBadAttributes) {
  const Attrs ok{{2, 2}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}};
  Attrs a = ok;
  a.strides = {1, 0};
  ExpectStablehloError(a, "must be positive");
  a = ok;
  a.base_dilations = {-1, 1};
  ExpectStablehloError(a, "must be positive");
  a = ok;
  a.window = {2, 0};
  ExpectStablehloError(a, "must be positive");
  a = ok;
  a.window_dilations = {0, 1};
  ExpectStablehloError(a, "must be positive");
  a = ok;
  a.padding = {-3, -2, 0, 0};  // 4 - 5 < 0
  ExpectStablehloError(a, "negative");
  a = ok;
  a.padding = {-2, -2, 0, 0};  // crops everything
  ExpectStablehloError(a, "empty tensor");
  a = ok;
  a.padding = {std::numeric_limits<int64_t>::max(), 1, 0, 0};
  ExpectStablehloError(a, "too large");
  a = ok;
  a.window = {1};  // fewer entries than the input's rank: the rest read as 0
  a.strides = a.base_dilations = a.window_dilations = {1};
  a.padding = {0, 0};
  ExpectStablehloError(a, "must be positive");
}

TEST(StablehloReduceWindowErrorsTest, RefusesUnsupportedBodies) {
  const Attrs ok{{2, 2}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}};
  ExpectStablehloError(ok, "not supported", tflite::BuiltinOperator_SUB);
  ExpectStablehloError(ok, "at most one operator, has 2", tflite::BuiltinOperator_ADD, 2);
  ExpectStablehloError(ok, "builtin code -1) not supported", tflite::BuiltinOperator_ADD, 0);
  // The model checker refuses a body index out of range when the model is
  // loaded (before an error reporter is attached), so only failure is seen.
  ExpectStablehloError(ok, "", tflite::BuiltinOperator_ADD, 1, 7);
}

TEST(StablehloReduceWindowErrorsTest, RefusesBadTypes) {
  const Attrs ok{{2, 2}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}};
  ExpectStablehloError(ok, "init_value (INT32)", tflite::BuiltinOperator_ADD, 1, 1, F32, I32);
  ExpectStablehloError(ok, "STABLEHLO_REDUCE_WINDOW: input", tflite::BuiltinOperator_ADD, 1, 1,
                       tflite::TensorType_UINT32, tflite::TensorType_UINT32);
}

// ---- REDUCE_WINDOW ---------------------------------------------------------------------------

// Adds the REDUCE_WINDOW operator (its options live in builtin_options_2).
void ReduceWindowOp(OneOpModel& m, tflite::ReduceWindowFunction f) {
  m.Op(tflite::BuiltinOperator_REDUCE_WINDOW);
  tflite::ReduceWindowOptionsT o;
  o.reduce_function = f;
  m.builder().op(0).builtin_options_2.Set(o);
}

// 1-D windows of 3 taps spaced 2 apart, moved by 2, computed by hand.
TEST(ReduceWindowTest, SumByHand) {
  OneOpModel m;
  m.Input(I32, {9});
  m.Const<int32_t>({}, {10});
  m.Const<int64_t>({1}, {3});
  m.Const<int64_t>({1}, {2});
  m.Const<int64_t>({1}, {2});
  m.Output(I32, {});
  ReduceWindowOp(m, tflite::ReduceWindowFunction_ADD);
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<int32_t>(0, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_TRUE(m.Invoke()) << m.log();
  // Windows {0,2,4}, {2,4,6}, {4,6,8}: 10 + 9, 10 + 15, 10 + 21.
  EXPECT_EQ(m.Get<int32_t>(), (Ints{19, 25, 31}));
  EXPECT_EQ(m.Shape(), (std::vector<int>{3}));
}

TEST(ReduceWindowTest, AllFunctionsMatchReference) {
  const I64s shape = {3, 5, 4};
  const Attrs a{{2, 3, 2}, {1, 2, 1}, {1, 1, 1}, {2, 1, 1}, {0, 0, 0, 0, 0, 0}};
  Floats in(Count(shape));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(static_cast<int>(i * 5 % 11) - 4);
  using F = tflite::ReduceWindowFunction;
  const struct {
    F f;
    float init;
    std::function<float(float, float)> op;
  } cases[] = {
      {F::ReduceWindowFunction_ADD, 0.5f, [](float x, float y) { return x + y; }},
      {F::ReduceWindowFunction_MUL, 1.0f, [](float x, float y) { return x * y; }},
      {F::ReduceWindowFunction_MINIMUM, 100.0f, [](float x, float y) { return x <= y ? x : y; }},
      {F::ReduceWindowFunction_MAXIMUM, -100.0f, [](float x, float y) { return x >= y ? x : y; }},
      {F::ReduceWindowFunction_ALL, 1.0f, [](float x, float y) { return float(x && y); }},
      {F::ReduceWindowFunction_ANY, 0.0f, [](float x, float y) { return float(x || y); }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << "function " << c.f);
    I64s out_shape;
    const Floats expected = Reference<float>(in, shape, c.init, a, c.op, &out_shape);
    OneOpModel m;
    m.Input(F32, ToInts(shape));
    m.Const<float>({}, {c.init});
    m.Const<int64_t>({3}, a.window);
    m.Const<int64_t>({3}, a.strides);
    m.Const<int64_t>({3}, a.window_dilations);
    m.Output(F32, {});
    ReduceWindowOp(m, c.f);
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<float>(0, in);
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<float>(), expected);
    EXPECT_EQ(m.Shape(), ToInts(out_shape));
  }
}

TEST(ReduceWindowTest, RefusesBadAttributes) {
  auto expect_error = [](bool constant, I64s window, tflite::TensorType attr_type,
                         tflite::ReduceWindowFunction f, const std::string& message) {
    OneOpModel m;
    m.Input(F32, {4, 4});
    m.Const<float>({}, {0});
    if (constant) {
      m.ConstBytes(attr_type, {static_cast<int>(window.size())}, Bytes(window));
    } else {
      m.Input(I64, {2});
    }
    m.Const<int64_t>({2}, {1, 1});
    m.Const<int64_t>({2}, {1, 1});
    m.Output(F32, {});
    ReduceWindowOp(m, f);
    ExpectPrepareError(m, message);
  };
  const auto add = tflite::ReduceWindowFunction_ADD;
  expect_error(false, {}, I64, add, "constant INT64 tensor of 2 elements");
  expect_error(true, {2, 2, 2}, I64, add, "constant INT64 tensor of 2 elements");
  expect_error(true, {2, 2}, tflite::TensorType_UINT64, add, "constant INT64 tensor");
  expect_error(true, {2, 0}, I64, add, "must be positive");
  expect_error(true, {2, 2}, I64, tflite::ReduceWindowFunction_UNSUPPORTED,
               "invalid value 0 for option 'reduce_function'");
}

}  // namespace
}  // namespace tflite_c

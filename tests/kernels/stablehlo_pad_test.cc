// Tests of STABLEHLO_PAD. Expected values come from the StableHLO
// specification's examples (facts), hand computation, or the reference below
// (it maps each output index back to the operand); never from the kernel.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"
#include "tests/kernels/stablehlo_data_ops_test_util.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::TensorTypeOf;

using namespace testing::names;  // NOLINT(build/namespaces)

using testing::Bytes;
using testing::I64s;

struct PadAttrs {
  I64s low, high, interior;
};

tflite::StablehloPadOptionsT PadOpts(const PadAttrs& a) {
  tflite::StablehloPadOptionsT o;
  o.edge_padding_low = a.low;
  o.edge_padding_high = a.high;
  o.interior_padding = a.interior;
  return o;
}

void BuildPad(OneOpModel& m, tflite::TensorType type, const std::vector<int>& shape,
              const std::vector<uint8_t>& pad_value, const PadAttrs& a) {
  m.Input(type, shape);
  m.ConstBytes(type, {}, pad_value);
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_PAD);
  m.builder().op(0).builtin_options_2.Set(PadOpts(a));
}

template <typename T>
std::vector<T> RunPad(const std::vector<T>& in, const std::vector<int>& shape, T pad,
                      const PadAttrs& a, std::vector<int>* out_shape,
                      tflite::TensorType type = TensorTypeOf<T>()) {
  OneOpModel m;
  BuildPad(m, type, shape, Bytes(std::vector<T>{pad}), a);
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  m.SetBytes(0, Bytes(in));
  EXPECT_TRUE(m.Invoke()) << m.log();
  *out_shape = m.Shape();
  return m.Get<T>();
}

// Output index -> operand index: (o - low) must be a non-negative multiple
// of interior + 1 whose quotient is inside the operand.
template <typename T>
std::vector<T> ReferencePad(const std::vector<T>& in, const std::vector<int>& shape, T pad,
                            const PadAttrs& a, std::vector<int>* out_shape) {
  const size_t rank = shape.size();
  out_shape->assign(rank, 0);
  bool empty = false;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t size = (shape[i] - 1) * (a.interior[i] + 1) + 1 + a.low[i] + a.high[i];
    (*out_shape)[i] = static_cast<int>(size);
    empty = empty || size <= 0;
  }
  if (empty) {
    out_shape->assign(rank, 0);
    return {};
  }
  int64_t count = 1;
  for (int d : *out_shape) count *= d;
  std::vector<T> out;
  std::vector<int64_t> idx(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t src = 0;
    bool inside = true;
    for (size_t i = 0; i < rank; ++i) {
      const int64_t shifted = idx[i] - a.low[i];
      const int64_t step = a.interior[i] + 1;
      if (shifted < 0 || shifted % step != 0 || shifted / step >= shape[i]) inside = false;
      src = src * shape[i] + (inside ? shifted / step : 0);
    }
    out.push_back(inside ? in[src] : pad);
    for (int i = static_cast<int>(rank) - 1; i >= 0 && ++idx[i] == (*out_shape)[i]; --i) {
      idx[i] = 0;
    }
  }
  return out;
}

// The example of the StableHLO specification's pad section.
TEST(StablehloPadTest, SpecificationExample) {
  std::vector<int> out_shape;
  const std::vector<int64_t> out = RunPad<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3}, 0,
                                                   {{0, 1}, {2, 1}, {1, 2}}, &out_shape);
  EXPECT_EQ(out_shape, (std::vector<int>{5, 9}));
  EXPECT_EQ(out, (I64s{0, 1, 0, 0, 2, 0, 0, 3, 0,  //
                       0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                       0, 4, 0, 0, 5, 0, 0, 6, 0,  //
                       0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                       0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

const struct {
  std::vector<int> shape;
  PadAttrs attrs;
} kPadCases[] = {
    {{5}, {{2}, {3}, {0}}},
    {{5}, {{-2}, {-1}, {0}}},                         // crop only
    {{4}, {{-3}, {2}, {2}}},                          // crop into interior padding
    {{3, 4}, {{1, -1}, {0, 2}, {1, 1}}},
    {{2, 3, 2}, {{-1, 0, 1}, {1, -4, 0}, {2, 1, 0}}},  // crop into the interior
    {{2, 1, 3, 2, 1, 2}, {{0, 1, 0, -1, 2, 0}, {1, 0, -1, 0, 0, 1}, {0, 0, 1, 1, 0, 2}}},
    {{2, 2, 2, 1, 1, 2, 1, 2}, {{1, 0, 0, 0, 0, 0, 1, 0}, {0, 0, 1, 0, 0, 0, 0, 1},
                                {0, 1, 0, 0, 0, 1, 0, 0}}},  // rank 8
    {{3, 0}, {{1, 1}, {1, 1}, {0, 0}}},                      // empty operand axis
    {{3, 2}, {{-3, 0}, {0, 0}, {0, 0}}},                     // cropped to nothing
    {{3, 2}, {{-5, 0}, {0, 0}, {0, 0}}},                     // negative size: all axes 0
};

template <typename T>
void CheckPadType(tflite::TensorType type, T pad, const std::vector<T>& pool) {
  int k = 0;
  for (const auto& c : kPadCases) {
    SCOPED_TRACE(::testing::Message() << "case " << k++);
    int64_t count = 1;
    for (int d : c.shape) count *= d;
    std::vector<T> in(count);
    for (int64_t i = 0; i < count; ++i) in[i] = pool[i % pool.size()];
    std::vector<int> expected_shape, out_shape;
    const std::vector<T> expected = ReferencePad(in, c.shape, pad, c.attrs, &expected_shape);
    const std::vector<T> actual = RunPad(in, c.shape, pad, c.attrs, &out_shape, type);
    EXPECT_EQ(out_shape, expected_shape);
    EXPECT_EQ(Bytes(actual), Bytes(expected));
  }
}

TEST(StablehloPadTest, EveryElementSizeMatchesReference) {
  CheckPadType<float>(F32, -1.5f, {1.0f, 2.5f, -0.0f, 3.0f});
  CheckPadType<double>(tflite::TensorType_FLOAT64, 7.0, {1.0, -2.0, 3.5});
  CheckPadType<int8_t>(I8, -9, {1, 2, 3, -4, 5});
  CheckPadType<uint8_t>(BOOL, 0, {1, 1, 0, 1});
  CheckPadType<int16_t>(I16, 300, {1, -2, 3});
  CheckPadType<uint16_t>(tflite::TensorType_FLOAT16, 0x3c00, {0x4000, 0x4200, 0xc000});
  CheckPadType<int32_t>(I32, 42, {1, 2, 3, 4, 5, 6, 7});
  CheckPadType<int64_t>(I64, -1, {1LL << 40, 2, 3});
}

void ExpectPadError(const std::vector<int>& shape, const PadAttrs& a, const std::string& message,
                    tflite::TensorType type = F32, tflite::TensorType pad_type = F32,
                    int pad_elements = 1) {
  OneOpModel m;
  m.Input(type, shape);
  m.ConstBytes(pad_type, {pad_elements}, std::vector<uint8_t>(4 * pad_elements, 0));
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_PAD);
  m.builder().op(0).builtin_options_2.Set(PadOpts(a));
  ExpectPrepareError(m, message);
}

TEST(StablehloPadTest, RefusesBadOperands) {
  ExpectPadError({2, 2}, {{0, 0}, {0, 0}, {0, -1}}, "interior padding -1 of axis 1 is negative");
  ExpectPadError({2, 2}, {{0, std::numeric_limits<int64_t>::max()}, {0, 1}, {0, 0}}, "too large");
  ExpectPadError({2, 2}, {{0, 1LL << 31}, {0, 0}, {0, 0}}, "too large");
  ExpectPadError({2, 2}, {{0, 0}, {0, 0}, {0, std::numeric_limits<int64_t>::max()}}, "too large");
  ExpectPadError({2, 2}, {{0, 0}, {0, 0}, {0, 0}}, "does not match padding_value type INT32", F32, I32);
  ExpectPadError({2, 2}, {{0, 0}, {0, 0}, {0, 0}}, "padding_value must hold one element", F32,
                 F32, 2);
  ExpectPadError({2, 2, 1, 1, 1, 1, 1, 1, 1}, {I64s(8, 0), I64s(8, 0), I64s(8, 0)},
                 "input rank 9 is outside [1, 8]");
  ExpectPadError({}, {{0}, {0}, {0}}, "input rank 0 is outside [1, 8]");
}

}  // namespace
}  // namespace tflite_c

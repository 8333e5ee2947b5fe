// STRIDED_SLICE (masks, dynamic begin, errors). Each test is a one-op model run
// through the public C API; expected values are hand-computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::Opts;

using namespace testing::names;  // NOLINT(build/namespaces)

// ---- STRIDED_SLICE ---------------------------------------------------------------------

// Masks in option order: begin, end, ellipsis, new_axis, shrink; then offset.
struct SliceMasks {
  int begin, end, ellipsis, new_axis, shrink;
  bool offset;
};

tflite::BuiltinOptionsUnion SliceOpts(SliceMasks s) {
  tflite::StridedSliceOptionsT o;
  o.begin_mask = s.begin;
  o.end_mask = s.end;
  o.ellipsis_mask = s.ellipsis;
  o.new_axis_mask = s.new_axis;
  o.shrink_axis_mask = s.shrink;
  o.offset = s.offset;
  return Opts(o);
}

// Runs a strided slice of a 2x3 input holding 1..6.
void RunSlice(Ints begin, Ints end, Ints strides, SliceMasks masks, Shape shape, Floats expected) {
  OneOpModel m;
  m.Input(F32, {2, 3});
  const int n = static_cast<int>(begin.size());
  m.Const<int32_t>({n}, begin);
  m.Const<int32_t>({n}, end);
  m.Const<int32_t>({n}, strides);
  m.Output(F32, shape);
  m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts(masks));
  ASSERT_TRUE(m.Allocate()) << m.log();
  m.Set<float>(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), shape);
  EXPECT_EQ(m.Get<float>(), expected);
}

TEST(StridedSliceTest, BasicsAndMasks) {
  RunSlice({0, 1}, {2, 3}, {1, 1}, {0, 0, 0, 0, 0, false}, {2, 2}, {2, 3, 5, 6});
  // Negative stride from the end, whole range via masks.
  RunSlice({0, -1}, {0, 0}, {1, -1}, {1, 3, 0, 0, 0, false}, {2, 3}, {3, 2, 1, 6, 5, 4});
  // Shrink the first dimension at index -1 (row 1).
  RunSlice({-1, 0}, {0, 3}, {1, 2}, {0, 0, 0, 0, 1, false}, {2}, {4, 6});
  // Ellipsis then a new axis at the end.
  RunSlice({0, 0}, {0, 0}, {1, 1}, {0, 0, 1, 2, 0, false}, {2, 3, 1},
           {1, 2, 3, 4, 5, 6});
  // A new axis in front; the remaining dimensions are implicit.
  RunSlice({0, 1}, {0, 2}, {1, 1}, {0, 0, 0, 1, 0, false}, {1, 1, 3}, {4, 5, 6});
  // offset: end counts from begin.
  RunSlice({1, 1}, {1, 2}, {1, 1}, {0, 0, 0, 0, 0, true}, {1, 2}, {5, 6});
  // Out-of-range bounds clamp; an empty range gives zero elements.
  RunSlice({0, 5}, {2, 9}, {1, 1}, {0, 0, 0, 0, 0, false}, {2, 0}, {});
}

TEST(StridedSliceTest, DynamicBeginAndErrors) {
  {
    OneOpModel m;
    m.Input(I32, {4});
    m.Input(I32, {1});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {2});
    m.Output(I32, {2});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 0, false}));
    ASSERT_TRUE(m.Allocate()) << m.log();
    m.Set<int32_t>(0, {10, 11, 12, 13});
    m.Set<int32_t>(1, {1});
    ASSERT_TRUE(m.Invoke()) << m.log();
    EXPECT_EQ(m.Get<int32_t>(), (Ints{11, 13}));
  }
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Const<int32_t>({1}, {0});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {0});
    m.Output(F32, {4});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 0, false}));
    ExpectPrepareError(m, "stride of dimension 0 is 0");
  }
  {
    OneOpModel m;
    m.Input(F32, {4});
    m.Const<int32_t>({1}, {4});
    m.Const<int32_t>({1}, {5});
    m.Const<int32_t>({1}, {1});
    m.Output(F32, {});
    m.Op(tflite::BuiltinOperator_STRIDED_SLICE, SliceOpts({0, 0, 0, 0, 1, false}));
    ExpectPrepareError(m, "index 4 is out of range");
  }
}

}  // namespace
}  // namespace tflite_c

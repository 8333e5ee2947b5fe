// Tests of STABLEHLO_GATHER. Expected values come from the StableHLO
// specification's examples (facts), hand computation, or the reference below
// (it follows the specification's formula step by step); never from the kernel.
#include <gtest/gtest.h>

#include <algorithm>
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
using testing::Has;
using testing::I64s;

// ---- STABLEHLO_GATHER ------------------------------------------------------------------------

struct GatherAttrs {
  I64s offset_dims, collapsed_slice_dims, start_index_map;
  int64_t index_vector_dim;
  I64s slice_sizes;
};

tflite::StablehloGatherOptionsT GatherOpts(const GatherAttrs& a) {
  tflite::StablehloGatherOptionsT o;
  o.offset_dims = a.offset_dims;
  o.collapsed_slice_dims = a.collapsed_slice_dims;
  o.start_index_map = a.start_index_map;
  o.index_vector_dim = a.index_vector_dim;
  o.slice_sizes = a.slice_sizes;
  return o;
}

// stablehlo.gather by the specification: for each result index, batch_index
// and offset_index, start_index (clamped), full_offset_index, operand index.
template <typename T, typename Index>
std::vector<T> ReferenceGather(const std::vector<T>& operand, const std::vector<int>& oshape,
                               const std::vector<Index>& indices, const std::vector<int>& ishape,
                               const GatherAttrs& a, std::vector<int>* rshape) {
  const int irank = static_cast<int>(ishape.size());
  std::vector<int> batch_shape;
  for (int i = 0; i < irank; ++i) {
    if (i != a.index_vector_dim) batch_shape.push_back(ishape[i]);
  }
  const int rrank = static_cast<int>(batch_shape.size() + a.offset_dims.size());
  std::vector<int> slice_shape;
  for (size_t i = 0; i < oshape.size(); ++i) {
    if (!Has(a.collapsed_slice_dims, i)) slice_shape.push_back(static_cast<int>(a.slice_sizes[i]));
  }
  rshape->clear();
  size_t b = 0, o = 0;
  for (int r = 0; r < rrank; ++r) {
    rshape->push_back(Has(a.offset_dims, r) ? slice_shape[o++] : batch_shape[b++]);
  }
  int64_t count = 1;
  for (int x : *rshape) count *= x;
  std::vector<T> result;
  std::vector<int64_t> ri(rrank, 0);
  for (int64_t n = 0; n < count; ++n) {
    std::vector<int64_t> batch, offset;
    for (int r = 0; r < rrank; ++r) (Has(a.offset_dims, r) ? offset : batch).push_back(ri[r]);
    // start_indices[bi0, ..., :, ..., biN], ":" at index_vector_dim.
    std::vector<int64_t> vec;
    const int64_t vlen = a.index_vector_dim < irank ? ishape[a.index_vector_dim] : 1;
    for (int64_t k = 0; k < vlen; ++k) {
      int64_t flat = 0;
      size_t bi = 0;
      for (int i = 0; i < irank; ++i) {
        flat = flat * ishape[i] + (i == a.index_vector_dim ? k : batch[bi++]);
      }
      vec.push_back(static_cast<int64_t>(indices[flat]));
    }
    std::vector<int64_t> start(oshape.size(), 0), full_offset(oshape.size(), 0);
    for (size_t k = 0; k < a.start_index_map.size(); ++k) start[a.start_index_map[k]] = vec[k];
    size_t oi = 0;
    for (size_t i = 0; i < oshape.size(); ++i) {
      start[i] = std::min<int64_t>(std::max<int64_t>(start[i], 0), oshape[i] - a.slice_sizes[i]);
      if (!Has(a.collapsed_slice_dims, i)) full_offset[i] = offset[oi++];
    }
    int64_t flat = 0;
    for (size_t i = 0; i < oshape.size(); ++i) flat = flat * oshape[i] + start[i] + full_offset[i];
    result.push_back(operand[flat]);
    for (int r = rrank - 1; r >= 0 && ++ri[r] == (*rshape)[r]; --r) ri[r] = 0;
  }
  return result;
}

template <typename T, typename Index>
std::vector<T> RunGather(const std::vector<T>& operand, const std::vector<int>& oshape,
                         const std::vector<Index>& indices, const std::vector<int>& ishape,
                         const GatherAttrs& a, std::vector<int>* rshape,
                         tflite::TensorType type = TensorTypeOf<T>()) {
  OneOpModel m;
  m.Input(type, oshape);
  m.Input(TensorTypeOf<Index>(), ishape);
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_GATHER);
  m.builder().op(0).builtin_options_2.Set(GatherOpts(a));
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  m.SetBytes(0, Bytes(operand));
  m.SetBytes(1, Bytes(indices));
  EXPECT_TRUE(m.Invoke()) << m.log();
  *rshape = m.Shape();
  return m.Get<T>();
}

// The example of the StableHLO specification's gather section (without
// batching dimensions).
const GatherAttrs kSpecGather{{2, 3}, {0}, {1, 0}, 2, {1, 2, 2}};

TEST(StablehloGatherTest, SpecificationExample) {
  std::vector<int64_t> operand(24);
  for (int i = 0; i < 24; ++i) operand[i] = i + 1;
  std::vector<int> rshape;
  const std::vector<int64_t> result =
      RunGather<int64_t, int64_t>(operand, {3, 4, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 2},
                                  {2, 3, 2}, kSpecGather, &rshape);
  EXPECT_EQ(rshape, (std::vector<int>{2, 3, 2, 2}));
  EXPECT_EQ(result, (I64s{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                          9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20}));
}

// Out-of-range starts are clamped so the slice fits: -5 -> 0, 7 -> 4 - 2.
TEST(StablehloGatherTest, ClampsStartIndices) {
  std::vector<int> rshape;
  const Floats result = RunGather<float, int32_t>(
      {10, 11, 12, 13, 20, 21, 22, 23}, {2, 4}, {-5, 7, 1, std::numeric_limits<int32_t>::min()},
      {2, 2}, {{1}, {0}, {0, 1}, 1, {1, 2}}, &rshape);
  EXPECT_EQ(rshape, (std::vector<int>{2, 2}));
  // Starts (0, 2) and (1, 0).
  EXPECT_EQ(result, (Floats{12, 13, 20, 21}));
}

template <typename T, typename Index>
void CheckGatherType(tflite::TensorType type, const std::vector<T>& pool) {
  const struct {
    std::vector<int> oshape, ishape;
    GatherAttrs attrs;
  } cases[] = {
      {{3, 4, 2}, {2, 3, 2}, kSpecGather},
      {{5}, {4}, {{}, {0}, {0}, 1, {1}}},                     // 1-D take, implicit vector dim
      {{5, 3}, {4, 1}, {{1}, {0}, {0}, 1, {1, 3}}},           // row gather
      {{5, 3}, {2, 4}, {{1}, {0}, {0, 1}, 0, {1, 2}}},           // index_vector_dim 0, not last
      {{4, 5, 6}, {3, 3, 2}, {{0, 3}, {1}, {2, 0, 1}, 1, {2, 1, 3}}},  // offsets around batch
      {{4, 5}, {}, {{0, 1}, {}, {1}, 0, {3, 2}}},             // scalar index
      {{4, 5}, {0, 1}, {{0, 1}, {}, {0}, 1, {2, 2}}},         // no index vectors: empty
      {{2, 3, 2, 2}, {2, 2}, {{0, 1}, {0, 3}, {3, 0}, 1, {1, 3, 2, 1}}},
  };
  int k = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::Message() << "case " << k++);
    int64_t ocount = 1, icount = 1;
    for (int x : c.oshape) ocount *= x;
    for (int x : c.ishape) icount *= x;
    std::vector<T> operand(ocount);
    for (int64_t i = 0; i < ocount; ++i) operand[i] = pool[(i * 5 + 1) % pool.size()];
    std::vector<Index> indices(icount);
    for (int64_t i = 0; i < icount; ++i) indices[i] = static_cast<Index>((i * 7) % 11 - 3);
    std::vector<int> expected_shape, rshape;
    const std::vector<T> expected =
        ReferenceGather(operand, c.oshape, indices, c.ishape, c.attrs, &expected_shape);
    const std::vector<T> actual =
        RunGather<T, Index>(operand, c.oshape, indices, c.ishape, c.attrs, &rshape, type);
    EXPECT_EQ(rshape, expected_shape);
    EXPECT_EQ(Bytes(actual), Bytes(expected));
  }
}

TEST(StablehloGatherTest, EveryTypeMatchesReference) {
  CheckGatherType<float, int32_t>(F32, {1.5f, -2.0f, 3.0f, 0.25f});
  CheckGatherType<float, int64_t>(F32, {1.5f, -2.0f, 3.0f});
  CheckGatherType<uint16_t, int32_t>(tflite::TensorType_FLOAT16, {0x3c00, 0x4000, 0xc000});
  CheckGatherType<double, int64_t>(tflite::TensorType_FLOAT64, {1.0, -2.5, 1e300});
  CheckGatherType<int8_t, int32_t>(I8, {1, -2, 127, -128});
  CheckGatherType<int16_t, int64_t>(I16, {1, -2, 32767});
  CheckGatherType<int32_t, int32_t>(I32, {1, -2, 100000});
  CheckGatherType<int64_t, int64_t>(I64, {1, -2, 1LL << 50});
  CheckGatherType<uint8_t, int32_t>(U8, {1, 2, 255});
  CheckGatherType<uint16_t, int64_t>(tflite::TensorType_UINT16, {1, 2, 65535});
  CheckGatherType<uint32_t, int32_t>(tflite::TensorType_UINT32, {1, 2, 4000000000u});
  CheckGatherType<uint64_t, int64_t>(tflite::TensorType_UINT64, {1, 2, 1ULL << 63});
}

void ExpectGatherError(const GatherAttrs& a, const std::string& message,
                       tflite::TensorType type = F32, tflite::TensorType index_type = I32,
                       std::vector<int> oshape = {3, 4, 2}, std::vector<int> ishape = {2, 3, 2}) {
  OneOpModel m;
  m.Input(type, oshape);
  m.Input(index_type, ishape);
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_GATHER);
  m.builder().op(0).builtin_options_2.Set(GatherOpts(a));
  ExpectPrepareError(m, message);
}

TEST(StablehloGatherTest, RefusesBadAttributes) {
  GatherAttrs a = kSpecGather;
  a.index_vector_dim = 4;
  ExpectGatherError(a, "index_vector_dim is outside");
  a = kSpecGather;
  a.slice_sizes = {1, 2};
  ExpectGatherError(a, "slice_sizes must have one entry per operand dimension");
  a = kSpecGather;
  a.slice_sizes = {1, 5, 2};
  ExpectGatherError(a, "slice_sizes must be in [0, operand dimension]");
  a = kSpecGather;
  a.slice_sizes = {2, 2, 2};
  ExpectGatherError(a, "<= 1 where collapsed");
  a = kSpecGather;
  a.collapsed_slice_dims = {3};
  ExpectGatherError(a, "collapsed_slice_dims must be sorted");
  a = kSpecGather;
  a.offset_dims = {3, 2};
  ExpectGatherError(a, "offset_dims must be sorted");
  a = kSpecGather;
  a.offset_dims = {2};
  ExpectGatherError(a, "offset_dims must be sorted");
  a = kSpecGather;
  a.start_index_map = {1};
  ExpectGatherError(a, "start_index_map must have one entry per index vector element");
  a = kSpecGather;
  a.start_index_map = {1, 1};
  ExpectGatherError(a, "start_index_map must hold unique operand dimensions");
  a = kSpecGather;
  a.start_index_map = {1, 3};
  ExpectGatherError(a, "start_index_map must hold unique operand dimensions");
  ExpectGatherError(kSpecGather, "STABLEHLO_GATHER: start_indices", F32, F32);
  ExpectGatherError(kSpecGather, "STABLEHLO_GATHER: operand", BOOL, I32);
  ExpectGatherError({{}, {0}, {0}, 1, {0}}, "empty operand", F32, I32, {0}, {2, 1});
}

}  // namespace
}  // namespace tflite_c

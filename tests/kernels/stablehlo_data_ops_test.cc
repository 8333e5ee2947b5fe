// Tests of STABLEHLO_PAD, STABLEHLO_GATHER and STABLEHLO_SCATTER. Expected values come from the
// StableHLO specification's examples (facts), hand computation, or the
// references below (PAD maps each output index back to the operand; GATHER
// and SCATTER follow the specification's formulas step by step); never from the
// kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/one_op_model.h"
#include "tests/util/tensor_type_names.h"

namespace tflite_c {
namespace {

using testing::ExpectPrepareError;
using testing::OneOpModel;
using testing::TensorTypeOf;

using namespace testing::names;  // NOLINT(build/namespaces)

using I64s = std::vector<int64_t>;

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

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
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

bool Has(const I64s& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

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

// ---- STABLEHLO_SCATTER -----------------------------------------------------------------------

struct ScatterAttrs {
  I64s update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
};

// The update computation: none (replace) or one STABLEHLO_ element-wise op.
enum class Body { kReplace, kAdd, kMultiply, kMaximum, kMinimum };

tflite::BuiltinOperator BodyOp(Body b) {
  switch (b) {
    case Body::kAdd: return tflite::BuiltinOperator_STABLEHLO_ADD;
    case Body::kMultiply: return tflite::BuiltinOperator_STABLEHLO_MULTIPLY;
    case Body::kMaximum: return tflite::BuiltinOperator_STABLEHLO_MAXIMUM;
    default: return tflite::BuiltinOperator_STABLEHLO_MINIMUM;
  }
}

// The default resolver may lack the STABLEHLO_ element-wise ops a body
// names; the scatter kernel only reads the body's operator code, so a
// kernel that does nothing stands in for them.
void AddStandInBodyKernels(TfLiteInterpreterOptions* options) {
  static const TfLiteRegistration stand_in = {};
  for (Body b : {Body::kAdd, Body::kMultiply, Body::kMaximum, Body::kMinimum}) {
    TfLiteInterpreterOptionsAddBuiltinOp(options, static_cast<TfLiteBuiltinOperator>(BodyOp(b)),
                                         &stand_in, 1, 1);
  }
  TfLiteInterpreterOptionsAddBuiltinOp(options, kTfLiteBuiltinSub, &stand_in, 1, 1);
}

// Adds subgraph 1 (the update computation over two scalars) and the
// STABLEHLO_SCATTER operator over three inputs fed at Invoke.
void BuildScatter(OneOpModel& m, tflite::TensorType type, tflite::TensorType index_type,
                  const std::vector<int>& oshape, const std::vector<int>& ishape,
                  const std::vector<int>& ushape, const ScatterAttrs& a, Body body,
                  tflite::BuiltinOperator body_op = tflite::BuiltinOperator_ADD) {
  testing::ModelBuilder& b = m.builder();
  b.SetCurrentSubgraph(b.AddSubgraph("update"));
  const int x = b.AddInput(type, {});
  const int y = b.AddInput(type, {});
  const int out = b.AddOutput(type, {});
  if (body != Body::kReplace || body_op != tflite::BuiltinOperator_ADD) {
    b.AddOperator(body != Body::kReplace ? BodyOp(body) : body_op, {x, y}, {out});
  } else {
    b.SetOutputs({y});
  }
  b.SetCurrentSubgraph(0);
  m.configure_options = AddStandInBodyKernels;
  m.Input(type, oshape);
  m.Input(index_type, ishape);
  m.Input(type, ushape);
  m.Output(type, {});
  m.Op(tflite::BuiltinOperator_STABLEHLO_SCATTER);
  tflite::StablehloScatterOptionsT o;
  o.update_window_dims = a.update_window_dims;
  o.inserted_window_dims = a.inserted_window_dims;
  o.scatter_dims_to_operand_dims = a.scatter_dims_to_operand_dims;
  o.index_vector_dim = a.index_vector_dim;
  o.update_computation_subgraph_index = 1;
  m.builder().op(0).builtin_options_2.Set(o);
}

template <typename T>
T ApplyBody(Body b, T element, T update) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t e = static_cast<uint64_t>(element), u = static_cast<uint64_t>(update);
    if (b == Body::kAdd) return static_cast<T>(e + u);
    if (b == Body::kMultiply) return static_cast<T>(e * u);
  } else {
    if (b == Body::kAdd) return element + update;
    if (b == Body::kMultiply) return element * update;
  }
  if (b == Body::kMaximum) return std::max(element, update);
  if (b == Body::kMinimum) return std::min(element, update);
  return update;
}

// stablehlo.scatter by the specification: for each update_index,
// update_scatter_index, start_index, full_start_index, update_window_index,
// full_window_index, result_index; out-of-bounds result indices are skipped.
template <typename T, typename Index>
std::vector<T> ReferenceScatter(std::vector<T> result, const std::vector<int>& oshape,
                                const std::vector<Index>& indices, const std::vector<int>& ishape,
                                const std::vector<T>& updates, const std::vector<int>& ushape,
                                const ScatterAttrs& a, Body body) {
  const int irank = static_cast<int>(ishape.size()), urank = static_cast<int>(ushape.size());
  int64_t count = 1;
  for (int x : ushape) count *= x;
  std::vector<int64_t> ui(urank, 0);
  for (int64_t n = 0; n < count; ++n) {
    std::vector<int64_t> scatter_index, window_index;
    for (int u = 0; u < urank; ++u) {
      (Has(a.update_window_dims, u) ? window_index : scatter_index).push_back(ui[u]);
    }
    const int64_t vlen = a.index_vector_dim < irank ? ishape[a.index_vector_dim] : 1;
    std::vector<int64_t> full(oshape.size(), 0);
    for (int64_t k = 0; k < vlen; ++k) {
      int64_t flat = 0;
      size_t si = 0;
      for (int i = 0; i < irank; ++i) {
        flat = flat * ishape[i] + (i == a.index_vector_dim ? k : scatter_index[si++]);
      }
      full[a.scatter_dims_to_operand_dims[k]] = static_cast<int64_t>(indices[flat]);
    }
    size_t wi = 0;
    bool inside = true;
    int64_t flat = 0;
    for (size_t i = 0; i < oshape.size(); ++i) {
      const int64_t w = Has(a.inserted_window_dims, i) ? 0 : window_index[wi++];
      const int64_t r = full[i] + w;
      inside = inside && r >= 0 && r < oshape[i];
      flat = flat * oshape[i] + r;
    }
    if (inside) result[flat] = ApplyBody(body, result[flat], updates[n]);
    for (int u = urank - 1; u >= 0 && ++ui[u] == ushape[u]; --u) ui[u] = 0;
  }
  return result;
}

template <typename T, typename Index>
std::vector<T> RunScatter(const std::vector<T>& operand, const std::vector<int>& oshape,
                          const std::vector<Index>& indices, const std::vector<int>& ishape,
                          const std::vector<T>& updates, const std::vector<int>& ushape,
                          const ScatterAttrs& a, Body body,
                          tflite::TensorType type = TensorTypeOf<T>()) {
  OneOpModel m;
  BuildScatter(m, type, TensorTypeOf<Index>(), oshape, ishape, ushape, a, body);
  if (!m.Allocate()) {
    ADD_FAILURE() << m.log();
    return {};
  }
  m.SetBytes(0, Bytes(operand));
  m.SetBytes(1, Bytes(indices));
  m.SetBytes(2, Bytes(updates));
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Shape(), oshape);
  return m.Get<T>();
}

const ScatterAttrs kSpecScatter{{2, 3}, {0}, {1, 0}, 2};

// The example of the StableHLO specification's scatter section (without
// batching dimensions), add computation; index (0, 9) is out of bounds.
TEST(StablehloScatterTest, SpecificationExample) {
  std::vector<int64_t> operand(24);
  for (int i = 0; i < 24; ++i) operand[i] = i + 1;
  EXPECT_EQ(
      (RunScatter<int64_t, int64_t>(operand, {3, 4, 2}, {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9},
                                    {2, 3, 2}, I64s(24, 1), {2, 3, 2, 2}, kSpecScatter,
                                    Body::kAdd)),
      (I64s{1, 2, 5, 6, 7, 8, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 23,
            24}));
}

// With no computation the update replaces; the last of repeated indices
// wins (updates are applied in row-major order); negative and too large
// indices are dropped.
TEST(StablehloScatterTest, ReplaceByHand) {
  EXPECT_EQ((RunScatter<float, int32_t>({0, 0, 0, 0, 0}, {5}, {1, 3, 1, -1, 5, 4}, {6, 1},
                                        {10, 20, 30, 40, 50, 60}, {6}, {{}, {0}, {0}, 1},
                                        Body::kReplace)),
            (Floats{0, 30, 0, 20, 60}));
}

template <typename T, typename Index>
void CheckScatterType(tflite::TensorType type, const std::vector<T>& pool) {
  const struct {
    std::vector<int> oshape, ishape, ushape;
    ScatterAttrs attrs;
  } cases[] = {
      {{3, 4, 2}, {2, 3, 2}, {2, 3, 2, 2}, kSpecScatter},
      {{6}, {5}, {5}, {{}, {0}, {0}, 1}},                       // implicit index vector dim
      {{5, 3}, {4, 1}, {4, 3}, {{1}, {0}, {0}, 1}},             // row updates
      {{5, 3}, {2, 3}, {3, 1, 2}, {{1, 2}, {}, {0, 1}, 0}},     // index_vector_dim 0, windows
      {{4, 5, 3}, {2, 2, 3}, {2, 2, 3, 3}, {{1, 3}, {1}, {2, 0}, 1}},  // window around scatter
      {{4, 3}, {}, {2, 3}, {{0, 1}, {}, {0}, 0}},               // scalar index
      {{4, 3}, {0, 1}, {0, 3}, {{1}, {0}, {0}, 1}},             // no updates
  };
  for (Body body : {Body::kReplace, Body::kAdd, Body::kMultiply, Body::kMaximum, Body::kMinimum}) {
    int k = 0;
    for (const auto& c : cases) {
      SCOPED_TRACE(::testing::Message() << "case " << k++ << " body " << static_cast<int>(body));
      int64_t ocount = 1, icount = 1, ucount = 1;
      for (int x : c.oshape) ocount *= x;
      for (int x : c.ishape) icount *= x;
      for (int x : c.ushape) ucount *= x;
      std::vector<T> operand(ocount), updates(ucount);
      for (int64_t i = 0; i < ocount; ++i) operand[i] = pool[(i * 5 + 1) % pool.size()];
      for (int64_t i = 0; i < ucount; ++i) updates[i] = pool[(i * 3 + 2) % pool.size()];
      std::vector<Index> indices(icount);
      for (int64_t i = 0; i < icount; ++i) indices[i] = static_cast<Index>((i * 7) % 9 - 2);
      const std::vector<T> expected = ReferenceScatter(operand, c.oshape, indices, c.ishape,
                                                       updates, c.ushape, c.attrs, body);
      const std::vector<T> actual = RunScatter<T, Index>(operand, c.oshape, indices, c.ishape,
                                                         updates, c.ushape, c.attrs, body, type);
      EXPECT_EQ(Bytes(actual), Bytes(expected));
    }
  }
}

TEST(StablehloScatterTest, EveryTypeMatchesReference) {
  CheckScatterType<float, int32_t>(F32, {1.5f, -2.0f, 3.0f, 0.25f});
  CheckScatterType<float, int64_t>(F32, {1.5f, -2.0f, 3.0f});
  CheckScatterType<double, int64_t>(tflite::TensorType_FLOAT64, {1.0, -2.5, 1e300});
  CheckScatterType<int8_t, int32_t>(I8, {1, -2, 127, -128});
  CheckScatterType<int16_t, int64_t>(I16, {1, -2, 32767});
  CheckScatterType<int32_t, int32_t>(I32, {1, -2, 2147483647});
  CheckScatterType<int64_t, int64_t>(I64, {1, -2, 1LL << 62});
  CheckScatterType<uint8_t, int32_t>(U8, {1, 2, 255});
  CheckScatterType<uint16_t, int64_t>(tflite::TensorType_UINT16, {1, 2, 65535});
  CheckScatterType<uint32_t, int32_t>(tflite::TensorType_UINT32, {1, 2, 4000000000u});
  CheckScatterType<uint64_t, int64_t>(tflite::TensorType_UINT64, {1, 2, 1ULL << 63});
}

// FLOAT16 arithmetic rounds each result to half precision: 1 + 2^-11 is
// 1 in half, 1 + 2^-10 is not; 2048 + 1 is 2048.
TEST(StablehloScatterTest, Float16) {
  // Half bit patterns: 1.0 = 0x3c00, 2^-11 = 0x1000, 2^-10 = 0x1400,
  // 1 + 2^-10 = 0x3c01, 2048 = 0x6800, 3.0 = 0x4200, 2.0 = 0x4000.
  const std::vector<uint16_t> operand = {0x3c00, 0x3c00, 0x6800, 0x4200};
  const std::vector<uint16_t> updates = {0x1000, 0x1400, 0x3c00, 0x4000};
  const std::vector<int32_t> indices = {0, 1, 2, 3};
  const ScatterAttrs a{{}, {0}, {0}, 1};
  EXPECT_EQ((RunScatter<uint16_t, int32_t>(operand, {4}, indices, {4, 1}, updates, {4}, a,
                                           Body::kAdd, tflite::TensorType_FLOAT16)),
            (std::vector<uint16_t>{0x3c00, 0x3c01, 0x6800, 0x4500}));
  EXPECT_EQ((RunScatter<uint16_t, int32_t>(operand, {4}, indices, {4, 1}, updates, {4}, a,
                                           Body::kMaximum, tflite::TensorType_FLOAT16)),
            (std::vector<uint16_t>{0x3c00, 0x3c00, 0x6800, 0x4200}));
}

void ExpectScatterError(const ScatterAttrs& a, const std::string& message,
                        std::vector<int> ushape = {2, 3, 2, 2}, tflite::TensorType type = F32,
                        tflite::TensorType index_type = I32, Body body = Body::kReplace,
                        tflite::BuiltinOperator body_op = tflite::BuiltinOperator_ADD) {
  OneOpModel m;
  BuildScatter(m, type, index_type, {3, 4, 2}, {2, 3, 2}, ushape, a, body, body_op);
  ExpectPrepareError(m, message);
}

TEST(StablehloScatterTest, RefusesBadAttributes) {
  ScatterAttrs a = kSpecScatter;
  a.index_vector_dim = 4;
  ExpectScatterError(a, "index_vector_dim is outside");
  a = kSpecScatter;
  a.update_window_dims = {3, 2};
  ExpectScatterError(a, "update_window_dims must be sorted");
  a = kSpecScatter;
  a.update_window_dims = {2};
  ExpectScatterError(a, "update_window_dims must be sorted");
  a = kSpecScatter;
  a.inserted_window_dims = {};
  ExpectScatterError(a, "inserted_window_dims must be sorted");
  a = kSpecScatter;
  a.scatter_dims_to_operand_dims = {1};
  ExpectScatterError(a, "one entry per index vector element");
  a = kSpecScatter;
  a.scatter_dims_to_operand_dims = {0, 0};
  ExpectScatterError(a, "must hold unique operand dimensions");
  ExpectScatterError(kSpecScatter, "an update window is larger than the operand", {2, 3, 5, 2});
  ExpectScatterError(kSpecScatter, "must match the scatter_indices dimensions", {2, 4, 2, 2});
  ExpectScatterError(kSpecScatter, "STABLEHLO_SCATTER: scatter_indices", {2, 3, 2, 2}, F32, F32);
  ExpectScatterError(kSpecScatter, "STABLEHLO_SCATTER: operand", {2, 3, 2, 2}, BOOL);
}

// Upstream supports only the STABLEHLO_ forms of add/multiply/max/min; a
// plain SUB (or ADD) body is refused.
TEST(StablehloScatterTest, RefusesUnsupportedComputation) {
  ExpectScatterError(kSpecScatter, "update computation (builtin code 41) not supported",
                     {2, 3, 2, 2}, F32, I32, Body::kReplace, tflite::BuiltinOperator_SUB);
}

}  // namespace
}  // namespace tflite_c

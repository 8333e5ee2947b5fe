// Tests of STABLEHLO_SCATTER. Expected values come from the StableHLO
// specification's examples (facts), hand computation, or the reference below
// (it follows the specification's formula step by step); never from the kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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

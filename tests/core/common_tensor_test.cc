// TfLiteTensor helpers of src/core/common.cc: null arguments, realloc
// (growth, overflow, non-owned buffers), free, reset, copy, variant payloads
// and the stability properties per allocation type.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"
#include "tests/core/common_test_util.h"

namespace {

using tflite_c::testing::MakeIntArray;

TfLiteTensor ZeroTensor() {
  TfLiteTensor t;
  std::memset(&t, 0, sizeof(t));
  return t;
}

TEST(Tensor, NullArgumentsDoNotCrash) {
  TfLiteTensorDataFree(nullptr);
  TfLiteTensorFree(nullptr);
  TfLiteQuantizationFree(nullptr);
  TfLiteSparsityFree(nullptr);
  TfLiteTensorReset(kTfLiteFloat32, "x", nullptr, {1.f, 0}, nullptr, 0,
                    kTfLiteDynamic, nullptr, false, nullptr);
  EXPECT_EQ(TfLiteTensorRealloc(8, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteTensorResizeMaybeCopy(8, nullptr, false), kTfLiteError);
  TfLiteTensor t = ZeroTensor();
  EXPECT_EQ(TfLiteTensorCopy(nullptr, &t), kTfLiteOk);
  EXPECT_EQ(TfLiteTensorCopy(&t, nullptr), kTfLiteOk);
  EXPECT_EQ(TfLiteTensorGetAllocationStrategy(nullptr),
            kTfLiteAllocationStrategyUnknown);
  EXPECT_EQ(TfLiteTensorGetBufferAddressStability(nullptr),
            kTfLiteRunStabilityUnknown);
  EXPECT_EQ(TfLiteTensorGetDataStability(nullptr), kTfLiteRunStabilityUnknown);
  EXPECT_EQ(TfLiteTensorGetDataKnownStep(nullptr), kTfLiteRunStepUnknown);
  EXPECT_EQ(TfLiteTensorGetShapeKnownStep(nullptr), kTfLiteRunStepUnknown);
}

TEST(Tensor, ReallocGrowsAndPreserves) {
  TfLiteTensor t = ZeroTensor();
  t.type = kTfLiteInt32;
  t.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(4 * sizeof(int32_t), &t), kTfLiteOk);
  ASSERT_NE(t.data.i32, nullptr);
  EXPECT_EQ(t.bytes, 4 * sizeof(int32_t));
  for (int i = 0; i < 4; ++i) t.data.i32[i] = i + 100;

  ASSERT_EQ(TfLiteTensorRealloc(1000 * sizeof(int32_t), &t), kTfLiteOk);
  EXPECT_EQ(t.bytes, 1000 * sizeof(int32_t));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.data.i32[i], i + 100);
  t.data.i32[999] = 7;  // whole new range is writable

  // Shrinking keeps the buffer and the data.
  int32_t* before = t.data.i32;
  ASSERT_EQ(TfLiteTensorRealloc(2 * sizeof(int32_t), &t), kTfLiteOk);
  EXPECT_EQ(t.data.i32, before);
  EXPECT_EQ(t.bytes, 2 * sizeof(int32_t));
  EXPECT_EQ(t.data.i32[1], 101);

  // Growth without preserve gives a buffer of the new size.
  ASSERT_EQ(TfLiteTensorResizeMaybeCopy(64, &t, false), kTfLiteOk);
  EXPECT_EQ(t.bytes, 64u);
  ASSERT_NE(t.data.raw, nullptr);
  std::memset(t.data.raw, 0xab, 64);

  // Zero bytes is fine too.
  ASSERT_EQ(TfLiteTensorRealloc(0, &t), kTfLiteOk);
  EXPECT_EQ(t.bytes, 0u);

  TfLiteTensorFree(&t);
  EXPECT_EQ(t.data.raw, nullptr);
}

TEST(Tensor, ReallocOverflowAndHugeFail) {
  TfLiteTensor t = ZeroTensor();
  t.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(16, &t), kTfLiteOk);
  char* kept = t.data.raw;
  kept[0] = 'k';
  EXPECT_EQ(TfLiteTensorRealloc(SIZE_MAX, &t), kTfLiteError);
  EXPECT_EQ(TfLiteTensorRealloc(SIZE_MAX - 8, &t), kTfLiteError);
  // Failed growth leaves the old buffer in place.
  EXPECT_EQ(t.data.raw, kept);
  EXPECT_EQ(t.bytes, 16u);
  EXPECT_EQ(t.data.raw[0], 'k');
  TfLiteTensorFree(&t);

  TfLiteTensor u = ZeroTensor();
  u.allocation_type = kTfLiteDynamic;
  EXPECT_EQ(TfLiteTensorResizeMaybeCopy(SIZE_MAX - 4, &u, false), kTfLiteError);
  EXPECT_EQ(u.data.raw, nullptr);
}

TEST(Tensor, ReallocIgnoresNonOwnedBuffers) {
  char buffer[8] = {0};
  for (TfLiteAllocationType type :
       {kTfLiteMmapRo, kTfLiteArenaRw, kTfLiteArenaRwPersistent, kTfLiteCustom,
        kTfLiteMemNone}) {
    TfLiteTensor t = ZeroTensor();
    t.allocation_type = type;
    t.data.raw = buffer;
    t.bytes = sizeof(buffer);
    EXPECT_EQ(TfLiteTensorRealloc(1024, &t), kTfLiteOk);
    EXPECT_EQ(t.data.raw, buffer);
    EXPECT_EQ(t.bytes, sizeof(buffer));
    TfLiteTensorDataFree(&t);  // must not free() the stack buffer
    EXPECT_EQ(t.data.raw, nullptr);
  }
}

TEST(Tensor, PersistentRoIsResizable) {
  TfLiteTensor t = ZeroTensor();
  t.allocation_type = kTfLitePersistentRo;
  ASSERT_EQ(TfLiteTensorRealloc(32, &t), kTfLiteOk);
  EXPECT_NE(t.data.raw, nullptr);
  TfLiteTensorFree(&t);
}

TEST(Tensor, FreeReleasesEverything) {
  TfLiteTensor t = ZeroTensor();
  t.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(12, &t), kTfLiteOk);
  t.dims = MakeIntArray({3});
  t.dims_signature = MakeIntArray({-1});
  auto* affine = static_cast<TfLiteAffineQuantization*>(
      std::malloc(sizeof(TfLiteAffineQuantization)));
  affine->scale = TfLiteFloatArrayCreate(1);
  affine->scale->data[0] = 0.5f;
  affine->zero_point = MakeIntArray({0});
  affine->quantized_dimension = 0;
  t.quantization.type = kTfLiteAffineQuantization;
  t.quantization.params = affine;

  auto* sparsity =
      static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  sparsity->traversal_order = MakeIntArray({0, 1});
  sparsity->block_map = MakeIntArray({0});
  sparsity->dim_metadata_size = 2;
  sparsity->dim_metadata = static_cast<TfLiteDimensionMetadata*>(
      std::calloc(2, sizeof(TfLiteDimensionMetadata)));
  sparsity->dim_metadata[0].format = kTfLiteDimDense;
  sparsity->dim_metadata[0].dense_size = 3;
  sparsity->dim_metadata[1].format = kTfLiteDimSparseCSR;
  sparsity->dim_metadata[1].array_segments = MakeIntArray({0, 2});
  sparsity->dim_metadata[1].array_indices = MakeIntArray({0, 1});
  t.sparsity = sparsity;

  TfLiteTensorFree(&t);  // leak checkers verify the rest
  EXPECT_EQ(t.data.raw, nullptr);
  EXPECT_EQ(t.dims, nullptr);
  EXPECT_EQ(t.dims_signature, nullptr);
  EXPECT_EQ(t.sparsity, nullptr);
  EXPECT_EQ(t.quantization.type, kTfLiteNoQuantization);
  EXPECT_EQ(t.quantization.params, nullptr);
}

TEST(Tensor, QuantizationFreeTolerance) {
  TfLiteQuantization q = {kTfLiteAffineQuantization, nullptr};
  TfLiteQuantizationFree(&q);
  EXPECT_EQ(q.type, kTfLiteNoQuantization);
  auto* affine = static_cast<TfLiteAffineQuantization*>(
      std::calloc(1, sizeof(TfLiteAffineQuantization)));
  q.type = kTfLiteAffineQuantization;
  q.params = affine;
  TfLiteQuantizationFree(&q);
  EXPECT_EQ(q.params, nullptr);
}

TEST(Tensor, Reset) {
  TfLiteTensor t = ZeroTensor();
  t.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(8, &t), kTfLiteOk);
  t.dims = MakeIntArray({2});
  char buffer[16];
  TfLiteIntArray* dims = MakeIntArray({4});
  TfLiteQuantizationParams qp = {0.25f, 3};
  TfLiteTensorReset(kTfLiteInt8, "name", dims, qp, buffer, sizeof(buffer),
                    kTfLiteArenaRw, &buffer, true, &t);
  EXPECT_EQ(t.type, kTfLiteInt8);
  EXPECT_STREQ(t.name, "name");
  EXPECT_EQ(t.dims, dims);
  EXPECT_EQ(t.params.scale, 0.25f);
  EXPECT_EQ(t.params.zero_point, 3);
  EXPECT_EQ(t.data.raw, buffer);
  EXPECT_EQ(t.bytes, sizeof(buffer));
  EXPECT_EQ(t.allocation_type, kTfLiteArenaRw);
  EXPECT_EQ(t.allocation, static_cast<const void*>(&buffer));
  EXPECT_TRUE(t.is_variable);
  EXPECT_EQ(t.quantization.type, kTfLiteNoQuantization);
  TfLiteTensorFree(&t);  // frees dims, leaves the arena buffer alone
}

TEST(Tensor, Copy) {
  TfLiteTensor src = ZeroTensor();
  src.type = kTfLiteFloat32;
  src.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(3 * sizeof(float), &src), kTfLiteOk);
  src.data.f[0] = 1.f;
  src.data.f[1] = 2.f;
  src.data.f[2] = 3.f;
  src.dims = MakeIntArray({3});
  src.buffer_handle = 5;
  src.data_is_stale = true;

  TfLiteTensor dst = ZeroTensor();
  dst.allocation_type = kTfLiteDynamic;
  dst.dims = MakeIntArray({1, 1});
  ASSERT_EQ(TfLiteTensorRealloc(3 * sizeof(float), &dst), kTfLiteOk);
  ASSERT_EQ(TfLiteTensorCopy(&src, &dst), kTfLiteOk);
  EXPECT_EQ(dst.type, kTfLiteFloat32);
  EXPECT_TRUE(TfLiteIntArrayEqual(src.dims, dst.dims));
  EXPECT_NE(src.dims, dst.dims);
  EXPECT_EQ(dst.data.f[2], 3.f);
  EXPECT_EQ(dst.buffer_handle, 5);
  EXPECT_TRUE(dst.data_is_stale);
  EXPECT_EQ(TfLiteTensorCopy(&src, &src), kTfLiteOk);

  // Byte count mismatch is an error.
  TfLiteTensor small = ZeroTensor();
  small.allocation_type = kTfLiteDynamic;
  ASSERT_EQ(TfLiteTensorRealloc(4, &small), kTfLiteOk);
  EXPECT_EQ(TfLiteTensorCopy(&src, &small), kTfLiteError);

  // Missing destination buffer is an error, not a crash.
  TfLiteTensor nodata = ZeroTensor();
  nodata.bytes = src.bytes;
  EXPECT_EQ(TfLiteTensorCopy(&src, &nodata), kTfLiteError);

  TfLiteTensorFree(&src);
  TfLiteTensorFree(&dst);
  TfLiteTensorFree(&small);
}

// A variant payload used to exercise the C++ helpers in common.h.
struct Counter : AbstractVariantData<Counter> {
  explicit Counter(int v) : value(v) { ++live; }
  Counter(const Counter& other) : AbstractVariantData<Counter>(other),
                                  value(other.value) {
    ++live;
  }
  ~Counter() override { --live; }
  int value;
  static int live;
};
int Counter::live = 0;

TEST(Tensor, VariantLifecycle) {
  {
    TfLiteTensor t = ZeroTensor();
    t.type = kTfLiteFloat32;
    EXPECT_EQ(TfLiteTensorVariantRealloc<Counter>(&t, 1), kTfLiteError);

    t.type = kTfLiteVariant;
    ASSERT_EQ(TfLiteTensorVariantRealloc<Counter>(&t, 1), kTfLiteOk);
    EXPECT_EQ(t.allocation_type, kTfLiteVariantObject);
    EXPECT_EQ(Counter::live, 1);
    ASSERT_EQ(TfLiteTensorVariantRealloc<Counter>(&t, 2), kTfLiteOk);
    EXPECT_EQ(Counter::live, 1);
    EXPECT_EQ(static_cast<Counter*>(t.data.data)->value, 2);

    TfLiteTensor u = ZeroTensor();
    u.type = kTfLiteVariant;
    ASSERT_EQ(TfLiteTensorCopy(&t, &u), kTfLiteOk);
    EXPECT_EQ(u.allocation_type, kTfLiteVariantObject);
    EXPECT_EQ(Counter::live, 2);
    EXPECT_EQ(static_cast<Counter*>(u.data.data)->value, 2);
    // Copy again into the existing object (placement path).
    static_cast<Counter*>(t.data.data)->value = 9;
    ASSERT_EQ(TfLiteTensorCopy(&t, &u), kTfLiteOk);
    EXPECT_EQ(Counter::live, 2);
    EXPECT_EQ(static_cast<Counter*>(u.data.data)->value, 9);

    TfLiteTensorFree(&t);
    TfLiteTensorFree(&u);
  }
  EXPECT_EQ(Counter::live, 0);
}

TEST(Tensor, PropertiesByAllocationType) {
  TfLiteTensor t = ZeroTensor();
  struct Row {
    TfLiteAllocationType type;
    TfLiteAllocationStrategy strategy;
    TfLiteRunStability address, data;
    TfLiteRunStep data_step, shape_step;
  };
  const Row rows[] = {
      {kTfLiteMemNone, kTfLiteAllocationStrategyNone,
       kTfLiteRunStabilityAcrossRuns, kTfLiteRunStabilityAcrossRuns,
       kTfLiteRunStepInit, kTfLiteRunStepInit},
      {kTfLiteMmapRo, kTfLiteAllocationStrategyMMap,
       kTfLiteRunStabilityAcrossRuns, kTfLiteRunStabilityAcrossRuns,
       kTfLiteRunStepInit, kTfLiteRunStepInit},
      {kTfLiteArenaRw, kTfLiteAllocationStrategyArena,
       kTfLiteRunStabilityUnstable, kTfLiteRunStabilitySingleRun,
       kTfLiteRunStepEval, kTfLiteRunStepPrepare},
      {kTfLiteArenaRwPersistent, kTfLiteAllocationStrategyArena,
       kTfLiteRunStabilityUnstable, kTfLiteRunStabilityAcrossRuns,
       kTfLiteRunStepEval, kTfLiteRunStepPrepare},
      {kTfLiteDynamic, kTfLiteAllocationStrategyMalloc,
       kTfLiteRunStabilitySingleRun, kTfLiteRunStabilitySingleRun,
       kTfLiteRunStepEval, kTfLiteRunStepEval},
      {kTfLitePersistentRo, kTfLiteAllocationStrategyUnknown,
       kTfLiteRunStabilitySingleRun, kTfLiteRunStabilitySingleRun,
       kTfLiteRunStepPrepare, kTfLiteRunStepPrepare},
      {kTfLiteCustom, kTfLiteAllocationStrategyUnknown,
       kTfLiteRunStabilityUnknown, kTfLiteRunStabilityUnknown,
       kTfLiteRunStepUnknown, kTfLiteRunStepUnknown},
      {kTfLiteVariantObject, kTfLiteAllocationStrategyNew,
       kTfLiteRunStabilityAcrossRuns, kTfLiteRunStabilitySingleRun,
       kTfLiteRunStepEval, kTfLiteRunStepEval},
      {kTfLiteNonCpu, kTfLiteAllocationStrategyUnknown,
       kTfLiteRunStabilityUnknown, kTfLiteRunStabilityUnknown,
       kTfLiteRunStepUnknown, kTfLiteRunStepUnknown},
  };
  for (const Row& r : rows) {
    t.allocation_type = r.type;
    EXPECT_EQ(TfLiteTensorGetAllocationStrategy(&t), r.strategy) << r.type;
    EXPECT_EQ(TfLiteTensorGetBufferAddressStability(&t), r.address) << r.type;
    EXPECT_EQ(TfLiteTensorGetDataStability(&t), r.data) << r.type;
    EXPECT_EQ(TfLiteTensorGetDataKnownStep(&t), r.data_step) << r.type;
    EXPECT_EQ(TfLiteTensorGetShapeKnownStep(&t), r.shape_step) << r.type;
  }
}

}  // namespace

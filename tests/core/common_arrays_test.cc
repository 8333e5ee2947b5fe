// TfLiteIntArray and TfLiteFloatArray helpers of src/core/common.cc: sizes,
// create/copy/free, equality.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"
#include "tests/core/common_test_util.h"

namespace {

using tflite_c::testing::MakeIntArray;

TEST(IntArray, SizeInBytes) {
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(0), sizeof(int));
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(1), 2 * sizeof(int));
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(3), 4 * sizeof(int));
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(-1), 0u);
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(INT_MIN), 0u);
  EXPECT_EQ(TfLiteIntArrayGetSizeInBytes(INT_MAX),
            sizeof(int) + static_cast<size_t>(INT_MAX) * sizeof(int));
}

TEST(IntArray, CreateAndFree) {
  TfLiteIntArray* empty = TfLiteIntArrayCreate(0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->size, 0);
  TfLiteIntArrayFree(empty);

  TfLiteIntArray* a = TfLiteIntArrayCreate(4);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->size, 4);
  for (int i = 0; i < 4; ++i) a->data[i] = i * 10;
  EXPECT_EQ(a->data[3], 30);
  TfLiteIntArrayFree(a);

  EXPECT_EQ(TfLiteIntArrayCreate(-1), nullptr);
  EXPECT_EQ(TfLiteIntArrayCreate(INT_MIN), nullptr);
  TfLiteIntArrayFree(nullptr);  // no-op
}

TEST(IntArray, Copy) {
  EXPECT_EQ(TfLiteIntArrayCopy(nullptr), nullptr);
  TfLiteIntArray* a = MakeIntArray({1, 2, 3});
  TfLiteIntArray* b = TfLiteIntArrayCopy(a);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_TRUE(TfLiteIntArrayEqual(a, b));
  b->data[0] = 7;
  EXPECT_EQ(a->data[0], 1);
  TfLiteIntArrayFree(a);
  TfLiteIntArrayFree(b);

  TfLiteIntArray* e = TfLiteIntArrayCreate(0);
  TfLiteIntArray* ec = TfLiteIntArrayCopy(e);
  ASSERT_NE(ec, nullptr);
  EXPECT_EQ(ec->size, 0);
  TfLiteIntArrayFree(e);
  TfLiteIntArrayFree(ec);
}

TEST(IntArray, Equal) {
  TfLiteIntArray* a = MakeIntArray({1, 2, 3});
  TfLiteIntArray* b = MakeIntArray({1, 2, 3});
  TfLiteIntArray* c = MakeIntArray({1, 2, 4});
  TfLiteIntArray* d = MakeIntArray({1, 2});
  TfLiteIntArray* e = TfLiteIntArrayCreate(0);
  EXPECT_EQ(TfLiteIntArrayEqual(nullptr, nullptr), 1);
  EXPECT_EQ(TfLiteIntArrayEqual(a, nullptr), 0);
  EXPECT_EQ(TfLiteIntArrayEqual(nullptr, a), 0);
  EXPECT_EQ(TfLiteIntArrayEqual(nullptr, e), 0);
  EXPECT_EQ(TfLiteIntArrayEqual(a, a), 1);
  EXPECT_EQ(TfLiteIntArrayEqual(a, b), 1);
  EXPECT_EQ(TfLiteIntArrayEqual(a, c), 0);
  EXPECT_EQ(TfLiteIntArrayEqual(a, d), 0);
  EXPECT_EQ(TfLiteIntArrayEqual(e, e), 1);
  for (TfLiteIntArray* x : {a, b, c, d, e}) TfLiteIntArrayFree(x);
}

TEST(IntArray, EqualsArray) {
  TfLiteIntArray* a = MakeIntArray({4, 5});
  const int same[] = {4, 5};
  const int other[] = {4, 6};
  EXPECT_EQ(TfLiteIntArrayEqualsArray(a, 2, same), 1);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(a, 2, other), 0);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(a, 1, same), 0);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(a, 2, nullptr), 0);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(a, -2, same), 0);
  // A NULL array equals the empty list only.
  EXPECT_EQ(TfLiteIntArrayEqualsArray(nullptr, 0, nullptr), 1);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(nullptr, 2, same), 0);
  TfLiteIntArray* e = TfLiteIntArrayCreate(0);
  EXPECT_EQ(TfLiteIntArrayEqualsArray(e, 0, nullptr), 1);
  TfLiteIntArrayFree(e);
  TfLiteIntArrayFree(a);
}

TEST(FloatArray, CreateCopyFree) {
  EXPECT_EQ(TfLiteFloatArrayGetSizeInBytes(0), 4);
  EXPECT_EQ(TfLiteFloatArrayGetSizeInBytes(2), 12);
  EXPECT_EQ(TfLiteFloatArrayGetSizeInBytes(-5), 0);
  // Does not fit in the int return type.
  EXPECT_EQ(TfLiteFloatArrayGetSizeInBytes(INT_MAX), 0);
  EXPECT_EQ(TfLiteFloatArrayCreate(-1), nullptr);
  EXPECT_EQ(TfLiteFloatArrayCopy(nullptr), nullptr);
  TfLiteFloatArray* f = TfLiteFloatArrayCreate(2);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->size, 2);
  f->data[0] = 0.5f;
  f->data[1] = -1.5f;
  TfLiteFloatArray* g = TfLiteFloatArrayCopy(f);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->size, 2);
  EXPECT_EQ(g->data[1], -1.5f);
  TfLiteFloatArrayFree(f);
  TfLiteFloatArrayFree(g);
  TfLiteFloatArrayFree(nullptr);
}

}  // namespace

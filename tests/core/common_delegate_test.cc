// TfLiteDelegateCreate and the opaque delegate helpers of src/core/common.cc.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

namespace {

TEST(Delegate, CreateIsZeroed) {
  TfLiteDelegate d = TfLiteDelegateCreate();
  EXPECT_EQ(d.data_, nullptr);
  EXPECT_EQ(d.Prepare, nullptr);
  EXPECT_EQ(d.CopyFromBufferHandle, nullptr);
  EXPECT_EQ(d.CopyToBufferHandle, nullptr);
  EXPECT_EQ(d.FreeBufferHandle, nullptr);
  EXPECT_EQ(d.flags, kTfLiteDelegateFlagsNone);
  EXPECT_EQ(d.opaque_delegate_builder, nullptr);
}

TEST(Delegate, Opaque) {
  EXPECT_EQ(TfLiteOpaqueDelegateCreate(nullptr), nullptr);
  TfLiteOpaqueDelegateDelete(nullptr);
  EXPECT_EQ(TfLiteOpaqueDelegateGetData(nullptr), nullptr);

  int payload = 0;
  TfLiteOpaqueDelegateBuilder builder;
  std::memset(&builder, 0, sizeof(builder));
  builder.data = &payload;
  builder.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  TfLiteOpaqueDelegate* d = TfLiteOpaqueDelegateCreate(&builder);
  ASSERT_NE(d, nullptr);
  builder.data = nullptr;  // the delegate keeps its own copy
  EXPECT_EQ(TfLiteOpaqueDelegateGetData(d), &payload);
  ASSERT_NE(d->opaque_delegate_builder, nullptr);
  EXPECT_EQ(d->opaque_delegate_builder->flags,
            kTfLiteDelegateFlagsAllowDynamicTensors);
  TfLiteOpaqueDelegateDelete(d);

  // A classic delegate reports its data_ member.
  TfLiteDelegate classic = TfLiteDelegateCreate();
  classic.data_ = &payload;
  EXPECT_EQ(TfLiteOpaqueDelegateGetData(&classic), &payload);
}

}  // namespace

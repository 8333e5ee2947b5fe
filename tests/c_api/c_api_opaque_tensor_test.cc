// The opaque extension API's tensor and node accessors (core/c/c_api_opaque.h):
// string tensors through a graph and the string helpers, and every accessor's
// success and failure values on hand-made tensors and nodes.
#include "tensorflow/lite/core/c/c_api_opaque.h"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>


#include <gtest/gtest.h>

#include "src/c_api/c_api_internal.h"
#include "src/core/subgraph.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/c_api/opaque_test_util.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;
using tflite_c::testing::Runner;

// ---- string tensors -------------------------------------------------------------

// Output strings are the input strings upper-cased, in reverse order.
TfLiteStatus UpperPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(out), kTfLiteString);
  TfLiteOpaqueTensorSetAllocationTypeToDynamic(out);
  return kTfLiteOk;
}

TfLiteStatus UpperInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const int n = TfLiteOpaqueTensorGetStringCount(in);
  TF_LITE_OPAQUE_ENSURE(context, n >= 0);
  std::vector<std::string> strings(n);
  for (int i = 0; i < n; ++i) {
    const char* s = nullptr;
    int len = -1;
    TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorGetString(in, i, &s, &len), kTfLiteOk);
    std::string u(s, static_cast<size_t>(len));
    for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    strings[n - 1 - i] = u;
  }
  std::vector<const char*> ptrs;
  std::vector<int> lens;
  for (const std::string& s : strings) {
    ptrs.push_back(s.data());
    lens.push_back(static_cast<int>(s.size()));
  }
  return TfLiteOpaqueTensorWriteStrings(out, ptrs.data(), n, lens.data());
}

TEST(OpaqueTensor, StringTensorsRoundTripThroughAGraph) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_STRING, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_STRING, {2}, "y");
  b.AddCustomOperator("Upper", {x}, {y});
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Upper", 1, nullptr);
  TfLiteOperatorSetPrepare(op, UpperPrepare);
  TfLiteOperatorSetInvoke(op, UpperInvoke);
  {
    Runner r(b.Finish(), {op});
    ASSERT_NE(r.get(), nullptr) << r.log();
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk) << r.log();
    auto* input =
        reinterpret_cast<TfLiteOpaqueTensor*>(TfLiteInterpreterGetInputTensor(r.get(), 0));
    const char* strs[3] = {"abc", "", "x\0y"};
    const int lens[3] = {3, 0, 3};
    ASSERT_EQ(TfLiteOpaqueTensorWriteStrings(input, strs, 3, lens), kTfLiteOk);
    EXPECT_EQ(TfLiteOpaqueTensorNumDims(input), 1);
    EXPECT_EQ(TfLiteOpaqueTensorDim(input, 0), 3);
    ASSERT_EQ(TfLiteInterpreterInvoke(r.get()), kTfLiteOk) << r.log();
    const auto* output = reinterpret_cast<const TfLiteOpaqueTensor*>(
        TfLiteInterpreterGetOutputTensor(r.get(), 0));
    ASSERT_EQ(TfLiteOpaqueTensorGetStringCount(output), 3);
    EXPECT_EQ(TfLiteOpaqueTensorDim(output, 0), 3);
    const std::string expected[3] = {std::string("X\0Y", 3), "", "ABC"};
    for (int i = 0; i < 3; ++i) {
      const char* s = nullptr;
      int len = -1;
      ASSERT_EQ(TfLiteOpaqueTensorGetString(output, i, &s, &len), kTfLiteOk);
      EXPECT_EQ(std::string(s, static_cast<size_t>(len)), expected[i]) << i;
    }
  }
  TfLiteOperatorDelete(op);
}

TEST(OpaqueTensor, StringHelpers) {
  TfLiteTensor t{};
  t.type = kTfLiteString;
  t.allocation_type = kTfLiteDynamic;
  auto* ot = reinterpret_cast<TfLiteOpaqueTensor*>(&t);

  // No data yet.
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), -1);

  const char* strs[2] = {"hello", "wide world"};
  const int lens[2] = {5, 10};
  ASSERT_EQ(TfLiteOpaqueTensorWriteStrings(ot, strs, 2, lens), kTfLiteOk);
  // Buffer layout: count, 3 offsets, then the bytes.
  ASSERT_EQ(t.bytes, 4u * 4u + 15u);
  int32_t header[4];
  std::memcpy(header, t.data.raw, sizeof(header));
  EXPECT_EQ(header[0], 2);
  EXPECT_EQ(header[1], 16);
  EXPECT_EQ(header[2], 21);
  EXPECT_EQ(header[3], 31);
  EXPECT_EQ(std::string(t.data.raw + 16, 15), "hellowide world");
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), 2);
  const char* s = nullptr;
  int len = 0;
  ASSERT_EQ(TfLiteOpaqueTensorGetString(ot, 1, &s, &len), kTfLiteOk);
  EXPECT_EQ(std::string(s, len), "wide world");
  EXPECT_EQ(TfLiteOpaqueTensorGetString(ot, 2, &s, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(ot, -1, &s, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(ot, 0, nullptr, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(nullptr, 0, &s, &len), kTfLiteError);

  // Single string replaces everything.
  ASSERT_EQ(TfLiteOpaqueTensorWriteString(ot, "z", 1), kTfLiteOk);
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), 1);
  ASSERT_EQ(TfLiteOpaqueTensorNumDims(ot), 1);
  EXPECT_EQ(TfLiteOpaqueTensorDim(ot, 0), 1);
  ASSERT_EQ(TfLiteOpaqueTensorGetString(ot, 0, &s, &len), kTfLiteOk);
  EXPECT_EQ(std::string(s, len), "z");

  // Zero strings.
  ASSERT_EQ(TfLiteOpaqueTensorWriteStrings(ot, nullptr, 0, nullptr), kTfLiteOk);
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), 0);
  EXPECT_EQ(t.bytes, 8u);

  // Invalid input leaves the tensor untouched.
  const int bad_len[1] = {-1};
  EXPECT_EQ(TfLiteOpaqueTensorWriteStrings(ot, strs, 1, bad_len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorWriteStrings(ot, strs, -1, lens), kTfLiteError);
  const char* null_str[1] = {nullptr};
  EXPECT_EQ(TfLiteOpaqueTensorWriteStrings(ot, null_str, 1, lens), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorWriteString(nullptr, "a", 1), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), 0);

  // A corrupt header is detected instead of read past the buffer.
  int32_t corrupt[2] = {1000, 8};
  std::memcpy(t.data.raw, corrupt, sizeof(corrupt));
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(ot), -1);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(ot, 0, &s, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetStringCount(nullptr), -1);

  TfLiteTensorFree(&t);
}

// ---- tensor accessors on a hand-made tensor ------------------------------------

TEST(OpaqueTensor, Accessors) {
  TfLiteTensor t{};
  t.type = kTfLiteInt16;
  t.name = "tensor_name";
  t.dims = TfLiteIntArrayCreate(2);
  t.dims->data[0] = 2;
  t.dims->data[1] = 3;
  TfLiteIntArray* sig = TfLiteIntArrayCreate(2);
  sig->data[0] = -1;
  sig->data[1] = 3;
  t.dims_signature = sig;
  t.is_variable = true;
  t.params = {0.5f, 7};
  int16_t storage[6] = {1, 2, 3, 4, 5, 6};
  t.data.raw = reinterpret_cast<char*>(storage);
  t.bytes = sizeof(storage);
  t.allocation_type = kTfLiteArenaRw;
  auto* ot = reinterpret_cast<TfLiteOpaqueTensor*>(&t);

  EXPECT_EQ(TfLiteOpaqueTensorType(ot), kTfLiteInt16);
  EXPECT_EQ(TfLiteOpaqueTensorNumDims(ot), 2);
  EXPECT_EQ(TfLiteOpaqueTensorDim(ot, 1), 3);
  EXPECT_EQ(TfLiteOpaqueTensorDim(ot, 2), -1);
  EXPECT_EQ(TfLiteOpaqueTensorDim(ot, -1), -1);
  int32_t n = 0;
  ASSERT_EQ(TfLiteOpaqueTensorGetNumDimsSignature(ot, &n), kTfLiteOk);
  EXPECT_EQ(n, 2);
  int32_t d = 0;
  ASSERT_EQ(TfLiteOpaqueTensorGetDimSignature(ot, 0, &d), kTfLiteOk);
  EXPECT_EQ(d, -1);
  EXPECT_EQ(TfLiteOpaqueTensorGetDimSignature(ot, 2, &d), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetDimSignature(ot, 0, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorIsVariable(ot), 1);
  EXPECT_EQ(TfLiteOpaqueTensorByteSize(ot), sizeof(storage));
  EXPECT_EQ(TfLiteOpaqueTensorData(ot), storage);
  EXPECT_EQ(TfLiteOpaqueTensorGetAllocationType(ot), kTfLiteArenaRw);
  EXPECT_EQ(TfLiteOpaqueTensorGetAllocationStrategy(ot), kTfLiteAllocationStrategyArena);
  EXPECT_EQ(TfLiteOpaqueTensorGetBufferAddressStability(ot),
            TfLiteTensorGetBufferAddressStability(&t));
  EXPECT_EQ(TfLiteOpaqueTensorGetDataStability(ot), TfLiteTensorGetDataStability(&t));
  EXPECT_EQ(TfLiteOpaqueTensorGetDataKnownStep(ot), TfLiteTensorGetDataKnownStep(&t));
  EXPECT_EQ(TfLiteOpaqueTensorGetShapeKnownStep(ot), TfLiteTensorGetShapeKnownStep(&t));
  EXPECT_STREQ(TfLiteOpaqueTensorName(ot), "tensor_name");
  EXPECT_EQ(TfLiteOpaqueTensorGetQuantization(ot).type, kTfLiteNoQuantization);
  EXPECT_FLOAT_EQ(TfLiteOpaqueTensorGetQuantizationParams(ot).scale, 0.5f);
  EXPECT_EQ(TfLiteOpaqueTensorGetQuantizationParams(ot).zero_point, 7);

  int16_t copy[6] = {};
  EXPECT_EQ(TfLiteOpaqueTensorCopyToBuffer(ot, copy, sizeof(copy) - 2), kTfLiteError);
  ASSERT_EQ(TfLiteOpaqueTensorCopyToBuffer(ot, copy, sizeof(copy)), kTfLiteOk);
  EXPECT_EQ(copy[5], 6);
  const int16_t fresh[6] = {9, 9, 9, 9, 9, 9};
  EXPECT_EQ(TfLiteOpaqueTensorCopyFromBuffer(ot, fresh, 4), kTfLiteError);
  ASSERT_EQ(TfLiteOpaqueTensorCopyFromBuffer(ot, fresh, sizeof(fresh)), kTfLiteOk);
  EXPECT_EQ(storage[0], 9);

  // Without a signature: -1 rank, per-dimension lookups fall back to dims.
  TfLiteIntArrayFree(sig);
  t.dims_signature = nullptr;
  ASSERT_EQ(TfLiteOpaqueTensorGetNumDimsSignature(ot, &n), kTfLiteOk);
  EXPECT_EQ(n, -1);
  ASSERT_EQ(TfLiteOpaqueTensorGetDimSignature(ot, 0, &d), kTfLiteOk);
  EXPECT_EQ(d, 2);

  // Arena data is let go of, not freed, when switching to dynamic.
  TfLiteOpaqueTensorSetAllocationTypeToDynamic(ot);
  EXPECT_EQ(t.allocation_type, kTfLiteDynamic);
  EXPECT_EQ(t.data.raw, nullptr);
  TfLiteOpaqueTensorSetNonCpuAllocation(ot);
  EXPECT_EQ(t.allocation_type, kTfLiteNonCpu);

  TfLiteIntArrayFree(t.dims);
}

TEST(OpaqueTensor, NullTensorGivesFailureValues) {
  EXPECT_EQ(TfLiteOpaqueTensorType(nullptr), kTfLiteNoType);
  EXPECT_EQ(TfLiteOpaqueTensorNumDims(nullptr), -1);
  EXPECT_EQ(TfLiteOpaqueTensorDim(nullptr, 0), -1);
  int32_t v = 5;
  EXPECT_EQ(TfLiteOpaqueTensorGetNumDimsSignature(nullptr, &v), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetDimSignature(nullptr, 0, &v), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorIsVariable(nullptr), 0);
  EXPECT_EQ(TfLiteOpaqueTensorByteSize(nullptr), 0u);
  EXPECT_EQ(TfLiteOpaqueTensorData(nullptr), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorGetAllocationType(nullptr), kTfLiteMemNone);
  EXPECT_EQ(TfLiteOpaqueTensorGetAllocationStrategy(nullptr), kTfLiteAllocationStrategyUnknown);
  EXPECT_EQ(TfLiteOpaqueTensorGetBufferAddressStability(nullptr), kTfLiteRunStabilityUnknown);
  EXPECT_EQ(TfLiteOpaqueTensorGetDataStability(nullptr), kTfLiteRunStabilityUnknown);
  EXPECT_EQ(TfLiteOpaqueTensorGetDataKnownStep(nullptr), kTfLiteRunStepUnknown);
  EXPECT_EQ(TfLiteOpaqueTensorGetShapeKnownStep(nullptr), kTfLiteRunStepUnknown);
  EXPECT_EQ(TfLiteOpaqueTensorName(nullptr), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorGetQuantization(nullptr).type, kTfLiteNoQuantization);
  EXPECT_EQ(TfLiteOpaqueTensorGetQuantization(nullptr).params, nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorGetQuantizationParams(nullptr).zero_point, 0);
  char buf[4];
  EXPECT_EQ(TfLiteOpaqueTensorCopyFromBuffer(nullptr, buf, 4), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorCopyToBuffer(nullptr, buf, 4), kTfLiteError);
  TfLiteOpaqueTensorSetAllocationTypeToDynamic(nullptr);
  TfLiteOpaqueTensorSetNonCpuAllocation(nullptr);
}

TEST(OpaqueTensorBuilder, NullBuilderIsTolerated) {
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetType(nullptr, kTfLiteFloat32), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetData(nullptr, nullptr), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetAllocationType(nullptr, kTfLiteArenaRw), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetQuantizationParams(nullptr, {1.0f, 0}), nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetQuantization(nullptr, {kTfLiteNoQuantization, nullptr}),
            nullptr);
  TfLiteOpaqueTensorBuilderDelete(nullptr);
  TfLiteOpaqueTensorBuilder* b = TfLiteOpaqueTensorBuilderCreate();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(TfLiteOpaqueTensorBuilderSetType(b, kTfLiteInt32), b);
  TfLiteOpaqueTensorBuilderDelete(b);
}

// ---- node accessors on a hand-made node ------------------------------------------

TEST(OpaqueNode, AccessorsAndFailureValues) {
  TfLiteNode node{};
  node.inputs = TfLiteIntArrayCreate(2);
  node.inputs->data[0] = 4;
  node.inputs->data[1] = kTfLiteOptionalTensor;
  node.outputs = TfLiteIntArrayCreate(1);
  node.outputs->data[0] = 0;
  node.temporaries = TfLiteIntArrayCreate(0);
  int user = 0;
  node.user_data = &user;
  const char init[3] = {1, 2, 3};
  node.custom_initial_data = init;
  node.custom_initial_data_size = 3;
  auto* on = reinterpret_cast<TfLiteOpaqueNode*>(&node);

  EXPECT_EQ(TfLiteOpaqueNodeNumberOfInputs(on), 2);
  EXPECT_EQ(TfLiteOpaqueNodeNumberOfOutputs(on), 1);
  EXPECT_EQ(TfLiteOpaqueNodeGetUserData(on), &user);
  EXPECT_EQ(TfLiteOpaqueNodeGetBuiltinData(on), nullptr);
  const void* data = nullptr;
  int size = 0;
  ASSERT_EQ(TfLiteOpaqueNodeGetCustomInitialData(on, &data, &size), kTfLiteOk);
  EXPECT_EQ(data, init);
  EXPECT_EQ(size, 3);
  EXPECT_EQ(TfLiteOpaqueNodeGetInputTensorIndex(on, 1), kTfLiteOptionalTensor);
  EXPECT_EQ(TfLiteOpaqueNodeGetInputTensorIndex(on, 2), -1);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutputTensorIndex(on, 0), 0);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutputTensorIndex(on, 1), -1);

  const int temps[2] = {7, 8};
  EXPECT_EQ(TfLiteOpaqueNodeSetTemporaries(on, temps, -1), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeSetTemporaries(on, nullptr, 2), kTfLiteError);
  ASSERT_EQ(TfLiteOpaqueNodeSetTemporaries(on, temps, 2), kTfLiteOk);
  const int* got = nullptr;
  int num = 0;
  ASSERT_EQ(TfLiteOpaqueNodeTemporaries(on, &got, &num), kTfLiteOk);
  ASSERT_EQ(num, 2);
  EXPECT_EQ(got[1], 8);
  EXPECT_EQ(TfLiteOpaqueNodeTemporaries(on, nullptr, &num), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeInputs(on, &got, nullptr), kTfLiteError);

  // Tensor lookups need a context: with none there is nothing to return.
  EXPECT_EQ(TfLiteOpaqueNodeGetInput(nullptr, on, 0), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutput(nullptr, on, 0), nullptr);

  // NULL node.
  EXPECT_EQ(TfLiteOpaqueNodeNumberOfInputs(nullptr), -1);
  EXPECT_EQ(TfLiteOpaqueNodeNumberOfOutputs(nullptr), -1);
  EXPECT_EQ(TfLiteOpaqueNodeGetUserData(nullptr), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetBuiltinData(nullptr), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetCustomInitialData(nullptr, &data, &size), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeInputs(nullptr, &got, &num), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeOutputs(nullptr, &got, &num), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeTemporaries(nullptr, &got, &num), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeSetTemporaries(nullptr, temps, 1), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeGetInputTensorIndex(nullptr, 0), -1);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutputTensorIndex(nullptr, 0), -1);
  EXPECT_EQ(TfLiteOpaqueNodeGetInput(nullptr, nullptr, 0), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutput(nullptr, nullptr, 0), nullptr);

  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
  TfLiteIntArrayFree(node.temporaries);
}

}  // namespace

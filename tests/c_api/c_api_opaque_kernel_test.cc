// The opaque extension API (core/c/c_api_opaque.h) from the kernel side: the
// guide's Atan custom op written purely against TfLiteOpaque* accessors and
// run through the C API, and an opaque delegate replacing ADD nodes with its
// kernel operator.
#include "tensorflow/lite/core/c/c_api_opaque.h"

#include <cmath>
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

// ---- the guide's Atan op, through the opaque API only ----------------------------

TfLiteStatus AtanPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfInputs(node), 1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfOutputs(node), 1);
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE(context, input != nullptr && output != nullptr);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(input), kTfLiteFloat32);
  const int num_dims = TfLiteOpaqueTensorNumDims(input);
  TfLiteIntArray* output_size = TfLiteIntArrayCreate(num_dims);
  for (int i = 0; i < num_dims; ++i) output_size->data[i] = TfLiteOpaqueTensorDim(input, i);
  return TfLiteOpaqueContextResizeTensor(context, output, output_size);
}

TfLiteStatus AtanEval(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const float* in = static_cast<const float*>(TfLiteOpaqueTensorData(input));
  float* out = static_cast<float*>(TfLiteOpaqueTensorData(output));
  TF_LITE_OPAQUE_ENSURE(context, in != nullptr && out != nullptr);
  size_t count = 1;
  for (int i = 0; i < TfLiteOpaqueTensorNumDims(input); ++i) {
    count *= static_cast<size_t>(TfLiteOpaqueTensorDim(input, i));
  }
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorByteSize(output), count * sizeof(float));
  for (size_t i = 0; i < count; ++i) out[i] = std::atan(in[i]);
  return kTfLiteOk;
}

TfLiteOperator* MakeAtanOp() {
  TfLiteOperator* r = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Atan", /*version=*/1,
                                           /*user_data=*/nullptr);
  TfLiteOperatorSetPrepare(r, AtanPrepare);
  TfLiteOperatorSetInvoke(r, AtanEval);
  return r;
}

std::vector<uint8_t> AtanModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 3}, "y");
  b.AddCustomOperator("Atan", {x}, {y});
  return b.Finish();
}

TEST(OpaqueCustomOp, AtanRunsThroughTheCApi) {
  TfLiteOperator* atan_op = MakeAtanOp();
  {
    Runner r(AtanModel(), {atan_op});
    ASSERT_NE(r.get(), nullptr) << r.log();
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk) << r.log();
    const float in[6] = {-10.0f, -1.0f, -0.5f, 0.0f, 0.5f, 3.0f};
    TfLiteTensor* input = TfLiteInterpreterGetInputTensor(r.get(), 0);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(input, in, sizeof(in)), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(r.get()), kTfLiteOk) << r.log();
    float out[6] = {};
    const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(r.get(), 0);
    ASSERT_EQ(TfLiteTensorCopyToBuffer(output, out, sizeof(out)), kTfLiteOk);
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], std::atan(in[i])) << i;

    // Resizing the input re-runs Prepare, which reshapes the output.
    const int new_dims[1] = {4};
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(r.get(), 0, new_dims, 1), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk) << r.log();
    const float in2[4] = {1.0f, 2.0f, -2.0f, 100.0f};
    input = TfLiteInterpreterGetInputTensor(r.get(), 0);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(input, in2, sizeof(in2)), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(r.get()), kTfLiteOk) << r.log();
    output = TfLiteInterpreterGetOutputTensor(r.get(), 0);
    ASSERT_EQ(TfLiteTensorNumDims(output), 1);
    EXPECT_EQ(TfLiteTensorDim(output, 0), 4);
    float out2[4] = {};
    ASSERT_EQ(TfLiteTensorCopyToBuffer(output, out2, sizeof(out2)), kTfLiteOk);
    for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out2[i], std::atan(in2[i])) << i;
  }
  TfLiteOperatorDelete(atan_op);
}

TEST(OpaqueCustomOp, EnsureMacrosReportThroughTheInterpreter) {
  // Atan on an int32 input: Prepare's type check fails with a message.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_INT32, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_INT32, {2}, "y");
  b.AddCustomOperator("Atan", {x}, {y});
  TfLiteOperator* atan_op = MakeAtanOp();
  {
    Runner r(b.Finish(), {atan_op});
    ASSERT_NE(r.get(), nullptr) << r.log();
    EXPECT_NE(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk);
    EXPECT_NE(r.log().find("INT32 != FLOAT32"), std::string::npos) << r.log();
  }
  TfLiteOperatorDelete(atan_op);
}

// ---- an opaque delegate claiming ADD nodes --------------------------------------

struct DelegateRecord {
  int prepare_calls = 0;
  std::vector<int> claimed;
  TfLiteBuiltinOperator kernel_code = kTfLiteBuiltinCustom;
  int kernel_invokes = 0;
  int kernel_inputs = -1;
};
DelegateRecord g_delegate;

void* AddKernelInit(TfLiteOpaqueContext*, const char* buffer, size_t) {
  // The buffer is the TfLiteOpaqueDelegateParams of the partition.
  const auto* params = reinterpret_cast<const TfLiteOpaqueDelegateParams*>(buffer);
  return params != nullptr ? params->delegate_data : nullptr;
}

TfLiteStatus AddKernelPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_delegate.kernel_inputs = TfLiteOpaqueNodeNumberOfInputs(node);
  const TfLiteOpaqueTensor* a = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TF_LITE_OPAQUE_ENSURE(context, a != nullptr && out != nullptr);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(TfLiteOpaqueTensorNumDims(a));
  for (int i = 0; i < shape->size; ++i) shape->data[i] = TfLiteOpaqueTensorDim(a, i);
  return TfLiteOpaqueContextResizeTensor(context, out, shape);
}

// out = a + b + 100 (the offset shows the delegate ran, not the CPU kernel).
TfLiteStatus AddKernelInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  ++g_delegate.kernel_invokes;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeNumberOfInputs(node), 2);
  const TfLiteOpaqueTensor* a = TfLiteOpaqueNodeGetInput(context, node, 0);
  const TfLiteOpaqueTensor* b = TfLiteOpaqueNodeGetInput(context, node, 1);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const size_t n = TfLiteOpaqueTensorByteSize(out) / sizeof(float);
  TF_LITE_OPAQUE_ENSURE(context, TfLiteOpaqueTensorByteSize(a) == n * sizeof(float));
  TF_LITE_OPAQUE_ENSURE(context, TfLiteOpaqueTensorByteSize(b) == n * sizeof(float));
  const float* pa = static_cast<const float*>(TfLiteOpaqueTensorData(a));
  const float* pb = static_cast<const float*>(TfLiteOpaqueTensorData(b));
  float* po = static_cast<float*>(TfLiteOpaqueTensorData(out));
  for (size_t i = 0; i < n; ++i) po[i] = pa[i] + pb[i] + 100.0f;
  return kTfLiteOk;
}

TfLiteStatus DelegatePrepare(TfLiteOpaqueContext* context, TfLiteOpaqueDelegate* delegate,
                             void* data) {
  ++g_delegate.prepare_calls;
  TfLiteIntArray* plan = nullptr;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetExecutionPlan(context, &plan),
                           kTfLiteOk);
  std::vector<int> adds;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteOpaqueNode* node = nullptr;
    TfLiteOperator* op = nullptr;
    TF_LITE_OPAQUE_ENSURE_EQ(
        context, TfLiteOpaqueContextGetNodeAndRegistration(context, plan->data[i], &node, &op),
        kTfLiteOk);
    if (TfLiteOperatorGetBuiltInCode(op) == kTfLiteBuiltinAdd) adds.push_back(plan->data[i]);
  }
  g_delegate.claimed = adds;
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(adds.size()));
  for (size_t i = 0; i < adds.size(); ++i) nodes->data[i] = adds[i];
  TfLiteOperator* kernel =
      TfLiteOperatorCreate(kTfLiteBuiltinDelegate, "opaque_add_delegate", 1, nullptr);
  TfLiteOperatorSetInit(kernel, AddKernelInit);
  TfLiteOperatorSetPrepare(kernel, AddKernelPrepare);
  TfLiteOperatorSetInvoke(kernel, AddKernelInvoke);
  // The runtime owns `kernel` from here on.
  const TfLiteStatus s =
      TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes, delegate);
  TfLiteIntArrayFree(nodes);
  if (s == kTfLiteOk) {
    // The delegate node now reports the kernel's operator.
    TfLiteIntArray* new_plan = nullptr;
    TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetExecutionPlan(context, &new_plan),
                             kTfLiteOk);
    for (int i = 0; i < new_plan->size; ++i) {
      TfLiteOpaqueNode* node = nullptr;
      TfLiteOperator* op = nullptr;
      TF_LITE_OPAQUE_ENSURE_EQ(context,
                               TfLiteOpaqueContextGetNodeAndRegistration(
                                   context, new_plan->data[i], &node, &op),
                               kTfLiteOk);
      if (op == kernel) g_delegate.kernel_code = TfLiteOperatorGetBuiltInCode(op);
    }
  }
  return s;
}

TEST(OpaqueDelegate, ReplacesNodesWithAKernelOperator) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 3}, "x");
  const int c = b.AddConstant<float>({1, 3}, {1, 2, 3}, "c");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 3}, "y");
  tflite::AddOptionsT add;
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {y}, add);
  const std::vector<uint8_t> bytes = b.Finish();

  g_delegate = DelegateRecord();
  TfLiteOpaqueDelegateBuilder builder{};
  builder.Prepare = DelegatePrepare;
  TfLiteOpaqueDelegate* delegate = TfLiteOpaqueDelegateCreate(&builder);
  ASSERT_NE(delegate, nullptr);
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  std::string log;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &log);
  TfLiteInterpreterOptionsAddDelegate(options, delegate);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  ASSERT_NE(interpreter, nullptr) << log;
  EXPECT_EQ(g_delegate.prepare_calls, 1);
  EXPECT_EQ(g_delegate.claimed, std::vector<int>{0});
  EXPECT_EQ(g_delegate.kernel_code, kTfLiteBuiltinDelegate);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk) << log;
  const float in[3] = {10, 20, 30};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in,
                                       sizeof(in)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk) << log;
  float out[3] = {};
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), out,
                                     sizeof(out)),
            kTfLiteOk);
  EXPECT_FLOAT_EQ(out[0], 111.0f);
  EXPECT_FLOAT_EQ(out[1], 122.0f);
  EXPECT_FLOAT_EQ(out[2], 133.0f);
  EXPECT_EQ(g_delegate.kernel_invokes, 1);
  EXPECT_EQ(g_delegate.kernel_inputs, 2);
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
  TfLiteOpaqueDelegateDelete(delegate);
}

}  // namespace

// Error paths of the opaque extension API (c_api_opaque.h, operator.h) that
// the other tests leave out: calls from inside a running kernel with
// out-of-range indices, NULL out-arguments, wrong sizes and disallowed
// types; and the "...WithData" callbacks of operator.h (order, call counts,
// user_data, custom options, free on interpreter deletion). The NULL-object
// cases are in c_api_opaque_test.cc and registration_external_test.cc.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_opaque.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;

const std::vector<uint8_t> kOptions = {9, 0, 255, 7, 0};
const std::vector<uint8_t> kMetadata = {'m', 'e', 't', 'a', 0, 1};

// x [2] -> op -> y [2], with custom options and a metadata entry.
std::vector<uint8_t> OneNodeModel(const char* op_name) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddCustomOperator(op_name, {x}, {y}, kOptions);
  b.AddMetadata("probe_meta", kMetadata);
  return b.Finish();
}

struct OpRun {
  std::vector<uint8_t> bytes;
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  std::string log;
  OpRun(std::vector<uint8_t> b, TfLiteOperator* op) : bytes(std::move(b)) {
    model = TfLiteModelCreate(bytes.data(), bytes.size());
    TfLiteInterpreterOptions* o = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(o, CaptureError, &log);
    TfLiteInterpreterOptionsAddOperator(o, op);
    interpreter = TfLiteInterpreterCreate(model, o);
    TfLiteInterpreterOptionsDelete(o);
  }
  void Delete() {
    TfLiteInterpreterDelete(interpreter);
    interpreter = nullptr;
  }
  ~OpRun() {
    Delete();
    TfLiteModelDelete(model);
  }
};

// ---- live-context error paths --------------------------------------------------------

int g_probed = 0;

TfLiteStatus ProbePrepare(TfLiteOpaqueContext* ctx, TfLiteOpaqueNode* node) {
  ++g_probed;
  // Node tensors: only index 0 exists.
  EXPECT_NE(TfLiteOpaqueNodeGetInput(ctx, node, 0), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetInput(ctx, node, 1), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetInput(ctx, node, -1), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutput(ctx, node, 1), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutput(ctx, node, -1), nullptr);
  EXPECT_EQ(TfLiteOpaqueNodeGetInputTensorIndex(node, -1), -1);
  EXPECT_EQ(TfLiteOpaqueNodeGetOutputTensorIndex(node, -1), -1);
  const int* list = nullptr;
  int n = 0;
  EXPECT_EQ(TfLiteOpaqueNodeOutputs(node, nullptr, &n), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeTemporaries(node, &list, nullptr), kTfLiteError);
  // The custom options, unchanged.
  const void* init = nullptr;
  int init_size = 0;
  EXPECT_EQ(TfLiteOpaqueNodeGetCustomInitialData(node, nullptr, &init_size), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeGetCustomInitialData(node, &init, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueNodeGetCustomInitialData(node, &init, &init_size), kTfLiteOk);
  EXPECT_EQ(std::vector<uint8_t>(static_cast<const uint8_t*>(init),
                                 static_cast<const uint8_t*>(init) + init_size),
            kOptions);

  // Context tensors.
  const size_t num_tensors = TfLiteOpaqueContextGetNumTensors(ctx);
  EXPECT_GE(num_tensors, 2u);
  EXPECT_NE(TfLiteOpaqueContextGetOpaqueTensor(ctx, 0), nullptr);
  EXPECT_EQ(TfLiteOpaqueContextGetOpaqueTensor(ctx, -1), nullptr);
  EXPECT_EQ(TfLiteOpaqueContextGetOpaqueTensor(ctx, static_cast<int>(num_tensors)), nullptr);
  EXPECT_EQ(TfLiteOpaqueContextGetInputs(ctx, nullptr, &n), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetOutputs(ctx, &list, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetVariables(ctx, nullptr, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetInputs(ctx, &list, &n), kTfLiteOk);
  EXPECT_EQ(n, 1);

  // Nodes and the plan.
  TfLiteOpaqueNode* found = nullptr;
  TfLiteOperator* op = nullptr;
  const int num_nodes = static_cast<int>(TfLiteOpaqueContextGetNumNodes(ctx));
  EXPECT_EQ(num_nodes, 1);
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(ctx, -1, &found, &op), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(ctx, num_nodes, &found, &op), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(ctx, 0, nullptr, &op), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(ctx, 0, &found, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(ctx, 0, &found, &op), kTfLiteOk);
  EXPECT_EQ(found, node);
  EXPECT_EQ(TfLiteOpaqueContextGetExecutionPlan(ctx, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetExternalContext(ctx, nullptr, kTfLiteCpuBackendContext),
            kTfLiteError);

  // Subgraphs: there is only subgraph 0.
  TfLiteOpaqueContext* acquired = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextAcquireSubgraphContext(ctx, 1, &acquired), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextAcquireSubgraphContext(ctx, -1, &acquired), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextAcquireSubgraphContext(ctx, 0, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextReleaseSubgraphContext(ctx, 1), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(ctx, 1), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(ctx, -1), kTfLiteError);

  // Metadata.
  const char* meta = nullptr;
  size_t meta_size = 0;
  EXPECT_EQ(TfLiteOpaqueContextGetMetadata(ctx, "absent", &meta, &meta_size), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetMetadata(ctx, nullptr, &meta, &meta_size), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetMetadata(ctx, "probe_meta", nullptr, &meta_size), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetMetadata(ctx, "probe_meta", &meta, &meta_size), kTfLiteOk);
  EXPECT_EQ(std::vector<uint8_t>(meta, meta + meta_size), kMetadata);

  // Tensor accessors: out-of-range dimensions, wrong buffer sizes.
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(ctx, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(ctx, node, 0);
  EXPECT_EQ(TfLiteOpaqueTensorDim(in, 0), 2);
  EXPECT_EQ(TfLiteOpaqueTensorDim(in, 1), -1);
  EXPECT_EQ(TfLiteOpaqueTensorDim(in, -1), -1);
  int32_t sig = 0;
  EXPECT_EQ(TfLiteOpaqueTensorGetDimSignature(in, 1, &sig), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetDimSignature(in, 0, nullptr), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetNumDimsSignature(in, nullptr), kTfLiteError);
  float buf[3] = {};
  EXPECT_EQ(TfLiteOpaqueTensorCopyToBuffer(in, buf, sizeof(buf)), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorCopyFromBuffer(out, buf, sizeof(float)), kTfLiteError);
  // A string accessor on a tensor with no string data.
  const char* str = nullptr;
  int len = 0;
  EXPECT_EQ(TfLiteOpaqueTensorGetString(in, 5, &str, &len), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueTensorGetString(in, 0, nullptr, &len), kTfLiteError);

  // Adding tensors: NULL or a read-only allocation type is refused.
  int new_index = -7;
  EXPECT_EQ(TfLiteOpaqueContextAddTensor(ctx, nullptr, &new_index), kTfLiteError);
  TfLiteOpaqueTensorBuilder* builder = TfLiteOpaqueTensorBuilderCreate();
  TfLiteOpaqueTensorBuilderSetType(builder, kTfLiteFloat32);
  TfLiteOpaqueTensorBuilderSetAllocationType(builder, kTfLiteMmapRo);
  EXPECT_EQ(TfLiteOpaqueContextAddTensor(ctx, builder, &new_index), kTfLiteError);
  EXPECT_EQ(new_index, -7);
  TfLiteOpaqueTensorBuilderDelete(builder);
  EXPECT_EQ(TfLiteOpaqueContextGetNumTensors(ctx), num_tensors);

  size_t bytes = 0;
  EXPECT_EQ(TfLiteOpaqueContextGetSizeOfType(ctx, kTfLiteFloat32, &bytes), kTfLiteOk);
  EXPECT_EQ(bytes, 4u);
  EXPECT_EQ(TfLiteOpaqueContextGetSizeOfType(ctx, kTfLiteString, &bytes), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextResizeTensor(ctx, out, nullptr), kTfLiteError);
  // A NULL tensor: refused, and the array is released (checked under ASan).
  EXPECT_EQ(TfLiteOpaqueContextResizeTensor(ctx, nullptr, TfLiteIntArrayCreate(1)), kTfLiteError);

  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = 2;
  return TfLiteOpaqueContextResizeTensor(ctx, out, dims);
}

TfLiteStatus CopyInvoke(TfLiteOpaqueContext* ctx, TfLiteOpaqueNode* node) {
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(ctx, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(ctx, node, 0);
  std::memcpy(TfLiteOpaqueTensorData(out), TfLiteOpaqueTensorData(in),
              TfLiteOpaqueTensorByteSize(in));
  return kTfLiteOk;
}

TEST(OpaqueCoverage, ErrorPathsInsideAKernel) {
  g_probed = 0;
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Probe", 1, nullptr);
  TfLiteOperatorSetPrepare(op, ProbePrepare);
  TfLiteOperatorSetInvoke(op, CopyInvoke);
  {
    OpRun run(OneNodeModel("Probe"), op);
    ASSERT_NE(run.interpreter, nullptr) << run.log;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(run.interpreter), kTfLiteOk) << run.log;
    EXPECT_EQ(g_probed, 1);
    // The failures with a live context were reported, not just returned.
    EXPECT_NE(run.log.find("out of range"), std::string::npos) << run.log;
    EXPECT_NE(run.log.find("TfLiteOpaqueContextAddTensor"), std::string::npos) << run.log;
    EXPECT_NE(run.log.find("does not belong to this subgraph"), std::string::npos) << run.log;
    const float x[2] = {1.5f, -2.0f};
    float y[2] = {};
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(run.interpreter, 0), x,
                                         sizeof(x)),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(run.interpreter), kTfLiteOk) << run.log;
    TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(run.interpreter, 0), y, sizeof(y));
    EXPECT_EQ(y[0], 1.5f);
    EXPECT_EQ(y[1], -2.0f);
  }
  TfLiteOperatorDelete(op);
}

// ---- the "...WithData" callbacks ---------------------------------------------------

struct Trace {
  std::string calls;
  std::vector<void*> user_data;  // as received by every callback
  std::vector<std::vector<uint8_t>> init_bytes;
  int nodes_alive = 0;
};

void* InitWD(void* user_data, TfLiteOpaqueContext*, const char* buffer, size_t length) {
  auto* t = static_cast<Trace*>(user_data);
  t->calls += 'i';
  t->user_data.push_back(user_data);
  t->init_bytes.emplace_back(buffer, buffer + length);
  ++t->nodes_alive;
  return new int(static_cast<int>(t->init_bytes.size()));
}
void FreeWD(void* user_data, TfLiteOpaqueContext*, void* data) {
  auto* t = static_cast<Trace*>(user_data);
  t->calls += 'f';
  t->user_data.push_back(user_data);
  --t->nodes_alive;
  delete static_cast<int*>(data);
}
TfLiteStatus PrepareWD(void* user_data, TfLiteOpaqueContext* ctx, TfLiteOpaqueNode* node) {
  auto* t = static_cast<Trace*>(user_data);
  t->calls += 'p';
  t->user_data.push_back(user_data);
  // The node's user data is what init returned; GetCustomInitialData sees
  // the same bytes init got.
  const int id = *static_cast<int*>(TfLiteOpaqueNodeGetUserData(node));
  const void* init = nullptr;
  int size = 0;
  EXPECT_EQ(TfLiteOpaqueNodeGetCustomInitialData(node, &init, &size), kTfLiteOk);
  EXPECT_EQ(std::vector<uint8_t>(static_cast<const uint8_t*>(init),
                                 static_cast<const uint8_t*>(init) + size),
            t->init_bytes.at(id - 1));
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(ctx, node, 0);
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = TfLiteOpaqueTensorDim(in, 0);
  return TfLiteOpaqueContextResizeTensor(ctx, TfLiteOpaqueNodeGetOutput(ctx, node, 0), dims);
}
TfLiteStatus InvokeWD(void* user_data, TfLiteOpaqueContext* ctx, TfLiteOpaqueNode* node) {
  auto* t = static_cast<Trace*>(user_data);
  t->calls += 'v';
  t->user_data.push_back(user_data);
  // Adds the node's id (1 or 2) to every element.
  const int id = *static_cast<int*>(TfLiteOpaqueNodeGetUserData(node));
  const auto* x = static_cast<const float*>(TfLiteOpaqueTensorData(TfLiteOpaqueNodeGetInput(ctx, node, 0)));
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(TfLiteOpaqueNodeGetOutput(ctx, node, 0)));
  for (int i = 0; i < 2; ++i) y[i] = x[i] + static_cast<float>(id);
  return kTfLiteOk;
}

// Plain callbacks that must lose to the WithData ones.
Trace* g_plain_trace = nullptr;
void* PlainInit(TfLiteOpaqueContext*, const char*, size_t) {
  g_plain_trace->calls += 'I';
  return nullptr;
}
void PlainFree(TfLiteOpaqueContext*, void*) { g_plain_trace->calls += 'F'; }
TfLiteStatus PlainPrepare(TfLiteOpaqueContext*, TfLiteOpaqueNode*) {
  g_plain_trace->calls += 'P';
  return kTfLiteError;
}
TfLiteStatus PlainInvoke(TfLiteOpaqueContext*, TfLiteOpaqueNode*) {
  g_plain_trace->calls += 'V';
  return kTfLiteError;
}

TEST(OpaqueCoverage, WithDataCallbacksGetUserDataInOrder) {
  Trace trace;
  g_plain_trace = &trace;
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "WithData", 1, &trace);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(TfLiteOperatorGetUserData(op), &trace);
  // Plain first, then WithData: WithData wins; and the other way round for
  // free, to show the order of setting does not matter.
  TfLiteOperatorSetInit(op, PlainInit);
  TfLiteOperatorSetPrepare(op, PlainPrepare);
  TfLiteOperatorSetInvoke(op, PlainInvoke);
  EXPECT_EQ(TfLiteOperatorSetInitWithData(op, InitWD), kTfLiteOk);
  EXPECT_EQ(TfLiteOperatorSetPrepareWithData(op, PrepareWD), kTfLiteOk);
  EXPECT_EQ(TfLiteOperatorSetInvokeWithData(op, InvokeWD), kTfLiteOk);
  EXPECT_EQ(TfLiteOperatorSetFreeWithData(op, FreeWD), kTfLiteOk);
  TfLiteOperatorSetFree(op, PlainFree);
  TfLiteOperatorSetInplaceOperator(op, 0);

  // Two nodes, each with its own options: x -> +1 -> +2 -> y.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {2}, "t");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddCustomOperator("WithData", {x}, {t}, {1, 2, 3});
  b.AddCustomOperator("WithData", {t}, {y}, {});
  {
    OpRun run(b.Finish(), op);
    ASSERT_NE(run.interpreter, nullptr) << run.log;
    EXPECT_EQ(trace.calls, "ii");
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(run.interpreter), kTfLiteOk) << run.log;
    EXPECT_EQ(trace.calls, "iipp");
    const float in[2] = {10, 20};
    for (int k = 0; k < 3; ++k) {
      ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(run.interpreter, 0), in,
                                           sizeof(in)),
                kTfLiteOk);
      ASSERT_EQ(TfLiteInterpreterInvoke(run.interpreter), kTfLiteOk) << run.log;
    }
    float out[2] = {};
    TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(run.interpreter, 0), out, sizeof(out));
    EXPECT_EQ(out[0], 13);
    EXPECT_EQ(out[1], 23);
    EXPECT_EQ(trace.calls, "iippvvvvvv");
    EXPECT_EQ(trace.nodes_alive, 2);
    run.Delete();  // free runs when the interpreter goes, once per node
    EXPECT_EQ(trace.calls, "iippvvvvvvff");
    EXPECT_EQ(trace.nodes_alive, 0);
  }
  ASSERT_EQ(trace.init_bytes.size(), 2u);
  EXPECT_EQ(trace.init_bytes[0], (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_TRUE(trace.init_bytes[1].empty());
  for (void* p : trace.user_data) EXPECT_EQ(p, &trace);
  EXPECT_EQ(trace.user_data.size(), trace.calls.size());
  TfLiteOperatorDelete(op);
  g_plain_trace = nullptr;
}

TEST(OpaqueCoverage, WithDataSettersRejectNull) {
  EXPECT_EQ(TfLiteOperatorSetInitWithData(nullptr, InitWD), kTfLiteError);
  EXPECT_EQ(TfLiteOperatorSetFreeWithData(nullptr, FreeWD), kTfLiteError);
  EXPECT_EQ(TfLiteOperatorSetPrepareWithData(nullptr, PrepareWD), kTfLiteError);
  EXPECT_EQ(TfLiteOperatorSetInvokeWithData(nullptr, InvokeWD), kTfLiteError);
  EXPECT_EQ(TfLiteOperatorSetAsyncKernelWithData(nullptr, nullptr), kTfLiteError);
  TfLiteOperatorSetInplaceOperator(nullptr, 1);
  EXPECT_EQ(TfLiteOperatorGetUserData(nullptr), nullptr);
  EXPECT_EQ(TfLiteOperatorGetCustomName(nullptr), nullptr);
  EXPECT_EQ(TfLiteOperatorGetVersion(nullptr), -1);
}

// A node whose operator has neither prepare nor invoke: invoking fails with
// an error status (operator.h), nothing crashes.
TEST(OpaqueCoverage, OperatorWithoutCallbacksFailsCleanly) {
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Empty", 1, nullptr);
  {
    OpRun run(OneNodeModel("Empty"), op);
    ASSERT_NE(run.interpreter, nullptr) << run.log;
    if (TfLiteInterpreterAllocateTensors(run.interpreter) == kTfLiteOk) {
      EXPECT_NE(TfLiteInterpreterInvoke(run.interpreter), kTfLiteOk);
    }
  }
  TfLiteOperatorDelete(op);
}

}  // namespace

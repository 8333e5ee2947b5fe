// Tests of the opaque extension API (core/c/c_api_opaque.h): custom ops
// written purely against TfLiteOpaque* accessors and run through the C API,
// plus every accessor's success and failure paths.
#include "tensorflow/lite/core/c/c_api_opaque.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
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
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;

// ---- harness ---------------------------------------------------------------------

// Owns a model built from bytes and an interpreter created with `ops`.
class Runner {
 public:
  Runner(std::vector<uint8_t> bytes, const std::vector<const TfLiteOperator*>& ops)
      : bytes_(std::move(bytes)) {
    model_ = TfLiteModelCreate(bytes_.data(), bytes_.size());
    Create(ops);
  }
  // From a file (so that the model is memory-mapped).
  Runner(const std::string& path, const std::vector<const TfLiteOperator*>& ops) {
    model_ = TfLiteModelCreateFromFile(path.c_str());
    Create(ops);
  }
  ~Runner() {
    TfLiteInterpreterDelete(interpreter_);
    TfLiteModelDelete(model_);
  }
  TfLiteInterpreter* get() const { return interpreter_; }
  const std::string& log() const { return log_; }

 private:
  void Create(const std::vector<const TfLiteOperator*>& ops) {
    if (model_ == nullptr) return;
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    for (const TfLiteOperator* op : ops) {
      TfLiteInterpreterOptionsAddOperator(options, const_cast<TfLiteOperator*>(op));
    }
    TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &log_);
    TfLiteInterpreterOptionsSetUseXNNPACK(options, false);  // probes count builtin nodes
    interpreter_ = TfLiteInterpreterCreate(model_, options);
    TfLiteInterpreterOptionsDelete(options);
  }

  std::vector<uint8_t> bytes_;
  std::string log_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
};

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

// ---- a probe op that exercises the context and node accessors ----------------------

// Everything the probe observed, checked by the tests afterwards.
struct ProbeRecord {
  bool prepared = false;
  bool invoked = false;
  // Node.
  int num_inputs = -2, num_outputs = -2;
  std::vector<int> node_inputs, node_outputs;
  int input_index0 = -2, input_index_oob = -2, output_index0 = -2, output_index_neg = -2;
  bool get_input_oob_null = false, get_output_oob_null = false;
  std::vector<uint8_t> custom_data;
  void* user_data = nullptr;
  void* builtin_data = reinterpret_cast<void*>(1);
  // Context.
  std::vector<int> plan;
  std::vector<int> ctx_inputs, ctx_outputs, ctx_variables;
  size_t num_nodes = 0, num_tensors = 0;
  std::string name;
  std::string metadata;
  TfLiteStatus missing_metadata = kTfLiteOk;
  // GetNodeAndRegistration on every node.
  std::vector<TfLiteBuiltinOperator> codes;
  std::vector<std::string> custom_names;
  std::vector<int> versions;
  std::vector<const TfLiteOperator*> operators;
  std::vector<void*> builtin_datas;
  TfLiteStatus bad_node_status = kTfLiteOk;
  // Tensor lookup.
  std::string tensor0_name;
  bool tensor_oob_null = false;
  // Subgraphs.
  std::string sub1_name;
  TfLiteStatus acquire_bad = kTfLiteOk, release_ok = kTfLiteError, mark0 = kTfLiteOk,
               mark1 = kTfLiteError, mark_bad = kTfLiteOk;
  // Misc.
  TfLiteStatus external_status = kTfLiteError;
  TfLiteStatus replace_status = kTfLiteOk, replace_null_status = kTfLiteOk;
  size_t float_size = 0;
  TfLiteStatus string_size_status = kTfLiteOk;
  // Init data location.
  TfLiteStatus mmap_status = kTfLiteOk;
  int fd = -1;
  int64_t offset = -2, size = -2;
  TfLiteStatus mmap_other_status = kTfLiteError;
  int64_t other_offset = -2, other_size = -2;
};
ProbeRecord g_probe;
int g_probe_user_data = 1234;

void* ProbeInit(TfLiteOpaqueContext*, const char*, size_t) { return &g_probe_user_data; }

TfLiteStatus ProbePrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  ProbeRecord& p = g_probe;
  p.prepared = true;
  p.num_inputs = TfLiteOpaqueNodeNumberOfInputs(node);
  p.num_outputs = TfLiteOpaqueNodeNumberOfOutputs(node);
  const int* ids = nullptr;
  int n = 0;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeInputs(node, &ids, &n), kTfLiteOk);
  p.node_inputs.assign(ids, ids + n);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeOutputs(node, &ids, &n), kTfLiteOk);
  p.node_outputs.assign(ids, ids + n);
  p.input_index0 = TfLiteOpaqueNodeGetInputTensorIndex(node, 0);
  p.input_index_oob = TfLiteOpaqueNodeGetInputTensorIndex(node, p.num_inputs);
  p.output_index0 = TfLiteOpaqueNodeGetOutputTensorIndex(node, 0);
  p.output_index_neg = TfLiteOpaqueNodeGetOutputTensorIndex(node, -1);
  p.get_input_oob_null = TfLiteOpaqueNodeGetInput(context, node, p.num_inputs) == nullptr;
  p.get_output_oob_null = TfLiteOpaqueNodeGetOutput(context, node, 7) == nullptr;
  const void* init_data = nullptr;
  int init_size = -1;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeGetCustomInitialData(node, &init_data, &init_size),
                           kTfLiteOk);
  if (init_data != nullptr && init_size > 0) {
    const uint8_t* d = static_cast<const uint8_t*>(init_data);
    p.custom_data.assign(d, d + init_size);
  }
  p.user_data = TfLiteOpaqueNodeGetUserData(node);
  p.builtin_data = TfLiteOpaqueNodeGetBuiltinData(node);

  TfLiteIntArray* plan = nullptr;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetExecutionPlan(context, &plan), kTfLiteOk);
  p.plan.assign(plan->data, plan->data + plan->size);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetInputs(context, &ids, &n), kTfLiteOk);
  p.ctx_inputs.assign(ids, ids + n);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetOutputs(context, &ids, &n), kTfLiteOk);
  p.ctx_outputs.assign(ids, ids + n);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextGetVariables(context, &ids, &n), kTfLiteOk);
  p.ctx_variables.assign(ids, ids + n);
  p.num_nodes = TfLiteOpaqueContextGetNumNodes(context);
  p.num_tensors = TfLiteOpaqueContextGetNumTensors(context);
  p.name = TfLiteOpaqueContextGetName(context);

  const char* meta = nullptr;
  size_t meta_bytes = 0;
  if (TfLiteOpaqueContextGetMetadata(context, "probe_meta", &meta, &meta_bytes) == kTfLiteOk) {
    p.metadata.assign(meta, meta_bytes);
  }
  p.missing_metadata = TfLiteOpaqueContextGetMetadata(context, "absent", &meta, &meta_bytes);

  for (size_t i = 0; i < p.num_nodes; ++i) {
    TfLiteOpaqueNode* other = nullptr;
    TfLiteOperator* op = nullptr;
    TF_LITE_OPAQUE_ENSURE_EQ(context,
                             TfLiteOpaqueContextGetNodeAndRegistration(
                                 context, static_cast<int>(i), &other, &op),
                             kTfLiteOk);
    p.codes.push_back(TfLiteOperatorGetBuiltInCode(op));
    const char* cn = TfLiteOperatorGetCustomName(op);
    p.custom_names.push_back(cn ? cn : "");
    p.versions.push_back(TfLiteOperatorGetVersion(op));
    p.operators.push_back(op);
    p.builtin_datas.push_back(TfLiteOpaqueNodeGetBuiltinData(other));
    // Init data location, for this node (custom options) and others (none).
    int fd = -1;
    int64_t off = -2, size = -2;
    const TfLiteStatus s = TfLiteOpaqueContextGetNodeInitDataMmapInfo(context, other, &fd, &off,
                                                                      &size);
    if (other == node) {
      p.mmap_status = s;
      p.fd = fd;
      p.offset = off;
      p.size = size;
    } else {
      p.mmap_other_status = s;
      p.other_offset = off;
      p.other_size = size;
    }
  }
  {
    TfLiteOpaqueNode* other = nullptr;
    TfLiteOperator* op = nullptr;
    p.bad_node_status = TfLiteOpaqueContextGetNodeAndRegistration(
        context, static_cast<int>(p.num_nodes), &other, &op);
  }

  const TfLiteOpaqueTensor* t0 = TfLiteOpaqueContextGetOpaqueTensor(context, 0);
  p.tensor0_name = t0 && TfLiteOpaqueTensorName(t0) ? TfLiteOpaqueTensorName(t0) : "";
  p.tensor_oob_null =
      TfLiteOpaqueContextGetOpaqueTensor(context, static_cast<int>(p.num_tensors)) == nullptr &&
      TfLiteOpaqueContextGetOpaqueTensor(context, -1) == nullptr;

  TfLiteOpaqueContext* sub = nullptr;
  if (TfLiteOpaqueContextAcquireSubgraphContext(context, 1, &sub) == kTfLiteOk && sub != nullptr) {
    const char* nm = TfLiteOpaqueContextGetName(sub);
    p.sub1_name = nm ? nm : "";
    p.release_ok = TfLiteOpaqueContextReleaseSubgraphContext(context, 1);
  }
  p.acquire_bad = TfLiteOpaqueContextAcquireSubgraphContext(context, 9, &sub);
  p.mark0 = TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(context, 0);
  p.mark1 = TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(context, 1);
  p.mark_bad = TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(context, 2);

  void* external = reinterpret_cast<void*>(1);
  p.external_status =
      TfLiteOpaqueContextGetExternalContext(context, &external, kTfLiteCpuBackendContext);

  // Not available yet: must fail cleanly, taking ownership of the operator.
  TfLiteOperator* kernel = TfLiteOperatorCreate(kTfLiteBuiltinDelegate, "probe_delegate", 1, nullptr);
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(1);
  nodes->data[0] = 0;
  p.replace_status =
      TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(context, kernel, nodes, nullptr);
  TfLiteIntArrayFree(nodes);
  p.replace_null_status =
      TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(context, nullptr, nullptr, nullptr);

  TF_LITE_OPAQUE_ENSURE_EQ(context,
                           TfLiteOpaqueContextGetSizeOfType(context, kTfLiteFloat32, &p.float_size),
                           kTfLiteOk);
  size_t ignored = 0;
  p.string_size_status = TfLiteOpaqueContextGetSizeOfType(context, kTfLiteString, &ignored);

  TfLiteOpaqueContextReportError(context, "probe says %d %s", 42, "hello");

  // Output: same shape as input 0.
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(TfLiteOpaqueTensorNumDims(in));
  for (int i = 0; i < shape->size; ++i) shape->data[i] = TfLiteOpaqueTensorDim(in, i);
  return TfLiteOpaqueContextResizeTensor(context, out, shape);
}

// out = in * 2
TfLiteStatus ProbeInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_probe.invoked = true;
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const size_t n = TfLiteOpaqueTensorByteSize(in) / sizeof(float);
  std::vector<float> buf(n);
  TF_LITE_OPAQUE_ENSURE_EQ(context,
                           TfLiteOpaqueTensorCopyToBuffer(in, buf.data(), n * sizeof(float)),
                           kTfLiteOk);
  for (float& v : buf) v *= 2.0f;
  return TfLiteOpaqueTensorCopyFromBuffer(out, buf.data(), n * sizeof(float));
}

TfLiteOperator* MakeProbeOp() {
  TfLiteOperator* r = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Probe", /*version=*/2, nullptr);
  TfLiteOperatorSetInit(r, ProbeInit);
  TfLiteOperatorSetPrepare(r, ProbePrepare);
  TfLiteOperatorSetInvoke(r, ProbeInvoke);
  return r;
}

const std::vector<uint8_t> kProbeOptions = {7, 1, 2, 3, 4, 5, 6, 0x7f};

// Subgraph 0 ("main"): t = ADD(x, c); y = Probe(t) [custom options]; plus a
// variable tensor v. Subgraph 1 ("side"): a lone tensor.
std::vector<uint8_t> ProbeModel() {
  ModelBuilder b;
  b.model().subgraphs[0]->name = "main";
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int c = b.AddConstant<float>({1, 4}, {1, 2, 3, 4}, "c");
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "t");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  const int v = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "v");
  b.SetVariable(v);
  tflite::AddOptionsT add;
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t}, add);
  b.AddCustomOperator("Probe", {t}, {y}, kProbeOptions, /*version=*/2);
  b.AddMetadata("probe_meta", {'m', 'e', 't', 'a'});
  const int side = b.AddSubgraph("side");
  b.SetCurrentSubgraph(side);
  const int s = b.AddInput(tflite::TensorType_FLOAT32, {1}, "s");
  b.SetOutputs({s});
  b.SetCurrentSubgraph(0);
  return b.Finish();
}

void RunProbe(Runner& r) {
  ASSERT_NE(r.get(), nullptr) << r.log();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk) << r.log();
  const float in[4] = {0.5f, -1.0f, 2.0f, 10.0f};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(r.get(), 0), in, sizeof(in)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(r.get()), kTfLiteOk) << r.log();
  float out[4] = {};
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(r.get(), 0), out, sizeof(out)),
            kTfLiteOk);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], (in[i] + (i + 1)) * 2.0f) << i;
}

TEST(OpaqueContext, ProbeSeesTheGraph) {
  g_probe = ProbeRecord();
  TfLiteOperator* probe = MakeProbeOp();
  {
    Runner r(ProbeModel(), {probe});
    RunProbe(r);
    const ProbeRecord& p = g_probe;
    ASSERT_TRUE(p.prepared);
    EXPECT_TRUE(p.invoked);

    // Node.
    EXPECT_EQ(p.num_inputs, 1);
    EXPECT_EQ(p.num_outputs, 1);
    EXPECT_EQ(p.node_inputs, std::vector<int>{2});
    EXPECT_EQ(p.node_outputs, std::vector<int>{3});
    EXPECT_EQ(p.input_index0, 2);
    EXPECT_EQ(p.input_index_oob, -1);
    EXPECT_EQ(p.output_index0, 3);
    EXPECT_EQ(p.output_index_neg, -1);
    EXPECT_TRUE(p.get_input_oob_null);
    EXPECT_TRUE(p.get_output_oob_null);
    EXPECT_EQ(p.custom_data, kProbeOptions);
    EXPECT_EQ(p.user_data, &g_probe_user_data);
    EXPECT_EQ(p.builtin_data, nullptr);

    // Context.
    EXPECT_EQ(p.plan, (std::vector<int>{0, 1}));
    EXPECT_EQ(p.ctx_inputs, std::vector<int>{0});
    EXPECT_EQ(p.ctx_outputs, std::vector<int>{3});
    EXPECT_EQ(p.ctx_variables, std::vector<int>{4});
    EXPECT_EQ(p.num_nodes, 2u);
    EXPECT_EQ(p.num_tensors, 5u);
    EXPECT_EQ(p.name, "main");
    EXPECT_EQ(p.metadata, "meta");
    EXPECT_EQ(p.missing_metadata, kTfLiteError);

    // Node 0 is a builtin with a legacy registration: described by a
    // runtime-owned operator. Node 1 reports the operator we registered.
    ASSERT_EQ(p.codes.size(), 2u);
    EXPECT_EQ(p.codes[0], kTfLiteBuiltinAdd);
    EXPECT_EQ(p.custom_names[0], "");
    EXPECT_EQ(p.versions[0], 1);
    EXPECT_NE(p.operators[0], nullptr);
    EXPECT_NE(p.builtin_datas[0], nullptr);  // TfLiteAddParams
    EXPECT_EQ(p.codes[1], kTfLiteBuiltinCustom);
    EXPECT_EQ(p.custom_names[1], "Probe");
    EXPECT_EQ(p.versions[1], 2);
    EXPECT_EQ(p.operators[1], probe);
    EXPECT_EQ(p.builtin_datas[1], nullptr);
    EXPECT_EQ(p.bad_node_status, kTfLiteError);

    EXPECT_EQ(p.tensor0_name, "x");
    EXPECT_TRUE(p.tensor_oob_null);

    EXPECT_EQ(p.sub1_name, "side");
    EXPECT_EQ(p.release_ok, kTfLiteOk);
    EXPECT_EQ(p.acquire_bad, kTfLiteError);
    EXPECT_EQ(p.mark0, kTfLiteError);
    EXPECT_EQ(p.mark1, kTfLiteOk);
    EXPECT_EQ(p.mark_bad, kTfLiteError);
    tflite_c::Interpreter* impl = r.get()->impl.get();
    EXPECT_FALSE(impl->subgraph(0)->IsDelegationSkippable());
    EXPECT_TRUE(impl->subgraph(1)->IsDelegationSkippable());

    EXPECT_EQ(p.external_status, kTfLiteOk);
    EXPECT_EQ(p.replace_status, kTfLiteError);
    EXPECT_EQ(p.replace_null_status, kTfLiteError);
    EXPECT_EQ(p.float_size, 4u);
    EXPECT_EQ(p.string_size_status, kTfLiteError);

    // Built from a buffer: there is no file to point into.
    EXPECT_EQ(p.mmap_status, kTfLiteError);
    EXPECT_EQ(p.mmap_other_status, kTfLiteError);

    EXPECT_NE(r.log().find("probe says 42 hello"), std::string::npos) << r.log();
  }
  TfLiteOperatorDelete(probe);
}

TEST(OpaqueContext, NodeInitDataMmapInfoPointsIntoTheModelFile) {
  const std::vector<uint8_t> bytes = ProbeModel();
  char path[] = "/tmp/tflite_c_opaque_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);

  g_probe = ProbeRecord();
  TfLiteOperator* probe = MakeProbeOp();
  {
    Runner r(std::string(path), {probe});
    RunProbe(r);
    const ProbeRecord& p = g_probe;
    ASSERT_EQ(p.mmap_status, kTfLiteOk);
    ASSERT_GE(p.fd, 0);
    ASSERT_EQ(p.size, static_cast<int64_t>(kProbeOptions.size()));
    ASSERT_GE(p.offset, 0);
    std::vector<uint8_t> from_file(kProbeOptions.size());
    ASSERT_EQ(pread(p.fd, from_file.data(), from_file.size(), p.offset),
              static_cast<ssize_t>(from_file.size()));
    EXPECT_EQ(from_file, kProbeOptions);
    // The ADD node has no custom options.
    EXPECT_EQ(p.mmap_other_status, kTfLiteOk);
    EXPECT_EQ(p.other_offset, -1);
    EXPECT_EQ(p.other_size, -1);
  }
  TfLiteOperatorDelete(probe);
  unlink(path);
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

// ---- temporaries through TfLiteOpaqueTensorBuilder + AddTensor ---------------------

struct TempData {
  int temp_index = -1;
  int dynamic_index = -1;
  std::vector<TfLiteStatus> add_errors;
  TfLiteStatus negative_temporaries = kTfLiteOk;
};

void* TempInit(TfLiteOpaqueContext*, const char*, size_t) { return new TempData; }
void TempFree(TfLiteOpaqueContext*, void* data) { delete static_cast<TempData*>(data); }
TempData* g_last_temp = nullptr;
std::vector<TfLiteStatus> g_temp_add_errors;

TfLiteStatus TempPrepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  auto* data = static_cast<TempData*>(TfLiteOpaqueNodeGetUserData(node));
  int scratch[1] = {0};
  data->negative_temporaries = TfLiteOpaqueNodeSetTemporaries(node, scratch, -1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeSetTemporaries(node, scratch, 0), kTfLiteOk);

  // Invalid builders.
  g_temp_add_errors.clear();
  TfLiteOpaqueTensorBuilder* bad = TfLiteOpaqueTensorBuilderCreate();
  TfLiteOpaqueTensorBuilderSetType(bad, kTfLiteFloat32);
  TfLiteOpaqueTensorBuilderSetAllocationType(bad, kTfLiteMmapRo);
  g_temp_add_errors.push_back(TfLiteOpaqueContextAddTensor(context, bad, nullptr));
  TfLiteOpaqueTensorBuilderSetAllocationType(bad, kTfLiteDynamic);  // no data
  g_temp_add_errors.push_back(TfLiteOpaqueContextAddTensor(context, bad, nullptr));
  float dummy = 0;
  TfLiteOpaqueTensorBuilderSetAllocationType(bad, kTfLiteArenaRw);
  TfLiteOpaqueTensorBuilderSetData(bad, &dummy);  // arena with data
  g_temp_add_errors.push_back(TfLiteOpaqueContextAddTensor(context, bad, nullptr));
  g_temp_add_errors.push_back(TfLiteOpaqueContextAddTensor(context, nullptr, nullptr));
  TfLiteOpaqueTensorBuilderDelete(bad);

  // A dynamic tensor whose (malloc'ed) data the runtime takes over.
  TfLiteOpaqueTensorBuilder* dyn = TfLiteOpaqueTensorBuilderCreate();
  TfLiteQuantizationParams qp = {0.25f, 3};
  TfLiteOpaqueTensorBuilderSetQuantizationParams(
      TfLiteOpaqueTensorBuilderSetData(
          TfLiteOpaqueTensorBuilderSetAllocationType(
              TfLiteOpaqueTensorBuilderSetType(dyn, kTfLiteInt8), kTfLiteDynamic),
          std::malloc(16)),
      qp);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextAddTensor(context, dyn, &data->dynamic_index),
                           kTfLiteOk);
  TfLiteOpaqueTensorBuilderDelete(dyn);

  // The arena temporary.
  TfLiteOpaqueTensorBuilder* builder = TfLiteOpaqueTensorBuilderCreate();
  TfLiteOpaqueTensorBuilderSetType(builder, kTfLiteFloat32);
  TfLiteOpaqueTensorBuilderSetAllocationType(builder, kTfLiteArenaRw);
  int temp = -1;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextAddTensor(context, builder, &temp),
                           kTfLiteOk);
  TfLiteOpaqueTensorBuilderDelete(builder);
  data->temp_index = temp;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeSetTemporaries(node, &temp, 1), kTfLiteOk);

  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* temp_tensor = TfLiteOpaqueContextGetOpaqueTensor(context, temp);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  TfLiteIntArray* temp_shape = TfLiteIntArrayCreate(1);
  temp_shape->data[0] = static_cast<int>(TfLiteOpaqueTensorByteSize(input) / sizeof(float));
  TfLiteIntArray* out_shape = TfLiteIntArrayCopy(temp_shape);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueContextResizeTensor(context, temp_tensor, temp_shape),
                           kTfLiteOk);
  return TfLiteOpaqueContextResizeTensor(context, output, out_shape);
}

TfLiteStatus TempInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  auto* data = static_cast<TempData*>(TfLiteOpaqueNodeGetUserData(node));
  g_last_temp = data;
  const int* temps = nullptr;
  int num = 0;
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueNodeTemporaries(node, &temps, &num), kTfLiteOk);
  TF_LITE_OPAQUE_ENSURE_EQ(context, num, 1);
  TF_LITE_OPAQUE_ENSURE_EQ(context, temps[0], data->temp_index);
  TfLiteOpaqueTensor* temp = TfLiteOpaqueContextGetOpaqueTensor(context, temps[0]);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(temp), kTfLiteFloat32);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorGetAllocationType(temp), kTfLiteArenaRw);
  TF_LITE_OPAQUE_ENSURE(context, TfLiteOpaqueTensorData(temp) != nullptr);

  const TfLiteOpaqueTensor* dyn = TfLiteOpaqueContextGetOpaqueTensor(context, data->dynamic_index);
  TF_LITE_OPAQUE_ENSURE_TYPES_EQ(context, TfLiteOpaqueTensorType(dyn), kTfLiteInt8);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorGetAllocationType(dyn), kTfLiteDynamic);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorGetQuantizationParams(dyn).zero_point, 3);

  const TfLiteOpaqueTensor* input = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* output = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const size_t bytes = TfLiteOpaqueTensorByteSize(input);
  TF_LITE_OPAQUE_ENSURE_EQ(context, TfLiteOpaqueTensorByteSize(temp), bytes);
  std::memcpy(TfLiteOpaqueTensorData(temp), TfLiteOpaqueTensorData(input), bytes);
  float* t = static_cast<float*>(TfLiteOpaqueTensorData(temp));
  for (size_t i = 0; i < bytes / sizeof(float); ++i) t[i] += 0.5f;
  return TfLiteOpaqueTensorCopyFromBuffer(output, t, bytes);
}

TEST(OpaqueContext, AddTensorAndTemporaries) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {3}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {3}, "y");
  b.AddCustomOperator("Temp", {x}, {y});
  TfLiteOperator* op = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Temp", 1, nullptr);
  TfLiteOperatorSetInit(op, TempInit);
  TfLiteOperatorSetFree(op, TempFree);
  TfLiteOperatorSetPrepare(op, TempPrepare);
  TfLiteOperatorSetInvoke(op, TempInvoke);
  {
    Runner r(b.Finish(), {op});
    ASSERT_NE(r.get(), nullptr) << r.log();
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(r.get()), kTfLiteOk) << r.log();
    EXPECT_EQ(g_temp_add_errors,
              std::vector<TfLiteStatus>(4, kTfLiteError));
    const float in[3] = {1, 2, 3};
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(r.get(), 0), in, sizeof(in)),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(r.get()), kTfLiteOk) << r.log();
    float out[3] = {};
    ASSERT_EQ(
        TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(r.get(), 0), out, sizeof(out)),
        kTfLiteOk);
    EXPECT_FLOAT_EQ(out[0], 1.5f);
    EXPECT_FLOAT_EQ(out[1], 2.5f);
    EXPECT_FLOAT_EQ(out[2], 3.5f);
    ASSERT_NE(g_last_temp, nullptr);
    EXPECT_EQ(g_last_temp->negative_temporaries, kTfLiteError);
    EXPECT_NE(r.log().find("kTfLiteDynamic"), std::string::npos) << r.log();
  }
  TfLiteOperatorDelete(op);
}

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

// ---- context functions with a NULL context --------------------------------------

TEST(OpaqueContext, NullContextGivesFailureValues) {
  TfLiteIntArray* plan = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextGetExecutionPlan(nullptr, &plan), kTfLiteError);
  void* ext = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextGetExternalContext(nullptr, &ext, kTfLiteCpuBackendContext),
            kTfLiteError);
  TfLiteOpaqueNode* node = nullptr;
  TfLiteOperator* op = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextGetNodeAndRegistration(nullptr, 0, &node, &op), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextReplaceNodeSubsetsWithDelegateKernels(nullptr, nullptr, nullptr,
                                                                     nullptr),
            kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetOpaqueTensor(nullptr, 0), nullptr);
  const int* ids = nullptr;
  int n = 0;
  EXPECT_EQ(TfLiteOpaqueContextGetInputs(nullptr, &ids, &n), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetOutputs(nullptr, &ids, &n), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetVariables(nullptr, &ids, &n), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetNumNodes(nullptr), 0u);
  EXPECT_EQ(TfLiteOpaqueContextGetNumTensors(nullptr), 0u);
  EXPECT_EQ(TfLiteOpaqueContextGetName(nullptr), nullptr);
  // new_size is released even though the call fails (checked under ASan).
  EXPECT_EQ(TfLiteOpaqueContextResizeTensor(nullptr, nullptr, TfLiteIntArrayCreate(1)),
            kTfLiteError);
  TfLiteOpaqueContext* acquired = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextAcquireSubgraphContext(nullptr, 0, &acquired), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextReleaseSubgraphContext(nullptr, 0), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextMarkSubgraphAsDelegationSkippable(nullptr, 1), kTfLiteError);
  int fd = 0;
  int64_t off = 0, size = 0;
  EXPECT_EQ(TfLiteOpaqueContextGetNodeInitDataMmapInfo(nullptr, nullptr, &fd, &off, &size),
            kTfLiteError);
  TfLiteOpaqueTensorBuilder* b = TfLiteOpaqueTensorBuilderCreate();
  EXPECT_EQ(TfLiteOpaqueContextAddTensor(nullptr, b, nullptr), kTfLiteError);
  TfLiteOpaqueTensorBuilderDelete(b);
  size_t bytes = 0;
  EXPECT_EQ(TfLiteOpaqueContextGetSizeOfType(nullptr, kTfLiteInt64, &bytes), kTfLiteOk);
  EXPECT_EQ(bytes, 8u);
  EXPECT_EQ(TfLiteOpaqueContextGetSizeOfType(nullptr, kTfLiteVariant, &bytes), kTfLiteError);
  EXPECT_EQ(TfLiteOpaqueContextGetSizeOfType(nullptr, kTfLiteInt64, nullptr), kTfLiteError);
  const char* ptr = nullptr;
  EXPECT_EQ(TfLiteOpaqueContextGetMetadata(nullptr, "x", &ptr, &bytes), kTfLiteError);
  // Goes to the default reporter (stderr); must not crash.
  TfLiteOpaqueContextReportError(nullptr, "opaque test: report with no context (%d)", 1);
}

}  // namespace

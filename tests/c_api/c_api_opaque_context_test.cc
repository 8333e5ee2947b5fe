// The opaque extension API's context functions (core/c/c_api_opaque.h): a
// probe op that reads the graph through TfLiteOpaqueContext, temporaries
// added through TfLiteOpaqueTensorBuilder and AddTensor, and the failure
// values of every context function given a NULL context.
#include "tensorflow/lite/core/c/c_api_opaque.h"

#include <fcntl.h>
#include <unistd.h>

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

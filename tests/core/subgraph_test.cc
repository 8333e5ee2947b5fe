// White-box tests of the subgraph: memory planning, dynamic tensors,
// scratch/persistent buffers, variables, the TfLiteContext callbacks and the
// error paths. Kernels here are tiny test ops written against the C ABI.
#include "src/core/subgraph.h"

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/core/interpreter.h"
#include "tests/util/capturing_reporter.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace {

TfLiteQuantization NoQuant() { return TfLiteQuantization{kTfLiteNoQuantization, nullptr}; }

// out = in + 1 (float), output shaped like input.
TfLiteStatus PlusOnePrepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  return ctx->ResizeTensor(ctx, out, TfLiteIntArrayCopy(in->dims));
}
TfLiteStatus PlusOneEval(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const size_t n = in->bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i) out->data.f[i] = in->data.f[i] + 1.0f;
  return kTfLiteOk;
}
TfLiteRegistration PlusOne() {
  TfLiteRegistration r{};
  r.prepare = PlusOnePrepare;
  r.invoke = PlusOneEval;
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = "PlusOne";
  r.version = 1;
  return r;
}

// Output is dynamic: its length equals the first input element (read at Eval).
TfLiteStatus DynPrepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  TfLiteTensorDataFree(out);
  out->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}
TfLiteStatus DynEval(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const int n = static_cast<int>(in->data.f[0]);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(1);
  shape->data[0] = n;
  TF_LITE_ENSURE_OK(ctx, ctx->ResizeTensor(ctx, out, shape));
  for (int i = 0; i < n; ++i) out->data.f[i] = static_cast<float>(i);
  return kTfLiteOk;
}
TfLiteRegistration Dyn() {
  TfLiteRegistration r{};
  r.prepare = DynPrepare;
  r.invoke = DynEval;
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = "Dyn";
  return r;
}

// Uses a scratch buffer and a persistent buffer.
struct ScratchData {
  int scratch_index = -1;
  float* persistent = nullptr;
};
ScratchData g_scratch;
TfLiteStatus ScratchPrepare(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, ctx->RequestScratchBufferInArena(ctx, 1000, &g_scratch.scratch_index));
  g_scratch.persistent = static_cast<float*>(ctx->AllocatePersistentBuffer(ctx, 16));
  TF_LITE_ENSURE(ctx, g_scratch.persistent != nullptr);
  return PlusOnePrepare(ctx, node);
}
TfLiteStatus ScratchEval(TfLiteContext* ctx, TfLiteNode* node) {
  void* s = ctx->GetScratchBuffer(ctx, g_scratch.scratch_index);
  TF_LITE_ENSURE(ctx, s != nullptr);
  TF_LITE_ENSURE_EQ(ctx, reinterpret_cast<uintptr_t>(s) % 64, 0u);
  std::memset(s, 0xAB, 1000);
  return PlusOneEval(ctx, node);
}

TfLiteStatus FailPrepare(TfLiteContext* ctx, TfLiteNode*) {
  TF_LITE_KERNEL_LOG(ctx, "deliberate failure");
  return kTfLiteError;
}

// Accumulates its input into a variable tensor (input 1) and outputs it.
TfLiteStatus AccumPrepare(TfLiteContext* ctx, TfLiteNode* node) { return PlusOnePrepare(ctx, node); }
TfLiteStatus AccumEval(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* var = &ctx->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  const size_t n = in->bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i) {
    var->data.f[i] += in->data.f[i];
    out->data.f[i] = var->data.f[i];
  }
  return kTfLiteOk;
}

class SubgraphTest : public ::testing::Test {
 protected:
  SubgraphTest() : interp_(&reporter_) {}
  Subgraph& sg() { return interp_.primary(); }

  // tensors [0..n) float32 shape {len}
  void AddFloatTensors(int n, int len) {
    ASSERT_EQ(sg().AddTensors(n), kTfLiteOk);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(sg().SetTensorParametersReadWrite(i, kTfLiteFloat32, "t", {len}, NoQuant(), false),
                kTfLiteOk);
    }
  }
  void AddNode(std::vector<int> in, std::vector<int> out, const TfLiteRegistration& r) {
    ASSERT_EQ(sg().AddNodeWithParameters(in, out, {}, nullptr, 0, nullptr, &r), kTfLiteOk);
  }
  void Fill(int t, float v) {
    TfLiteTensor* x = sg().tensor(t);
    for (size_t i = 0; i < x->bytes / sizeof(float); ++i) x->data.f[i] = v;
  }

  CapturingReporter reporter_;
  Interpreter interp_;
};

TEST_F(SubgraphTest, ChainRunsAndReusesArena) {
  const int len = 1024;
  AddFloatTensors(5, len);
  const TfLiteRegistration r = PlusOne();
  for (int i = 0; i < 4; ++i) AddNode({i}, {i + 1}, r);
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({4}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  Fill(0, 1.0f);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk) << reporter_.text;
  EXPECT_FLOAT_EQ(sg().tensor(4)->data.f[len - 1], 5.0f);
  // Five 4 KiB tensors, but at most three are live at once.
  EXPECT_LE(sg().arena_bytes(), 3u * len * sizeof(float) + 3 * 64);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(sg().tensor(i)->data.raw) % 64, 0u);
  }
}

TEST_F(SubgraphTest, InputsSurviveInvoke) {
  // in -> t -> out: `out` may not reuse `in`'s memory, or a second Invoke on
  // the same input would read garbage.
  AddFloatTensors(3, 16);
  AddNode({0}, {1}, PlusOne());
  AddNode({1}, {2}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({2}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  EXPECT_NE(sg().tensor(0)->data.raw, sg().tensor(2)->data.raw);
  Fill(0, 1.0f);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(sg().tensor(0)->data.f[3], 1.0f);
  EXPECT_FLOAT_EQ(sg().tensor(2)->data.f[3], 3.0f);
}

TEST_F(SubgraphTest, InvokeBeforeAllocateFails) {
  AddFloatTensors(2, 4);
  AddNode({0}, {1}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({1}), kTfLiteOk);
  EXPECT_EQ(sg().Invoke(), kTfLiteError);
  EXPECT_NE(reporter_.text.find("not ready"), std::string::npos);
}

TEST_F(SubgraphTest, ResizeInputPropagates) {
  AddFloatTensors(3, 2);
  AddNode({0}, {1}, PlusOne());
  AddNode({1}, {2}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({2}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(sg().ResizeInputTensor(0, {10}), kTfLiteOk);
  EXPECT_FALSE(sg().IsInvokable());
  EXPECT_EQ(sg().Invoke(), kTfLiteError);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  EXPECT_EQ(sg().tensor(2)->dims->data[0], 10);
  EXPECT_EQ(sg().tensor(2)->bytes, 40u);
  Fill(0, 2.0f);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(sg().tensor(2)->data.f[9], 4.0f);
  EXPECT_EQ(sg().ResizeInputTensor(0, {-1}), kTfLiteError);
  EXPECT_EQ(sg().ResizeInputTensor(99, {1}), kTfLiteError);
}

TEST_F(SubgraphTest, ResizeInputTensorStrictOnlyChangesUnknownDims) {
  ASSERT_EQ(sg().AddTensors(2), kTfLiteOk);
  const std::vector<int> sig = {-1, 3};
  ASSERT_EQ(sg().SetTensorParametersReadWrite(0, kTfLiteFloat32, "in", {1, 3}, NoQuant(), false,
                                              &sig),
            kTfLiteOk);
  ASSERT_EQ(sg().SetTensorParametersReadWrite(1, kTfLiteFloat32, "out", {1, 3}, NoQuant(), false),
            kTfLiteOk);
  AddNode({0}, {1}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({1}), kTfLiteOk);
  EXPECT_EQ(sg().ResizeInputTensorStrict(0, {4, 3}), kTfLiteOk);
  EXPECT_EQ(sg().ResizeInputTensorStrict(0, {4, 5}), kTfLiteError);
  EXPECT_EQ(sg().ResizeInputTensorStrict(0, {4}), kTfLiteError);
}

TEST_F(SubgraphTest, DynamicOutputIsPreparedDownstreamAtInvoke) {
  AddFloatTensors(3, 1);
  AddNode({0}, {1}, Dyn());
  AddNode({1}, {2}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({2}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  for (int n : {3, 7, 2}) {
    Fill(0, static_cast<float>(n));
    ASSERT_EQ(sg().Invoke(), kTfLiteOk) << reporter_.text;
    const TfLiteTensor* out = sg().tensor(2);
    ASSERT_EQ(out->dims->size, 1);
    ASSERT_EQ(out->dims->data[0], n);
    for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(out->data.f[i], i + 1.0f);
  }
}

TEST_F(SubgraphTest, ScratchAndPersistentBuffers) {
  AddFloatTensors(2, 8);
  TfLiteRegistration r = PlusOne();
  r.prepare = ScratchPrepare;
  r.invoke = ScratchEval;
  AddNode({0}, {1}, r);
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({1}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  Fill(0, 0.5f);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk) << reporter_.text;
  EXPECT_FLOAT_EQ(sg().tensor(1)->data.f[7], 1.5f);
  // Outside Prepare, scratch requests are refused; bad indices yield NULL.
  TfLiteContext* ctx = sg().context();
  int idx = -1;
  EXPECT_EQ(ctx->RequestScratchBufferInArena(ctx, 10, &idx), kTfLiteError);
  EXPECT_EQ(ctx->GetScratchBuffer(ctx, 12345), nullptr);
}

TEST_F(SubgraphTest, VariablesPersistAcrossInvokesAndReset) {
  ASSERT_EQ(sg().AddTensors(3), kTfLiteOk);
  ASSERT_EQ(sg().SetTensorParametersReadWrite(0, kTfLiteFloat32, "in", {2}, NoQuant(), false),
            kTfLiteOk);
  ASSERT_EQ(sg().SetTensorParametersReadWrite(1, kTfLiteFloat32, "var", {2}, NoQuant(), true),
            kTfLiteOk);
  ASSERT_EQ(sg().SetTensorParametersReadWrite(2, kTfLiteFloat32, "out", {2}, NoQuant(), false),
            kTfLiteOk);
  TfLiteRegistration r = PlusOne();
  r.prepare = AccumPrepare;
  r.invoke = AccumEval;
  AddNode({0, 1}, {2}, r);
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({2}), kTfLiteOk);
  ASSERT_EQ(sg().SetVariables({1}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  EXPECT_EQ(sg().tensor(1)->allocation_type, kTfLiteArenaRwPersistent);
  Fill(0, 1.0f);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(sg().tensor(2)->data.f[0], 2.0f);
  ASSERT_EQ(sg().ResetVariableTensors(), kTfLiteOk);
  ASSERT_EQ(sg().Invoke(), kTfLiteOk);
  EXPECT_FLOAT_EQ(sg().tensor(2)->data.f[0], 1.0f);
}

TEST_F(SubgraphTest, PrepareFailureNamesTheNode) {
  AddFloatTensors(2, 1);
  TfLiteRegistration r = PlusOne();
  r.prepare = FailPrepare;
  AddNode({0}, {1}, r);
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({1}), kTfLiteOk);
  EXPECT_EQ(sg().AllocateTensors(), kTfLiteError);
  EXPECT_NE(reporter_.text.find("deliberate failure"), std::string::npos);
  EXPECT_NE(reporter_.text.find("Node number 0 (PlusOne) failed to prepare"), std::string::npos)
      << reporter_.text;
}

TEST_F(SubgraphTest, UnresolvedCustomOpFailsAtAllocate) {
  AddFloatTensors(2, 1);
  const TfLiteRegistration r = Subgraph::UnresolvedCustomOpRegistration("MysteryOp");
  AddNode({0}, {1}, r);
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({1}), kTfLiteOk);
  EXPECT_EQ(sg().AllocateTensors(), kTfLiteUnresolvedOps);
  EXPECT_NE(reporter_.text.find("MysteryOp"), std::string::npos);
}

TEST_F(SubgraphTest, RejectsBadConstruction) {
  AddFloatTensors(2, 1);
  const TfLiteRegistration r = PlusOne();
  EXPECT_EQ(sg().AddNodeWithParameters({0}, {7}, {}, nullptr, 0, nullptr, &r), kTfLiteError);
  EXPECT_EQ(sg().AddNodeWithParameters({0}, {1}, {}, nullptr, 0, nullptr, nullptr), kTfLiteError);
  EXPECT_EQ(sg().SetInputs({5}), kTfLiteError);
  EXPECT_EQ(sg().SetOutputs({-7}), kTfLiteError);
  EXPECT_EQ(sg().AddTensors(-1), kTfLiteError);
  // An overflowing shape is refused.
  EXPECT_EQ(sg().SetTensorParametersReadWrite(0, kTfLiteFloat32, "big", {1 << 30, 1 << 30, 64},
                                              NoQuant(), false),
            kTfLiteError);
  // Read-only data smaller than the shape needs is refused.
  static const float data[3] = {1, 2, 3};
  EXPECT_EQ(sg().SetTensorParametersReadOnly(0, kTfLiteFloat32, "c", {4}, NoQuant(),
                                             reinterpret_cast<const char*>(data), sizeof(data)),
            kTfLiteError);
}

TEST_F(SubgraphTest, ContextCallbacks) {
  AddFloatTensors(2, 1);
  AddNode({0}, {1}, PlusOne());
  TfLiteContext* ctx = sg().context();
  TfLiteNode* node = nullptr;
  TfLiteRegistration* reg = nullptr;
  ASSERT_EQ(ctx->GetNodeAndRegistration(ctx, 0, &node, &reg), kTfLiteOk);
  EXPECT_STREQ(reg->custom_name, "PlusOne");
  EXPECT_EQ(ctx->GetNodeAndRegistration(ctx, 1, &node, &reg), kTfLiteError);
  TfLiteIntArray* plan = nullptr;
  ASSERT_EQ(ctx->GetExecutionPlan(ctx, &plan), kTfLiteOk);
  ASSERT_EQ(plan->size, 1);
  EXPECT_EQ(plan->data[0], 0);
  EXPECT_EQ(ctx->GetTensor(ctx, 1), sg().tensor(1));
  EXPECT_EQ(ctx->GetTensor(ctx, 2), nullptr);
  TfLiteEvalTensor* et = ctx->GetEvalTensor(ctx, 1);
  ASSERT_NE(et, nullptr);
  EXPECT_EQ(et->type, kTfLiteFloat32);
  TfLiteExternalContext ext{};
  ext.type = kTfLiteCpuBackendContext;
  ctx->SetExternalContext(ctx, kTfLiteCpuBackendContext, &ext);
  EXPECT_EQ(ctx->GetExternalContext(ctx, kTfLiteCpuBackendContext), &ext);
  EXPECT_EQ(ctx->GetExternalContext(ctx, static_cast<TfLiteExternalContextType>(99)), nullptr);
  ctx->SetExternalContext(ctx, kTfLiteCpuBackendContext, nullptr);
  const char* md = nullptr;
  size_t md_size = 0;
  EXPECT_EQ(ctx->GetModelMetadata(ctx, "nope", &md, &md_size), kTfLiteError);
  TfLiteContext* other = nullptr;
  EXPECT_EQ(ctx->AcquireSubgraphContext(ctx, 0, &other), kTfLiteOk);
  EXPECT_EQ(other, ctx);
  EXPECT_EQ(ctx->ReleaseSubgraphContext(ctx, 0), kTfLiteOk);
  EXPECT_EQ(ctx->AcquireSubgraphContext(ctx, 3, &other), kTfLiteError);
  int first = -1;
  ASSERT_EQ(ctx->AddTensors(ctx, 2, &first), kTfLiteOk);
  EXPECT_EQ(first, 2);
  EXPECT_EQ(ctx->tensors_size, 4u);
  // Resizing a tensor that is not ours is refused (and the array released).
  TfLiteTensor foreign{};
  EXPECT_EQ(ctx->ResizeTensor(ctx, &foreign, TfLiteIntArrayCreate(1)), kTfLiteError);
}

TEST_F(SubgraphTest, CancellationStopsBetweenNodes) {
  AddFloatTensors(3, 1);
  AddNode({0}, {1}, PlusOne());
  AddNode({1}, {2}, PlusOne());
  ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
  ASSERT_EQ(sg().SetOutputs({2}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  EXPECT_EQ(interp_.Cancel(), kTfLiteError);  // not enabled
  interp_.EnableCancellation();
  // A Cancel() before Invoke does not affect the next Invoke.
  EXPECT_EQ(interp_.Cancel(), kTfLiteOk);
  EXPECT_EQ(interp_.Invoke(), kTfLiteOk);
  // Cancelling during a run (simulated: flag cleared after the reset).
  interp_.shared()->continue_invocation.clear();
  EXPECT_EQ(sg().Invoke(), kTfLiteCancelled);
}

}  // namespace
}  // namespace tflite_c

// Delegates at the TfLiteContext level: a delegate written as plain C struct
// usage (Prepare -> GetExecutionPlan / GetNodeAndRegistration ->
// ReplaceNodeSubsetsWithDelegateKernels) applied to a subgraph.
#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/core/interpreter.h"
#include "tests/util/capturing_reporter.h"
#include "src/core/subgraph.h"
#include "tensorflow/lite/builtin_ops.h"

namespace tflite_c {
namespace {

TfLiteStatus CopyShapePrepare(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  return ctx->ResizeTensor(ctx, &ctx->tensors[node->outputs->data[0]], TfLiteIntArrayCopy(in->dims));
}
TfLiteStatus PlusOneEval(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) out->data.f[i] = in->data.f[i] + 1.0f;
  return kTfLiteOk;
}
TfLiteStatus TimesTwoEval(TfLiteContext* ctx, TfLiteNode* node) {
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) out->data.f[i] = in->data.f[i] * 2.0f;
  return kTfLiteOk;
}
TfLiteRegistration Op(const char* name, TfLiteStatus (*eval)(TfLiteContext*, TfLiteNode*)) {
  TfLiteRegistration r{};
  r.prepare = CopyShapePrepare;
  r.invoke = eval;
  r.builtin_code = kTfLiteBuiltinCustom;
  r.custom_name = name;
  r.version = 1;
  return r;
}

// ---- a delegate that takes every "PlusOne" node --------------------------------
struct DelegateState {
  int kernels_created = 0;
  int nodes_claimed = 0;
  int partitions_previewed = 0;
  bool fail_prepare = false;
};

struct KernelData {
  int num_nodes;  // each claimed node adds 1
  int input, output;
};

void* KernelInit(TfLiteContext*, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  auto* state = static_cast<DelegateState*>(params->delegate->data_);
  state->kernels_created++;
  auto* kd = new KernelData;
  kd->num_nodes = params->nodes_to_replace->size;
  kd->input = params->input_tensors->data[0];
  kd->output = params->output_tensors->data[0];
  return kd;
}
void KernelFree(TfLiteContext*, void* data) { delete static_cast<KernelData*>(data); }
TfLiteStatus KernelPrepare(TfLiteContext* ctx, TfLiteNode* node) {
  const auto* kd = static_cast<const KernelData*>(node->user_data);
  return ctx->ResizeTensor(ctx, &ctx->tensors[kd->output], TfLiteIntArrayCopy(ctx->tensors[kd->input].dims));
}
TfLiteStatus KernelEval(TfLiteContext* ctx, TfLiteNode* node) {
  const auto* kd = static_cast<const KernelData*>(node->user_data);
  const TfLiteTensor* in = &ctx->tensors[kd->input];
  TfLiteTensor* out = &ctx->tensors[kd->output];
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) {
    out->data.f[i] = in->data.f[i] + static_cast<float>(kd->num_nodes);
  }
  return kTfLiteOk;
}

TfLiteStatus DelegatePrepare(TfLiteContext* ctx, TfLiteDelegate* delegate) {
  auto* state = static_cast<DelegateState*>(delegate->data_);
  if (state->fail_prepare) return kTfLiteError;
  TfLiteIntArray* plan = nullptr;
  TF_LITE_ENSURE_STATUS(ctx->GetExecutionPlan(ctx, &plan));
  std::vector<int> claimed;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node;
    TfLiteRegistration* reg;
    TF_LITE_ENSURE_STATUS(ctx->GetNodeAndRegistration(ctx, plan->data[i], &node, &reg));
    if (reg->custom_name != nullptr && std::strcmp(reg->custom_name, "PlusOne") == 0) {
      claimed.push_back(plan->data[i]);
    }
  }
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(claimed.size()));
  for (size_t i = 0; i < claimed.size(); ++i) nodes->data[i] = claimed[i];
  TfLiteDelegateParams* preview = nullptr;
  int num = 0;
  TfLiteStatus s = ctx->PreviewDelegatePartitioning(ctx, nodes, &preview, &num);
  if (s == kTfLiteOk) {
    state->partitions_previewed = num;
    state->nodes_claimed = static_cast<int>(claimed.size());
    TfLiteRegistration kernel{};
    kernel.init = KernelInit;
    kernel.free = KernelFree;
    kernel.prepare = KernelPrepare;
    kernel.invoke = KernelEval;
    kernel.custom_name = "TestDelegate";
    s = ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, kernel, nodes, delegate);
  }
  TfLiteIntArrayFree(nodes);
  return s;
}

class DelegateTest : public ::testing::Test {
 protected:
  DelegateTest() : interp_(&reporter_) {
    delegate_ = TfLiteDelegateCreate();
    delegate_.data_ = &state_;
    delegate_.Prepare = DelegatePrepare;
  }
  Subgraph& sg() { return interp_.primary(); }

  // t0 -PlusOne-> t1 -PlusOne-> t2 -TimesTwo-> t3 -PlusOne-> t4
  void BuildChain(int len = 4) {
    ASSERT_EQ(sg().AddTensors(5), kTfLiteOk);
    for (int i = 0; i < 5; ++i) {
      ASSERT_EQ(sg().SetTensorParametersReadWrite(i, kTfLiteFloat32, "t", {len},
                                                  {kTfLiteNoQuantization, nullptr}, false),
                kTfLiteOk);
    }
    const TfLiteRegistration plus = Op("PlusOne", PlusOneEval);
    const TfLiteRegistration twice = Op("TimesTwo", TimesTwoEval);
    ASSERT_EQ(sg().AddNodeWithParameters({0}, {1}, {}, nullptr, 0, nullptr, &plus), kTfLiteOk);
    ASSERT_EQ(sg().AddNodeWithParameters({1}, {2}, {}, nullptr, 0, nullptr, &plus), kTfLiteOk);
    ASSERT_EQ(sg().AddNodeWithParameters({2}, {3}, {}, nullptr, 0, nullptr, &twice), kTfLiteOk);
    ASSERT_EQ(sg().AddNodeWithParameters({3}, {4}, {}, nullptr, 0, nullptr, &plus), kTfLiteOk);
    ASSERT_EQ(sg().SetInputs({0}), kTfLiteOk);
    ASSERT_EQ(sg().SetOutputs({4}), kTfLiteOk);
  }
  float RunWith(float x) {
    TfLiteTensor* in = sg().tensor(0);
    for (size_t i = 0; i < in->bytes / sizeof(float); ++i) in->data.f[i] = x;
    EXPECT_EQ(sg().Invoke(), kTfLiteOk) << reporter_.text;
    return sg().tensor(4)->data.f[0];
  }

  CapturingReporter reporter_;
  Interpreter interp_;
  DelegateState state_;
  TfLiteDelegate delegate_;
};

TEST_F(DelegateTest, ReplacesSubsetsAndComputesTheSame) {
  BuildChain();
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  const float cpu = RunWith(1.0f);  // ((1+1+1)*2)+1 = 7
  EXPECT_FLOAT_EQ(cpu, 7.0f);
  ASSERT_EQ(sg().ModifyGraphWithDelegate(&delegate_), kTfLiteOk) << reporter_.text;
  EXPECT_EQ(state_.nodes_claimed, 3);
  EXPECT_EQ(state_.partitions_previewed, 2);  // {n0,n1} and {n3}
  EXPECT_EQ(state_.kernels_created, 2);
  ASSERT_EQ(sg().execution_plan().size(), 3u);  // delegate, TimesTwo, delegate
  EXPECT_EQ(sg().node_and_registration(sg().execution_plan()[0])->second.builtin_code,
            kTfLiteBuiltinDelegate);
  EXPECT_FLOAT_EQ(RunWith(1.0f), cpu);
  // t1 lives only inside the first partition: it gets no arena memory.
  EXPECT_EQ(sg().tensor(1)->data.raw, nullptr);
  EXPECT_EQ(sg().tensor(2)->delegate, &delegate_);
}

TEST_F(DelegateTest, ResizeUndoesAndRedoesDelegation) {
  BuildChain(2);
  ASSERT_EQ(sg().ModifyGraphWithDelegate(&delegate_), kTfLiteOk) << reporter_.text;
  ASSERT_EQ(sg().ResizeInputTensor(0, {6}), kTfLiteOk);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  EXPECT_EQ(sg().execution_plan().size(), 3u);
  EXPECT_EQ(sg().tensor(4)->dims->data[0], 6);
  EXPECT_FLOAT_EQ(RunWith(2.0f), 9.0f);
}

TEST_F(DelegateTest, FailedPrepareRestoresThePlan) {
  BuildChain();
  state_.fail_prepare = true;
  EXPECT_EQ(sg().ModifyGraphWithDelegate(&delegate_), kTfLiteDelegateError);
  EXPECT_NE(reporter_.text.find("Restored original execution plan"), std::string::npos);
  EXPECT_EQ(sg().execution_plan().size(), 4u);
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk);
  EXPECT_FLOAT_EQ(RunWith(1.0f), 7.0f);
}

TEST_F(DelegateTest, NullDelegateIsAnError) {
  BuildChain();
  EXPECT_EQ(sg().ModifyGraphWithDelegate(nullptr), kTfLiteDelegateError);
}

TEST_F(DelegateTest, ReplaceOutsideDelegatePrepareIsRefused) {
  BuildChain();
  TfLiteContext* ctx = sg().context();
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(1);
  nodes->data[0] = 0;
  TfLiteRegistration kernel{};
  EXPECT_EQ(ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, kernel, nodes, &delegate_),
            kTfLiteError);
  TfLiteDelegateParams* params = nullptr;
  int n = 0;
  EXPECT_EQ(ctx->PreviewDelegatePartitioning(ctx, nodes, &params, &n), kTfLiteError);
  TfLiteIntArrayFree(nodes);
}

// A node whose output is dynamic: a static-shape delegate must refuse.
TfLiteStatus DynamicPrepare(TfLiteContext* ctx, TfLiteNode* node) {
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  TfLiteTensorDataFree(out);
  out->allocation_type = kTfLiteDynamic;
  return kTfLiteOk;
}
TfLiteStatus DynamicEval(TfLiteContext* ctx, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(ctx, CopyShapePrepare(ctx, node));
  return PlusOneEval(ctx, node);
}

TEST_F(DelegateTest, StaticDelegateRejectsDynamicGraph) {
  BuildChain();
  TfLiteNode* node;
  TfLiteRegistration* reg;
  ASSERT_EQ(sg().context()->GetNodeAndRegistration(sg().context(), 2, &node, &reg), kTfLiteOk);
  reg->prepare = DynamicPrepare;
  reg->invoke = DynamicEval;
  EXPECT_EQ(sg().ModifyGraphWithDelegate(&delegate_), kTfLiteApplicationError);
  EXPECT_NE(reporter_.text.find("dynamic-sized tensors"), std::string::npos);
  // With the flag, the same delegate is accepted.
  delegate_.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  ASSERT_EQ(sg().ModifyGraphWithDelegate(&delegate_), kTfLiteOk) << reporter_.text;
  ASSERT_EQ(sg().AllocateTensors(), kTfLiteOk) << reporter_.text;
  EXPECT_FLOAT_EQ(RunWith(1.0f), 5.0f);  // delegated +2, dynamic CPU +1, delegated +1
}

// Buffer handles: a stale tensor is copied back before a CPU kernel reads it.
int g_copies = 0;
int g_frees = 0;
TfLiteStatus CopyFromHandle(TfLiteContext*, TfLiteDelegate*, TfLiteBufferHandle, TfLiteTensor* t) {
  ++g_copies;
  for (size_t i = 0; i < t->bytes / sizeof(float); ++i) t->data.f[i] = 100.0f;
  return kTfLiteOk;
}
void FreeHandle(TfLiteContext*, TfLiteDelegate*, TfLiteBufferHandle* h) {
  ++g_frees;
  *h = kTfLiteNullBufferHandle;
}

TEST_F(DelegateTest, StaleBufferHandleIsCopiedBeforeCpuUse) {
  g_copies = g_frees = 0;
  {
    // Declared before the interpreter: the subgraph frees the handle through
    // it when it is destroyed.
    TfLiteDelegate d = TfLiteDelegateCreate();
    CapturingReporter reporter;
    Interpreter interp(&reporter);
    Subgraph& s = interp.primary();
    ASSERT_EQ(s.AddTensors(2), kTfLiteOk);
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(s.SetTensorParametersReadWrite(i, kTfLiteFloat32, "t", {2},
                                               {kTfLiteNoQuantization, nullptr}, false),
                kTfLiteOk);
    }
    const TfLiteRegistration plus = Op("PlusOne", PlusOneEval);
    ASSERT_EQ(s.AddNodeWithParameters({0}, {1}, {}, nullptr, 0, nullptr, &plus), kTfLiteOk);
    ASSERT_EQ(s.SetInputs({0}), kTfLiteOk);
    ASSERT_EQ(s.SetOutputs({1}), kTfLiteOk);
    ASSERT_EQ(s.AllocateTensors(), kTfLiteOk);
    d.CopyFromBufferHandle = CopyFromHandle;
    d.FreeBufferHandle = FreeHandle;
    TfLiteTensor* in = s.tensor(0);
    in->delegate = &d;
    in->buffer_handle = 7;
    in->data_is_stale = true;
    ASSERT_EQ(s.Invoke(), kTfLiteOk) << reporter.text;
    EXPECT_EQ(g_copies, 1);
    EXPECT_FALSE(in->data_is_stale);
    EXPECT_FLOAT_EQ(s.tensor(1)->data.f[0], 101.0f);
  }
  EXPECT_EQ(g_frees, 1);  // released with the subgraph
}

}  // namespace
}  // namespace tflite_c

// The custom-delegate guide's SimpleDelegate applied through the C++ API:
// Interpreter::ModifyGraphWithDelegate, a delegate owned by the interpreter,
// InterpreterBuilder::AddDelegate and buffer handles, on java_add (shared
// models). Only public headers are used.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/op_resolver.h"
#include "tensorflow/lite/optional_debug_tools.h"
#include "tests/cc/cc_api_test_util.h"

namespace {

using tflite_c::testing::CcApi;
using tflite_c::testing::ExpectJavaAddGolden;

// ---- the custom-delegate guide's delegate -------------------------------------------

int NumElements(const TfLiteTensor* t) {
  int n = 1;
  for (int i = 0; i < t->dims->size; ++i) n *= t->dims->data[i];
  return n;
}

int g_eval_calls = 0;
int g_delegates_alive = 0;

// The guide's MyDelegateKernel: evaluates ADD/SUB nodes of float32 tensors.
class MyDelegateKernel : public tflite::SimpleDelegateKernelInterface {
 public:
  TfLiteStatus Init(TfLiteContext* context, const TfLiteDelegateParams* params) override {
    inputs_.resize(params->nodes_to_replace->size);
    outputs_.resize(params->nodes_to_replace->size);
    builtin_code_.resize(params->nodes_to_replace->size);
    for (int i = 0; i < params->nodes_to_replace->size; ++i) {
      const int node_index = params->nodes_to_replace->data[i];
      TfLiteNode* node = nullptr;
      TfLiteRegistration* reg = nullptr;
      TF_LITE_ENSURE_STATUS(context->GetNodeAndRegistration(context, node_index, &node, &reg));
      inputs_[i].assign(node->inputs->data, node->inputs->data + node->inputs->size);
      outputs_[i].assign(node->outputs->data, node->outputs->data + node->outputs->size);
      builtin_code_[i] = reg->builtin_code;
    }
    return kTfLiteOk;
  }
  TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*) override { return kTfLiteOk; }
  TfLiteStatus Eval(TfLiteContext* context, TfLiteNode*) override {
    ++g_eval_calls;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const TfLiteTensor& a = context->tensors[inputs_[i][0]];
      const TfLiteTensor& b = context->tensors[inputs_[i][1]];
      TfLiteTensor& out = context->tensors[outputs_[i][0]];
      if (NumElements(&a) != NumElements(&b) || NumElements(&a) != NumElements(&out)) {
        return kTfLiteDelegateError;
      }
      const float* x = Data(context, inputs_[i][0]);
      const float* y = Data(context, inputs_[i][1]);
      float* z = Data(context, outputs_[i][0]);
      for (int k = 0; k < NumElements(&a); ++k) {
        z[k] = builtin_code_[i] == kTfLiteBuiltinAdd ? x[k] + y[k] : x[k] - y[k];
      }
    }
    return kTfLiteOk;
  }

 private:
  // Tensors internal to the partition get no memory from the runtime (only
  // the delegate node's inputs and outputs do); the kernel keeps its own.
  float* Data(TfLiteContext* context, int index) {
    TfLiteTensor& t = context->tensors[index];
    if (t.data.raw != nullptr) return t.data.f;
    std::vector<float>& own = internal_[index];
    own.resize(NumElements(&t));
    return own.data();
  }

  std::vector<std::vector<int>> inputs_, outputs_;
  std::vector<int> builtin_code_;
  std::map<int, std::vector<float>> internal_;
};

// The guide's MyDelegate.
class MyDelegate : public tflite::SimpleDelegateInterface {
 public:
  MyDelegate() { ++g_delegates_alive; }
  ~MyDelegate() override { --g_delegates_alive; }
  bool IsNodeSupportedByDelegate(const TfLiteRegistration* registration, const TfLiteNode* node,
                                 TfLiteContext* context) const override {
    if (registration->builtin_code != kTfLiteBuiltinAdd &&
        registration->builtin_code != kTfLiteBuiltinSub) {
      return false;
    }
    for (int i = 0; i < node->inputs->size; ++i) {
      if (context->tensors[node->inputs->data[i]].type != kTfLiteFloat32) return false;
    }
    return true;
  }
  TfLiteStatus Initialize(TfLiteContext*) override { return kTfLiteOk; }
  const char* Name() const override { return "MyDelegate"; }
  std::unique_ptr<tflite::SimpleDelegateKernelInterface> CreateDelegateKernelInterface()
      override {
    return std::make_unique<MyDelegateKernel>();
  }
  tflite::SimpleDelegateInterface::Options DelegateOptions() const override { return {}; }
};

TEST_F(CcApi, GuideDelegateThroughModifyGraphWithDelegate) {
  USE_INTERPRETER("java_add.tflite");

  auto delegate = tflite::TfLiteDelegateFactory::Create(std::make_unique<MyDelegate>());
  ASSERT_EQ(interpreter_->ModifyGraphWithDelegate(delegate.get()), kTfLiteOk);
  // Every node was ADD: one delegate node is left.
  ASSERT_EQ(interpreter_->execution_plan().size(), 1u);
  const auto* nr = interpreter_->node_and_registration(interpreter_->execution_plan()[0]);
  ASSERT_NE(nr, nullptr);
  EXPECT_EQ(nr->first.delegate, delegate.get());
  EXPECT_EQ(interpreter_->ModifyGraphWithDelegate(static_cast<TfLiteDelegate*>(nullptr)),
            kTfLiteDelegateError);

  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  g_eval_calls = 0;
  ExpectJavaAddGolden(interpreter_.get());
  EXPECT_EQ(g_eval_calls, 1);

  testing::internal::CaptureStdout();
  tflite::PrintInterpreterState(interpreter_.get());
  const std::string state = testing::internal::GetCapturedStdout();
  EXPECT_NE(state.find("Subgraph-0"), std::string::npos) << state;
  EXPECT_NE(state.find("delegated"), std::string::npos) << state;
  interpreter_.reset();  // before the delegate it uses
}

TEST_F(CcApi, InterpreterOwnsADelegateGivenAsUniquePtr) {
  USE_INTERPRETER("java_add.tflite");
  const int alive = g_delegates_alive;
  tflite::Interpreter::TfLiteDelegatePtr delegate =
      tflite::TfLiteDelegateFactory::Create(std::make_unique<MyDelegate>());
  EXPECT_EQ(g_delegates_alive, alive + 1);
  ASSERT_EQ(interpreter_->ModifyGraphWithDelegate(std::move(delegate)), kTfLiteOk);
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  g_eval_calls = 0;
  ExpectJavaAddGolden(interpreter_.get());
  EXPECT_EQ(g_eval_calls, 1);
  // Applying a delegate after AllocateTensors keeps the interpreter usable.
  auto second = tflite::TfLiteDelegateFactory::Create(std::make_unique<MyDelegate>());
  ASSERT_EQ(interpreter_->ModifyGraphWithDelegate(std::move(second)), kTfLiteOk);
  ExpectJavaAddGolden(interpreter_.get());
  interpreter_.reset();
  EXPECT_EQ(g_delegates_alive, alive);  // freed with the interpreter
}

TEST_F(CcApi, InterpreterBuilderAddDelegate) {
  USE_MODEL("java_add.tflite");
  auto delegate = tflite::TfLiteDelegateFactory::Create(std::make_unique<MyDelegate>());
  tflite::InterpreterBuilder builder(*model_, resolver_);
  builder.AddDelegate(delegate.get());
  ASSERT_EQ(builder(&interpreter_), kTfLiteOk);
  ASSERT_EQ(interpreter_->execution_plan().size(), 1u);
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  g_eval_calls = 0;
  ExpectJavaAddGolden(interpreter_.get());
  EXPECT_EQ(g_eval_calls, 1);
  interpreter_.reset();
}

TEST_F(CcApi, BufferHandles) {
  USE_INTERPRETER("java_add.tflite");
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  TfLiteDelegate other = TfLiteDelegateCreate();
  const int t = interpreter_->inputs()[0];
  TfLiteBufferHandle handle = 123;
  TfLiteDelegate* owner = &other;
  ASSERT_EQ(interpreter_->GetBufferHandle(t, &handle, &owner), kTfLiteOk);
  EXPECT_EQ(handle, kTfLiteNullBufferHandle);
  EXPECT_EQ(owner, nullptr);
  ASSERT_EQ(interpreter_->SetBufferHandle(t, 7, &delegate), kTfLiteOk);
  ASSERT_EQ(interpreter_->GetBufferHandle(t, &handle, &owner), kTfLiteOk);
  EXPECT_EQ(handle, 7);
  EXPECT_EQ(owner, &delegate);
  EXPECT_EQ(interpreter_->SetBufferHandle(t, 8, &other), kTfLiteError);  // another delegate's
  EXPECT_EQ(interpreter_->SetBufferHandle(-1, 8, &delegate), kTfLiteError);
  EXPECT_EQ(interpreter_->GetBufferHandle(-1, &handle, &owner), kTfLiteError);
  ASSERT_EQ(interpreter_->SetBufferHandle(t, kTfLiteNullBufferHandle, nullptr), kTfLiteError);
  // Detach before the interpreter is destroyed.
  interpreter_->tensor(t)->delegate = nullptr;
  interpreter_->tensor(t)->buffer_handle = kTfLiteNullBufferHandle;
}

}  // namespace

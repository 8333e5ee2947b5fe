// The C++ API (libtflite_cc) as upstream programs use it, on the models of
// the C conformance test (tests/c/c_api_conformance_test.c):
//   java_add.tflite                     y = 3x, input [1,8,8,3] float32
//   java_add_unknown_dimensions.tflite  y = 2x, resizable input
//   tflite_multi_signatures.tflite      signatures "add" (x+2) and "sub" (x-3)
// plus the custom-delegate guide's SimpleDelegate applied through
// Interpreter::ModifyGraphWithDelegate. Only public headers are used.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/op_resolver.h"
#include "tensorflow/lite/optional_debug_tools.h"
#include "tensorflow/lite/signature_runner.h"
#include "tensorflow/lite/stderr_reporter.h"
#include "tensorflow/lite/string_util.h"
#include "tests/util/test_paths.h"

namespace {

const std::string kModels = std::string(TFLITE_C_SHARED_DIR) + "/models/files/";
const std::string kGolden = std::string(TFLITE_C_SHARED_DIR) + "/models/golden/";

std::string ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::vector<float> ReadFloats(const std::string& path) {
  const std::string bytes = ReadBytes(path);
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

bool HaveModels() {
  return !ReadBytes(kModels + "java_add.tflite").empty();
}

#define SKIP_WITHOUT_MODELS() \
  if (!HaveModels()) GTEST_SKIP() << "shared models not found under " << kModels

// Collects every report, for the error-path tests.
class CapturingReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override {
    char buf[1024];
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    text += buf;
    text += '\n';
    ++calls;
    return n;
  }
  using tflite::ErrorReporter::Report;
  std::string text;
  int calls = 0;
};

std::unique_ptr<tflite::Interpreter> Build(const tflite::FlatBufferModel& model,
                                           const tflite::OpResolver& resolver) {
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(model, resolver)(&interpreter) != kTfLiteOk) return nullptr;
  return interpreter;
}

// Each test loads one of the shared models (skipping when they are absent)
// and usually builds an interpreter for it with the builtin resolver; tests
// of the builder itself only load the model.
class CcApi : public ::testing::Test {
 protected:
  // model_ = models/files/<file>.
  void LoadModel(const std::string& file) {
    model_ = tflite::FlatBufferModel::BuildFromFile((kModels + file).c_str());
    ASSERT_NE(model_, nullptr) << file;
  }
  // model_ as above, then interpreter_ from it and resolver_ (not allocated).
  void LoadInterpreter(const std::string& file) {
    ASSERT_NO_FATAL_FAILURE(LoadModel(file));
    interpreter_ = Build(*model_, resolver_);
    ASSERT_NE(interpreter_, nullptr) << file;
  }

  tflite::ops::builtin::BuiltinOpResolver resolver_;
  std::unique_ptr<tflite::FlatBufferModel> model_;
  std::unique_ptr<tflite::Interpreter> interpreter_;  // destroyed before model_
};

// In a CcApi test: skips without the shared models, else loads `file` as
// model_ (USE_MODEL) or as model_ plus interpreter_ (USE_INTERPRETER).
#define USE_MODEL(file)   \
  SKIP_WITHOUT_MODELS(); \
  ASSERT_NO_FATAL_FAILURE(LoadModel(file))
#define USE_INTERPRETER(file) \
  SKIP_WITHOUT_MODELS();     \
  ASSERT_NO_FATAL_FAILURE(LoadInterpreter(file))

// Runs java_add's golden input through `interpreter` (already allocated).
void ExpectJavaAddGolden(tflite::Interpreter* interpreter) {
  const std::vector<float> in = ReadFloats(kGolden + "java_add/input_0.bin");
  const std::vector<float> expected = ReadFloats(kGolden + "java_add/output_0.bin");
  ASSERT_EQ(in.size(), 192u);
  ASSERT_EQ(expected.size(), 192u);
  float* input = interpreter->typed_input_tensor<float>(0);
  ASSERT_NE(input, nullptr);
  std::memcpy(input, in.data(), in.size() * sizeof(float));
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk);
  const float* output = interpreter->typed_output_tensor<float>(0);
  ASSERT_NE(output, nullptr);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(output[i], expected[i], 1e-3f + 1e-4f * std::fabs(expected[i])) << i;
  }
}

// ---- models and interpreters --------------------------------------------------

TEST_F(CcApi, JavaAddFromFileMatchesGolden) {
  USE_MODEL("java_add.tflite");
  EXPECT_TRUE(model_->initialized());
  EXPECT_NE(model_->GetModel(), nullptr);
  EXPECT_EQ(model_->error_reporter(), tflite::DefaultErrorReporter());

  ASSERT_EQ(tflite::InterpreterBuilder(*model_, resolver_)(&interpreter_), kTfLiteOk);
  ASSERT_NE(interpreter_, nullptr);
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);

  ASSERT_EQ(interpreter_->inputs().size(), 1u);
  ASSERT_EQ(interpreter_->outputs().size(), 1u);
  const TfLiteTensor* input = interpreter_->input_tensor(0);
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input, interpreter_->tensor(interpreter_->inputs()[0]));
  EXPECT_EQ(input->type, kTfLiteFloat32);
  ASSERT_EQ(input->dims->size, 4);
  EXPECT_EQ(input->dims->data[3], 3);
  EXPECT_EQ(input->bytes, 192 * sizeof(float));
  ASSERT_NE(interpreter_->GetInputName(0), nullptr);
  EXPECT_STREQ(interpreter_->GetInputName(0), input->name);
  EXPECT_STREQ(interpreter_->GetOutputName(0), interpreter_->output_tensor(0)->name);
  // A typed view of the wrong type is refused.
  EXPECT_EQ(interpreter_->typed_input_tensor<int32_t>(0), nullptr);
  EXPECT_EQ(interpreter_->typed_tensor<float>(interpreter_->inputs()[0]),
            interpreter_->typed_input_tensor<float>(0));

  EXPECT_GE(interpreter_->tensors_size(), 2u);
  EXPECT_GE(interpreter_->nodes_size(), 1u);
  EXPECT_EQ(interpreter_->execution_plan().size(), interpreter_->nodes_size());
  const auto* nr = interpreter_->node_and_registration(interpreter_->execution_plan()[0]);
  ASSERT_NE(nr, nullptr);
  EXPECT_EQ(nr->second.builtin_code, kTfLiteBuiltinAdd);
  EXPECT_EQ(interpreter_->node_and_registration(1 << 20), nullptr);
  EXPECT_EQ(interpreter_->tensor(-1), nullptr);
  EXPECT_EQ(interpreter_->tensor(static_cast<int>(interpreter_->tensors_size())), nullptr);
  EXPECT_EQ(interpreter_->subgraphs_size(), 1u);

  ExpectJavaAddGolden(interpreter_.get());
  // Again, after re-planning with the same shapes.
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(interpreter_.get());
}

TEST_F(CcApi, JavaAddFromBufferMatchesGolden) {
  SKIP_WITHOUT_MODELS();
  const std::string bytes = ReadBytes(kModels + "java_add.tflite");
  auto model = tflite::FlatBufferModel::BuildFromBuffer(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->data(), static_cast<const void*>(bytes.data()));  // not copied
  EXPECT_EQ(model->size(), bytes.size());
  auto verified = tflite::FlatBufferModel::VerifyAndBuildFromBuffer(bytes.data(), bytes.size());
  ASSERT_NE(verified, nullptr);

  tflite::ops::builtin::BuiltinOpResolverWithoutDefaultDelegates resolver;
  auto interpreter = Build(*model, resolver);
  ASSERT_NE(interpreter, nullptr);
  // The model may go: the interpreter keeps what it needs.
  model.reset();
  ASSERT_EQ(interpreter->SetNumThreads(2), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(interpreter.get());
}

TEST_F(CcApi, InterpreterBuilderNumThreadsAndTwoInterpreters) {
  SKIP_WITHOUT_MODELS();
  auto model = tflite::FlatBufferModel::VerifyAndBuildFromFile((kModels + "java_add.tflite").c_str());
  ASSERT_NE(model, nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  tflite::InterpreterBuilder builder(*model, resolver);
  EXPECT_EQ(builder.SetNumThreads(-2), kTfLiteError);
  ASSERT_EQ(builder.SetNumThreads(1), kTfLiteOk);
  std::unique_ptr<tflite::Interpreter> a, b;
  ASSERT_EQ(builder(&a), kTfLiteOk);
  ASSERT_EQ(builder(&b, 2), kTfLiteOk);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a.get(), b.get());
  ASSERT_EQ(a->AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(b->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(a.get());
  ExpectJavaAddGolden(b.get());
  EXPECT_EQ(a->SetNumThreads(-2), kTfLiteError);
}

TEST_F(CcApi, ResizeInputTensor) {
  USE_INTERPRETER("java_add_unknown_dimensions.tflite");
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  const int input = interpreter_->inputs()[0];

  const std::vector<std::vector<int>> shapes = {{1, 2, 3, 5}, {1, 1, 1, 2}};
  for (const auto& shape : shapes) {
    ASSERT_EQ(interpreter_->ResizeInputTensor(input, shape), kTfLiteOk);
    ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
    const size_t n = static_cast<size_t>(shape[1] * shape[2] * shape[3]);
    ASSERT_EQ(interpreter_->input_tensor(0)->bytes, n * sizeof(float));
    float* in = interpreter_->typed_input_tensor<float>(0);
    for (size_t i = 0; i < n; ++i) in[i] = 0.25f * static_cast<float>(i) - 1.0f;
    ASSERT_EQ(interpreter_->Invoke(), kTfLiteOk);
    const TfLiteTensor* out = interpreter_->output_tensor(0);
    ASSERT_EQ(out->dims->size, 4);
    EXPECT_EQ(out->dims->data[1], shape[1]);
    EXPECT_EQ(out->dims->data[3], shape[3]);
    const float* y = interpreter_->typed_output_tensor<float>(0);
    for (size_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(y[i], 2.0f * (0.25f * i - 1.0f));
  }
  // Strict resizing may only change dimensions the model left open (-1).
  EXPECT_EQ(interpreter_->ResizeInputTensorStrict(input, {1, 4, 3, 3}), kTfLiteOk);
  EXPECT_NE(interpreter_->ResizeInputTensorStrict(input, {1, 4, 5, 2}), kTfLiteOk);
  // An index out of range is refused.
  EXPECT_NE(interpreter_->ResizeInputTensor(-1, {1, 2, 3, 5}), kTfLiteOk);
}

TEST_F(CcApi, ResizeStrictRejectsFixedDimensions) {
  USE_INTERPRETER("java_add.tflite");
  EXPECT_NE(interpreter_->ResizeInputTensorStrict(interpreter_->inputs()[0], {2, 8, 8, 3}),
            kTfLiteOk);
  // The non-strict form accepts it.
  EXPECT_EQ(interpreter_->ResizeInputTensor(interpreter_->inputs()[0], {2, 8, 8, 3}), kTfLiteOk);
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  EXPECT_EQ(interpreter_->input_tensor(0)->bytes, 2 * 192 * sizeof(float));
}

// ---- signatures -------------------------------------------------------------------

void RunSignature(tflite::SignatureRunner* runner, const std::string& golden_dir) {
  const std::vector<float> in = ReadFloats(golden_dir + "/input_0.bin");
  const std::vector<float> expected = ReadFloats(golden_dir + "/output_0.bin");
  ASSERT_EQ(in.size(), 1u);
  ASSERT_EQ(expected.size(), 1u);
  ASSERT_EQ(runner->AllocateTensors(), kTfLiteOk);
  TfLiteTensor* x = runner->input_tensor("x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->bytes, sizeof(float));
  std::memcpy(x->data.f, in.data(), sizeof(float));
  ASSERT_EQ(runner->Invoke(), kTfLiteOk);
  const TfLiteTensor* y = runner->output_tensor("output_0");
  ASSERT_NE(y, nullptr);
  EXPECT_NEAR(y->data.f[0], expected[0], 1e-3f);
}

TEST_F(CcApi, Signatures) {
  USE_INTERPRETER("tflite_multi_signatures.tflite");

  const std::vector<const std::string*> keys = interpreter_->signature_keys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(*keys[0], "add");
  EXPECT_EQ(*keys[1], "sub");
  EXPECT_EQ(interpreter_->GetSignatureRunner("no_such_signature"), nullptr);

  tflite::SignatureRunner* add = interpreter_->GetSignatureRunner("add");
  tflite::SignatureRunner* sub = interpreter_->GetSignatureRunner("sub");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(interpreter_->GetSignatureRunner("add"), add);  // one runner per signature
  EXPECT_STREQ(add->signature_key(), "add");
  ASSERT_EQ(add->input_size(), 1u);
  ASSERT_EQ(add->output_size(), 1u);
  EXPECT_STREQ(add->input_names()[0], "x");
  EXPECT_STREQ(add->output_names()[0], "output_0");
  EXPECT_EQ(add->input_tensor("nope"), nullptr);
  EXPECT_EQ(add->output_tensor("nope"), nullptr);
  EXPECT_EQ(add->input_tensor(nullptr), nullptr);

  const auto& inputs = interpreter_->signature_inputs("add");
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs.count("x"), 1u);
  EXPECT_EQ(interpreter_->signature_outputs("sub").count("output_0"), 1u);
  EXPECT_TRUE(interpreter_->signature_inputs("nope").empty());
  EXPECT_TRUE(interpreter_->signature_outputs(nullptr).empty());

  RunSignature(add, kGolden + "tflite_multi_signatures");
  RunSignature(sub, kGolden + "tflite_multi_signatures/signature_1");
  RunSignature(add, kGolden + "tflite_multi_signatures");  // separate state
  EXPECT_EQ(interpreter_->output_tensor_by_signature("output_0", "add"),
            add->output_tensor("output_0"));
  EXPECT_EQ(interpreter_->input_tensor_by_signature("x", "sub"), sub->input_tensor("x"));
  EXPECT_EQ(interpreter_->input_tensor_by_signature("x", "nope"), nullptr);

  EXPECT_NE(add->ResizeInputTensor("nope", {2}), kTfLiteOk);
  ASSERT_EQ(add->ResizeInputTensor("x", {2}), kTfLiteOk);
  ASSERT_EQ(add->AllocateTensors(), kTfLiteOk);
  TfLiteTensor* x = add->input_tensor("x");
  ASSERT_EQ(x->bytes, 2 * sizeof(float));
  x->data.f[0] = 2.0f;
  x->data.f[1] = 4.0f;
  ASSERT_EQ(add->Invoke(), kTfLiteOk);
  const TfLiteTensor* y = add->output_tensor("output_0");
  EXPECT_EQ(y->data.f[0], 4.0f);
  EXPECT_EQ(y->data.f[1], 6.0f);
}

TEST_F(CcApi, DefaultSignatureRunnerOfModelWithoutSignatures) {
  USE_INTERPRETER("java_add.tflite");
  EXPECT_TRUE(interpreter_->signature_keys().empty());
  tflite::SignatureRunner* runner = interpreter_->GetSignatureRunner(nullptr);
  ASSERT_NE(runner, nullptr);
  ASSERT_EQ(runner->input_size(), 1u);
  ASSERT_EQ(runner->AllocateTensors(), kTfLiteOk);
  TfLiteTensor* in = runner->input_tensor(runner->input_names()[0]);
  ASSERT_NE(in, nullptr);
  for (int i = 0; i < 192; ++i) in->data.f[i] = static_cast<float>(i);
  ASSERT_EQ(runner->Invoke(), kTfLiteOk);
  const TfLiteTensor* out = runner->output_tensor(runner->output_names()[0]);
  ASSERT_NE(out, nullptr);
  for (int i = 0; i < 192; ++i) EXPECT_FLOAT_EQ(out->data.f[i], 3.0f * i);
}

// ---- error paths ----------------------------------------------------------------------

TEST_F(CcApi, BadModelsAreReported) {
  CapturingReporter reporter;
  EXPECT_EQ(tflite::FlatBufferModel::BuildFromFile("/no/such/model.tflite", &reporter), nullptr);
  EXPECT_GE(reporter.calls, 1);
  EXPECT_EQ(tflite::FlatBufferModel::BuildFromFile(nullptr, &reporter), nullptr);
  const int before = reporter.calls;
  const char garbage[64] = "definitely not a flatbuffer";
  EXPECT_EQ(tflite::FlatBufferModel::BuildFromBuffer(garbage, sizeof(garbage), &reporter),
            nullptr);
  EXPECT_GT(reporter.calls, before);
  EXPECT_EQ(tflite::FlatBufferModel::BuildFromBuffer(nullptr, 0, &reporter), nullptr);
}

TEST_F(CcApi, ExtraVerifierCanRejectAModel) {
  SKIP_WITHOUT_MODELS();
  struct Rejecting : tflite::TfLiteVerifier {
    bool Verify(const char* data, int length, tflite::ErrorReporter*) override {
      seen = data != nullptr && length > 0;
      return false;
    }
    bool seen = false;
  } verifier;
  CapturingReporter reporter;
  EXPECT_EQ(tflite::FlatBufferModel::VerifyAndBuildFromFile((kModels + "java_add.tflite").c_str(),
                                                            &verifier, &reporter),
            nullptr);
  EXPECT_TRUE(verifier.seen);
  EXPECT_GE(reporter.calls, 1);
}

TEST_F(CcApi, MissingKernelsFailTheBuilder) {
  SKIP_WITHOUT_MODELS();
  CapturingReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromFile((kModels + "java_add.tflite").c_str(),
                                                      &reporter);
  ASSERT_NE(model, nullptr);
  tflite::MutableOpResolver empty;
  std::unique_ptr<tflite::Interpreter> interpreter;
  EXPECT_EQ(tflite::InterpreterBuilder(*model, empty)(&interpreter), kTfLiteUnresolvedOps);
  EXPECT_EQ(interpreter, nullptr);
  // The failure went to the model's reporter.
  EXPECT_NE(reporter.text.find("ADD"), std::string::npos) << reporter.text;
  EXPECT_EQ(tflite::InterpreterBuilder(*model, empty)(nullptr), kTfLiteError);
}

TEST_F(CcApi, CancellationNeedsEnabling) {
  USE_INTERPRETER("java_add.tflite");
  EXPECT_EQ(interpreter_->Cancel(), kTfLiteError);
  EXPECT_EQ(interpreter_->EnableCancellation(), kTfLiteOk);
  EXPECT_EQ(interpreter_->Cancel(), kTfLiteOk);
  // A cancel before Invoke does not leak into the next run.
  ASSERT_EQ(interpreter_->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(interpreter_.get());
  EXPECT_EQ(interpreter_->ResetVariableTensors(), kTfLiteOk);
  interpreter_->SetAllowFp16PrecisionForFp32(true);
  EXPECT_TRUE(interpreter_->GetAllowFp16PrecisionForFp32());
  EXPECT_EQ(interpreter_->EnsureTensorDataIsReadable(interpreter_->outputs()[0]), kTfLiteOk);
  EXPECT_EQ(interpreter_->EnsureTensorDataIsReadable(-1), kTfLiteError);
}

// ---- op resolvers ------------------------------------------------------------------------

// A user resolver: forwards to the builtins and counts lookups.
class CountingResolver : public tflite::OpResolver {
 public:
  const TfLiteRegistration* FindOp(tflite::BuiltinOperator op, int version) const override {
    ++builtin_lookups;
    return builtins_.FindOp(op, version);
  }
  const TfLiteRegistration* FindOp(const char* op, int version) const override {
    return builtins_.FindOp(op, version);
  }
  mutable int builtin_lookups = 0;

 private:
  tflite::ops::builtin::BuiltinOpResolver builtins_;
};

TEST_F(CcApi, UserOpResolversAndMutableOpResolver) {
  USE_MODEL("java_add.tflite");

  CountingResolver counting;
  auto a = Build(*model_, counting);
  ASSERT_NE(a, nullptr);
  EXPECT_GE(counting.builtin_lookups, 1);
  ASSERT_EQ(a->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(a.get());

  // Only ADD, taken from the builtin resolver; copies keep it.
  const auto kAdd = static_cast<tflite::BuiltinOperator>(kTfLiteBuiltinAdd);
  tflite::ops::builtin::BuiltinOpResolver builtins;
  const TfLiteRegistration* add = builtins.FindOp(kAdd, 1);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(builtins.FindOp(static_cast<tflite::BuiltinOperator>(kTfLiteBuiltinAdd), 1000),
            nullptr);
  EXPECT_EQ(builtins.FindOp("NoSuchCustomOp", 1), nullptr);
  tflite::MutableOpResolver only_add;
  only_add.AddBuiltin(kAdd, add, 1, 4);
  tflite::MutableOpResolver copy(only_add);
  EXPECT_NE(copy.FindOp(kAdd, 2), nullptr);
  auto b = Build(*model_, copy);
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->AllocateTensors(), kTfLiteOk);
  ExpectJavaAddGolden(b.get());

  // AddAll and custom registrations.
  tflite::MutableOpResolver all;
  all.AddAll(builtins);
  EXPECT_NE(all.FindOp(kAdd, 1), nullptr);
  TfLiteRegistration custom{};
  all.AddCustom("MyCustomOp", &custom);
  const TfLiteRegistration* found = all.FindOp("MyCustomOp", 1);
  ASSERT_NE(found, nullptr);
  EXPECT_STREQ(found->custom_name, "MyCustomOp");
  EXPECT_EQ(all.FindOp("MyCustomOp", 2), nullptr);
  EXPECT_EQ(all.FindOp(nullptr, 1), nullptr);
}

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

// ---- strings and reporters -------------------------------------------------------------

TEST_F(CcApi, StringTensors) {
  TfLiteTensor tensor{};
  tensor.type = kTfLiteString;
  tensor.allocation_type = kTfLiteDynamic;
  tflite::DynamicBuffer buffer;
  ASSERT_EQ(buffer.AddString("hello", 5), kTfLiteOk);
  ASSERT_EQ(buffer.AddString(tflite::StringRef{"", 0}), kTfLiteOk);
  buffer.AddJoinedString({{"a", 1}, {"bc", 2}}, ',');
  buffer.WriteToTensorAsVector(&tensor);
  ASSERT_NE(tensor.dims, nullptr);
  ASSERT_EQ(tensor.dims->size, 1);
  EXPECT_EQ(tensor.dims->data[0], 3);
  ASSERT_EQ(tflite::GetStringCount(&tensor), 3);
  EXPECT_EQ(tflite::GetStringCount(tensor.data.raw), 3);
  const tflite::StringRef s0 = tflite::GetString(&tensor, 0);
  EXPECT_EQ(std::string(s0.str, s0.len), "hello");
  EXPECT_EQ(tflite::GetString(&tensor, 1).len, 0);
  const tflite::StringRef s2 = tflite::GetString(tensor.data.raw, 2);
  EXPECT_EQ(std::string(s2.str, s2.len), "a,bc");
  EXPECT_EQ(tflite::GetString(&tensor, 3).str, nullptr);

  // A 2-D shape of the caller's choosing.
  tflite::DynamicBuffer two;
  two.AddString("x", 1);
  two.AddString("y", 1);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(2);
  shape->data[0] = 1;
  shape->data[1] = 2;
  two.WriteToTensor(&tensor, shape);
  EXPECT_EQ(tensor.dims->size, 2);
  EXPECT_EQ(tflite::GetStringCount(&tensor), 2);
  TfLiteTensorFree(&tensor);
  EXPECT_EQ(tflite::GetStringCount(static_cast<const TfLiteTensor*>(nullptr)), 0);
}

TEST_F(CcApi, ErrorReporterHelpers) {
  CapturingReporter reporter;
  reporter.Report("value %d", 42);
  TF_LITE_REPORT_ERROR(&reporter, "second %s", "line");
  reporter.ReportError(nullptr, "third");
  EXPECT_EQ(reporter.calls, 3);
  EXPECT_EQ(reporter.text, "value 42\nsecond line\nthird\n");
  tflite::ErrorReporter* none = nullptr;
  TF_LITE_REPORT_ERROR(none, "ignored");
  EXPECT_NE(tflite::DefaultErrorReporter(), nullptr);
}

}  // namespace

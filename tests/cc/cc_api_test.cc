// The C++ API (libtflite_cc) as upstream programs use it, on the models of
// the C conformance test (tests/c/c_api_conformance_test.c):
//   java_add.tflite                     y = 3x, input [1,8,8,3] float32
//   java_add_unknown_dimensions.tflite  y = 2x, resizable input
//   tflite_multi_signatures.tflite      signatures "add" (x+2) and "sub" (x-3)
// models and interpreters, signatures and error paths. Only public headers
// are used. Op resolvers, the guide's delegate, strings and reporters have
// their own cc_*_test.cc files.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/op_resolver.h"
#include "tensorflow/lite/signature_runner.h"
#include "tensorflow/lite/stderr_reporter.h"
#include "tests/cc/cc_api_test_util.h"

namespace {

using tflite_c::testing::kModels;
using tflite_c::testing::kGolden;
using tflite_c::testing::ReadBytes;
using tflite_c::testing::ReadFloats;
using tflite_c::testing::CapturingReporter;
using tflite_c::testing::Build;
using tflite_c::testing::CcApi;
using tflite_c::testing::ExpectJavaAddGolden;

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

}  // namespace

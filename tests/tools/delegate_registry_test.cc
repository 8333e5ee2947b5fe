// The tools' delegate registrar (tools/common/delegate_registry.h): flag
// parsing, ordering, errors, and one run of a model through each provider
// linked into this test (XNNPACK, external, the dummy delegate's provider).
#include "common/delegate_registry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/model_builder.h"

namespace tflite_c_tools {
namespace {

using tflite_c::testing::ModelBuilder;

ToolParams AllParams() {
  ToolParams params;
  DelegateRegistry::Get().DefineParams(&params);
  return params;
}

TEST(DelegateRegistry, BuiltinAndLinkedProvidersAreRegistered) {
  const auto& registry = DelegateRegistry::Get();
  EXPECT_NE(registry.Find("XNNPACK"), nullptr);
  EXPECT_NE(registry.Find("EXTERNAL"), nullptr);
  EXPECT_NE(registry.Find("DummyDelegate"), nullptr);
  EXPECT_EQ(registry.Find("GPU"), nullptr);
  std::vector<std::string> names;
  for (const ParamSpec& p : registry.AllParams()) names.push_back(p.name);
  for (const char* flag : {"use_xnnpack", "xnnpack_force_fp16", "external_delegate_path",
                           "external_delegate_options", "use_dummy_delegate"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), flag), names.end()) << flag;
  }
}

TEST(DelegateRegistry, ParsesFlags) {
  ToolParams params = AllParams();
  bool matched = false;
  std::string error;
  EXPECT_TRUE(params.ParseArg("--use_xnnpack", 3, &matched, &error));
  EXPECT_TRUE(matched);
  EXPECT_TRUE(params.GetBool("use_xnnpack"));
  EXPECT_EQ(params.Position("use_xnnpack"), 3);
  EXPECT_TRUE(params.ParseArg("--external_delegate_options=a:1;b:2", 4, &matched, &error));
  EXPECT_TRUE(matched);
  EXPECT_EQ(params.GetString("external_delegate_options"), "a:1;b:2");
  // Not a delegate flag: left to the tool.
  EXPECT_TRUE(params.ParseArg("--graph=x.tflite", 5, &matched, &error));
  EXPECT_FALSE(matched);
  EXPECT_TRUE(params.ParseArg("model.tflite", 6, &matched, &error));
  EXPECT_FALSE(matched);
  // A delegate flag with a bad value.
  EXPECT_FALSE(params.ParseArg("--use_dummy_delegate=maybe", 7, &matched, &error));
  EXPECT_TRUE(matched);
  EXPECT_NE(error.find("use_dummy_delegate"), std::string::npos) << error;
  EXPECT_FALSE(params.GetBool("use_dummy_delegate"));
  EXPECT_FALSE(params.IsSet("use_dummy_delegate"));
  // Unknown names cannot be set.
  EXPECT_FALSE(params.Set("no_such_flag", "1", 1, &error));
}

TEST(DelegateRegistry, NoFlagsNoDelegates) {
  DelegateList list;
  std::string error;
  ASSERT_TRUE(DelegateRegistry::Get().CreateDelegates(AllParams(), &list, &error)) << error;
  EXPECT_TRUE(list.empty());
}

TEST(DelegateRegistry, DelegatesFollowTheCommandLineOrder) {
  ToolParams params = AllParams();
  std::string error;
  ASSERT_TRUE(params.Set("use_dummy_delegate", "true", 1, &error));
  ASSERT_TRUE(params.Set("use_xnnpack", "true", 2, &error));
  DelegateList list;
  ASSERT_TRUE(DelegateRegistry::Get().CreateDelegates(params, &list, &error)) << error;
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list.items()[0].provider, "DummyDelegate");
  EXPECT_EQ(list.items()[1].provider, "XNNPACK");
}

TEST(DelegateRegistry, ExternalDelegateErrorsAreReported) {
  ToolParams params = AllParams();
  std::string error;
  ASSERT_TRUE(params.Set("external_delegate_path", "/no/such/library.so", 1, &error));
  DelegateList list;
  EXPECT_FALSE(DelegateRegistry::Get().CreateDelegates(params, &list, &error));
  EXPECT_NE(error.find("/no/such/library.so"), std::string::npos) << error;
  EXPECT_TRUE(list.empty());

  ToolParams bad = AllParams();
  ASSERT_TRUE(bad.Set("external_delegate_path", TFLITE_C_DUMMY_EXTERNAL_DELEGATE, 1, &error));
  ASSERT_TRUE(bad.Set("external_delegate_options", "no_colon_here", 2, &error));
  EXPECT_FALSE(DelegateRegistry::Get().CreateDelegates(bad, &list, &error));
}

// in + w -> out (ADD), run with the delegate `flag` asks for.
struct Outcome {
  bool ok = false;
  std::vector<float> out;
  std::string provider;
};

Outcome RunWith(const std::string& flag, const std::string& value) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int w = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "w");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {y});
  const std::vector<uint8_t> bytes = b.Finish();

  Outcome outcome;
  ToolParams params = AllParams();
  std::string error;
  EXPECT_TRUE(params.Set(flag, value, 1, &error)) << error;
  DelegateList list;
  if (!DelegateRegistry::Get().CreateDelegates(params, &list, &error) || list.size() != 1) {
    ADD_FAILURE() << flag << ": " << error;
    return outcome;
  }
  outcome.provider = list.items()[0].provider;
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetUseXNNPACK(options, false);
  TfLiteInterpreterOptionsAddDelegate(options, list.items()[0].delegate);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk) {
    const float a[4] = {1, 2, 3, 4}, c[4] = {10, 20, 30, 40};
    TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), a, sizeof(a));
    TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 1), c, sizeof(c));
    if (TfLiteInterpreterInvoke(interpreter) == kTfLiteOk) {
      outcome.out.resize(4);
      TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0),
                               outcome.out.data(), sizeof(float) * 4);
      outcome.ok = true;
    }
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return outcome;
}

const std::vector<float> kSum = {11, 22, 33, 44};

TEST(DelegateRegistry, RunsThroughXnnpack) {
  const Outcome o = RunWith("use_xnnpack", "true");
  ASSERT_TRUE(o.ok);
  EXPECT_EQ(o.provider, "XNNPACK");
  EXPECT_EQ(o.out, kSum);
}

TEST(DelegateRegistry, RunsThroughAnExternalDelegate) {
  const Outcome o = RunWith("external_delegate_path", TFLITE_C_DUMMY_EXTERNAL_DELEGATE);
  ASSERT_TRUE(o.ok);
  EXPECT_EQ(o.provider, "EXTERNAL");
  EXPECT_EQ(o.out, kSum);
}

TEST(DelegateRegistry, RunsThroughTheDummyDelegateProvider) {
  const Outcome o = RunWith("use_dummy_delegate", "true");
  ASSERT_TRUE(o.ok);
  EXPECT_EQ(o.provider, "DummyDelegate");
  EXPECT_EQ(o.out, kSum);
}

}  // namespace
}  // namespace tflite_c_tools

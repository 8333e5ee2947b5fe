// The op lookup callbacks of TfLiteInterpreterOptionsSetOpResolver* (current,
// V3, V2, V1 registration structs, TfLiteOperator with and without legacy
// fallback): which callback is asked, with what, and that the registration it
// returns is the kernel that runs.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/core/c/c_api_opaque.h"
#include "tensorflow/lite/core/c/common.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;

// y = (x + x) * 10: the builtin ADD, then a custom op "Times10".
std::vector<uint8_t> AddThenTimes10Model() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {3}, "x");
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {3}, "t");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {3}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {t});
  b.AddCustomOperator("Times10", {t}, {y}, {});
  return b.Finish();
}

const float* InputData(TfLiteContext* context, TfLiteNode* node, int i) {
  return context->tensors[node->inputs->data[i]].data.f;
}
TfLiteTensor* Output(TfLiteContext* context, TfLiteNode* node) {
  return &context->tensors[node->outputs->data[0]];
}
size_t Count(const TfLiteTensor* t) { return t->bytes / sizeof(float); }

TfLiteStatus AddInvoke(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* out = Output(context, node);
  for (size_t i = 0; i < Count(out); ++i) {
    out->data.f[i] = InputData(context, node, 0)[i] + InputData(context, node, 1)[i];
  }
  return kTfLiteOk;
}

TfLiteStatus Times10Invoke(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* out = Output(context, node);
  for (size_t i = 0; i < Count(out); ++i) out->data.f[i] = InputData(context, node, 0)[i] * 10;
  return kTfLiteOk;
}

TfLiteStatus Times10OpaqueInvoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  const auto* in =
      static_cast<const float*>(TfLiteOpaqueTensorData(TfLiteOpaqueNodeGetInput(context, node, 0)));
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  auto* y = static_cast<float*>(TfLiteOpaqueTensorData(out));
  for (size_t i = 0; i < TfLiteOpaqueTensorByteSize(out) / sizeof(float); ++i) y[i] = in[i] * 10;
  return kTfLiteOk;
}

// Every lookup, as "b<code>v<version>" (builtin) or "c<name>v<version>"
// (custom), prefixed with "x" for the TfLiteOperator callbacks.
struct Lookups {
  std::string log;
  bool find_custom = true;  // false: the custom op is unknown
  TfLiteOperator* custom_operator = nullptr;
};

void Record(void* user_data, const std::string& what) {
  static_cast<Lookups*>(user_data)->log += what + " ";
}

template <typename Reg>
Reg MakeRegistration(TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*), int32_t code,
                     const char* name) {
  Reg r{};
  r.invoke = invoke;
  r.builtin_code = code;
  r.custom_name = name;
  r.version = 1;
  return r;
}

template <typename Reg>
const Reg* FindBuiltin(void* user_data, TfLiteBuiltinOperator op, int version) {
  Record(user_data, "b" + std::to_string(op) + "v" + std::to_string(version));
  static const Reg add = MakeRegistration<Reg>(AddInvoke, kTfLiteBuiltinAdd, nullptr);
  return op == kTfLiteBuiltinAdd ? &add : nullptr;
}

template <typename Reg>
const Reg* FindCustom(void* user_data, const char* name, int version) {
  Record(user_data, std::string("c") + name + "v" + std::to_string(version));
  static const Reg times10 = MakeRegistration<Reg>(Times10Invoke, kTfLiteBuiltinCustom, "Times10");
  const bool known = static_cast<Lookups*>(user_data)->find_custom &&
                     std::string(name) == "Times10";
  return known ? &times10 : nullptr;
}

const TfLiteOperator* FindBuiltinOperator(void* user_data, int op, int version) {
  Record(user_data, "xb" + std::to_string(op) + "v" + std::to_string(version));
  return nullptr;  // left to the legacy callback
}

const TfLiteOperator* FindCustomOperator(void* user_data, const char* name, int version) {
  Record(user_data, std::string("xc") + name + "v" + std::to_string(version));
  return static_cast<Lookups*>(user_data)->custom_operator;
}

// Runs the model with the resolver `configure` installs; empty when the
// interpreter could not be created or run.
template <typename Configure>
std::vector<float> RunModel(Configure configure, std::string* messages = nullptr) {
  const std::vector<uint8_t> bytes = AddThenTimes10Model();
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  EXPECT_NE(model, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (messages != nullptr) TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, messages);
  configure(options);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  std::vector<float> y;
  const float x[3] = {1, -2, 0.5f};
  if (interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk &&
      TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), x,
                                 sizeof(x)) == kTfLiteOk &&
      TfLiteInterpreterInvoke(interpreter) == kTfLiteOk) {
    y.resize(3);
    EXPECT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), y.data(),
                                       y.size() * sizeof(float)),
              kTfLiteOk);
  }
  TfLiteInterpreterDelete(interpreter);
  TfLiteModelDelete(model);
  return y;
}

const std::vector<float> kExpected{20, -40, 10};
const std::string kLegacyLookups = "b0v1 cTimes10v1 ";

TEST(OpResolverCallbacks, CurrentRegistration) {
  Lookups lookups;
  EXPECT_EQ(RunModel([&](TfLiteInterpreterOptions* o) {
              TfLiteInterpreterOptionsSetOpResolver(o, FindBuiltin<TfLiteRegistration>,
                                                    FindCustom<TfLiteRegistration>, &lookups);
            }),
            kExpected);
  EXPECT_EQ(lookups.log, kLegacyLookups);
}

TEST(OpResolverCallbacks, RegistrationV3) {
  Lookups lookups;
  EXPECT_EQ(RunModel([&](TfLiteInterpreterOptions* o) {
              TfLiteInterpreterOptionsSetOpResolverV3(o, FindBuiltin<TfLiteRegistration_V3>,
                                                      FindCustom<TfLiteRegistration_V3>, &lookups);
            }),
            kExpected);
  EXPECT_EQ(lookups.log, kLegacyLookups);
}

TEST(OpResolverCallbacks, RegistrationV2) {
  Lookups lookups;
  EXPECT_EQ(RunModel([&](TfLiteInterpreterOptions* o) {
              TfLiteInterpreterOptionsSetOpResolverV2(o, FindBuiltin<TfLiteRegistration_V2>,
                                                      FindCustom<TfLiteRegistration_V2>, &lookups);
            }),
            kExpected);
  EXPECT_EQ(lookups.log, kLegacyLookups);
}

TEST(OpResolverCallbacks, RegistrationV1) {
  Lookups lookups;
  EXPECT_EQ(RunModel([&](TfLiteInterpreterOptions* o) {
              TfLiteInterpreterOptionsSetOpResolverV1(o, FindBuiltin<TfLiteRegistration_V1>,
                                                      FindCustom<TfLiteRegistration_V1>, &lookups);
            }),
            kExpected);
  EXPECT_EQ(lookups.log, kLegacyLookups);
}

TEST(OpResolverCallbacks, OperatorFirstThenLegacyFallback) {
  Lookups lookups;
  lookups.custom_operator = TfLiteOperatorCreate(kTfLiteBuiltinCustom, "Times10", 1, nullptr);
  TfLiteOperatorSetInvoke(lookups.custom_operator, Times10OpaqueInvoke);
  EXPECT_EQ(RunModel([&](TfLiteInterpreterOptions* o) {
              TfLiteInterpreterOptionsSetOpResolverExternalWithFallback(
                  o, FindBuiltinOperator, FindCustomOperator, FindBuiltin<TfLiteRegistration>,
                  FindCustom<TfLiteRegistration>, &lookups);
            }),
            kExpected);
  // ADD: the operator callback finds nothing, the legacy one answers; the
  // custom op: the operator callback answers, the legacy one is not asked.
  EXPECT_EQ(lookups.log, "xb0v1 b0v1 xcTimes10v1 ");
  TfLiteOperatorDelete(lookups.custom_operator);
}

TEST(OpResolverCallbacks, UnknownCustomOpIsReported) {
  Lookups lookups;
  lookups.find_custom = false;
  std::string messages;
  EXPECT_TRUE(RunModel(
                  [&](TfLiteInterpreterOptions* o) {
                    TfLiteInterpreterOptionsSetOpResolverV2(o, FindBuiltin<TfLiteRegistration_V2>,
                                                            FindCustom<TfLiteRegistration_V2>,
                                                            &lookups);
                  },
                  &messages)
                  .empty());
  EXPECT_NE(messages.find("Times10"), std::string::npos) << messages;
  EXPECT_EQ(lookups.log, kLegacyLookups);
}

TEST(OpResolverCallbacks, CallbacksReplaceTheBuiltinKernels) {
  // Only the custom op is resolvable: ADD, although a builtin, is not found.
  Lookups lookups;
  std::string messages;
  EXPECT_TRUE(RunModel(
                  [&](TfLiteInterpreterOptions* o) {
                    TfLiteInterpreterOptionsSetOpResolver(o, nullptr,
                                                          FindCustom<TfLiteRegistration>,
                                                          &lookups);
                  },
                  &messages)
                  .empty());
  EXPECT_NE(messages.find("ADD"), std::string::npos) << messages;
  EXPECT_EQ(lookups.log, "cTimes10v1 ");
}

}  // namespace

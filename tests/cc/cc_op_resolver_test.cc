// The C++ API's op resolvers: user OpResolvers and MutableOpResolver building
// java_add (shared models). Only public headers are used.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/op_resolver.h"
#include "tests/cc/cc_api_test_util.h"

namespace {

using tflite_c::testing::Build;
using tflite_c::testing::CcApi;
using tflite_c::testing::ExpectJavaAddGolden;

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

}  // namespace

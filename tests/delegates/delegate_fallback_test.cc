// TfLiteInterpreterOptionsSetEnableDelegateFallback: a delegate that fails
// while being applied (Init / Prepare of its kernels) or while running
// (Eval) leaves a usable interpreter on CPU kernels when fallback is
// enabled; without it, creation / Invoke fail with the delegate's message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/dummy_delegate/dummy_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {


const std::vector<float> kInput = {1, 2, 3, 4};
const std::vector<float> kExpected = {11, 22, 33, 44};

DummyDelegateOptions Failing(bool init, bool prepare, bool invoke) {
  DummyDelegateOptions o = TfLiteDummyDelegateOptionsDefault();
  o.error_during_init = init;
  o.error_during_prepare = prepare;
  o.error_during_invoke = invoke;
  return o;
}

void ExpectRunsOnCpu(Session* s) {
  EXPECT_EQ(s->DelegateNodes(), 0);
  EXPECT_EQ(s->plan().size(), 3u);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
  ASSERT_TRUE(s->SetInput(0, kInput));
  ASSERT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
  EXPECT_EQ(s->Output(0), kExpected);
}

struct ApplyFailure {
  const char* name;
  DummyDelegateOptions options;
  const char* message;
};

class ApplyFailureTest : public ::testing::TestWithParam<ApplyFailure> {};

TEST_P(ApplyFailureTest, CreationFailsWithoutFallback) {
  const std::vector<uint8_t> bytes = ChainModel();
  auto delegate = TfLiteDummyDelegateCreateUnique(&GetParam().options);
  Session s;
  s.Create(bytes, {delegate.get()}, /*fallback=*/false);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.errors.find(GetParam().message), std::string::npos) << s.errors;
}

TEST_P(ApplyFailureTest, FallbackRunsOnCpu) {
  const std::vector<uint8_t> bytes = ChainModel();
  auto delegate = TfLiteDummyDelegateCreateUnique(&GetParam().options);
  Session s;
  s.Create(bytes, {delegate.get()}, /*fallback=*/true);
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_NE(s.errors.find(GetParam().message), std::string::npos) << s.errors;
  EXPECT_NE(s.errors.find("runs on CPU kernels only"), std::string::npos) << s.errors;
  ExpectRunsOnCpu(&s);
}

INSTANTIATE_TEST_SUITE_P(
    Delegate, ApplyFailureTest,
    ::testing::Values(ApplyFailure{"init", Failing(true, false, false), "failing Init"},
                      ApplyFailure{"prepare", Failing(false, true, false), "failing Prepare"}),
    [](const ::testing::TestParamInfo<ApplyFailure>& info) { return info.param.name; });

// The second delegate fails: the first one is undone too and everything
// runs on the CPU.
TEST(DelegateFallbackTest, LaterDelegateFailureUndoesEarlierOnes) {
  const std::vector<uint8_t> bytes = ChainModel();
  DummyDelegateOptions add_only = TfLiteDummyDelegateOptionsDefault();
  add_only.allowed_builtin_code = kTfLiteBuiltinAdd;
  DummyDelegateOptions failing = Failing(false, true, false);
  auto first = TfLiteDummyDelegateCreateUnique(&add_only);
  auto second = TfLiteDummyDelegateCreateUnique(&failing);
  Session s;
  s.Create(bytes, {first.get(), second.get()}, /*fallback=*/true);
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_NE(s.errors.find("Delegate 2 of 2"), std::string::npos) << s.errors;
  ExpectRunsOnCpu(&s);
}

TEST(DelegateFallbackTest, InvokeFailureWithoutFallbackIsReturned) {
  const std::vector<uint8_t> bytes = ChainModel();
  const DummyDelegateOptions o = Failing(false, false, true);
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  ASSERT_TRUE(s.SetInput(0, kInput));
  EXPECT_NE(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk);
  EXPECT_NE(s.errors.find("failing Eval"), std::string::npos) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), 1);  // nothing was removed
}

// Upstream's InvokeWithCPUFallback: the failed Invoke is rerun on CPU
// kernels with the same inputs; kTfLiteDelegateError says so, and later
// Invokes run on the CPU and return kTfLiteOk.
TEST(DelegateFallbackTest, InvokeFailureRerunsOnCpu) {
  const std::vector<uint8_t> bytes = ChainModel();
  const DummyDelegateOptions o = Failing(false, false, true);
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()}, /*fallback=*/true);
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  EXPECT_EQ(s.DelegateNodes(), 1);
  ASSERT_TRUE(s.SetInput(0, kInput));
  EXPECT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteDelegateError) << s.errors;
  EXPECT_NE(s.errors.find("Retrying without"), std::string::npos) << s.errors;
  EXPECT_EQ(s.Output(0), kExpected);
  EXPECT_EQ(s.DelegateNodes(), 0);

  ASSERT_TRUE(s.SetInput(0, {0, 0, 0, 0}));
  EXPECT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.Output(0), (std::vector<float>{10, 20, 30, 40}));
}

// A working delegate with fallback enabled behaves as without it.
TEST(DelegateFallbackTest, HealthyDelegateIsKept) {
  const std::vector<uint8_t> bytes = ChainModel();
  const DummyDelegateOptions o = TfLiteDummyDelegateOptionsDefault();
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()}, /*fallback=*/true);
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  ASSERT_TRUE(s.SetInput(0, kInput));
  EXPECT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.Output(0), kExpected);
  EXPECT_EQ(s.DelegateNodes(), 1);
  EXPECT_TRUE(s.errors.empty()) << s.errors;
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

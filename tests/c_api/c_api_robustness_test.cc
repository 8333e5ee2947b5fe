// No exception crosses the C ABI, the last-error extensions, and models
// created from a copy of the caller's buffer (tflite_c_experimental.h).
//
// Custom kernels and delegates here throw from each callback our code calls
// (init, prepare, invoke, free, delegate Prepare): every time the C API must
// return an error naming what failed, never let the exception through.
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/model_builder.h"
#include "tests/util/error_capture.h"

namespace {

using tflite_c::testing::CaptureError;
using tflite_c::testing::ModelBuilder;

// y = x + 1 through a custom op "Thrower" whose callbacks may throw.
std::vector<uint8_t> ThrowerModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddCustomOperator("Thrower", {x}, {y}, {});
  return b.Finish();
}

enum class Throw { kNothing, kBadAlloc, kLimit, kRuntimeError, kInt };

// What an allocation limit may throw: still a bad_alloc, with a reason.
struct LimitExceeded : std::bad_alloc {
  const char* what() const noexcept override { return "allocation limit of 1024 bytes exceeded"; }
};
enum class Where { kNowhere, kInit, kPrepare, kInvoke, kFree };

Throw g_what = Throw::kNothing;
Where g_where = Where::kNowhere;

void MaybeThrow(Where here) {
  if (here != g_where) return;
  switch (g_what) {
    case Throw::kNothing:
      return;
    case Throw::kBadAlloc:
      throw std::bad_alloc();
    case Throw::kLimit:
      throw LimitExceeded();
    case Throw::kRuntimeError:
      throw std::runtime_error("thrower says no");
    case Throw::kInt:
      throw 42;
  }
}

void* ThrowerInit(TfLiteContext*, const char*, size_t) {
  MaybeThrow(Where::kInit);
  return new int(1);
}
void ThrowerFree(TfLiteContext*, void* data) {
  delete static_cast<int*>(data);
  MaybeThrow(Where::kFree);
}
TfLiteStatus ThrowerPrepare(TfLiteContext*, TfLiteNode*) {
  MaybeThrow(Where::kPrepare);
  return kTfLiteOk;
}
TfLiteStatus ThrowerInvoke(TfLiteContext* context, TfLiteNode* node) {
  MaybeThrow(Where::kInvoke);
  const TfLiteTensor* in = &context->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
  for (int i = 0; i < 4; ++i) out->data.f[i] = in->data.f[i] + 1.0f;
  return kTfLiteOk;
}

TfLiteRegistration ThrowerRegistration() {
  TfLiteRegistration r{};
  r.init = ThrowerInit;
  r.free = ThrowerFree;
  r.prepare = ThrowerPrepare;
  r.invoke = ThrowerInvoke;
  return r;
}

class ThrowingKernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_what = Throw::kNothing;
    g_where = Where::kNowhere;
    bytes_ = ThrowerModel();
    model_ = TfLiteModelCreate(bytes_.data(), bytes_.size());
    ASSERT_NE(model_, nullptr);
    options_ = TfLiteInterpreterOptionsCreate();
    registration_ = ThrowerRegistration();
    TfLiteInterpreterOptionsAddCustomOp(options_, "Thrower", &registration_, 1, 1);
    TfLiteInterpreterOptionsSetErrorReporter(options_, CaptureError, &log_);
  }
  void TearDown() override {
    g_where = Where::kNowhere;
    TfLiteInterpreterDelete(interpreter_);
    TfLiteInterpreterOptionsDelete(options_);
    TfLiteModelDelete(model_);
  }
  TfLiteInterpreter* Create() {
    interpreter_ = TfLiteInterpreterCreate(model_, options_);
    return interpreter_;
  }

  std::vector<uint8_t> bytes_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteRegistration registration_{};
  TfLiteInterpreter* interpreter_ = nullptr;
  std::string log_;
};

TEST_F(ThrowingKernelTest, RunsWhenNothingThrows) {
  ASSERT_NE(Create(), nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  const float in[4] = {1, 2, 3, 4};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter_, 0), in,
                                       sizeof(in)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteOk);
  float out[4];
  ASSERT_EQ(TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter_, 0), out,
                                     sizeof(out)),
            kTfLiteOk);
  EXPECT_EQ(out[3], 5.0f);
  EXPECT_STREQ(TfLiteInterpreterGetLastError(interpreter_), "");
  EXPECT_STREQ(TfLiteGetLastCreateError(), "");
}

TEST_F(ThrowingKernelTest, BadAllocInPrepareIsOutOfMemory) {
  ASSERT_NE(Create(), nullptr);
  g_what = Throw::kBadAlloc;
  g_where = Where::kPrepare;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteError);
  EXPECT_NE(log_.find("prepare of node 0 (Thrower): out of memory"), std::string::npos) << log_;
  EXPECT_NE(std::string(TfLiteInterpreterGetLastError(interpreter_)).find("out of memory"),
            std::string::npos);
  // Once the kernel stops throwing, the interpreter recovers.
  g_where = Where::kNowhere;
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteOk);
}

TEST_F(ThrowingKernelTest, BadAllocSubclassKeepsItsReason) {
  ASSERT_NE(Create(), nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  g_what = Throw::kLimit;
  g_where = Where::kInvoke;
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteError);
  EXPECT_NE(log_.find("invoke of node 0 (Thrower): out of memory (allocation limit of 1024 "
                      "bytes exceeded)"),
            std::string::npos)
      << log_;
}

TEST_F(ThrowingKernelTest, StdExceptionInInvokeReportsWhat) {
  ASSERT_NE(Create(), nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  g_what = Throw::kRuntimeError;
  g_where = Where::kInvoke;
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteError);
  EXPECT_NE(log_.find("invoke of node 0 (Thrower): thrower says no"), std::string::npos) << log_;
  // The last call's messages: the cause first, then what failed because of it.
  const std::string last = TfLiteInterpreterGetLastError(interpreter_);
  EXPECT_EQ(last.rfind("invoke of node 0 (Thrower): thrower says no\n", 0), 0u) << last;
}

TEST_F(ThrowingKernelTest, AnythingElseIsUnknownException) {
  ASSERT_NE(Create(), nullptr);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  g_what = Throw::kInt;
  g_where = Where::kInvoke;
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteError);
  EXPECT_NE(log_.find("unknown exception"), std::string::npos) << log_;
}

TEST_F(ThrowingKernelTest, ThrowingInitFailsCreateWithTheReason) {
  g_what = Throw::kRuntimeError;
  g_where = Where::kInit;
  EXPECT_EQ(Create(), nullptr);
  EXPECT_NE(std::string(TfLiteGetLastCreateError()).find("init of Thrower: thrower says no"),
            std::string::npos)
      << TfLiteGetLastCreateError();
  // The next successful create clears it.
  g_where = Where::kNowhere;
  EXPECT_NE(Create(), nullptr);
  EXPECT_STREQ(TfLiteGetLastCreateError(), "");
}

TEST_F(ThrowingKernelTest, ThrowingFreeIsReportedAndDeleteCompletes) {
  ASSERT_NE(Create(), nullptr);
  g_what = Throw::kBadAlloc;
  g_where = Where::kFree;
  TfLiteInterpreterDelete(interpreter_);  // must not terminate the process
  interpreter_ = nullptr;
  EXPECT_NE(log_.find("free of Thrower: out of memory"), std::string::npos) << log_;
}

// ---- delegates --------------------------------------------------------------

TfLiteStatus ThrowingDelegatePrepare(TfLiteContext*, TfLiteDelegate*) {
  throw std::runtime_error("delegate prepare exploded");
}

TEST_F(ThrowingKernelTest, ThrowingDelegatePrepareFailsCreate) {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  delegate.Prepare = ThrowingDelegatePrepare;
  TfLiteInterpreterOptionsAddDelegate(options_, reinterpret_cast<TfLiteOpaqueDelegate*>(&delegate));
  EXPECT_EQ(Create(), nullptr);
  EXPECT_NE(std::string(TfLiteGetLastCreateError()).find("delegate prepare exploded"),
            std::string::npos)
      << TfLiteGetLastCreateError();
}

TEST_F(ThrowingKernelTest, ThrowingDelegateFallsBackWhenAllowed) {
  TfLiteDelegate delegate = TfLiteDelegateCreate();
  delegate.Prepare = ThrowingDelegatePrepare;
  TfLiteInterpreterOptionsAddDelegate(options_, reinterpret_cast<TfLiteOpaqueDelegate*>(&delegate));
  TfLiteInterpreterOptionsSetEnableDelegateFallback(options_, true);
  ASSERT_NE(Create(), nullptr);
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(interpreter_), kTfLiteOk);
  EXPECT_EQ(TfLiteInterpreterInvoke(interpreter_), kTfLiteOk);
}

// As upstream: a NULL delegate is kept in the options and makes creation fail.
TEST_F(ThrowingKernelTest, NullDelegateFailsCreate) {
  TfLiteInterpreterOptionsAddDelegate(options_, nullptr);
  EXPECT_EQ(Create(), nullptr);
  EXPECT_NE(log_.find("Null delegate."), std::string::npos) << log_;
  EXPECT_STREQ(TfLiteGetLastCreateError(), "Null delegate.");
  // Also with delegate fallback: the caller meant to apply something.
  TfLiteInterpreterOptionsSetEnableDelegateFallback(options_, true);
  EXPECT_EQ(Create(), nullptr);
}

// ---- last error ---------------------------------------------------------------

TEST(LastErrorTest, NullInterpreterHasNoLastError) {
  EXPECT_EQ(TfLiteInterpreterGetLastError(nullptr), nullptr);
}

TEST(LastErrorTest, FailedModelCreateSaysWhy) {
  const char garbage[64] = "this is not a flatbuffer at all, not even close.";
  EXPECT_EQ(TfLiteModelCreate(garbage, sizeof(garbage)), nullptr);
  const std::string first = TfLiteGetLastCreateError();
  EXPECT_NE(first, "");
  EXPECT_EQ(TfLiteModelCreateFromFile("/nonexistent/model.tflite"), nullptr);
  EXPECT_NE(std::string(TfLiteGetLastCreateError()).find("/nonexistent/model.tflite"),
            std::string::npos)
      << TfLiteGetLastCreateError();
  EXPECT_EQ(TfLiteInterpreterCreate(nullptr, nullptr), nullptr);
  EXPECT_STREQ(TfLiteGetLastCreateError(), "TfLiteInterpreterCreate: model is NULL");
}

TEST(LastErrorTest, IsPerThread) {
  EXPECT_EQ(TfLiteModelCreate(nullptr, 0), nullptr);
  EXPECT_STRNE(TfLiteGetLastCreateError(), "");
  std::string other = "unset";
  std::thread([&] { other = TfLiteGetLastCreateError(); }).join();
  EXPECT_EQ(other, "");
}

TEST(LastErrorTest, InterpreterKeepsItsLastMessage) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {y});
  const std::vector<uint8_t> bytes = b.Finish();
  TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
  ASSERT_NE(model, nullptr);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  std::string log;
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &log);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  ASSERT_NE(interpreter, nullptr);
  EXPECT_STREQ(TfLiteInterpreterGetLastError(interpreter), "");
  EXPECT_EQ(TfLiteInterpreterGetInputTensor(interpreter, 7), nullptr);
  EXPECT_STREQ(TfLiteInterpreterGetLastError(interpreter),
               "TfLiteInterpreterGetInputTensor: input index 7 out of range [0, 1)");
  EXPECT_NE(log.find("input index 7 out of range"), std::string::npos);  // still forwarded
  const int dims[2] = {1, -5};
  EXPECT_EQ(TfLiteInterpreterResizeInputTensor(interpreter, 0, dims, 2), kTfLiteError);
  EXPECT_STRNE(TfLiteInterpreterGetLastError(interpreter), "");
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
}

// ---- TfLiteModelCreateCopy ------------------------------------------------------

TEST(ModelCreateCopyTest, CallerBufferMayBeFreedRightAway) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int w = b.AddConstant<float>({1, 4}, {10, 20, 30, 40});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, w}, {y}, tflite::AddOptionsT{});
  const std::vector<uint8_t> bytes = b.Finish();

  // A heap copy the test frees (and scribbles over first): under ASan any
  // later read of it is a heap-use-after-free.
  auto* scratch = new uint8_t[bytes.size()];
  std::memcpy(scratch, bytes.data(), bytes.size());
  TfLiteModel* model = TfLiteModelCreateCopy(scratch, bytes.size());
  std::memset(scratch, 0xA5, bytes.size());
  delete[] scratch;
  ASSERT_NE(model, nullptr) << TfLiteGetLastCreateError();

  for (int use_xnnpack = 0; use_xnnpack < 2; ++use_xnnpack) {
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetUseXNNPACK(options, use_xnnpack != 0);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
    TfLiteInterpreterOptionsDelete(options);
    ASSERT_NE(interpreter, nullptr);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(interpreter), kTfLiteOk);
    const float in[4] = {1, 2, 3, 4};
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), in,
                                         sizeof(in)),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
    const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    EXPECT_STREQ(TfLiteTensorName(out), "y");
    const float* v = static_cast<const float*>(TfLiteTensorData(out));
    EXPECT_EQ(v[0], 11.0f);
    EXPECT_EQ(v[3], 44.0f);
    // The interpreter keeps the copy alive after the model handle is gone.
    if (use_xnnpack == 1) {
      TfLiteModelDelete(model);
      model = nullptr;
      ASSERT_EQ(TfLiteInterpreterInvoke(interpreter), kTfLiteOk);
      EXPECT_EQ(static_cast<const float*>(TfLiteTensorData(out))[1], 22.0f);
    }
    TfLiteInterpreterDelete(interpreter);
  }
  TfLiteModelDelete(model);
}

TEST(ModelCreateCopyTest, RejectsWhatModelCreateRejects) {
  std::string log;
  EXPECT_EQ(TfLiteModelCreateCopy(nullptr, 10), nullptr);
  EXPECT_EQ(TfLiteModelCreateCopy("x", 0), nullptr);
  const char garbage[32] = "definitely not a model";
  EXPECT_EQ(TfLiteModelCreateCopyWithErrorReporter(garbage, sizeof(garbage), CaptureError, &log),
            nullptr);
  EXPECT_NE(log, "");
  EXPECT_NE(log.find(TfLiteGetLastCreateError()), std::string::npos);
  EXPECT_STRNE(TfLiteGetLastCreateError(), "");
}

}  // namespace

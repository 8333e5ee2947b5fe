// The XNNPACK delegate TfLiteInterpreterCreate applies by default:
// on without any call, with the interpreter's thread count, after the user's
// delegates and not at all on a fully delegated graph; off with
// TfLiteInterpreterOptionsSetUseXNNPACK(options, false) or the environment
// variable TFLITE_C_DISABLE_XNNPACK; unsupported nodes stay on the builtin
// kernels. In builds without XNNPACK nothing is applied.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// x[1,6,6,3] -> CONV_2D 3x3 (RELU) -> SIGN (not an XNNPACK op) -> ADD x' -> y,
// where x' = CONV_2D 1x1 of x: two XNNPACK partitions around SIGN.
std::vector<uint8_t> MixedModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 6, 6, 3}, "x");
  const int w1 = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 1));
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 6, 6, 4});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, -1}, {c1}, conv);
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 6, 6, 4});
  b.AddOperator(tflite::BuiltinOperator_SIGN, {c1}, {s});
  const int w2 = b.AddConstant<float>({4, 1, 1, 3}, Random(12, 2));
  const int c2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 6, 6, 4});
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w2, -1}, {c2}, conv);
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 6, 6, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {s, c2}, {y}, tflite::AddOptionsT());
  return b.Finish();
}

// Builds `bytes` with `setup` applied to fresh options (no delegates).
template <typename Setup>
void CreateWith(Session* s, const std::vector<uint8_t>& bytes, Setup setup) {
  s->model.reset(TfLiteModelCreate(bytes.data(), bytes.size()));
  ASSERT_NE(s->model, nullptr);
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &s->errors);
  setup(options.get());
  s->interpreter.reset(TfLiteInterpreterCreate(s->model.get(), options.get()));
  ASSERT_NE(s->interpreter, nullptr) << s->errors;
}

// CreateWith and the user's delegate `user` (the default one may follow).
void CreateWithUserDelegate(Session* s, const std::vector<uint8_t>& bytes, TfLiteDelegate* user) {
  CreateWith(s, bytes, [user](TfLiteInterpreterOptions* opts) {
    TfLiteInterpreterOptionsAddDelegate(opts, reinterpret_cast<TfLiteOpaqueDelegate*>(user));
  });
}

std::vector<float> RunModel(Session* s, const std::vector<float>& in) {
  TfLiteInterpreter* it = s->interpreter.get();
  EXPECT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s->errors;
  EXPECT_TRUE(s->SetInput(0, in));
  EXPECT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s->errors;
  return s->Output(0);
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST(XnnpackDefault, AppliedWithoutAnyCallAndMatchesBuiltin) {
  const std::vector<uint8_t> bytes = MixedModel();
  Session plain, def;
  CreateWith(&plain, bytes, [](TfLiteInterpreterOptions* o) {
    ASSERT_EQ(TfLiteInterpreterOptionsSetUseXNNPACK(o, false), kTfLiteOk);
  });
  CreateWith(&def, bytes, [](TfLiteInterpreterOptions*) {});
  EXPECT_EQ(plain.plan().size(), 4u);
  EXPECT_EQ(plain.interpreter->default_delegate, nullptr);
  if (kWithXnnpack) {
    // [CONV_2D] SIGN [CONV_2D, ADD] (the 1x1 conv runs before SIGN or after).
    EXPECT_EQ(def.plan().size(), 3u);
    EXPECT_EQ(def.DelegateNodes(), 2);
    EXPECT_NE(def.interpreter->default_delegate, nullptr);
  } else {
    EXPECT_EQ(def.plan().size(), 4u);
  }
  const std::vector<float> in = Random(108, 3);
  const std::vector<float> a = RunModel(&plain, in), b = RunModel(&def, in);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-4f + 1e-4f * std::fabs(a[i]));
}

TEST(XnnpackDefault, UsesTheInterpreterThreadCount) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = MixedModel();
  for (int threads : {-1, 1, 2, 3}) {
    Session s;
    CreateWith(&s, bytes, [threads](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetNumThreads(o, threads);
    });
    TfLiteDelegate* d = s.interpreter->default_delegate.get();
    ASSERT_NE(d, nullptr);
    const int want = threads > 1 ? threads : 1;
    EXPECT_EQ(TfLiteXNNPackDelegateGetOptions(d)->num_threads, want) << threads;
    EXPECT_EQ(TfLiteXNNPackDelegateGetThreadPool(d) != nullptr, want > 1) << threads;
    // Quantized paths on, as upstream's default delegate.
    EXPECT_TRUE(TfLiteXNNPackDelegateGetFlags(d) & TFLITE_XNNPACK_DELEGATE_FLAG_QS8);
  }
}

TEST(XnnpackDefault, EnvironmentVariableDisablesAndOptionWins) {
  const std::vector<uint8_t> bytes = MixedModel();
  {
    ScopedEnv env("TFLITE_C_DISABLE_XNNPACK", "1");
    Session off, forced;
    CreateWith(&off, bytes, [](TfLiteInterpreterOptions*) {});
    EXPECT_EQ(off.plan().size(), 4u);
    EXPECT_EQ(off.interpreter->default_delegate, nullptr);
    CreateWith(&forced, bytes, [](TfLiteInterpreterOptions* o) {
      TfLiteInterpreterOptionsSetUseXNNPACK(o, true);
    });
    EXPECT_EQ(forced.interpreter->default_delegate != nullptr, kWithXnnpack);
  }
  {
    ScopedEnv env("TFLITE_C_DISABLE_XNNPACK", "0");  // "0": not disabled
    Session on;
    CreateWith(&on, bytes, [](TfLiteInterpreterOptions*) {});
    EXPECT_EQ(on.interpreter->default_delegate != nullptr, kWithXnnpack);
  }
  EXPECT_EQ(TfLiteInterpreterOptionsSetUseXNNPACK(nullptr, false), kTfLiteError);
}

TEST(XnnpackDefault, NotAppliedToAGraphTheUserDelegateTookWhole) {
  SKIP_WITHOUT_XNNPACK();
  // Every node of ChainModel is an ADD/SUB the user's XNNPACK delegate takes.
  const std::vector<uint8_t> bytes = ChainModel();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr user(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(user, nullptr);
  {
    Session s;
    CreateWithUserDelegate(&s, bytes, user.get());
    EXPECT_EQ(s.plan().size(), 1u);
    EXPECT_EQ(s.interpreter->default_delegate, nullptr);
  }
}

TEST(XnnpackDefault, AppliedAfterAUserDelegateOnTheRest) {
  SKIP_WITHOUT_XNNPACK();
  // The user's delegate has QS8/QU8 and float ops; here it sees only float
  // nodes it all takes except SIGN; the default one then finds nothing left
  // but SIGN, so the plan is the user's partitions + SIGN.
  const std::vector<uint8_t> bytes = MixedModel();
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr user(TfLiteXNNPackDelegateCreate(&o));
  ASSERT_NE(user, nullptr);
  {
    Session s;
    CreateWithUserDelegate(&s, bytes, user.get());
    EXPECT_EQ(s.plan().size(), 3u);
    EXPECT_EQ(s.DelegateNodes(), 2);
    const std::vector<float> out = RunModel(&s, Random(108, 4));
    EXPECT_EQ(out.size(), 144u);
  }
}

TEST(XnnpackDefault, DynamicShapesStillWork) {
  // ResizeInputTensor after creation: the delegated partitions reshape.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int r = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {r});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_SIGN, {r}, {y});
  const std::vector<uint8_t> bytes = b.Finish();
  Session s;
  CreateWith(&s, bytes, [](TfLiteInterpreterOptions*) {});
  TfLiteInterpreter* it = s.interpreter.get();
  const int dims[] = {3, 5};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, dims, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
  std::vector<float> in(15);
  for (int i = 0; i < 15; ++i) in[i] = 0.25f * static_cast<float>(i) - 1.5f;
  ASSERT_TRUE(s.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s.errors;
  const std::vector<float> out = s.Output(0);
  ASSERT_EQ(out.size(), 15u);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(out[i], in[i] > 0.0f ? 1.0f : 0.0f);
}

// Found by fuzz/resize_fuzzer (SEGV in XNNPACK's igemm: mp_face_detection's
// input resized to a scalar): a resize that changes the rank of a delegated
// partition's input fails AllocateTensors with a message; the original rank
// with other dimensions still works.
TEST(XnnpackDefault, MalformedResizeToAnotherRankIsRefused) {
  const std::vector<uint8_t> bytes = MixedModel();
  for (const std::vector<int>& dims : {std::vector<int>{}, std::vector<int>{6, 6, 3},
                                       std::vector<int>{1, 1, 6, 6, 3}}) {
    SCOPED_TRACE(dims.size());
    Session s;
    CreateWith(&s, bytes, [](TfLiteInterpreterOptions*) {});
    TfLiteInterpreter* it = s.interpreter.get();
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, dims.data(), static_cast<int>(dims.size())),
              kTfLiteOk);
    EXPECT_NE(TfLiteInterpreterAllocateTensors(it), kTfLiteOk);
    EXPECT_NE(s.errors.find("delegated graph was built for rank 4"), std::string::npos) << s.errors;
  }
  Session s;
  CreateWith(&s, bytes, [](TfLiteInterpreterOptions*) {});
  const int dims[] = {2, 5, 7, 3};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(s.interpreter.get(), 0, dims, 4), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
  ASSERT_TRUE(s.SetInput(0, std::vector<float>(2 * 5 * 7 * 3, 0.5f)));
  EXPECT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
}

// Found by fuzz/resize_fuzzer (SEGV in XNNPACK's igemm; valgrind: reads past
// the arena): the pinned XNNPACK's reshape checks neither rank nor channel
// count, so a convolution defined for 3 input channels read 3 per pixel from
// an input resized to 1 channel. Now a resize that changes the channels a
// convolution reads fails AllocateTensors with a message (XNNPACK's reshape,
// patched: third_party/xnnpack/patches/0002; xnnpack_resize_test has the
// other operators); other dimensions may still change (DynamicShapesStillWork).
TEST(XnnpackDefault, MalformedResizeOfChannelsIsRefused) {
  const std::vector<uint8_t> bytes = MixedModel();
  for (const std::vector<int>& dims : {std::vector<int>{592, 1, 336, 1},
                                       std::vector<int>{1, 6, 6, 4}}) {
    SCOPED_TRACE(dims.back());
    Session s;
    CreateWith(&s, bytes, [](TfLiteInterpreterOptions*) {});
    TfLiteInterpreter* it = s.interpreter.get();
    ASSERT_GT(s.DelegateNodes(), 0);
    ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, dims.data(), 4), kTfLiteOk);
    EXPECT_NE(TfLiteInterpreterAllocateTensors(it), kTfLiteOk);
    EXPECT_NE(s.errors.find("refused the new input shapes"), std::string::npos) << s.errors;
  }
}

// Found by fuzz/resize_fuzzer (ASan allocator CHECK: a heap block's header
// overwritten by XNNPACK): a resize whose reshape fails inside XNNPACK leaves
// the operators before the failing one reshaped to the refused shape. A
// resize back to the last good shape must reshape again, not reuse that
// half-reshaped runtime (which then computed, read and wrote for the refused
// shape).
TEST(XnnpackDefault, ResizeBackAfterAFailedReshapeReshapesAgain) {
  // x[1,4] -> ADD(x, x) -> y1 (output) -> RESHAPE to constant [2, 2] -> y2.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int y1 = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y1");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {y1}, tflite::AddOptionsT());
  const int shape = b.AddConstant<int32_t>({2}, {2, 2});
  const int y2 = b.AddOutput(tflite::TensorType_FLOAT32, {2, 2}, "y2");
  tflite::ReshapeOptionsT reshape;
  reshape.new_shape = {2, 2};
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {y1, shape}, {y2}, reshape);
  const std::vector<uint8_t> bytes = b.Finish();

  Session s;
  CreateWith(&s, bytes, [](TfLiteInterpreterOptions*) {});
  TfLiteInterpreter* it = s.interpreter.get();
  ASSERT_EQ(s.DelegateNodes(), 1) << "both operators go to XNNPACK";
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
  ASSERT_TRUE(s.SetInput(0, std::vector<float>{1, 2, 3, 4}));
  ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.Output(0), (std::vector<float>{2, 4, 6, 8}));

  // Two elements cannot become [2, 2]: the reshape fails after ADD was
  // reshaped to two elements.
  const int small[] = {1, 2};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, small, 2), kTfLiteOk);
  ASSERT_NE(TfLiteInterpreterAllocateTensors(it), kTfLiteOk);

  const int good[] = {1, 4};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, 0, good, 2), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
  ASSERT_TRUE(s.SetInput(0, std::vector<float>{5, -6, 7, 9}));
  ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s.errors;
  EXPECT_EQ(s.Output(0), (std::vector<float>{10, -12, 14, 18}));
  EXPECT_EQ(s.Output(1), (std::vector<float>{10, -12, 14, 18}));
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

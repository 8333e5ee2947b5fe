// XNNPACK delegate: options and flags, which nodes it claims on small
// models, outputs against the builtin kernels, input resizing and the weights
// cache. Every golden model run with the delegate is in
// xnnpack_golden_test.cc, operator coverage in
// xnnpack_{float,quantized,mediapipe}_ops_test.cc and xnnpack_densify_test.cc,
// the default-on rules in xnnpack_default_test.cc.
// Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/delegates/xnnpack/default_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

XnnPtr MakeDelegate(int threads = 1, uint32_t flags = 0) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = threads;
  o.flags |= flags;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, float atol = 1e-4f,
                float rtol = 1e-4f) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_LE(std::fabs(a[i] - b[i]), atol + rtol * std::fabs(b[i])) << "element " << i;
}

// ---- options -------------------------------------------------------------------------

TEST(XnnpackOptions, FlagValuesMatchUpstream) {
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_QS8, 0x1);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_QU8, 0x2);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16, 0x4);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_DYNAMIC_FULLY_CONNECTED, 0x8);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS, 0x10);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER, 0x20);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_LATEST_OPERATORS, 0x40);
  EXPECT_EQ(TFLITE_XNNPACK_DELEGATE_FLAG_ENABLE_SUBGRAPH_RESHAPING, 0x80);
}

TEST(XnnpackOptions, FieldOrderMatchesUpstream) {
  using O = TfLiteXNNPackDelegateOptions;
  EXPECT_EQ(offsetof(O, num_threads), 0u);
  EXPECT_LT(offsetof(O, num_threads), offsetof(O, runtime_flags));
  EXPECT_LT(offsetof(O, runtime_flags), offsetof(O, flags));
  EXPECT_LT(offsetof(O, flags), offsetof(O, weights_cache));
  EXPECT_LT(offsetof(O, weights_cache), offsetof(O, handle_variable_ops));
  EXPECT_LT(offsetof(O, handle_variable_ops), offsetof(O, weight_cache_file_path));
  EXPECT_LT(offsetof(O, weight_cache_file_path), offsetof(O, weight_cache_file_descriptor));
  EXPECT_LT(offsetof(O, weight_cache_file_descriptor), offsetof(O, weight_cache_provider));
  EXPECT_LT(offsetof(O, weight_cache_provider), offsetof(O, weight_cache_lock_memory));
  // Upstream's struct: 64 bytes on LP64 (x86-64, aarch64), 36 on ILP32
  // (armhf: 4-byte pointers, the bools padded to 4).
  EXPECT_EQ(sizeof(O), sizeof(void*) == 8 ? 64u : 36u);
  if (sizeof(void*) == 4) {
    EXPECT_EQ(offsetof(O, weights_cache), 12u);
    EXPECT_EQ(offsetof(O, weight_cache_file_path), 20u);
    EXPECT_EQ(offsetof(O, weight_cache_lock_memory), 32u);
  }
}

TEST(XnnpackOptions, Defaults) {
  const TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  EXPECT_EQ(o.num_threads, 0);
  EXPECT_EQ(o.runtime_flags, 0u);
  EXPECT_EQ(o.weights_cache, nullptr);
  EXPECT_FALSE(o.handle_variable_ops);
  EXPECT_EQ(o.weight_cache_file_path, nullptr);
  EXPECT_EQ(o.weight_cache_file_descriptor, -1);
  EXPECT_EQ(o.weight_cache_provider, nullptr);
  EXPECT_FALSE(o.weight_cache_lock_memory);
  // Quantized paths on by default, as upstream.
  EXPECT_EQ(o.flags, static_cast<uint32_t>(TFLITE_XNNPACK_DELEGATE_FLAG_QS8 |
                                           TFLITE_XNNPACK_DELEGATE_FLAG_QU8));
}

TEST(XnnpackOptions, CreateGetFlagsThreadPool) {
  SKIP_WITHOUT_XNNPACK();
  XnnPtr one = MakeDelegate(1, TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(TfLiteXNNPackDelegateGetThreadPool(one.get()), nullptr);
  EXPECT_TRUE(TfLiteXNNPackDelegateGetFlags(one.get()) &
              TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER);
  ASSERT_NE(TfLiteXNNPackDelegateGetOptions(one.get()), nullptr);
  EXPECT_EQ(TfLiteXNNPackDelegateGetOptions(one.get())->num_threads, 1);
  XnnPtr two = MakeDelegate(2);
  ASSERT_NE(two, nullptr);
  EXPECT_NE(TfLiteXNNPackDelegateGetThreadPool(two.get()), nullptr);
  XnnPtr defaults(TfLiteXNNPackDelegateCreate(nullptr));
  ASSERT_NE(defaults, nullptr);
  EXPECT_EQ(TfLiteXNNPackDelegateGetFlags(nullptr), 0);
  EXPECT_EQ(TfLiteXNNPackDelegateGetThreadPool(nullptr), nullptr);
  TfLiteXNNPackDelegateDelete(nullptr);

  TfLiteDelegate* def = MaybeCreateDefaultXnnpackDelegate(2);
  ASSERT_NE(def, nullptr);
  EXPECT_NE(TfLiteXNNPackDelegateGetThreadPool(def), nullptr);
  TfLiteXNNPackDelegateDelete(def);
}

TEST(XnnpackOptions, DisabledBuildCreatesNothing) {
  if (kWithXnnpack) GTEST_SKIP() << "built with XNNPACK";
  EXPECT_EQ(TfLiteXNNPackDelegateCreate(nullptr), nullptr);
  EXPECT_EQ(MaybeCreateDefaultXnnpackDelegate(1), nullptr);
  EXPECT_EQ(TfLiteXNNPackDelegateWeightsCacheCreate(), nullptr);
}

// ---- small models ------------------------------------------------------------------------

// x[1,8,8,3] -> CONV_2D 3x3 s1 SAME (+bias, RELU) -> DEPTHWISE 3x3 s2 SAME ->
// MAX_POOL 2x2 -> FULLY_CONNECTED -> SOFTMAX -> y
std::vector<uint8_t> ConvNet(int batch = 1) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {batch, 8, 8, 3}, "x");
  const int w1 = b.AddConstant<float>({4, 3, 3, 3}, Random(4 * 27, 1));
  const int b1 = b.AddConstant<float>({4}, Random(4, 2));
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {batch, 8, 8, 4});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, b1}, {c1}, conv);

  const int w2 = b.AddConstant<float>({1, 3, 3, 8}, Random(72, 3));
  const int b2 = b.AddConstant<float>({8}, Random(8, 4));
  const int c2 = b.AddTensor(tflite::TensorType_FLOAT32, {batch, 4, 4, 8});
  tflite::DepthwiseConv2DOptionsT dw;
  dw.padding = tflite::Padding_SAME;
  dw.stride_w = dw.stride_h = 2;
  dw.depth_multiplier = 2;
  dw.fused_activation_function = tflite::ActivationFunctionType_RELU6;
  b.AddOperator(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, {c1, w2, b2}, {c2}, dw);

  const int p = b.AddTensor(tflite::TensorType_FLOAT32, {batch, 2, 2, 8});
  tflite::Pool2DOptionsT pool;
  pool.padding = tflite::Padding_VALID;
  pool.stride_w = pool.stride_h = 2;
  pool.filter_width = pool.filter_height = 2;
  b.AddOperator(tflite::BuiltinOperator_MAX_POOL_2D, {c2}, {p}, pool);

  const int w3 = b.AddConstant<float>({5, 32}, Random(160, 5));
  const int f = b.AddTensor(tflite::TensorType_FLOAT32, {batch, 5});
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {p, w3, -1}, {f},
                tflite::FullyConnectedOptionsT());
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {batch, 5}, "y");
  tflite::SoftmaxOptionsT sm;
  sm.beta = 1.0f;
  b.AddOperator(tflite::BuiltinOperator_SOFTMAX, {f}, {y}, sm);
  return b.Finish();
}

TEST(XnnpackDelegate, ClaimsWholeConvNetAndMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = ConvNet();
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_EQ(xnn.plan().size(), 1u);
  EXPECT_EQ(xnn.DelegateNodes(), 1);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const std::vector<float> in = Random(8 * 8 * 3, 7);
  ASSERT_TRUE(builtin.SetInput(0, in));
  ASSERT_TRUE(xnn.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  ExpectNear(xnn.Output(0), builtin.Output(0));
}

TEST(XnnpackDelegate, ResizeInputReshapesRuntime) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = ConvNet(1);
  const std::vector<uint8_t> bytes3 = ConvNet(3);
  Session builtin, xnn;
  builtin.Create(bytes3, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok() && xnn.ok()) << xnn.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const int dims[4] = {3, 8, 8, 3};
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(xnn.interpreter.get(), 0, dims, 4), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk);
  const std::vector<float> in = Random(3 * 8 * 8 * 3, 9);
  ASSERT_TRUE(builtin.SetInput(0, in));
  ASSERT_TRUE(xnn.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(xnn.interpreter.get(), 0);
  ASSERT_EQ(TfLiteTensorNumDims(out), 2);
  EXPECT_EQ(TfLiteTensorDim(out, 0), 3);
  ExpectNear(xnn.Output(0), builtin.Output(0));
}

// ADD(x, c) -> SIGN (not delegated) -> MUL(., x) with RELU; MEAN over H,W.
TEST(XnnpackDelegate, UnsupportedNodesStayOnBuiltinKernels) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "x");
  const int c = b.AddConstant<float>({2}, {0.5f, -0.25f});
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2});
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {a}, tflite::AddOptionsT());
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2});
  b.AddOperator(tflite::BuiltinOperator_SIGN, {a}, {t});  // not an XNNPACK op
  const int m = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2});
  tflite::MulOptionsT mul;
  mul.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_MUL, {t, x}, {m}, mul);
  const int axes = b.AddConstant<int32_t>({2}, {1, 2});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 2}, "y");
  b.AddOperator(tflite::BuiltinOperator_MEAN, {m, axes}, {y}, tflite::ReducerOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();

  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok() && xnn.ok()) << xnn.errors;
  EXPECT_EQ(xnn.plan().size(), 3u);  // [ADD] SIGN [MUL, MEAN]
  EXPECT_EQ(xnn.DelegateNodes(), 2);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const std::vector<float> in = Random(32, 11);
  ASSERT_TRUE(builtin.SetInput(0, in) && xnn.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  ExpectNear(xnn.Output(0), builtin.Output(0));
}

// PAD -> CONCATENATION(with x padded) -> HARD_SWISH -> LOGISTIC -> RESHAPE,
// with fp16 weights: DEQUANTIZE(fp16 const) feeding SUB.
TEST(XnnpackDelegate, ElementwiseLayoutAndFp16Weights) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 2, 2, 3}, "x");
  const int pads = b.AddConstant<int32_t>({4, 2}, {0, 0, 1, 1, 1, 1, 0, 0});
  const int p = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 3});
  b.AddOperator(tflite::BuiltinOperator_PAD, {x, pads}, {p});
  const int p2 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 3});
  b.AddOperator(tflite::BuiltinOperator_RELU6, {p}, {p2});
  const int cat = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 6});
  tflite::ConcatenationOptionsT co;
  co.axis = -1;
  b.AddOperator(tflite::BuiltinOperator_CONCATENATION, {p, p2}, {cat}, co);
  // fp16 constant [6] = 0.5, -1, 2, 0.25, 0, 3 (IEEE half bits)
  const std::vector<uint16_t> half = {0x3800, 0xBC00, 0x4000, 0x3400, 0x0000, 0x4200};
  std::vector<uint8_t> hb(12);
  std::memcpy(hb.data(), half.data(), 12);
  const int h = b.AddConstantBytes(tflite::TensorType_FLOAT16, {6}, hb);
  const int hf = b.AddTensor(tflite::TensorType_FLOAT32, {6});
  b.AddOperator(tflite::BuiltinOperator_DEQUANTIZE, {h}, {hf});
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 6});
  b.AddOperator(tflite::BuiltinOperator_SUB, {cat, hf}, {s}, tflite::SubOptionsT());
  const int hs = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 6});
  b.AddOperator(tflite::BuiltinOperator_HARD_SWISH, {s}, {hs});
  const int lg = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 6});
  b.AddOperator(tflite::BuiltinOperator_LOGISTIC, {hs}, {lg});
  const int shape = b.AddConstant<int32_t>({2}, {-1, 6});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {16, 6}, "y");
  b.AddOperator(tflite::BuiltinOperator_RESHAPE, {lg, shape}, {y});
  const std::vector<uint8_t> bytes = b.Finish();

  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_EQ(xnn.plan().size(), 1u);  // DEQUANTIZE included
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const std::vector<float> in = Random(12, 13, -4.0f, 4.0f);
  ASSERT_TRUE(builtin.SetInput(0, in) && xnn.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk) << builtin.errors;
  ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  ExpectNear(xnn.Output(0), builtin.Output(0), 1e-5f, 1e-4f);
}

TEST(XnnpackDelegate, AveragePoolSamePaddingMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 5, 5, 4}, "x");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 3, 3, 4}, "y");
  tflite::Pool2DOptionsT pool;
  pool.padding = tflite::Padding_SAME;
  pool.stride_w = pool.stride_h = 2;
  pool.filter_width = pool.filter_height = 3;
  b.AddOperator(tflite::BuiltinOperator_AVERAGE_POOL_2D, {x}, {y}, pool);
  const std::vector<uint8_t> bytes = b.Finish();
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate(2);
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok() && xnn.ok()) << xnn.errors;
  EXPECT_EQ(xnn.DelegateNodes(), 1);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  const std::vector<float> in = Random(100, 17);
  ASSERT_TRUE(builtin.SetInput(0, in) && xnn.SetInput(0, in));
  ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
  ExpectNear(xnn.Output(0), builtin.Output(0));
}

// PRELU (per-channel slope) -> RESIZE_BILINEAR in its three coordinate modes.
TEST(XnnpackDelegate, PreluAndResizeBilinearMatchBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (int mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    ModelBuilder b;
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 3, 3, 2}, "x");
    const int slope = b.AddConstant<float>({1, 1, 2}, {0.25f, -0.5f});
    const int pr = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3, 3, 2});
    b.AddOperator(tflite::BuiltinOperator_PRELU, {x, slope}, {pr});
    const int size = b.AddConstant<int32_t>({2}, {5, 4});
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 5, 4, 2}, "y");
    tflite::ResizeBilinearOptionsT ro;
    ro.align_corners = mode == 1;
    ro.half_pixel_centers = mode == 2;
    b.AddOperator(tflite::BuiltinOperator_RESIZE_BILINEAR, {pr, size}, {y}, ro, mode == 2 ? 3 : 1);
    const std::vector<uint8_t> bytes = b.Finish();
    Session builtin, xnn;
    builtin.Create(bytes, {});
    XnnPtr d = MakeDelegate();
    xnn.Create(bytes, {d.get()});
    ASSERT_TRUE(builtin.ok()) << builtin.errors;
    ASSERT_TRUE(xnn.ok()) << xnn.errors;
    EXPECT_EQ(xnn.plan().size(), 1u);
    EXPECT_EQ(xnn.DelegateNodes(), 1);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(builtin.interpreter.get()), kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
    const std::vector<float> in = Random(18, 19 + mode, -2.0f, 2.0f);
    ASSERT_TRUE(builtin.SetInput(0, in) && xnn.SetInput(0, in));
    ASSERT_EQ(TfLiteInterpreterInvoke(builtin.interpreter.get()), kTfLiteOk) << builtin.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
    ExpectNear(xnn.Output(0), builtin.Output(0), 1e-5f, 1e-4f);
  }
}

// ---- weights cache ------------------------------------------------------------------------

TEST(XnnpackWeightsCache, SharedBetweenInterpretersAndFinalizedBeforeInference) {
  SKIP_WITHOUT_XNNPACK();
  TfLiteXNNPackDelegateWeightsCache* cache = TfLiteXNNPackDelegateWeightsCacheCreateWithSize(1 << 16);
  ASSERT_NE(cache, nullptr);
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.weights_cache = cache;
  {
    XnnPtr d1(TfLiteXNNPackDelegateCreate(&o)), d2(TfLiteXNNPackDelegateCreate(&o));
    const std::vector<uint8_t> bytes = ConvNet();
    Session s1, s2;
    s1.Create(bytes, {d1.get()});
    s2.Create(bytes, {d2.get()});
    ASSERT_TRUE(s1.ok() && s2.ok()) << s1.errors << s2.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s1.interpreter.get()), kTfLiteOk) << s1.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s2.interpreter.get()), kTfLiteOk) << s2.errors;
    const std::vector<float> in = Random(8 * 8 * 3, 7);
    ASSERT_TRUE(s1.SetInput(0, in) && s2.SetInput(0, in));
    // Inference before finalization is an error.
    EXPECT_NE(TfLiteInterpreterInvoke(s1.interpreter.get()), kTfLiteOk);
    EXPECT_NE(s1.errors.find("finalized"), std::string::npos) << s1.errors;
    ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeHard(cache));
    ASSERT_EQ(TfLiteInterpreterInvoke(s1.interpreter.get()), kTfLiteOk) << s1.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(s2.interpreter.get()), kTfLiteOk) << s2.errors;
    EXPECT_EQ(s1.Output(0), s2.Output(0));
  }
  TfLiteXNNPackDelegateWeightsCacheDelete(cache);
  TfLiteXNNPackDelegateWeightsCacheDelete(nullptr);
  EXPECT_FALSE(TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(nullptr));
}

// The first interpreter's operators were reshaped (AllocateTensors) while
// the cache was open; the second delegate's weights then grew the cache and
// moved its buffer. After finalization the first interpreter must run on the
// weights in the new buffer (it read the freed one before).
TEST(XnnpackWeightsCache, InterpreterAllocatedBeforeTheCacheGrewRunsCorrectly) {
  SKIP_WITHOUT_XNNPACK();
  auto fc_model = [](int n, uint32_t seed, std::vector<float>* w) {
    ModelBuilder b;
    const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, n}, "x");
    *w = Random(static_cast<size_t>(n) * n, seed);
    const int wt = b.AddConstant<float>({n, n}, *w, "w");
    const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, n}, "y");
    b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {x, wt, -1}, {y},
                  tflite::FullyConnectedOptionsT());
    return b.Finish();
  };
  std::vector<float> w1, w2;
  const std::vector<uint8_t> small = fc_model(64, 31, &w1), big = fc_model(512, 32, &w2);
  TfLiteXNNPackDelegateWeightsCache* cache = TfLiteXNNPackDelegateWeightsCacheCreateWithSize(1);
  ASSERT_NE(cache, nullptr);
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.weights_cache = cache;
  {
    XnnPtr d1(TfLiteXNNPackDelegateCreate(&o)), d2(TfLiteXNNPackDelegateCreate(&o));
    Session s1, s2;
    s1.Create(small, {d1.get()});
    ASSERT_TRUE(s1.ok()) << s1.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s1.interpreter.get()), kTfLiteOk) << s1.errors;
    s2.Create(big, {d2.get()});  // packs 1 MiB more into the cache
    ASSERT_TRUE(s2.ok()) << s2.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s2.interpreter.get()), kTfLiteOk) << s2.errors;
    ASSERT_TRUE(TfLiteXNNPackDelegateWeightsCacheFinalizeHard(cache));
    const std::vector<float> x = Random(64, 33);
    ASSERT_TRUE(s1.SetInput(0, x));
    ASSERT_EQ(TfLiteInterpreterInvoke(s1.interpreter.get()), kTfLiteOk) << s1.errors;
    std::vector<float> expected(64);
    for (int r = 0; r < 64; ++r) {
      double acc = 0;
      for (int c = 0; c < 64; ++c) acc += static_cast<double>(w1[r * 64 + c]) * x[c];
      expected[r] = static_cast<float>(acc);
    }
    ExpectNear(s1.Output(0), expected, 1e-4f, 1e-4f);
  }
  TfLiteXNNPackDelegateWeightsCacheDelete(cache);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

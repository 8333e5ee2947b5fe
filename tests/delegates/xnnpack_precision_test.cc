// XNNPACK delegate precision controls: TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16
// (fp16 arithmetic for float32 models, or a clear "not supported" when the CPU
// cannot) and the model's "reduced_precision_support" metadata, which asks
// XNNPACK for fp16 inference (XNN_FLAG_HINT_FP16_INFERENCE) when it allows
// fp16 inference with fp16 accumulation. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/delegates/delegate_test_util.h"

#ifdef TFLITE_C_WITH_XNNPACK
#include <xnnpack.h>

#include "src/delegates/xnnpack/precision.h"
#endif

namespace tflite_c {
namespace testing {
namespace {

#ifdef TFLITE_C_WITH_XNNPACK

// x[1,6,6,4] -> CONV_2D 3x3 (bias) -> RELU -> FULLY_CONNECTED(16) -> y, with
// `metadata` (if not empty) as the model's reduced_precision_support entry.
std::vector<uint8_t> FloatNet(const std::string& metadata = "") {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 6, 6, 4}, "x");
  const int w1 = b.AddConstant<float>({8, 3, 3, 4}, Random(8 * 36, 21));
  const int b1 = b.AddConstant<float>({8}, Random(8, 22));
  const int c1 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 6, 6, 8});
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  conv.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, b1}, {c1}, conv);
  const int w2 = b.AddConstant<float>({16, 288}, Random(16 * 288, 23));
  const int b2 = b.AddConstant<float>({16}, Random(16, 24));
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 16}, "y");
  tflite::FullyConnectedOptionsT fc;
  fc.keep_num_dims = false;
  b.AddOperator(tflite::BuiltinOperator_FULLY_CONNECTED, {c1, w2, b2}, {y}, fc);
  if (!metadata.empty())
    b.AddMetadata("reduced_precision_support",
                  std::vector<uint8_t>(metadata.begin(), metadata.end()));
  return b.Finish();
}

XnnPtr MakeDelegate(uint32_t flags) {
  TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
  o.num_threads = 1;
  o.flags |= flags;
  return XnnPtr(TfLiteXNNPackDelegateCreate(&o));
}

// Runs `bytes` (with `delegate` if not null) on a fixed input.
std::vector<float> RunModel(const std::vector<uint8_t>& bytes, TfLiteDelegate* delegate,
                       std::string* errors = nullptr, int* delegate_nodes = nullptr) {
  Session s;
  s.Create(bytes, delegate ? std::vector<TfLiteDelegate*>{delegate}
                           : std::vector<TfLiteDelegate*>{});
  if (errors) *errors = s.errors;
  if (!s.ok()) return {};
  if (delegate_nodes) *delegate_nodes = s.DelegateNodes();
  if (TfLiteInterpreterAllocateTensors(s.interpreter.get()) != kTfLiteOk) return {};
  if (!s.SetInput(0, Random(6 * 6 * 4, 25, -2.0f, 2.0f))) return {};
  if (TfLiteInterpreterInvoke(s.interpreter.get()) != kTfLiteOk) return {};
  return s.Output(0);
}

TEST(XnnpackPrecision, ParseReducedPrecisionMetadata) {
  struct Case {
    const char* text;
    bool ok, fp16_inf, bf16_inf, fp16_acc, fp32_acc;
  };
  const Case cases[] = {
      {"fp16accfp16", true, true, false, true, false},
      {"fp16accfp32", true, true, false, false, true},
      {"bf16accfp32", true, false, true, false, true},
      {"fp16bf16accfp16", true, true, true, true, false},
      {"bf16fp16accfp16", true, true, true, true, false},
      {"accfp16", false},          // no inference type
      {"fp16acc", false},          // no accumulation type
      {"fp16accfp16x", false},     // trailing bytes
      {"fp16accbf16", false},      // bf16 is not an accumulation type
      {"fp32accfp32", false},      // fp32 is not a reduced inference type
      {"fp16fp16", false},         // no "acc"
      {"", false},
      {"FP16ACCFP16", false},      // case matters
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    xnnpack::ReducedPrecision r;
    r.fp32_accumulation = true;  // untouched on failure
    const bool ok = xnnpack::ParseReducedPrecision(c.text, std::strlen(c.text), &r);
    ASSERT_EQ(ok, c.ok);
    if (!ok) {
      EXPECT_TRUE(r.fp32_accumulation);
      continue;
    }
    EXPECT_EQ(r.fp16_inference, c.fp16_inf);
    EXPECT_EQ(r.bf16_inference, c.bf16_inf);
    EXPECT_EQ(r.fp16_accumulation, c.fp16_acc);
    EXPECT_EQ(r.fp32_accumulation, c.fp32_acc);
  }
  // Not NUL-terminated: only `size` bytes count.
  const char buf[] = {'f', 'p', '1', '6', 'a', 'c', 'c', 'f', 'p', '1', '6', 'Z'};
  xnnpack::ReducedPrecision r;
  EXPECT_TRUE(xnnpack::ParseReducedPrecision(buf, 11, &r));
  EXPECT_FALSE(xnnpack::ParseReducedPrecision(buf, 12, &r));
  EXPECT_FALSE(xnnpack::ParseReducedPrecision(nullptr, 0, &r));
}

// The flags the delegate computes from a real interpreter's context.
uint32_t FlagsFor(const std::string& metadata, bool force) {
  const std::vector<uint8_t> bytes = FloatNet(metadata);
  Session s;
  s.Create(bytes, {});
  EXPECT_TRUE(s.ok()) << s.errors;
  if (!s.ok()) return ~0u;
  return xnnpack::PrecisionRuntimeFlags(s.primary().context(), force);
}

TEST(XnnpackPrecision, MetadataSelectsFp16Hint) {
  SKIP_WITHOUT_XNNPACK();
  EXPECT_EQ(FlagsFor("", false), 0u);
  EXPECT_EQ(FlagsFor("fp16accfp16", false), static_cast<uint32_t>(XNN_FLAG_HINT_FP16_INFERENCE));
  EXPECT_EQ(FlagsFor("bf16fp16accfp16", false),
            static_cast<uint32_t>(XNN_FLAG_HINT_FP16_INFERENCE));
  EXPECT_EQ(FlagsFor("fp16accfp32", false), 0u);   // fp32 accumulation required
  EXPECT_EQ(FlagsFor("bf16accfp16", false), 0u);   // no fp16 inference
  EXPECT_EQ(FlagsFor("fp16accfp16 ", false), 0u);  // malformed
  // FORCE_FP16 wins over the metadata.
  EXPECT_EQ(FlagsFor("", true), static_cast<uint32_t>(XNN_FLAG_FORCE_FP16_INFERENCE));
  EXPECT_EQ(FlagsFor("fp16accfp16", true), static_cast<uint32_t>(XNN_FLAG_FORCE_FP16_INFERENCE));
  // A context without GetModelMetadata (e.g. a foreign one) asks for nothing.
  TfLiteContext bare;
  std::memset(&bare, 0, sizeof(bare));
  EXPECT_EQ(xnnpack::PrecisionRuntimeFlags(&bare, false), 0u);
  EXPECT_EQ(xnnpack::PrecisionRuntimeFlags(nullptr, false), 0u);
}

// A model carrying the metadata still runs fully delegated and matches fp32
// within fp16 tolerance (on CPUs without native fp16 the hint changes nothing).
TEST(XnnpackPrecision, ModelWithMetadataRuns) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<float> ref = RunModel(FloatNet(), nullptr);
  ASSERT_EQ(ref.size(), 16u);
  for (const char* md : {"fp16accfp16", "fp16accfp32", "garbage"}) {
    SCOPED_TRACE(md);
    XnnPtr d = MakeDelegate(0);
    ASSERT_NE(d, nullptr);
    std::string errors;
    int nodes = 0;
    const std::vector<float> out = RunModel(FloatNet(md), d.get(), &errors, &nodes);
    ASSERT_EQ(out.size(), ref.size()) << errors;
    EXPECT_EQ(nodes, 1);
    for (size_t i = 0; i < out.size(); ++i)
      EXPECT_NEAR(out[i], ref[i], 0.05f + 0.01f * std::fabs(ref[i])) << i;
  }
}

TEST(XnnpackPrecision, ForceFp16RunsInHalfPrecisionOrSaysNotSupported) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes = FloatNet();
  const std::vector<float> ref = RunModel(bytes, nullptr);
  ASSERT_EQ(ref.size(), 16u);
  XnnPtr fp32 = MakeDelegate(0);
  const std::vector<float> xnn32 = RunModel(bytes, fp32.get());
  ASSERT_EQ(xnn32.size(), 16u);

  XnnPtr d = MakeDelegate(TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(TfLiteXNNPackDelegateGetFlags(d.get()) & TFLITE_XNNPACK_DELEGATE_FLAG_FORCE_FP16);
  std::string errors;
  int nodes = -1;
  const std::vector<float> out = RunModel(bytes, d.get(), &errors, &nodes);
  if (errors.find("FORCE_FP16 is not supported") != std::string::npos) {
    // The runtime could not be built (e.g. 32-bit ARM: neither native nor
    // emulated fp16): the delegate says why and, as with upstream's C API, a
    // delegate that fails to apply makes TfLiteInterpreterCreate fail.
    EXPECT_TRUE(out.empty()) << errors;
    EXPECT_EQ(nodes, -1) << "the interpreter was created: " << errors;
    GTEST_SKIP() << "this CPU cannot run XNNPACK in fp16: " << errors;
  }
  ASSERT_EQ(nodes, 1) << errors;
  ASSERT_EQ(out.size(), ref.size()) << errors;
  // fp16 storage/arithmetic: close to fp32 within half-precision error (the
  // FC sums 288 products), and not bit-identical to XNNPACK's fp32 result.
  bool differs = false;
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(out[i], ref[i], 0.05f + 0.01f * std::fabs(ref[i])) << i;
    if (out[i] != xnn32[i]) differs = true;
  }
  EXPECT_TRUE(differs) << "FORCE_FP16 gave exactly the fp32 outputs";
}

#else

TEST(XnnpackPrecision, NotBuilt) { GTEST_SKIP() << "built without XNNPACK"; }

#endif  // TFLITE_C_WITH_XNNPACK

}  // namespace
}  // namespace testing
}  // namespace tflite_c

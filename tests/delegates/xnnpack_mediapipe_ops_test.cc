// XNNPACK delegate, MediaPipe's custom ops (Convolution2DTransposeBias,
// MaxPoolingWithArgmax2D + MaxUnpooling2D pairs) compared with the builtin
// kernels, the cases that must stay on the builtin kernels, and the selfie
// segmentation model fully delegated. Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensorflow/lite/core/c/builtin_op_data.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/test_paths.h"
#include "tests/delegates/xnnpack_ops_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType_FLOAT32;

// ---- MediaPipe custom ops ---------------------------------------------------------------

template <typename T>
std::vector<uint8_t> StructBytes(const T& value, size_t size = sizeof(T)) {
  std::vector<uint8_t> b(size);
  std::memcpy(b.data(), &value, size);
  return b;
}
// As MediaPipe's converter writes them: padding and the two strides only.
std::vector<uint8_t> DeconvOptions(TfLitePadding padding, int stride) {
  TfLiteTransposeConvParams p{};
  p.padding = padding;
  p.stride_width = p.stride_height = stride;
  return StructBytes(p, 3 * sizeof(int));
}
std::vector<uint8_t> PoolOptions(TfLitePadding padding, int stride, int filter,
                                 TfLiteFusedActivation act = kTfLiteActNone) {
  TfLitePoolParams p{};
  p.padding = padding;
  p.stride_width = p.stride_height = stride;
  p.filter_width = p.filter_height = filter;
  p.activation = act;
  return StructBytes(p);
}

TEST(XnnpackMediaPipe, Convolution2DTransposeBiasMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (TfLitePadding padding : {kTfLitePaddingSame, kTfLitePaddingValid}) {
    ModelBuilder b;
    const int oh = padding == kTfLitePaddingSame ? 10 : 11;
    const int x = b.AddInput(TensorType_FLOAT32, {1, 5, 5, 3}, "x");
    const int r = b.AddTensor(TensorType_FLOAT32, {1, 5, 5, 3});
    b.AddOperator(tflite::BuiltinOperator_RELU, {x}, {r});
    const int w = b.AddConstant<float>({4, 3, 3, 3}, Random(108, 3, -1, 1));
    const int bias = b.AddConstant<float>({4}, {0.1f, -0.2f, 0.3f, 0.0f});
    const int y = b.AddOutput(TensorType_FLOAT32, {1, oh, oh, 4}, "y");
    b.AddCustomOperator("Convolution2DTransposeBias", {r, w, bias}, {y},
                        DeconvOptions(padding, 2));
    Expect e;
    e.atol = 1e-4;
    SCOPED_TRACE(padding == kTfLitePaddingSame ? "SAME" : "VALID");
    CompareWithBuiltin(b.Finish(), e);
  }
}

TEST(XnnpackMediaPipe, TransposeConvBiasWithDynamicWeightsStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, 3, 3, 2}, "x");
  const int w = b.AddInput(TensorType_FLOAT32, {2, 2, 2, 2}, "w");
  const int bias = b.AddConstant<float>({2}, {0.5f, -0.5f});
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 6, 6, 2}, "y");
  b.AddCustomOperator("Convolution2DTransposeBias", {x, w, bias}, {y},
                      DeconvOptions(kTfLitePaddingSame, 2));
  Expect e;
  e.delegate_nodes = 0;
  CompareWithBuiltin(b.Finish(), e);
}

// x -> MaxPoolingWithArgmax2D -> (values, indices) -> MaxUnpooling2D -> y,
// values also an output.
std::vector<uint8_t> PoolUnpoolNet(TfLitePadding padding, int h, int w,
                                   TfLiteFusedActivation act = kTfLiteActNone,
                                   bool indices_output = false) {
  ModelBuilder b;
  const int x = b.AddInput(TensorType_FLOAT32, {1, h, w, 3}, "x");
  const int ph = padding == kTfLitePaddingSame ? (h + 1) / 2 : h / 2;
  const int pw = padding == kTfLitePaddingSame ? (w + 1) / 2 : w / 2;
  const int values = b.AddOutput(TensorType_FLOAT32, {1, ph, pw, 3}, "values");
  const int indices = indices_output ? b.AddOutput(TensorType_FLOAT32, {1, ph, pw, 3}, "indices")
                                     : b.AddTensor(TensorType_FLOAT32, {1, ph, pw, 3});
  b.AddCustomOperator("MaxPoolingWithArgmax2D", {x}, {values, indices},
                      PoolOptions(padding, 2, 2, act));
  const int y = b.AddOutput(TensorType_FLOAT32, {1, 2 * ph, 2 * pw, 3}, "y");
  b.AddCustomOperator("MaxUnpooling2D", {values, indices}, {y}, PoolOptions(padding, 2, 2));
  return b.Finish();
}

TEST(XnnpackMediaPipe, ArgmaxPoolingUnpoolingPairMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  for (TfLitePadding padding : {kTfLitePaddingSame, kTfLitePaddingValid}) {
    SCOPED_TRACE(padding == kTfLitePaddingSame ? "SAME" : "VALID");
    Expect e;
    e.atol = 0;
    e.rtol = 0;
    CompareWithBuiltin(PoolUnpoolNet(padding, 6, 8), e);
    // VALID drops the odd last row/column, like the builtin kernel.
    if (padding == kTfLitePaddingValid) CompareWithBuiltin(PoolUnpoolNet(padding, 7, 9), e);
  }
}

TEST(XnnpackMediaPipe, ArgmaxPoolingOutsideThePairStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Expect e;
  e.plan_size = 2;
  e.delegate_nodes = 0;
  e.atol = 0;
  e.rtol = 0;
  // A fused activation; SAME padding that actually pads.
  SCOPED_TRACE("relu");
  CompareWithBuiltin(PoolUnpoolNet(kTfLitePaddingValid, 6, 8, kTfLiteActRelu), e);
  SCOPED_TRACE("SAME 7x9");
  CompareWithBuiltin(PoolUnpoolNet(kTfLitePaddingSame, 7, 9), e);
}

// Indices that are also a model output would hold XNNPACK's indices, not
// MediaPipe's. The delegate sees model outputs only when building the
// partition, so it refuses the partition then; with fallback the builtin
// kernels run everything.
TEST(XnnpackMediaPipe, ArgmaxIndicesAsModelOutputRefused) {
  SKIP_WITHOUT_XNNPACK();
  const std::vector<uint8_t> bytes =
      PoolUnpoolNet(kTfLitePaddingValid, 6, 8, kTfLiteActNone, /*indices_output=*/true);
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()}, /*fallback=*/true);
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_NE(xnn.errors.find("indices are a model output"), std::string::npos) << xnn.errors;
  EXPECT_EQ(xnn.DelegateNodes(), 0);
  const std::vector<float> x = Random(6 * 8 * 3, 5, -2, 2);
  for (Session* s : {&builtin, &xnn}) {
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
    ASSERT_TRUE(s->SetInput(0, x));
    ASSERT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(builtin.Output(i), xnn.Output(i)) << "output " << i;
}

// MediaPipe's selfie segmentation (Convolution2DTransposeBias) runs as one
// XNNPACK partition and matches the builtin kernels within the manifest's
// tolerance on the golden input.
TEST(XnnpackMediaPipe, SelfieSegmentationFullyDelegated) {
  SKIP_WITHOUT_XNNPACK();
  const std::string dir = std::string(TFLITE_C_SHARED_DIR) + "/models/";
  std::ifstream mf(dir + "manifest.json");
  const nlohmann::json m = mf ? nlohmann::json::parse(mf, nullptr, false) : nlohmann::json();
  nlohmann::json entry;
  if (!m.is_discarded() && m.contains("models")) {
    for (const auto& e : m["models"])
      if (e.value("name", "") == "mp_selfie_segmentation") entry = e;
  }
  if (entry.is_null()) GTEST_SKIP() << "mp_selfie_segmentation not in the manifest";
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
  };
  const std::vector<uint8_t> bytes = read(dir + entry["file"].get<std::string>());
  const std::vector<uint8_t> input = read(dir + entry["inputs"][0]["file"].get<std::string>());
  ASSERT_FALSE(bytes.empty());
  Session builtin, xnn;
  builtin.Create(bytes, {});
  XnnPtr d = MakeDelegate();
  xnn.Create(bytes, {d.get()});
  ASSERT_TRUE(builtin.ok()) << builtin.errors;
  ASSERT_TRUE(xnn.ok()) << xnn.errors;
  EXPECT_GT(builtin.plan().size(), 100u);
  EXPECT_EQ(xnn.plan().size(), 1u);  // everything, the custom op included
  EXPECT_EQ(xnn.DelegateNodes(), 1);
  const nlohmann::json tol = entry["outputs"][0].value("tolerance", nlohmann::json::object());
  const double atol = tol.value("atol", 0.0), rtol = tol.value("rtol", 0.0);
  for (Session* s : {&builtin, &xnn}) {
    TfLiteInterpreter* it = s->interpreter.get();
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s->errors;
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, 0), input.data(),
                                         input.size()),
              kTfLiteOk);
    ASSERT_EQ(TfLiteInterpreterInvoke(it), kTfLiteOk) << s->errors;
  }
  const std::vector<float> a = builtin.Output(0), x = xnn.Output(0);
  ASSERT_EQ(a.size(), x.size());
  ASSERT_EQ(a.size(), 256u * 256u);
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::fabs(double(a[i]) - x[i]));
    ASSERT_LE(std::fabs(double(a[i]) - x[i]), atol + rtol * std::fabs(a[i])) << "element " << i;
  }
  RecordProperty("max_abs_diff", std::to_string(worst));
  if (std::getenv("XNNPACK_TEST_VERBOSE")) std::printf("[ max |diff| ] %g\n", worst);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

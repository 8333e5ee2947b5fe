// Nodes XNNPACK refuses when the graph is defined (or its operators
// created) must be declined while the delegate chooses nodes: a refusal
// after that fails the whole delegation, so every node falls back to the
// CPU, or TfLiteInterpreterCreate fails when the caller added the delegate.
// Each model here is x -> ADD (delegated) -> the refused node -> y; the
// interpreter must be created with the ADD alone on XNNPACK. The conditions
// are XNNPACK's (src/subgraph/*.c define functions of the pinned snapshot).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// x[shape] -> ADD(x, x) -> t; the caller adds the node under test t -> y.
struct AddThen {
  ModelBuilder b;
  int t = 0;
  explicit AddThen(const std::vector<int>& shape) {
    const int x = b.AddInput(tflite::TensorType_FLOAT32, shape, "x");
    t = b.AddTensor(tflite::TensorType_FLOAT32, shape);
    b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {t}, tflite::AddOptionsT());
  }
};

void ExpectOnlyTheAddDelegated(const std::vector<uint8_t>& bytes) {
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.plan().size(), 2u) << "the ADD's delegate kernel and the declined node";
  EXPECT_EQ(s.DelegateNodes(), 1) << s.errors;
}

std::vector<uint8_t> PoolParamsBytes(int filter, int stride) {
  TfLitePoolParams p{};
  p.padding = kTfLitePaddingValid;
  p.filter_width = p.filter_height = filter;
  p.stride_width = p.stride_height = stride;
  std::vector<uint8_t> bytes(sizeof(p));
  std::memcpy(bytes.data(), &p, sizeof(p));
  return bytes;
}

tflite::Pool2DOptionsT Pool(tflite::Padding padding, int filter, int stride) {
  tflite::Pool2DOptionsT p;
  p.padding = padding;
  p.filter_width = p.filter_height = filter;
  p.stride_w = p.stride_h = stride;
  return p;
}

TEST(XnnpackDeclinedNodes, MaxPoolWithStrideBeyondTheWindow) {
  SKIP_WITHOUT_XNNPACK();
  AddThen m({1, 6, 6, 2});
  const int y = m.b.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 2}, "y");
  m.b.AddOperator(tflite::BuiltinOperator_MAX_POOL_2D, {m.t}, {y},
                  Pool(tflite::Padding_VALID, 2, 3));
  ExpectOnlyTheAddDelegated(m.b.Finish());
}

// A window whose area wraps around in 32 bits (65536 x 65536 is 0 there).
TEST(XnnpackDeclinedNodes, PoolingWindowAreaBeyond32Bits) {
  SKIP_WITHOUT_XNNPACK();
  for (auto op : {tflite::BuiltinOperator_MAX_POOL_2D, tflite::BuiltinOperator_AVERAGE_POOL_2D}) {
    AddThen m({1, 2, 2, 1});
    const int y = m.b.AddOutput(tflite::TensorType_FLOAT32, {1, 2, 2, 1}, "y");
    m.b.AddOperator(op, {m.t}, {y}, Pool(tflite::Padding_SAME, 65536, 65536));
    SCOPED_TRACE(op == tflite::BuiltinOperator_MAX_POOL_2D ? "max" : "average");
    ExpectOnlyTheAddDelegated(m.b.Finish());
  }
}

// MediaPipe's argmax pooling and unpooling pair (delegated only together)
// with a 1x1 window, "meaningless" to XNNPACK.
TEST(XnnpackDeclinedNodes, ArgmaxPoolingPairWithAOnePixelWindow) {
  SKIP_WITHOUT_XNNPACK();
  AddThen m({1, 4, 4, 2});
  const int values = m.b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2});
  const int indices = m.b.AddTensor(tflite::TensorType_FLOAT32, {1, 4, 4, 2});
  m.b.AddCustomOperator("MaxPoolingWithArgmax2D", {m.t}, {values, indices}, PoolParamsBytes(1, 1));
  const int y = m.b.AddOutput(tflite::TensorType_FLOAT32, {1, 4, 4, 2}, "y");
  m.b.AddCustomOperator("MaxUnpooling2D", {values, indices}, {y}, PoolParamsBytes(1, 1));
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  Session s;
  const std::vector<uint8_t> bytes = m.b.Finish();
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.plan().size(), 3u) << "the ADD's delegate kernel and the pair on the CPU";
  EXPECT_EQ(s.DelegateNodes(), 1) << s.errors;
}

// RESIZE_BILINEAR to a width of 2^24 (refused by XNNPACK). Only created:
// the output would take 64 MiB.
TEST(XnnpackDeclinedNodes, ResizeBilinearBeyondXnnpacksSizeLimit) {
  SKIP_WITHOUT_XNNPACK();
  AddThen m({1, 1, 2, 1});
  const int size = m.b.AddConstant<int32_t>({2}, {1, 1 << 24});
  const int y = m.b.AddOutput(tflite::TensorType_FLOAT32, {1, 1, 1 << 24, 1}, "y");
  m.b.AddOperator(tflite::BuiltinOperator_RESIZE_BILINEAR, {m.t, size}, {y},
                  tflite::ResizeBilinearOptionsT());
  ExpectOnlyTheAddDelegated(m.b.Finish());
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

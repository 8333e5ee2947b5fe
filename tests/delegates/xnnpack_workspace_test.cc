// The XNNPACK workspace (the memory of the values inside a delegated graph)
// is shared by the partitions of one graph and lives as long as their
// runtimes: an application that keeps one XNNPACK delegate and creates and
// deletes interpreters with it gets the workspaces' memory back each time.
#include <gtest/gtest.h>
#include <malloc.h>

#include <memory>
#include <vector>

#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// Bytes the C heap holds for the program (small blocks and mmapped ones).
size_t HeapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// x[1,128,128,16] -> CONV_2D 3x3 -> t (1 MiB, inside the workspace) -> CONV_2D 3x3 -> y.
std::vector<uint8_t> TwoConvModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 128, 128, 16}, "x");
  const int w1 = b.AddConstant<float>({16, 3, 3, 16}, Random(16 * 9 * 16, 1));
  const int w2 = b.AddConstant<float>({16, 3, 3, 16}, Random(16 * 9 * 16, 2));
  const int t = b.AddTensor(tflite::TensorType_FLOAT32, {1, 128, 128, 16});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 128, 128, 16}, "y");
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding_SAME;
  conv.stride_w = conv.stride_h = 1;
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {x, w1, -1}, {t}, conv);
  b.AddOperator(tflite::BuiltinOperator_CONV_2D, {t, w2, -1}, {y}, conv);
  return b.Finish();
}

TEST(XnnpackWorkspace, DeletedInterpretersReturnTheirWorkspaceToALongLivedDelegate) {
  std::unique_ptr<TfLiteDelegate, XnnpackDelegateDeleter> delegate(
      TfLiteXNNPackDelegateCreate(nullptr));
  if (delegate == nullptr) GTEST_SKIP() << "XNNPACK is not available in this build";
  const std::vector<uint8_t> bytes = TwoConvModel();
  const std::vector<float> in = Random(128 * 128 * 16, 3);

  // One interpreter first, so the delegate's and XNNPACK's one-time state
  // (code caches, thread pool, weights) exists before the baseline.
  auto run_some = [&](int count) {
    std::vector<std::unique_ptr<Session>> live;
    for (int i = 0; i < count; ++i) {
      live.push_back(std::make_unique<Session>());
      Session& s = *live.back();
      s.Create(bytes, {delegate.get()});
      ASSERT_TRUE(s.ok()) << s.errors;
      ASSERT_EQ(s.DelegateNodes(), 1);
      ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
      ASSERT_TRUE(s.SetInput(0, in));
      ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
    }
  };
  run_some(1);
  const size_t baseline = HeapInUse();
  // Twelve interpreters alive together (twelve graphs, twelve workspaces of
  // at least 1 MiB each), then all deleted.
  run_some(12);
  const size_t after = HeapInUse();
  EXPECT_LT(after, baseline + (4u << 20))
      << "the delegate kept " << (after - baseline) / 1024 << " KiB after its interpreters went";
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

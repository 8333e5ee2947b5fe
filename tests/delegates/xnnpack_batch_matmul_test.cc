// XNNPACK delegate: BATCH_MATMUL with float32 A and a static INT8 B (one
// scale, or one per output column along B's N dimension) is delegated as
// upstream does it, dynamically quantized: A converted to qdint8, then a
// qd8 x qc8w batch matmul. XNNPACK quantizes every row of A with its own
// scale and zero point, the builtin hybrid kernel symmetrically, so the two
// agree within the quantization step, not bit for bit. Non-static B and
// other quantizations stay on the builtin kernel.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/delegates/xnnpack_compare_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::TensorType_FLOAT32;
using tflite::TensorType_INT8;

struct Layout {
  std::vector<int> a, b, out;
  bool adj_x = false, adj_y = false;
  std::vector<float> scales;  // one, or one per output column
  int quantized_dimension = 0;
  int64_t zero_point = 0;
  bool b_is_input = false;
};

std::vector<uint8_t> HybridModel(const Layout& l) {
  ModelBuilder mb;
  const int a = mb.AddInput(TensorType_FLOAT32, l.a, "a");
  size_t nb = 1;
  for (int d : l.b) nb *= static_cast<size_t>(d);
  const int b = l.b_is_input
                    ? mb.AddInput(TensorType_INT8, l.b, "b")
                    : mb.AddConstant<int8_t>(TensorType_INT8, l.b,
                                             RandomValues<int8_t>(nb, 3, -127, 127));
  Quantization q;
  q.scale = l.scales;
  q.zero_point.assign(l.scales.size(), l.zero_point);
  q.quantized_dimension = l.quantized_dimension;
  mb.SetQuantization(b, q);
  const int y = mb.AddOutput(TensorType_FLOAT32, l.out, "y");
  tflite::BatchMatMulOptionsT o;
  o.adj_x = l.adj_x;
  o.adj_y = l.adj_y;
  mb.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, b}, {y}, o);
  return mb.Finish();
}

std::vector<float> ColumnScales(int n) {
  std::vector<float> s(n);
  for (int j = 0; j < n; ++j) s[j] = 0.004f + 0.001f * j;
  return s;
}

Tolerance Delegated() {
  Tolerance t;
  // Each side rounds every A value by up to half a step (about 2/127 for
  // |A| <= 2); over K <= 16 terms of |B * scale| <= 2.5 the two results
  // differ by 0.066 at most here (measured), while one wrong column scale
  // moves outputs by 0.1 to 0.3.
  t.atol = 0.05;
  t.rtol = 0.02;
  t.min_distinct = 8;
  return t;
}

TEST(XnnpackBatchMatMul, PerTensorBIsDelegatedAndMatchesBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Layout l;
  l.a = {2, 5, 16};
  l.b = {16, 6};
  l.out = {2, 5, 6};
  l.scales = {0.01f};
  const double worst = RunBothAndCompare(HybridModel(l), Delegated());
  EXPECT_GT(worst, 0.0);  // XNNPACK's own (asymmetric) rounding, not the builtin kernel
}

TEST(XnnpackBatchMatMul, PerChannelBAllLayouts) {
  SKIP_WITHOUT_XNNPACK();
  for (bool adj_x : {false, true}) {
    for (bool adj_y : {false, true}) {
      SCOPED_TRACE("adj_x=" + std::to_string(adj_x) + " adj_y=" + std::to_string(adj_y));
      Layout l;
      l.adj_x = adj_x;
      l.adj_y = adj_y;
      l.a = adj_x ? std::vector<int>{3, 12, 4} : std::vector<int>{3, 4, 12};
      l.b = adj_y ? std::vector<int>{7, 12} : std::vector<int>{12, 7};
      l.out = {3, 4, 7};
      l.scales = ColumnScales(7);
      l.quantized_dimension = adj_y ? 0 : 1;
      RunBothAndCompare(HybridModel(l), Delegated());
    }
  }
}

TEST(XnnpackBatchMatMul, BatchedAndBroadcastB) {
  SKIP_WITHOUT_XNNPACK();
  {
    SCOPED_TRACE("B batch equals A batch, per-channel");
    Layout l;
    l.a = {2, 3, 10};
    l.b = {2, 10, 5};
    l.out = {2, 3, 5};
    l.scales = ColumnScales(5);
    l.quantized_dimension = 2;
    RunBothAndCompare(HybridModel(l), Delegated());
  }
  {
    SCOPED_TRACE("B broadcast over A's batch dims, per-tensor");
    Layout l;
    l.a = {2, 3, 4, 9};
    l.b = {1, 3, 9, 6};
    l.out = {2, 3, 4, 6};
    l.scales = {0.02f};
    RunBothAndCompare(HybridModel(l), Delegated());
  }
  {
    SCOPED_TRACE("rank-2 A and B");
    Layout l;
    l.a = {6, 11};
    l.b = {11, 5};
    l.out = {6, 5};
    l.scales = ColumnScales(5);
    l.quantized_dimension = 1;
    RunBothAndCompare(HybridModel(l), Delegated());
  }
  {
    SCOPED_TRACE("rank-2 A, batched B");
    Layout l;
    l.a = {4, 8};
    l.b = {3, 8, 5};
    l.out = {3, 4, 5};
    l.scales = {0.015f};
    RunBothAndCompare(HybridModel(l), Delegated());
  }
}

TEST(XnnpackBatchMatMul, UnsupportedBStaysOnBuiltin) {
  SKIP_WITHOUT_XNNPACK();
  Tolerance builtin;  // not delegated: both sides run the builtin kernel
  builtin.delegate_nodes = 0;
  builtin.atol = builtin.rtol = 0;
  {
    SCOPED_TRACE("non-static B");
    Layout l;
    l.a = {2, 3, 8};
    l.b = {8, 4};
    l.out = {2, 3, 4};
    l.scales = {0.01f};
    l.b_is_input = true;
    RunBothAndCompare(HybridModel(l), builtin);
  }
  {
    SCOPED_TRACE("per-channel along K");
    Layout l;
    l.a = {2, 3, 8};
    l.b = {8, 4};
    l.out = {2, 3, 4};
    l.scales = ColumnScales(8);
    l.quantized_dimension = 0;  // K, not N: the builtin kernel refuses it too
    Session s;
    s.Create(HybridModel(l), {});
    TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
    XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
    Session x;
    x.Create(HybridModel(l), {delegate.get()});
    ASSERT_TRUE(x.ok()) << x.errors;
    EXPECT_EQ(x.DelegateNodes(), 0);
    EXPECT_NE(TfLiteInterpreterAllocateTensors(x.interpreter.get()), kTfLiteOk);
    EXPECT_NE(x.errors.find("only along the output columns"), std::string::npos) << x.errors;
  }
  {
    SCOPED_TRACE("QS8 disabled");
    Layout l;
    l.a = {2, 3, 8};
    l.b = {8, 4};
    l.out = {2, 3, 4};
    l.scales = {0.01f};
    TfLiteXNNPackDelegateOptions opts = TfLiteXNNPackDelegateOptionsDefault();
    opts.flags &= ~TFLITE_XNNPACK_DELEGATE_FLAG_QS8;
    XnnPtr delegate(TfLiteXNNPackDelegateCreate(&opts));
    Session x;
    x.Create(HybridModel(l), {delegate.get()});
    ASSERT_TRUE(x.ok()) << x.errors;
    EXPECT_EQ(x.DelegateNodes(), 0);
  }
}

TEST(XnnpackBatchMatMul, FileWeightCacheRoundTrip) {
  SKIP_WITHOUT_XNNPACK();
  // This XNNPACK creates batch matmul operators without the weights cache
  // (B is packed in the operator's own memory), so with a cache file the
  // node still runs and outputs equal those without a cache, run after run.
  Layout l;
  l.a = {2, 5, 16};
  l.b = {2, 16, 6};
  l.out = {2, 5, 6};
  l.scales = ColumnScales(6);
  l.quantized_dimension = 2;
  const std::vector<uint8_t> model = HybridModel(l);
  const std::vector<float> x = Random(2 * 5 * 16, 21, -2, 2);
  TfLiteXNNPackDelegateOptions plain = TfLiteXNNPackDelegateOptionsDefault();
  XnnPtr d0(TfLiteXNNPackDelegateCreate(&plain));
  const FloatRun ref = RunFloatModel(model, d0.get(), x);
  ASSERT_EQ(ref.delegate_nodes, 1) << ref.errors;
  ASSERT_EQ(ref.out.size(), 60u) << ref.errors;
  char dir[] = "/tmp/xnn_bmm_cache_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/cache.bin";
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run == 0 ? "writing the cache" : "reading the cache");
    TfLiteXNNPackDelegateOptions o = TfLiteXNNPackDelegateOptionsDefault();
    o.weight_cache_file_path = path.c_str();
    XnnPtr d(TfLiteXNNPackDelegateCreate(&o));
    const FloatRun r = RunFloatModel(model, d.get(), x);
    EXPECT_EQ(r.delegate_nodes, 1) << r.errors;
    EXPECT_EQ(r.out, ref.out) << r.errors;
  }
  std::remove(path.c_str());
  rmdir(dir);
}

// Resizing A after delegation reshapes the qd8 runtime: every shape gives
// the builtin kernel's results (within the quantization step); a resize B's
// batch dims cannot broadcast against fails AllocateTensors cleanly.
TEST(XnnpackBatchMatMul, ResizedAIsReshaped) {
  SKIP_WITHOUT_XNNPACK();
  Layout l;
  l.a = {2, 2, 8};
  l.b = {2, 8, 3};
  l.out = {2, 2, 3};
  l.scales = ColumnScales(3);
  l.quantized_dimension = 2;
  const std::vector<uint8_t> model = HybridModel(l);
  BuiltinAndXnnpack both(model);
  Session& ref = both.ref;
  Session& xnn = both.xnn;
  ASSERT_TRUE(ref.ok() && xnn.ok()) << ref.errors << xnn.errors;
  ASSERT_EQ(xnn.DelegateNodes(), 1) << xnn.errors;
  const std::vector<std::vector<int>> shapes = {{2, 2, 8}, {1, 7, 8}, {2, 5, 8}, {2, 1, 8}};
  for (const std::vector<int>& shape : shapes) {
    SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]));
    for (Session* s : {&ref, &xnn}) {
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(s->interpreter.get(), 0, shape.data(), 3),
                kTfLiteOk);
      ASSERT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
    }
    const std::vector<float> x = Random(static_cast<size_t>(shape[0] * shape[1] * 8), 31, -2, 2);
    ASSERT_TRUE(ref.SetInput(0, x));
    ASSERT_TRUE(xnn.SetInput(0, x));
    ASSERT_EQ(TfLiteInterpreterInvoke(ref.interpreter.get()), kTfLiteOk) << ref.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(xnn.interpreter.get()), kTfLiteOk) << xnn.errors;
    const std::vector<float> want = ref.Output(0), got = xnn.Output(0);
    ASSERT_EQ(got.size(), static_cast<size_t>(2 * shape[1] * 3));
    ASSERT_EQ(want.size(), got.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 0.05 + 0.02 * std::fabs(want[i])) << i;
  }
  const int bad[3] = {3, 2, 8};  // batch 3 against B's 2
  ASSERT_EQ(TfLiteInterpreterResizeInputTensor(xnn.interpreter.get(), 0, bad, 3), kTfLiteOk);
  EXPECT_NE(TfLiteInterpreterAllocateTensors(xnn.interpreter.get()), kTfLiteOk);
}

TEST(XnnpackBatchMatMul, FloatBatchMatMulStillDelegated) {
  SKIP_WITHOUT_XNNPACK();
  ModelBuilder mb;
  const int a = mb.AddInput(TensorType_FLOAT32, {2, 3, 4}, "a");
  const int b = mb.AddConstant<float>({2, 4, 5}, Random(40, 4));
  const int y = mb.AddOutput(TensorType_FLOAT32, {2, 3, 5}, "y");
  mb.AddOperator(tflite::BuiltinOperator_BATCH_MATMUL, {a, b}, {y},
                 tflite::BatchMatMulOptionsT());
  Tolerance t;
  t.atol = 1e-5;
  RunBothAndCompare(mb.Finish(), t);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

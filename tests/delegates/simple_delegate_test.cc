// The SimpleDelegate framework (delegates/utils/simple_delegate.h and
// simple_opaque_delegate.h): which partitions are delegated under the
// max_delegated_partitions / min_nodes_per_partition limits, flags,
// buffer-handle callbacks and the kernel lifecycle.
#include "tensorflow/lite/delegates/utils/simple_delegate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api_opaque.h"
#include "tensorflow/lite/delegates/utils/simple_opaque_delegate.h"
#include "tests/delegates/delegate_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

using tflite::SimpleDelegateInterface;
using tflite::SimpleDelegateKernelInterface;
using tflite::TfLiteDelegateFactory;

// What the test delegate saw; owned by the test, shared by its kernels.
struct Record {
  int initialize_calls = 0;
  int support_queries = 0;
  int kernels_alive = 0;
  std::vector<std::vector<int>> partitions;  // nodes_to_replace per Init
  int prepare_calls = 0;
  int eval_calls = 0;
  TfLiteBufferHandle copied_from = kTfLiteNullBufferHandle;
  TfLiteBufferHandle copied_to = kTfLiteNullBufferHandle;
  std::vector<TfLiteBufferHandle> freed;
};

class RecordingKernel : public SimpleDelegateKernelInterface {
 public:
  explicit RecordingKernel(Record* r) : r_(r) { r_->kernels_alive++; }
  ~RecordingKernel() override { r_->kernels_alive--; }
  TfLiteStatus Init(TfLiteContext*, const TfLiteDelegateParams* params) override {
    const TfLiteIntArray* n = params->nodes_to_replace;
    r_->partitions.emplace_back(n->data, n->data + n->size);
    return kTfLiteOk;
  }
  TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*) override {
    r_->prepare_calls++;
    return kTfLiteOk;
  }
  TfLiteStatus Eval(TfLiteContext*, TfLiteNode*) override {
    r_->eval_calls++;
    return kTfLiteOk;
  }

 private:
  Record* r_;
};

// Claims every node whose builtin code is in `codes`.
class RecordingDelegate : public SimpleDelegateInterface {
 public:
  RecordingDelegate(Record* r, std::set<int> codes, Options options = Options(),
                    TfLiteStatus initialize_status = kTfLiteOk)
      : r_(r), codes_(std::move(codes)), options_(options), init_status_(initialize_status) {}

  bool IsNodeSupportedByDelegate(const TfLiteRegistration* reg, const TfLiteNode*,
                                 TfLiteContext*) const override {
    r_->support_queries++;
    return codes_.count(reg->builtin_code) > 0;
  }
  TfLiteStatus Initialize(TfLiteContext* context) override {
    r_->initialize_calls++;
    if (init_status_ != kTfLiteOk) context->ReportError(context, "RecordingDelegate: no device");
    return init_status_;
  }
  const char* Name() const override { return "RecordingDelegate"; }
  std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
    return std::make_unique<RecordingKernel>(r_);
  }
  Options DelegateOptions() const override { return options_; }
  TfLiteStatus CopyFromBufferHandle(TfLiteContext*, TfLiteBufferHandle handle,
                                    TfLiteTensor* tensor) override {
    r_->copied_from = handle;
    for (size_t i = 0; i < tensor->bytes / sizeof(float); ++i) tensor->data.f[i] = 42.0f;
    return kTfLiteOk;
  }
  TfLiteStatus CopyToBufferHandle(TfLiteContext*, TfLiteBufferHandle handle,
                                  const TfLiteTensor*) override {
    r_->copied_to = handle;
    return kTfLiteOk;
  }
  void FreeBufferHandle(TfLiteContext*, TfLiteBufferHandle* handle) override {
    r_->freed.push_back(*handle);
    *handle = kTfLiteNullBufferHandle;
  }

 private:
  Record* r_;
  std::set<int> codes_;
  Options options_;
  TfLiteStatus init_status_;
};

SimpleDelegateInterface::Options Limits(int max_partitions, int min_nodes) {
  SimpleDelegateInterface::Options o;
  o.max_delegated_partitions = max_partitions;
  o.min_nodes_per_partition = min_nodes;
  return o;
}

// x -ADD-> -ADD-> -ADD-> -MUL-> -SUB-> -MUL-> -ADD-> -ADD-> y, each with
// the constant c as second input. With ADD/SUB supported the partitions
// are {0,1,2} (3 nodes), {4} (1 node) and {6,7} (2 nodes).
std::vector<uint8_t> InterleavedModel() {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int c = b.AddConstant<float>({1, 4}, {1, 2, 3, 4}, "c");
  const tflite::BuiltinOperator ops[] = {
      tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_ADD,
      tflite::BuiltinOperator_MUL, tflite::BuiltinOperator_SUB, tflite::BuiltinOperator_MUL,
      tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_ADD};
  int prev = x;
  for (size_t i = 0; i < 8; ++i) {
    const int out = i == 7 ? b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y")
                           : b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
    if (ops[i] == tflite::BuiltinOperator_MUL) {
      b.AddOperator(ops[i], {prev, c}, {out}, tflite::MulOptionsT());
    } else if (ops[i] == tflite::BuiltinOperator_SUB) {
      b.AddOperator(ops[i], {prev, c}, {out}, tflite::SubOptionsT());
    } else {
      b.AddOperator(ops[i], {prev, c}, {out}, tflite::AddOptionsT());
    }
    prev = out;
  }
  return b.Finish();
}

struct LimitCase {
  const char* name;
  int max_partitions;
  int min_nodes;
  std::vector<std::vector<int>> expected;  // partitions, in Init order
};

class PartitionLimitTest : public ::testing::TestWithParam<LimitCase> {};

TEST_P(PartitionLimitTest, DelegatesLargestPartitionsWithinLimits) {
  const LimitCase& c = GetParam();
  const std::vector<uint8_t> bytes = InterleavedModel();
  Record record;
  TfLiteDelegate* delegate = TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<RecordingDelegate>(
          &record, std::set<int>{kTfLiteBuiltinAdd, kTfLiteBuiltinSub},
          Limits(c.max_partitions, c.min_nodes)));
  ASSERT_NE(delegate, nullptr);
  {
    Session s;
    s.Create(bytes, {delegate});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(record.initialize_calls, 1);
    EXPECT_EQ(record.support_queries, 8);  // each plan node asked once
    // Kernels are created in execution order of the delegated partitions.
    std::vector<std::vector<int>> got = record.partitions;
    EXPECT_EQ(got, c.expected);
    int delegated_nodes = 0;
    for (const auto& p : c.expected) delegated_nodes += static_cast<int>(p.size());
    EXPECT_EQ(s.DelegateNodes(), static_cast<int>(c.expected.size()));
    EXPECT_EQ(s.plan().size(), 8 - delegated_nodes + c.expected.size());
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
    EXPECT_EQ(record.eval_calls, static_cast<int>(c.expected.size()));
    EXPECT_EQ(record.kernels_alive, static_cast<int>(c.expected.size()));
  }
  EXPECT_EQ(record.kernels_alive, 0);  // freed with the interpreter
  TfLiteDelegateFactory::DeleteSimpleDelegate(delegate);
}

INSTANTIATE_TEST_SUITE_P(
    Limits, PartitionLimitTest,
    ::testing::Values(
        LimitCase{"unlimited", 0, 0, {{0, 1, 2}, {4}, {6, 7}}},
        LimitCase{"negative_means_unlimited", -1, -5, {{0, 1, 2}, {4}, {6, 7}}},
        LimitCase{"largest_one", 1, 0, {{0, 1, 2}}},
        LimitCase{"largest_two", 2, 0, {{0, 1, 2}, {6, 7}}},
        LimitCase{"more_than_exist", 10, 0, {{0, 1, 2}, {4}, {6, 7}}},
        LimitCase{"min_two_nodes", 0, 2, {{0, 1, 2}, {6, 7}}},
        LimitCase{"min_three_nodes", 0, 3, {{0, 1, 2}}},
        LimitCase{"min_above_largest", 0, 4, {}},
        LimitCase{"both", 1, 2, {{0, 1, 2}}}),
    [](const ::testing::TestParamInfo<LimitCase>& info) { return info.param.name; });

// Two partitions of equal size: the limit keeps the one that runs first.
TEST(SimpleDelegateTest, TiesKeepExecutionOrder) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  const int c = b.AddConstant<float>({2}, {1, 2});
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {2});
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {2});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t0}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_MUL, {t0, c}, {t1}, tflite::MulOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {t1, c}, {y}, tflite::AddOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();
  Record record;
  tflite::TfLiteDelegateUniquePtr delegate = TfLiteDelegateFactory::Create(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{kTfLiteBuiltinAdd},
                                          Limits(1, 0)));
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(record.partitions, (std::vector<std::vector<int>>{{0}}));
}

TEST(SimpleDelegateTest, NoSupportedNodesLeavesGraphAlone) {
  const std::vector<uint8_t> bytes = InterleavedModel();
  Record record;
  tflite::TfLiteDelegateUniquePtr delegate = TfLiteDelegateFactory::Create(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{kTfLiteBuiltinConv2d}));
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_TRUE(record.partitions.empty());
  EXPECT_EQ(s.plan().size(), 8u);
  EXPECT_EQ(s.DelegateNodes(), 0);
}

TEST(SimpleDelegateTest, FactoryHandlesNullAndSetsFlags) {
  EXPECT_EQ(TfLiteDelegateFactory::CreateSimpleDelegate(nullptr), nullptr);
  TfLiteDelegateFactory::DeleteSimpleDelegate(nullptr);  // no-op

  Record record;
  TfLiteDelegate* d = TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{}),
      kTfLiteDelegateFlagsAllowDynamicTensors | kTfLiteDelegateFlagsRequirePropagatedShapes);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->flags,
            kTfLiteDelegateFlagsAllowDynamicTensors | kTfLiteDelegateFlagsRequirePropagatedShapes);
  EXPECT_NE(d->Prepare, nullptr);
  EXPECT_EQ(d->opaque_delegate_builder, nullptr);
  TfLiteDelegateFactory::DeleteSimpleDelegate(d);

  tflite::TfLiteDelegateUniquePtr unique = TfLiteDelegateFactory::Create(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{}));
  EXPECT_EQ(unique->flags, kTfLiteDelegateFlagsNone);
}

// A delegate that supports dynamic tensors is applied without the runtime
// first allocating the graph; a static one only sees allocated shapes.
TEST(SimpleDelegateTest, FlagsReachTheRuntime) {
  const std::vector<uint8_t> bytes = InterleavedModel();
  for (int64_t flags : {int64_t{kTfLiteDelegateFlagsNone},
                        int64_t{kTfLiteDelegateFlagsAllowDynamicTensors}}) {
    Record record;
    TfLiteDelegate* d = TfLiteDelegateFactory::CreateSimpleDelegate(
        std::make_unique<RecordingDelegate>(&record, std::set<int>{kTfLiteBuiltinAdd}), flags);
    Session s;
    s.Create(bytes, {d});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(record.partitions.size(), 2u);
    // Static delegates are prepared during delegation; dynamic ones at
    // AllocateTensors.
    EXPECT_EQ(record.prepare_calls, flags == kTfLiteDelegateFlagsNone ? 2 : 0);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
    EXPECT_GE(record.prepare_calls, 2);
    s.interpreter.reset();
    TfLiteDelegateFactory::DeleteSimpleDelegate(d);
  }
}

TEST(SimpleDelegateTest, InitializeFailureFailsCreationWithItsMessage) {
  const std::vector<uint8_t> bytes = InterleavedModel();
  Record record;
  tflite::TfLiteDelegateUniquePtr delegate = TfLiteDelegateFactory::Create(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{kTfLiteBuiltinAdd}, Limits(0, 0),
                                          kTfLiteError));
  Session s;
  s.Create(bytes, {delegate.get()});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.errors.find("RecordingDelegate: no device"), std::string::npos) << s.errors;
  EXPECT_EQ(record.support_queries, 0);

  // With fallback the interpreter runs on CPU kernels only.
  Session fallback;
  fallback.Create(bytes, {delegate.get()}, /*fallback=*/true);
  ASSERT_TRUE(fallback.ok()) << fallback.errors;
  EXPECT_EQ(fallback.DelegateNodes(), 0);
  EXPECT_EQ(fallback.plan().size(), 8u);
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(fallback.interpreter.get()), kTfLiteOk);
  ASSERT_TRUE(fallback.SetInput(0, {0, 0, 0, 0}));
  ASSERT_EQ(TfLiteInterpreterInvoke(fallback.interpreter.get()), kTfLiteOk);
  // ((((x+c)+c)+c)*c - c)*c + c + c with x = 0.
  std::vector<float> expected;
  for (float c : {1.f, 2.f, 3.f, 4.f}) expected.push_back(((3 * c) * c - c) * c + 2 * c);
  EXPECT_EQ(fallback.Output(0), expected);
}

TEST(SimpleDelegateTest, BufferHandleCallbacksForwardToTheInterface) {
  Record record;
  TfLiteDelegate* d = TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{}));
  float data[2] = {0, 0};
  TfLiteTensor tensor{};
  tensor.type = kTfLiteFloat32;
  tensor.data.f = data;
  tensor.bytes = sizeof(data);
  EXPECT_EQ(d->CopyFromBufferHandle(nullptr, d, 7, &tensor), kTfLiteOk);
  EXPECT_EQ(record.copied_from, 7);
  EXPECT_EQ(data[1], 42.0f);
  EXPECT_EQ(d->CopyToBufferHandle(nullptr, d, 8, &tensor), kTfLiteOk);
  EXPECT_EQ(record.copied_to, 8);
  TfLiteBufferHandle h = 9;
  d->FreeBufferHandle(nullptr, d, &h);
  EXPECT_EQ(record.freed, std::vector<TfLiteBufferHandle>{9});
  EXPECT_EQ(h, kTfLiteNullBufferHandle);
  TfLiteDelegateFactory::DeleteSimpleDelegate(d);
}

// Through the runtime: a stale tensor is copied back with the delegate's
// CopyFromBufferHandle and its handle freed with the interpreter.
TEST(SimpleDelegateTest, BufferHandlesThroughTheInterpreter) {
  const std::vector<uint8_t> bytes = InterleavedModel();
  Record record;
  TfLiteDelegate* d = TfLiteDelegateFactory::CreateSimpleDelegate(
      std::make_unique<RecordingDelegate>(&record, std::set<int>{kTfLiteBuiltinAdd}));
  {
    Session s;
    s.Create(bytes, {d});
    ASSERT_TRUE(s.ok()) << s.errors;
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
    TfLiteTensor* out = const_cast<TfLiteTensor*>(
        TfLiteInterpreterGetOutputTensor(s.interpreter.get(), 0));
    ASSERT_EQ(TfLiteInterpreterSetBufferHandle(s.interpreter.get(), out, 5,
                                               reinterpret_cast<TfLiteOpaqueDelegate*>(d)),
              kTfLiteOk)
        << s.errors;
    out->data_is_stale = true;
    const int out_index = TfLiteInterpreterOutputTensorIndices(s.interpreter.get())[0];
    ASSERT_EQ(TfLiteInterpreterEnsureTensorDataIsReadable(s.interpreter.get(), out_index),
              kTfLiteOk)
        << s.errors;
    EXPECT_EQ(record.copied_from, 5);
    EXPECT_EQ(s.Output(0), (std::vector<float>{42, 42, 42, 42}));
  }
  EXPECT_EQ(record.freed, std::vector<TfLiteBufferHandle>{5});
  TfLiteDelegateFactory::DeleteSimpleDelegate(d);
}

TEST(SimpleDelegateTest, KernelInitFailureFailsPrepare) {
  class FailingKernel : public SimpleDelegateKernelInterface {
   public:
    TfLiteStatus Init(TfLiteContext*, const TfLiteDelegateParams*) override { return kTfLiteError; }
    TfLiteStatus Prepare(TfLiteContext*, TfLiteNode*) override { return kTfLiteOk; }
    TfLiteStatus Eval(TfLiteContext*, TfLiteNode*) override { return kTfLiteOk; }
  };
  class FailingDelegate : public RecordingDelegate {
   public:
    using RecordingDelegate::RecordingDelegate;
    std::unique_ptr<SimpleDelegateKernelInterface> CreateDelegateKernelInterface() override {
      return std::make_unique<FailingKernel>();
    }
  };
  const std::vector<uint8_t> bytes = InterleavedModel();
  Record record;
  tflite::TfLiteDelegateUniquePtr delegate = TfLiteDelegateFactory::Create(
      std::make_unique<FailingDelegate>(&record, std::set<int>{kTfLiteBuiltinAdd}));
  Session s;
  s.Create(bytes, {delegate.get()});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.errors.find("not initialized"), std::string::npos) << s.errors;
}

// ---- opaque twin ------------------------------------------------------------------

struct OpaqueRecord {
  std::vector<std::vector<int>> partitions;
  int prepare_calls = 0;
  int eval_calls = 0;
  int kernels_alive = 0;
};

class OpaqueKernel : public tflite::SimpleOpaqueDelegateKernelInterface {
 public:
  explicit OpaqueKernel(OpaqueRecord* r) : r_(r) { r_->kernels_alive++; }
  ~OpaqueKernel() override { r_->kernels_alive--; }
  TfLiteStatus Init(TfLiteOpaqueContext*, const TfLiteOpaqueDelegateParams* params) override {
    const TfLiteIntArray* n = params->nodes_to_replace;
    r_->partitions.emplace_back(n->data, n->data + n->size);
    return kTfLiteOk;
  }
  TfLiteStatus Prepare(TfLiteOpaqueContext*, TfLiteOpaqueNode*) override {
    r_->prepare_calls++;
    return kTfLiteOk;
  }
  TfLiteStatus Eval(TfLiteOpaqueContext*, TfLiteOpaqueNode*) override {
    r_->eval_calls++;
    return kTfLiteOk;
  }

 private:
  OpaqueRecord* r_;
};

class OpaqueDelegate : public tflite::SimpleOpaqueDelegateInterface {
 public:
  explicit OpaqueDelegate(OpaqueRecord* r) : r_(r) {}
  bool IsNodeSupportedByDelegate(const TfLiteOperator* op, const TfLiteOpaqueNode*,
                                 TfLiteOpaqueContext*) const override {
    return TfLiteOperatorGetBuiltInCode(op) == kTfLiteBuiltinAdd;
  }
  TfLiteStatus Initialize(TfLiteOpaqueContext*) override { return kTfLiteOk; }
  const char* Name() const override { return "OpaqueTestDelegate"; }
  std::unique_ptr<tflite::SimpleOpaqueDelegateKernelInterface> CreateDelegateKernelInterface()
      override {
    return std::make_unique<OpaqueKernel>(r_);
  }

 private:
  OpaqueRecord* r_;
};

TEST(SimpleOpaqueDelegateTest, DelegatesEverySupportedPartition) {
  EXPECT_EQ(tflite::TfLiteOpaqueDelegateFactory::CreateSimpleDelegate(nullptr), nullptr);
  tflite::TfLiteOpaqueDelegateFactory::DeleteSimpleDelegate(nullptr);

  const std::vector<uint8_t> bytes = InterleavedModel();
  OpaqueRecord record;
  TfLiteOpaqueDelegate* d = tflite::TfLiteOpaqueDelegateFactory::CreateSimpleDelegate(
      std::make_unique<OpaqueDelegate>(&record));
  ASSERT_NE(d, nullptr);
  {
    Session s;
    s.Create(bytes, {reinterpret_cast<TfLiteDelegate*>(d)});
    ASSERT_TRUE(s.ok()) << s.errors;
    EXPECT_EQ(record.partitions, (std::vector<std::vector<int>>{{0, 1, 2}, {6, 7}}));
    EXPECT_EQ(s.DelegateNodes(), 2);
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk) << s.errors;
    ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
    EXPECT_EQ(record.eval_calls, 2);
    EXPECT_EQ(record.kernels_alive, 2);
  }
  EXPECT_EQ(record.kernels_alive, 0);
  tflite::TfLiteOpaqueDelegateFactory::DeleteSimpleDelegate(d);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

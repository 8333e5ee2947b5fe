// The example delegate (examples/dummy_delegate): built graphs (chains whose
// intermediate tensors have no runtime memory, diamonds, constants,
// broadcasting, rejected nodes, resizes) and the real models of
// shared/models that contain ADD or SUB must give the same outputs as the
// CPU kernels, bit for bit.
#include "examples/dummy_delegate/dummy_delegate.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/delegates/delegate_test_util.h"
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace testing {
namespace {

using Floats = std::vector<float>;

DummyDelegateOptions Defaults() { return TfLiteDummyDelegateOptionsDefault(); }

// Same values, treating NaN as equal to NaN (bitwise equality otherwise).
::testing::AssertionResult SameFloats(const Floats& a, const Floats& b) {
  if (a.size() != b.size()) {
    return ::testing::AssertionFailure() << "sizes " << a.size() << " vs " << b.size();
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (a[i] != b[i]) {
      return ::testing::AssertionFailure() << "element " << i << ": " << a[i] << " vs " << b[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// Runs `bytes` on CPU kernels and with the dummy delegate, on the same
// inputs, and compares every output. Returns the delegated session's
// number of delegate nodes through `delegate_nodes`.
void ExpectSameAsCpu(const std::vector<uint8_t>& bytes, const std::vector<Floats>& inputs,
                     const DummyDelegateOptions& options, int* delegate_nodes = nullptr,
                     const std::vector<std::vector<int>>& resize = {}) {
  auto delegate = TfLiteDummyDelegateCreateUnique(&options);
  Session cpu, del;
  cpu.Create(bytes, {});
  del.Create(bytes, {delegate.get()});
  ASSERT_TRUE(cpu.ok()) << cpu.errors;
  ASSERT_TRUE(del.ok()) << del.errors;
  for (Session* s : {&cpu, &del}) {
    for (size_t i = 0; i < resize.size(); ++i) {
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(s->interpreter.get(), static_cast<int>(i),
                                                   resize[i].data(),
                                                   static_cast<int>(resize[i].size())),
                kTfLiteOk);
    }
    ASSERT_EQ(TfLiteInterpreterAllocateTensors(s->interpreter.get()), kTfLiteOk) << s->errors;
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_TRUE(s->SetInput(static_cast<int>(i), inputs[i]));
    }
    ASSERT_EQ(TfLiteInterpreterInvoke(s->interpreter.get()), kTfLiteOk) << s->errors;
  }
  const int n = TfLiteInterpreterGetOutputTensorCount(cpu.interpreter.get());
  ASSERT_GT(n, 0);
  for (int i = 0; i < n; ++i) {
    const Floats expected = cpu.Output(i);
    EXPECT_FALSE(expected.empty());
    EXPECT_TRUE(SameFloats(del.Output(i), expected)) << "output " << i;
  }
  if (delegate_nodes != nullptr) *delegate_nodes = del.DelegateNodes();
}

Floats Iota(size_t n, float start = 0.5f, float step = 1.25f) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

// ---- built graphs --------------------------------------------------------------------

// y = ((x + c) - x) + (x + c): the two middle tensors live only inside the
// partition, so the runtime gives them no memory.
TEST(DummyDelegateTest, ChainKeepsIntermediatesInItsOwnBuffers) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2, 3}, "x");
  const int c = b.AddConstant<float>({2, 3}, {1, -2, 3, -4, 5, -6}, "c");
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "t0");
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "t1");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {2, 3}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t0}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {t0, x}, {t1}, tflite::SubOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {t1, t0}, {y}, tflite::AddOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();

  int delegated = 0;
  ExpectSameAsCpu(bytes, {Iota(6)}, Defaults(), &delegated);
  EXPECT_EQ(delegated, 1);

  // The guide's snippet would write through these pointers.
  DummyDelegateOptions o = Defaults();
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  EXPECT_EQ(s.plan().size(), 1u);
  EXPECT_EQ(TfLiteInterpreterGetTensor(s.interpreter.get(), t0)->data.raw, nullptr);
  EXPECT_EQ(TfLiteInterpreterGetTensor(s.interpreter.get(), t1)->data.raw, nullptr);
}

// a = x + x; b = a - x; d = a + a; y = b + d; `a` is also a graph output.
TEST(DummyDelegateTest, DiamondWithSharedTensorAsOutput) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int a = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "a");
  const int bb = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "b");
  const int d = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "d");
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {a}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {a, x}, {bb}, tflite::SubOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {a, a}, {d}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {bb, d}, {y}, tflite::AddOptionsT());
  int delegated = 0;
  ExpectSameAsCpu(b.Finish(), {{1.5f, -2.25f, 1e30f, 3e38f}}, Defaults(), &delegated);
  EXPECT_EQ(delegated, 1);
}

struct BroadcastCase {
  const char* name;
  std::vector<int> a, b, out;
};

class DummyBroadcastTest : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(DummyBroadcastTest, MatchesCpu) {
  const BroadcastCase& c = GetParam();
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, c.a, "x");
  const int y = b.AddInput(tflite::TensorType_FLOAT32, c.b, "y");
  const int s = b.AddTensor(tflite::TensorType_FLOAT32, c.out, "s");
  const int out = b.AddOutput(tflite::TensorType_FLOAT32, c.out, "out");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, y}, {s}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {s, y}, {out}, tflite::SubOptionsT());
  size_t na = 1, nb = 1;
  for (int d : c.a) na *= d;
  for (int d : c.b) nb *= d;
  int delegated = 0;
  ExpectSameAsCpu(b.Finish(), {Iota(na), Iota(nb, -3.0f, 0.75f)}, Defaults(), &delegated);
  EXPECT_EQ(delegated, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, DummyBroadcastTest,
    ::testing::Values(BroadcastCase{"same", {2, 3}, {2, 3}, {2, 3}},
                      BroadcastCase{"both_sides", {2, 1, 3}, {1, 4, 1}, {2, 4, 3}},
                      BroadcastCase{"lower_rank", {2, 3}, {3}, {2, 3}},
                      BroadcastCase{"scalar", {2, 2}, {}, {2, 2}},
                      BroadcastCase{"rank6", {2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2},
                                    {2, 2, 2, 2, 2, 2}}),
    [](const ::testing::TestParamInfo<BroadcastCase>& info) { return info.param.name; });

// Fused activations, other types and more than rank 6 stay on the CPU; a
// MUL between supported nodes splits the partition.
TEST(DummyDelegateTest, RejectsWhatItCannotComputeExactly) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {4}, "x");
  const int c = b.AddConstant<float>({4}, {-1, 2, -3, 4}, "c");
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {4});
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {4});
  const int t2 = b.AddTensor(tflite::TensorType_FLOAT32, {4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {4}, "y");
  tflite::AddOptionsT relu;
  relu.fused_activation_function = tflite::ActivationFunctionType_RELU;
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, c}, {t0}, tflite::AddOptionsT());  // 0: yes
  b.AddOperator(tflite::BuiltinOperator_ADD, {t0, c}, {t1}, relu);                 // 1: RELU
  b.AddOperator(tflite::BuiltinOperator_MUL, {t1, c}, {t2}, tflite::MulOptionsT());  // 2: MUL
  b.AddOperator(tflite::BuiltinOperator_SUB, {t2, c}, {y}, tflite::SubOptionsT());  // 3: yes
  const int xi = b.AddInput(tflite::TensorType_INT32, {2}, "xi");
  const int yi = b.AddOutput(tflite::TensorType_INT32, {2}, "yi");
  b.AddOperator(tflite::BuiltinOperator_ADD, {xi, xi}, {yi}, tflite::AddOptionsT());  // 4: int
  const std::vector<uint8_t> bytes = b.Finish();

  DummyDelegateOptions o = Defaults();
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), 2);  // {0} and {3}
  EXPECT_EQ(s.plan().size(), 5u);   // 2 delegate nodes + RELU-ADD, MUL, int ADD
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(s.interpreter.get()), kTfLiteOk);
  ASSERT_TRUE(s.SetInput(0, {1, 2, 3, 4}));
  const int32_t ints[2] = {20, -7};
  ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(s.interpreter.get(), 1),
                                       ints, sizeof(ints)),
            kTfLiteOk);
  ASSERT_EQ(TfLiteInterpreterInvoke(s.interpreter.get()), kTfLiteOk) << s.errors;
  // t0 = x+c = {0,4,0,8}; t1 = relu(t0+c) = {0,6,0,12}; t2 = t1*c; y = t2-c.
  EXPECT_EQ(s.Output(0), (Floats{1, 10, 3, 44}));
  const TfLiteTensor* yi_t = TfLiteInterpreterGetOutputTensor(s.interpreter.get(), 1);
  EXPECT_EQ(yi_t->data.i32[0], 40);
  EXPECT_EQ(yi_t->data.i32[1], -14);
}

TEST(DummyDelegateTest, AllowedBuiltinCodeRestrictsTheClaim) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {3}, "x");
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {3});
  const int t1 = b.AddTensor(tflite::TensorType_FLOAT32, {3});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {3}, "y");
  b.AddOperator(tflite::BuiltinOperator_ADD, {x, x}, {t0}, tflite::AddOptionsT());
  b.AddOperator(tflite::BuiltinOperator_SUB, {t0, x}, {t1}, tflite::SubOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {t1, t0}, {y}, tflite::AddOptionsT());
  const std::vector<uint8_t> bytes = b.Finish();
  DummyDelegateOptions sub_only = Defaults();
  sub_only.allowed_builtin_code = kTfLiteBuiltinSub;
  int delegated = 0;
  ExpectSameAsCpu(bytes, {{1, -2, 3.5f}}, sub_only, &delegated);
  EXPECT_EQ(delegated, 1);

  DummyDelegateOptions o = sub_only;
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes, {delegate.get()});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.plan().size(), 3u);  // ADD, delegate(SUB), ADD
}

TEST(DummyDelegateTest, FollowsInputResizes) {
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {1, 4}, "x");
  const int c = b.AddConstant<float>({4}, {1, 2, 3, 4}, "c");
  const int t0 = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4});
  const int y = b.AddOutput(tflite::TensorType_FLOAT32, {1, 4}, "y");
  b.AddOperator(tflite::BuiltinOperator_SUB, {x, c}, {t0}, tflite::SubOptionsT());
  b.AddOperator(tflite::BuiltinOperator_ADD, {t0, t0}, {y}, tflite::AddOptionsT());
  int delegated = 0;
  ExpectSameAsCpu(b.Finish(), {Iota(12)}, Defaults(), &delegated, {{3, 4}});
  EXPECT_EQ(delegated, 1);
}

TEST(DummyDelegateTest, PartitionLimitsFromOptions) {
  // ADD, MUL, ADD, ADD: partitions {0} and {2,3}.
  ModelBuilder b;
  const int x = b.AddInput(tflite::TensorType_FLOAT32, {2}, "x");
  int prev = x;
  const tflite::BuiltinOperator ops[] = {tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_MUL,
                                         tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_ADD};
  for (int i = 0; i < 4; ++i) {
    const int out = i == 3 ? b.AddOutput(tflite::TensorType_FLOAT32, {2}, "y")
                           : b.AddTensor(tflite::TensorType_FLOAT32, {2});
    if (ops[i] == tflite::BuiltinOperator_MUL) {
      b.AddOperator(ops[i], {prev, prev}, {out}, tflite::MulOptionsT());
    } else {
      b.AddOperator(ops[i], {prev, x}, {out}, tflite::AddOptionsT());
    }
    prev = out;
  }
  const std::vector<uint8_t> bytes = b.Finish();
  DummyDelegateOptions o = Defaults();
  o.min_nodes_per_partition = 2;
  int delegated = 0;
  ExpectSameAsCpu(bytes, {{0.5f, -1.5f}}, o, &delegated);
  EXPECT_EQ(delegated, 1);
  o = Defaults();
  o.max_delegated_partitions = 2;
  ExpectSameAsCpu(bytes, {{0.5f, -1.5f}}, o, &delegated);
  EXPECT_EQ(delegated, 2);
}

// ---- real models ------------------------------------------------------------------------

using nlohmann::json;

const std::string& ModelsDir() {
  static const std::string dir = std::string(TFLITE_C_SHARED_DIR) + "/models/";
  return dir;
}

std::vector<json> AddSubModels() {
  std::vector<json> out;
  std::ifstream in(ModelsDir() + "manifest.json");
  if (!in) return out;
  const json m = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (m.is_discarded() || !m.contains("models")) return out;
  for (const json& e : m["models"]) {
    if (!e.value("golden", false)) continue;
    bool has = false;
    for (const json& op : e.value("builtin_ops", json::array())) {
      has = has || op == "ADD" || op == "SUB";
    }
    if (has) out.push_back(e);
  }
  return out;
}

std::vector<char> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Parameter: a model name ("" when the manifest is absent), looked up here
// so that test names stay short.
class DummyDelegateModelTest : public ::testing::TestWithParam<std::string> {};

const json& ModelEntry(const std::string& name) {
  static const std::vector<json>* models = new std::vector<json>(AddSubModels());
  static const json absent;
  for (const json& e : *models) {
    if (e["name"] == name) return e;
  }
  return absent;
}

// The delegated node lists, from the delegate kernels' parameters, e.g.
// "{0,1,2} {5}".
std::string DelegatedNodes(Session& s) {
  std::ostringstream out;
  for (int i : s.plan()) {
    const auto* nr = s.primary().node_and_registration(i);
    if (nr->second.builtin_code != kTfLiteBuiltinDelegate) continue;
    const auto* params = static_cast<const TfLiteDelegateParams*>(nr->first.builtin_data);
    if (out.tellp() > 0) out << " ";
    out << "{";
    for (int k = 0; k < params->nodes_to_replace->size; ++k) {
      out << (k ? "," : "") << params->nodes_to_replace->data[k];
    }
    out << "}";
  }
  return out.str();
}

TEST_P(DummyDelegateModelTest, SameOutputsAsCpu) {
  const json& e = ModelEntry(GetParam());
  if (e.is_null()) {
    GTEST_SKIP() << "no models: " << ModelsDir() << "manifest.json is absent "
                 << "(set -DTFLITE_C_SHARED_DIR=... to the folder holding models/)";
  }
  const std::vector<char> bytes = ReadFile(ModelsDir() + e["file"].get<std::string>());
  ASSERT_FALSE(bytes.empty()) << e["file"];
  std::vector<std::vector<char>> inputs;
  for (const json& in : e["inputs"]) {
    inputs.push_back(ReadFile(ModelsDir() + in["file"].get<std::string>()));
  }

  DummyDelegateOptions o = Defaults();
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session cpu, del;
  cpu.Create(bytes.data(), bytes.size(), {});
  if (!cpu.ok() || TfLiteInterpreterAllocateTensors(cpu.interpreter.get()) != kTfLiteOk) {
    GTEST_SKIP() << "the CPU kernels cannot run this model: " << cpu.errors;
  }
  del.Create(bytes.data(), bytes.size(), {delegate.get()});
  if (!del.ok() && del.errors.find("dynamic-sized tensors") != std::string::npos) {
    // As upstream: a delegate without kTfLiteDelegateFlagsAllowDynamicTensors
    // is refused on graphs whose tensors are only sized at Invoke.
    GTEST_SKIP() << "static-shape delegate refused on a dynamic graph: " << del.errors;
  }
  ASSERT_TRUE(del.ok()) << del.errors;
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(del.interpreter.get()), kTfLiteOk) << del.errors;
  for (Session* s : {&cpu, &del}) {
    ASSERT_EQ(static_cast<size_t>(TfLiteInterpreterGetInputTensorCount(s->interpreter.get())),
              inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(s->interpreter.get(), static_cast<int>(i));
      if (t->bytes != inputs[i].size()) GTEST_SKIP() << "golden input " << i << " size differs";
      ASSERT_EQ(TfLiteTensorCopyFromBuffer(t, inputs[i].data(), inputs[i].size()), kTfLiteOk);
    }
  }
  if (TfLiteInterpreterInvoke(cpu.interpreter.get()) != kTfLiteOk) {
    GTEST_SKIP() << "the CPU kernels cannot run this model: " << cpu.errors;
  }
  ASSERT_EQ(TfLiteInterpreterInvoke(del.interpreter.get()), kTfLiteOk) << del.errors;

  const std::string taken = DelegatedNodes(del);
  std::cout << "[ dummy    ] " << e["name"].get<std::string>() << ": "
            << (taken.empty() ? "no nodes delegated" : "delegated " + taken) << " ("
            << del.plan().size() << " nodes in the plan, " << cpu.plan().size()
            << " without the delegate)\n";
  RecordProperty("delegated_nodes", taken);

  const int n = TfLiteInterpreterGetOutputTensorCount(cpu.interpreter.get());
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* a = TfLiteInterpreterGetOutputTensor(cpu.interpreter.get(), i);
    const TfLiteTensor* b = TfLiteInterpreterGetOutputTensor(del.interpreter.get(), i);
    ASSERT_EQ(a->type, b->type);
    ASSERT_EQ(a->bytes, b->bytes) << "output " << i;
    if (a->type == kTfLiteFloat32) {
      EXPECT_TRUE(SameFloats(Floats(b->data.f, b->data.f + b->bytes / 4),
                             Floats(a->data.f, a->data.f + a->bytes / 4)))
          << "output " << i;
    } else {
      EXPECT_EQ(std::memcmp(a->data.raw, b->data.raw, a->bytes), 0) << "output " << i;
    }
  }
}

std::vector<std::string> ModelCases() {
  std::vector<std::string> cases;
  for (const json& e : AddSubModels()) cases.push_back(e["name"].get<std::string>());
  if (cases.empty()) cases.push_back("");  // reports a skip
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Models, DummyDelegateModelTest, ::testing::ValuesIn(ModelCases()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           if (info.param.empty()) return std::string("models_absent");
                           std::string name = info.param;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// At least the single-ADD models must actually be delegated.
TEST(DummyDelegateModels, SimpleAddModelIsFullyDelegated) {
  const std::vector<char> bytes = ReadFile(ModelsDir() + "files/tflite_add.tflite");
  if (bytes.empty()) GTEST_SKIP() << ModelsDir() << "files/tflite_add.tflite is absent";
  DummyDelegateOptions o = Defaults();
  auto delegate = TfLiteDummyDelegateCreateUnique(&o);
  Session s;
  s.Create(bytes.data(), bytes.size(), {delegate.get()});
  ASSERT_TRUE(s.ok()) << s.errors;
  EXPECT_EQ(s.DelegateNodes(), static_cast<int>(s.plan().size()));
  EXPECT_GE(s.DelegateNodes(), 1);
}

}  // namespace
}  // namespace testing
}  // namespace tflite_c

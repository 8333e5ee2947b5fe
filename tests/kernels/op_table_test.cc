// The op table (tests/kernels/op_table/harness.h): every case of every op
// family, each run for every element type it lists, plus the checks that span
// the table: error paths every op must take, that every registered builtin
// has a case, and that the output sentinels really catch a stray write.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/op_resolver.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tests/kernels/op_table/harness.h"
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace op_table {
namespace {

using testing::OneOpModel;

struct Param {
  const OpCase* c;
  TensorType type;
  bool default_delegates;
};

std::string ParamName(const Param& p) {
  return p.c->name + "_" + TypeName(p.type) + (p.default_delegates ? "_default_delegates" : "");
}

void PrintTo(const Param& p, std::ostream* os) { *os << ParamName(p); }

// Cases the table-wide error checks below apply to: random data of the case's
// own type, expected to run.
bool Generic(const OpCase& c) {
  if (c.inputs.empty() || c.outcome != Outcome::kOk || c.raw_integers) return false;
  for (const InputSpec& s : c.inputs) {
    if (s.fixed || (s.kind != Kind::kInt32Const && s.type != kSameType)) return false;
  }
  return std::find(c.types.begin(), c.types.end(), tflite::TensorType_FLOAT32) != c.types.end();
}

std::vector<Param> AllParams() {
  std::vector<Param> params;
  for (const OpCase& c : AllCases()) {
    for (const auto* list : {&c.types, &c.unsupported}) {
      for (TensorType t : *list) {
        params.push_back({&c, t, false});
        if (c.also_default_delegates) params.push_back({&c, t, true});
      }
    }
  }
  return params;
}

class OpTable : public ::testing::TestWithParam<Param> {};

TEST_P(OpTable, MatchesFloatReference) {
  RunCase(*GetParam().c, GetParam().type, GetParam().default_delegates);
}

INSTANTIATE_TEST_SUITE_P(Ops, OpTable, ::testing::ValuesIn(AllParams()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return ParamName(info.param);
                         });

// ---- errors: every case's op must refuse malformed variants in Prepare -----------------------

// Element types no kernel of these ops accepts.
TEST(OpTableErrors, UnsupportedElementTypeFailsInPrepare) {
  for (const OpCase& c : AllCases()) {
    if (!Generic(c) || c.inputs[0].kind != Kind::kData) continue;
    if (c.out_like_input) continue;  // data movement copies bytes of any type
    OneOpModel m;
    for (const InputSpec& s : c.inputs) {
      if (s.kind == Kind::kInt32Const) m.Const<int32_t>(s.shape, s.ints);
      else if (s.kind == Kind::kOmitted) m.Omitted();
      else m.Input(tflite::TensorType_COMPLEX64, s.shape);
    }
    m.Output(tflite::TensorType_COMPLEX64, {1});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted COMPLEX64";
    EXPECT_FALSE(m.log().empty()) << c.name << " failed without a message";
  }
}

// Binary element-wise ops: shapes that do not broadcast.
TEST(OpTableErrors, NonBroadcastableShapesFailInPrepare) {
  for (const OpCase& c : BinaryCases()) {
    OneOpModel m;
    m.Input(tflite::TensorType_FLOAT32, {2, 3});
    m.Input(tflite::TensorType_FLOAT32, {4});
    m.Output(c.out_type_override != kSameType ? c.out_type_override
                                                            : tflite::TensorType_FLOAT32,
             {2, 3});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted [2,3] with [4]";
    EXPECT_FALSE(m.log().empty()) << c.name;
  }
}

// Quantized inputs without quantization parameters.
TEST(OpTableErrors, QuantizedTensorsWithoutParametersFailInPrepare) {
  for (const OpCase& c : AllCases()) {
    if (!Generic(c)) continue;
    if (std::find(c.types.begin(), c.types.end(), tflite::TensorType_INT8) == c.types.end()) continue;
    if (c.out_like_input) continue;  // pure data movement: parameters are not used
    // Upstream multiplies unquantized INT8 as plain integers.
    if (c.op == tflite::BuiltinOperator_REDUCE_PROD) continue;
    OneOpModel m;
    std::vector<std::vector<int>> out_shapes;
    for (const InputSpec& s : c.inputs) {
      if (s.kind == Kind::kInt32Const) m.Const<int32_t>(s.shape, s.ints);
      else if (s.kind == Kind::kDataConst)
        m.Const<int8_t>(s.shape, std::vector<int8_t>(NumElements(s.shape), 1),
                        tflite::TensorType_INT8);
      else m.Input(tflite::TensorType_INT8, s.shape);
    }
    const TensorType out = c.out_type_override != kSameType ? c.out_type_override
                                                                        : tflite::TensorType_INT8;
    if (out != tflite::TensorType_INT8) continue;
    m.Output(out, {1});
    m.Op(c.op, c.options(), c.version);
    EXPECT_FALSE(m.Allocate()) << c.name << " accepted int8 tensors without scale/zero point";
  }
}


// ---- coverage: every builtin the default resolver registers has a case -----------------------

// Registered builtins that cannot be a one-operator case: each needs other
// operators in the same subgraph (a resource handle from VAR_HANDLE or
// HASHTABLE, or an operator that reads what it stored), or has no output.
// Each names the test file and the test that runs it with expected values;
// the coverage test checks that the file has that test and names the op.
struct Elsewhere {
  const char* file;  // under the source tree
  const char* test;  // "Suite, Name"
};
const std::map<std::string, Elsewhere> kTestedOutsideTheTable = {
    {"ASSIGN_VARIABLE", {"tests/kernels/resource_variable_test.cc",
                         "ResourceVariableTest, CallOnceInitializesAndValuesPersistAcrossInvokes"}},
    {"CALL_ONCE", {"tests/kernels/resource_variable_test.cc",
                   "ResourceVariableTest, CallOnceInitializesAndValuesPersistAcrossInvokes"}},
    {"READ_VARIABLE", {"tests/kernels/resource_variable_test.cc",
                       "ResourceVariableTest, CallOnceInitializesAndValuesPersistAcrossInvokes"}},
    {"VAR_HANDLE", {"tests/kernels/resource_variable_test.cc",
                    "ResourceVariableTest, CallOnceInitializesAndValuesPersistAcrossInvokes"}},
    {"HASHTABLE", {"tests/kernels/string_kernels_test.cc", "HashtableTest, Int64ToString"}},
    {"HASHTABLE_FIND", {"tests/kernels/string_kernels_test.cc", "HashtableTest, Int64ToString"}},
    {"HASHTABLE_IMPORT", {"tests/kernels/string_kernels_test.cc", "HashtableTest, Int64ToString"}},
    {"HASHTABLE_SIZE", {"tests/kernels/string_kernels_test.cc", "HashtableTest, Int64ToString"}},
};

std::string ReadSource(const std::string& path) {
  std::ifstream f(std::string(TFLITE_C_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Fails when an op is registered without a case or an entry above, or has
// both (drop the entry), or its entry names a test that is not there.
TEST(OpTableCoverage, EveryRegisteredBuiltinHasACase) {
  MutableOpResolver resolver;
  RegisterBuiltinKernels(&resolver);
  std::set<int> covered;
  for (const OpCase& c : AllCases()) covered.insert(c.op);
  int registered = 0, with_case = 0;
  for (const auto& entry : resolver.BuiltinVersionRanges()) {
    const std::string name =
        tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(entry.first));
    ++registered;
    const bool has_case = covered.count(entry.first) > 0;
    with_case += has_case;
    const auto elsewhere = kTestedOutsideTheTable.find(name);
    if (has_case) {
      EXPECT_TRUE(elsewhere == kTestedOutsideTheTable.end())
          << name << " has a case now: drop it from kTestedOutsideTheTable";
      continue;
    }
    if (elsewhere == kTestedOutsideTheTable.end()) {
      ADD_FAILURE() << name << " is registered but has no case";
      continue;
    }
    const std::string source = ReadSource(elsewhere->second.file);
    EXPECT_NE(source.find(std::string("TEST(") + elsewhere->second.test + ")"), std::string::npos)
        << elsewhere->second.file << " has no test " << elsewhere->second.test;
    EXPECT_NE(source.find("BuiltinOperator_" + name), std::string::npos)
        << elsewhere->second.file << " does not use " << name;
  }
  std::printf("op table: %d of %d registered builtins have a case, %zu are tested elsewhere\n",
              with_case, registered, kTestedOutsideTheTable.size());
}

// ---- sentinels: the guard bytes around outputs catch a stray write ---------------------------

// A custom kernel that copies its float input to its output and then writes
// one element's worth of bytes just outside the output: after it (offset > 0)
// or before it (offset < 0); offset 0 writes nothing outside.
template <int kOffset>
TfLiteRegistration StrayWriter() {
  TfLiteRegistration r{};
  r.prepare = [](TfLiteContext* context, TfLiteNode* node) {
    const TfLiteTensor* in = &context->tensors[node->inputs->data[0]];
    TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
    return context->ResizeTensor(context, out, TfLiteIntArrayCopy(in->dims));
  };
  r.invoke = [](TfLiteContext* context, TfLiteNode* node) {
    const TfLiteTensor* in = &context->tensors[node->inputs->data[0]];
    TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
    std::memcpy(out->data.raw, in->data.raw, in->bytes);
    if (kOffset > 0) out->data.raw[out->bytes] = 0;
    if (kOffset < 0) out->data.raw[-1] = 0;
    return kTfLiteOk;
  };
  return r;
}

template <int kOffset>
std::string DamageAfterStrayWriter() {
  static const TfLiteRegistration reg = StrayWriter<kOffset>();
  OneOpModel m;
  m.configure_options = [](TfLiteInterpreterOptions* o) {
    TfLiteInterpreterOptionsAddCustomOp(o, "STRAY_WRITER", &reg, 1, 1);
  };
  m.Input(tflite::TensorType_FLOAT32, {5});
  m.Output(tflite::TensorType_FLOAT32, {5});
  m.CustomOp("STRAY_WRITER");
  EXPECT_TRUE(m.Allocate()) << m.log();
  OutputGuards guards;
  EXPECT_TRUE(guards.Attach(m, 1)) << m.log();
  EXPECT_EQ(guards.unguarded(), 0);
  m.Set<float>(0, {1, 2, 3, 4, 5});
  EXPECT_TRUE(m.Invoke()) << m.log();
  EXPECT_EQ(m.Get<float>(), (std::vector<float>{1, 2, 3, 4, 5}));
  return guards.Damage();
}

// After the run: how many table outputs ran between guard bytes (outputs a
// kernel makes dynamic in Prepare keep their heap buffer).
class GuardSummary : public ::testing::Environment {
 public:
  void TearDown() override {
    std::printf("op table: %d outputs ran between guard bytes, %d dynamic outputs did not\n",
                OutputGuards::total_guarded, OutputGuards::total_unguarded);
  }
};
const ::testing::Environment* const kGuardSummary =
    ::testing::AddGlobalTestEnvironment(new GuardSummary);

TEST(OpTableSentinels, WriteOnePastTheEndIsCaught) {
  const std::string damage = DamageAfterStrayWriter<1>();
  EXPECT_NE(damage.find("byte 0 past the end (of 20)"), std::string::npos) << damage;
}

TEST(OpTableSentinels, WriteOneBeforeTheStartIsCaught) {
  const std::string damage = DamageAfterStrayWriter<-1>();
  EXPECT_NE(damage.find("byte 1 before the start"), std::string::npos) << damage;
}

TEST(OpTableSentinels, KernelThatStaysInsideLeavesGuardsIntact) {
  EXPECT_EQ(DamageAfterStrayWriter<0>(), "");
}

}  // namespace

const std::vector<OpCase>& AllCases() {
  static const std::vector<OpCase>* cases = [] {
    auto* all = new std::vector<OpCase>();
    for (auto gen : {UnaryCases, BinaryCases, ReductionCases, LayoutCases, NnCases, BinaryHandCases,
                     ActivationHandCases, ReshapeHandCases, FullyConnectedHandCases, ConvHandCases,
                     DepthwiseHandCases, LogicHandCases, ConversionCases, ShapeHandCases,
                     IndexHandCases, NmsHandCases, ImageHandCases, ComplexHandCases,
                     StablehloHandCases, ReduceWindowCases,
                     RecurrentHandCases, HashRandomCases, SubgraphOpCases, LstmCases}) {
      for (OpCase& c : gen()) all->push_back(std::move(c));
    }
    return all;
  }();
  return *cases;
}

}  // namespace op_table
}  // namespace tflite_c

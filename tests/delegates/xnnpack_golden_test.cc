// XNNPACK delegate: every golden model of shared/models/manifest.json run
// with the delegate against its XNNPACK `tolerance` (a few also through the
// delegate TfLiteInterpreterCreate applies by default, models with variables
// with the delegate's variable operators on).
// Skipped in builds without XNNPACK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/delegates/xnnpack/default_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/delegates/delegate_test_util.h"
#include "tests/util/element_value.h"
#include "tests/util/test_paths.h"
#include "tests/delegates/xnnpack_variables_test_util.h"

namespace tflite_c {
namespace testing {
namespace {

// ---- golden models ----------------------------------------------------------------------------

using nlohmann::json;
const std::string kModelsDir = std::string(TFLITE_C_SHARED_DIR) + "/models/";

std::vector<char> ReadAll(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct GoldenCase {
  std::string name;
  json entry;
  bool via_default = false;  // the delegate TfLiteInterpreterCreate applies by itself
  bool variables = false;    // with TFLITE_XNNPACK_DELEGATE_FLAG_VARIABLE_OPERATORS
};
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

std::vector<GoldenCase> GoldenCases() {
  std::vector<GoldenCase> cases;
  std::ifstream in(kModelsDir + "manifest.json");
  json m = in ? json::parse(in, nullptr, false) : json();
  if (m.is_discarded() || !m.contains("models")) {
    cases.push_back({"manifest_absent", json()});
    return cases;
  }
  for (const json& e : m["models"]) {
    if (!e.value("golden", false)) continue;
    std::string name = e.value("name", "unnamed");
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    cases.push_back({name, e});
  }
  // A few through the default-on path (no explicit delegate): float, int8 and
  // uint8 models that XNNPACK takes (at least partly).
  const std::vector<std::string> via_default = {
      "mp_face_detection_short_range", "mp_selfie_segmentation",
      "tflm_mobilenet_v2_quantized_1x3x224x224", "tflm_hello_world_int8", "quant_fc_qat"};
  const size_t n = cases.size();
  for (size_t i = 0; i < n; ++i) {
    for (const std::string& name : via_default) {
      if (cases[i].name == name) cases.push_back({name + "_via_default", cases[i].entry, true});
    }
    // Models with resource variables, again with the variable operators on.
    if (cases[i].entry.dump().find("VAR_HANDLE") != std::string::npos)
      cases.push_back({cases[i].name + "_variables", cases[i].entry, false, true});
  }
  return cases;
}

// Like Session::Create without delegates, but leaving the default XNNPACK
// delegate of TfLiteInterpreterCreate on.
void CreateWithDefaultXnnpack(Session* s, const void* bytes, size_t size, int threads = -1) {
  s->model.reset(TfLiteModelCreate(bytes, size));
  if (!s->model) return;
  OptionsPtr options(TfLiteInterpreterOptionsCreate());
  TfLiteInterpreterOptionsSetErrorReporter(options.get(), CaptureError, &s->errors);
  TfLiteInterpreterOptionsSetNumThreads(options.get(), threads);
  s->interpreter.reset(TfLiteInterpreterCreate(s->model.get(), options.get()));
}

class XnnpackGoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(XnnpackGoldenTest, MatchesGoldenWithinXnnpackTolerance) {
  SKIP_WITHOUT_XNNPACK();
  const json& e = GetParam().entry;
  if (e.is_null()) GTEST_SKIP() << "no manifest";
  if (e.contains("additional_signature_runs") || e["inputs"].empty())
    GTEST_SKIP() << "signature-run models are covered by golden_test";
  bool ok = false;
  const std::vector<char> bytes = ReadAll(kModelsDir + e["file"].get<std::string>(), &ok);
  ASSERT_TRUE(ok);

  // Models our builtin kernels cannot run are skipped.
  size_t builtin_nodes = 0;
  {
    Session plain;
    plain.Create(bytes.data(), bytes.size(), {});
    if (!plain.ok() || TfLiteInterpreterAllocateTensors(plain.interpreter.get()) != kTfLiteOk)
      GTEST_SKIP() << "builtin kernels cannot run this model";
    builtin_nodes = plain.plan().size();
  }
  XnnPtr d;
  Session s;
  if (GetParam().via_default) {
    CreateWithDefaultXnnpack(&s, bytes.data(), bytes.size());
  } else {
    d = VariablesDelegate(GetParam().variables);
    s.Create(bytes.data(), bytes.size(), {d.get()});
  }
  ASSERT_TRUE(s.ok()) << s.errors;
  if (GetParam().variables) {  // the primary subgraph's variable operators are all taken
    for (int i : s.plan()) {
      const int code = s.primary().node_and_registration(i)->second.builtin_code;
      EXPECT_TRUE(code != kTfLiteBuiltinVarHandle && code != kTfLiteBuiltinReadVariable &&
                  code != kTfLiteBuiltinAssignVariable)
          << "node " << i << " stayed on the builtin kernels";
    }
  }
  if (GetParam().via_default) {
    EXPECT_NE(s.interpreter->default_delegate, nullptr);
    EXPECT_GT(s.DelegateNodes(), 0);
  }
  // Partition preview: nodes left on builtin kernels / partitions.
  const int partitions = s.DelegateNodes();
  const size_t left = s.plan().size() - static_cast<size_t>(partitions);
  RecordProperty("xnnpack_partitions", partitions);
  RecordProperty("builtin_nodes_left", static_cast<int>(left));
  if (std::getenv("XNNPACK_TEST_VERBOSE")) {
    std::fprintf(stderr, "[xnnpack] %-45s nodes %4zu -> %zu builtin + %d partition(s)\n",
                 GetParam().name.c_str(), builtin_nodes, left, partitions);
  }
  TfLiteInterpreter* it = s.interpreter.get();
  ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
  const json& inputs = e["inputs"];
  bool resized = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(it, static_cast<int32_t>(i));
    const std::vector<int> shape = inputs[i]["shape"].get<std::vector<int>>();
    std::vector<int> have;
    for (int k = 0; k < TfLiteTensorNumDims(t); ++k) have.push_back(TfLiteTensorDim(t, k));
    if (have != shape) {
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(it, static_cast<int32_t>(i), shape.data(),
                                                   static_cast<int32_t>(shape.size())),
                kTfLiteOk);
      resized = true;
    }
  }
  if (resized) ASSERT_EQ(TfLiteInterpreterAllocateTensors(it), kTfLiteOk) << s.errors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<char> data = ReadAll(kModelsDir + inputs[i]["file"].get<std::string>(), &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(it, static_cast<int32_t>(i)),
                                         data.data(), data.size()),
              kTfLiteOk);
  }
  if (TfLiteInterpreterInvoke(it) != kTfLiteOk) {
    if (s.errors.find("XNNPACK") == std::string::npos)
      GTEST_SKIP() << "builtin kernels cannot run this model: " << s.errors;
    FAIL() << s.errors;
  }
  const json& outputs = e["outputs"];
  for (size_t k = 0; k < outputs.size(); ++k) {
    const json& spec = outputs[k];
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, static_cast<int32_t>(k));
    ASSERT_NE(t, nullptr);
    const std::vector<char> expected = ReadAll(kModelsDir + spec["file"].get<std::string>(), &ok);
    ASSERT_TRUE(ok);
    ASSERT_EQ(TfLiteTensorByteSize(t), expected.size()) << "output " << k;
    const TfLiteType type = TfLiteTensorType(t);
    const size_t es = NumericElementBytes(type);
    if (es == 0) continue;
    const json tol = spec.value("tolerance", json::object());
    const double atol = tol.value("atol", 0.0), rtol = tol.value("rtol", 0.0);
    const char* actual = static_cast<const char*>(TfLiteTensorData(t));
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < expected.size() / es; ++i) {
      const double a = ElementValue(actual + i * es, type);
      const double x = ElementValue(expected.data() + i * es, type);
      const bool good = std::isnan(x) ? std::isnan(a) : std::fabs(a - x) <= atol + rtol * std::fabs(x);
      if (!good) {
        if (bad++ == 0) first = i;
        worst = std::max(worst, std::isnan(a) ? INFINITY : std::fabs(a - x));
      }
    }
    EXPECT_EQ(bad, 0u) << "output " << k << ": first bad element " << first << ", max |diff| "
                       << worst << " (atol " << atol << ", rtol " << rtol << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, XnnpackGoldenTest, ::testing::ValuesIn(GoldenCases()));

}  // namespace
}  // namespace testing
}  // namespace tflite_c

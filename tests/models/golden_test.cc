// End-to-end test over every model of shared/models/manifest.json, through the
// public C API only (tensorflow/lite/c/c_api.h), one test per model:
//
//   Golden.<name>      golden: true — run and compare
//   Malformed.<name>   expect_error: true — must be refused cleanly
//   Valid.<name>       the rest — load without crashing
// The tests are registered at start-up from the manifest (testing::RegisterTest)
// rather than value-parameterized, so their ctest names are exactly these.
//
// Models that need operators this build lacks are skipped, naming the ops.
// Tolerances: per output `tolerance_builtin` (else `tolerance`), element-wise
// |actual - expected| <= atol + rtol * |expected|.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/element_value.h"
#include "tests/util/test_paths.h"
#include "tests/util/error_capture.h"

#ifndef TFLITE_C_SHARED_DIR
#define TFLITE_C_SHARED_DIR "../shared"
#endif

namespace {

using nlohmann::json;
using tflite_c::testing::CaptureError;
using tflite_c::testing::ElementValue;
using tflite_c::testing::NumericElementBytes;

const std::string kModelsDir = std::string(TFLITE_C_SHARED_DIR) + "/models/";

// ---- manifest -----------------------------------------------------------------

struct ModelCase {
  std::string name;  // test name suffix
  json entry;        // null when the manifest is absent
};

json LoadManifest() {
  std::ifstream in(kModelsDir + "manifest.json");
  if (!in) return json();
  json manifest = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded() || !manifest.contains("models")) return json();
  return manifest;
}

const json& Manifest() {
  static const json* manifest = new json(LoadManifest());
  return *manifest;
}

enum class Kind { kGolden, kError, kOther };

Kind KindOf(const json& e) {
  if (e.value("golden", false)) return Kind::kGolden;
  if (e.value("expect_error", false)) return Kind::kError;
  return Kind::kOther;
}

// One case per manifest entry of the given kind; a single placeholder case
// when the manifest is absent, so that the test reports a skip, not nothing.
std::vector<ModelCase> Cases(Kind kind) {
  std::vector<ModelCase> cases;
  const json& m = Manifest();
  if (m.is_null()) {
    cases.push_back({"manifest_absent", json()});
    return cases;
  }
  for (const json& e : m["models"]) {
    if (KindOf(e) != kind) continue;
    std::string name = e.value("name", "unnamed");
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    cases.push_back({name, e});
  }
  return cases;
}

// ---- small helpers -------------------------------------------------------------------

std::vector<char> ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Lines of the report that name a missing operator, or "" when none does.
std::string MissingOps(const std::string& report) {
  static const char* const kPhrases[] = {"Didn't find op", "didn't find op", "nresolved",
                                         "nsupported op", "nsupported builtin",
                                         "nsupported custom",
                                         // a kernel that exists but not for this type yet
                                         "is not supported"};
  std::set<std::string> lines;
  std::istringstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    for (const char* p : kPhrases) {
      if (line.find(p) != std::string::npos) {
        lines.insert(line);
        break;
      }
    }
  }
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

TfLiteType TypeFromName(const std::string& s) {
  if (s == "float32") return kTfLiteFloat32;
  if (s == "int32") return kTfLiteInt32;
  if (s == "int64") return kTfLiteInt64;
  if (s == "int16") return kTfLiteInt16;
  if (s == "int8") return kTfLiteInt8;
  if (s == "uint8") return kTfLiteUInt8;
  if (s == "bool") return kTfLiteBool;
  if (s == "string") return kTfLiteString;
  if (s == "float16") return kTfLiteFloat16;
  if (s == "float64") return kTfLiteFloat64;
  return kTfLiteNoType;
}

std::vector<int> Dims(const TfLiteTensor* t) {
  std::vector<int> d;
  int32_t n = TfLiteTensorNumDims(t);
  for (int32_t i = 0; i < n; ++i) d.push_back(TfLiteTensorDim(t, i));
  return d;
}

std::string ShapeString(const std::vector<int>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Compares one output with its golden file; returns "" or what differs.
std::string CompareOutput(const TfLiteTensor* t, const json& spec) {
  if (t == nullptr) return "output tensor is NULL";
  const std::string where = "output '" + spec.value("name", std::string()) + "'";
  const TfLiteType type = TypeFromName(spec.value("dtype", std::string()));
  if (TfLiteTensorType(t) != type) {
    return where + ": type " + std::to_string(TfLiteTensorType(t)) + ", expected " +
           spec.value("dtype", std::string());
  }
  const std::vector<int> shape = spec["shape"].get<std::vector<int>>();
  if (Dims(t) != shape) {
    return where + ": shape " + ShapeString(Dims(t)) + ", expected " + ShapeString(shape);
  }
  bool ok = false;
  const std::vector<char> expected = ReadFile(kModelsDir + spec["file"].get<std::string>(), &ok);
  if (!ok) return where + ": cannot read golden " + spec["file"].get<std::string>();
  if (TfLiteTensorByteSize(t) != expected.size()) {
    return where + ": " + std::to_string(TfLiteTensorByteSize(t)) + " bytes, golden has " +
           std::to_string(expected.size());
  }
  const char* actual = static_cast<const char*>(TfLiteTensorData(t));
  if (actual == nullptr && !expected.empty()) return where + ": tensor has no data";
  const size_t es = NumericElementBytes(type);
  if (es == 0) return where + ": cannot compare type " + spec.value("dtype", std::string());

  const json& tol = spec.contains("tolerance_builtin") ? spec["tolerance_builtin"]
                                                       : spec.value("tolerance", json::object());
  const double atol = tol.value("atol", 0.0), rtol = tol.value("rtol", 0.0);
  const size_t n = expected.size() / es;
  size_t bad = 0, first_bad = 0;
  double worst = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double a = ElementValue(actual + i * es, type);
    const double e = ElementValue(expected.data() + i * es, type);
    bool good;
    if (std::isnan(e)) good = std::isnan(a);
    else good = std::fabs(a - e) <= atol + rtol * std::fabs(e);
    if (!good) {
      if (bad++ == 0) first_bad = i;
      const double err = std::isnan(a) ? INFINITY : std::fabs(a - e);
      if (err > worst) worst = err;
    }
  }
  if (bad == 0) return "";
  std::ostringstream msg;
  msg << where << ": " << bad << " of " << n << " elements outside atol=" << atol
      << " rtol=" << rtol << "; first at " << first_bad << " (got "
      << ElementValue(actual + first_bad * es, type) << ", expected "
      << ElementValue(expected.data() + first_bad * es, type) << "), max |diff| " << worst;
  return msg.str();
}

// Owns one model + interpreter pair with a reporter attached to both.
struct Loaded {
  std::string reporter;  // everything the library reports
  TfLiteModel* model = nullptr;
  TfLiteInterpreter* interpreter = nullptr;
  ~Loaded() {
    TfLiteInterpreterDelete(interpreter);
    TfLiteModelDelete(model);
  }
  // Returns false if the model or interpreter could not be created.
  bool Create(const std::string& path) {
    model = TfLiteModelCreateFromFileWithErrorReporter(path.c_str(), CaptureError, &reporter);
    if (model == nullptr) return false;
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, &reporter);
    TfLiteInterpreterOptionsSetUseXNNPACK(options, false);  // builtin path (XnnpackGoldenTest: XNNPACK)
    interpreter = TfLiteInterpreterCreate(model, options);
    TfLiteInterpreterOptionsDelete(options);
    return interpreter != nullptr;
  }
};

// Copies a golden input file into `t`. Returns "" or the problem.
std::string FeedInput(TfLiteTensor* t, const json& spec) {
  if (t == nullptr) return "input tensor '" + spec.value("name", std::string()) + "' is NULL";
  bool ok = false;
  const std::vector<char> data = ReadFile(kModelsDir + spec["file"].get<std::string>(), &ok);
  if (!ok) return "cannot read " + spec["file"].get<std::string>();
  if (TfLiteTensorCopyFromBuffer(t, data.data(), data.size()) != kTfLiteOk) {
    return "input '" + spec.value("name", std::string()) + "': " + std::to_string(data.size()) +
           " golden bytes, tensor has " + std::to_string(TfLiteTensorByteSize(t));
  }
  return "";
}

// Graph inputs must come out of Invoke unchanged: upstream's arena planner
// never lets other tensors share their memory, and callers rely on feeding
// the same input again. Returns "" or the problem.
std::string InputPreserved(const TfLiteTensor* t, const json& spec) {
  bool ok = false;
  const std::vector<char> data = ReadFile(kModelsDir + spec["file"].get<std::string>(), &ok);
  if (!ok || t == nullptr || TfLiteTensorByteSize(t) != data.size()) return "";
  const char* now = static_cast<const char*>(TfLiteTensorData(t));
  if (now == nullptr || std::memcmp(now, data.data(), data.size()) == 0) return "";
  return "Invoke overwrote graph input '" + spec.value("name", std::string()) + "'";
}

std::string ModelPath(const json& e) { return kModelsDir + e["file"].get<std::string>(); }

#define SKIP_IF_MISSING_OPS(loaded)                                                     \
  do {                                                                                \
    const std::string missing_ = MissingOps((loaded).reporter);                   \
    if (!missing_.empty()) GTEST_SKIP() << "operators missing in this build: " << missing_; \
  } while (0)

// ---- golden: true ------------------------------------------------------------------------

// Runs one of `additional_signature_runs` on a fresh interpreter (stateful
// models define their golden as the first Invoke after AllocateTensors).
void RunSignature(const json& e, const json& run) {
  const std::string key = run["signature_key"].get<std::string>();
  SCOPED_TRACE("signature '" + key + "'");
  Loaded l;
  ASSERT_TRUE(l.Create(ModelPath(e))) << l.reporter;
  TfLiteSignatureRunner* runner = TfLiteInterpreterGetSignatureRunner(l.interpreter, key.c_str());
  ASSERT_NE(runner, nullptr) << l.reporter;
  std::unique_ptr<TfLiteSignatureRunner, void (*)(TfLiteSignatureRunner*)> owner(
      runner, TfLiteSignatureRunnerDelete);
  EXPECT_EQ(TfLiteSignatureRunnerGetInputCount(runner), run["inputs"].size());
  EXPECT_EQ(TfLiteSignatureRunnerGetOutputCount(runner), run["outputs"].size());
  if (TfLiteSignatureRunnerAllocateTensors(runner) != kTfLiteOk) {
    SKIP_IF_MISSING_OPS(l);
    FAIL() << "AllocateTensors failed:\n" << l.reporter;
  }
  bool resized = false;
  for (const json& in : run["inputs"]) {
    const std::string name = in["signature_name"].get<std::string>();
    TfLiteTensor* t = TfLiteSignatureRunnerGetInputTensor(runner, name.c_str());
    ASSERT_NE(t, nullptr) << "no signature input '" << name << "'";
    const std::vector<int> shape = in["shape"].get<std::vector<int>>();
    if (Dims(t) != shape) {
      ASSERT_EQ(TfLiteSignatureRunnerResizeInputTensor(runner, name.c_str(), shape.data(),
                                                       static_cast<int32_t>(shape.size())),
                kTfLiteOk)
          << l.reporter;
      resized = true;
    }
  }
  if (resized) ASSERT_EQ(TfLiteSignatureRunnerAllocateTensors(runner), kTfLiteOk) << l.reporter;
  for (const json& in : run["inputs"]) {
    const std::string name = in["signature_name"].get<std::string>();
    const std::string problem = FeedInput(TfLiteSignatureRunnerGetInputTensor(runner, name.c_str()), in);
    ASSERT_EQ(problem, "");
  }
  if (TfLiteSignatureRunnerInvoke(runner) != kTfLiteOk) {
    SKIP_IF_MISSING_OPS(l);
    FAIL() << "Invoke failed:\n" << l.reporter;
  }
  for (const json& out : run["outputs"]) {
    const std::string name = out["signature_name"].get<std::string>();
    EXPECT_EQ(CompareOutput(TfLiteSignatureRunnerGetOutputTensor(runner, name.c_str()), out), "");
  }
}

void RunGolden(const json& e) {
  if (e.is_null()) GTEST_SKIP() << kModelsDir << "manifest.json not found; no models to test";

  Loaded l;
  if (!l.Create(ModelPath(e))) {
    SKIP_IF_MISSING_OPS(l);
    FAIL() << "creating the model/interpreter failed:\n" << l.reporter;
  }
  const json& inputs = e["inputs"];
  const json& outputs = e["outputs"];
  ASSERT_EQ(TfLiteInterpreterGetInputTensorCount(l.interpreter), static_cast<int32_t>(inputs.size()));
  ASSERT_EQ(TfLiteInterpreterGetOutputTensorCount(l.interpreter), static_cast<int32_t>(outputs.size()));
  const int* in_idx = TfLiteInterpreterInputTensorIndices(l.interpreter);
  const int* out_idx = TfLiteInterpreterOutputTensorIndices(l.interpreter);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (in_idx && inputs[i].contains("tensor_index"))
      EXPECT_EQ(in_idx[i], inputs[i]["tensor_index"].get<int>()) << "input " << i;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (out_idx && outputs[i].contains("tensor_index"))
      EXPECT_EQ(out_idx[i], outputs[i]["tensor_index"].get<int>()) << "output " << i;
  }

  if (TfLiteInterpreterAllocateTensors(l.interpreter) != kTfLiteOk) {
    SKIP_IF_MISSING_OPS(l);
    FAIL() << "AllocateTensors failed:\n" << l.reporter;
  }
  // The goldens use each input's stored shape; resize only if ours differs.
  bool resized = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(l.interpreter, static_cast<int32_t>(i));
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(TfLiteTensorType(t), TypeFromName(inputs[i]["dtype"].get<std::string>())) << "input " << i;
    const char* name = TfLiteTensorName(t);
    EXPECT_EQ(std::string(name ? name : ""), inputs[i].value("name", std::string())) << "input " << i;
    const std::vector<int> shape = inputs[i]["shape"].get<std::vector<int>>();
    if (Dims(t) != shape) {
      ASSERT_EQ(TfLiteInterpreterResizeInputTensor(l.interpreter, static_cast<int32_t>(i), shape.data(),
                                                   static_cast<int32_t>(shape.size())),
                kTfLiteOk)
          << l.reporter;
      resized = true;
    }
  }
  if (resized) ASSERT_EQ(TfLiteInterpreterAllocateTensors(l.interpreter), kTfLiteOk) << l.reporter;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_EQ(FeedInput(TfLiteInterpreterGetInputTensor(l.interpreter, static_cast<int32_t>(i)), inputs[i]), "");
  }

  if (TfLiteInterpreterInvoke(l.interpreter) != kTfLiteOk) {
    SKIP_IF_MISSING_OPS(l);
    FAIL() << "Invoke failed:\n" << l.reporter;
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(l.interpreter, static_cast<int32_t>(k));
    const char* name = t ? TfLiteTensorName(t) : nullptr;
    EXPECT_EQ(std::string(name ? name : ""), outputs[k].value("name", std::string())) << "output " << k;
    EXPECT_EQ(CompareOutput(t, outputs[k]), "") << "output " << k;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool is_output = false;
    for (const json& out : outputs)
      is_output |= out.value("tensor_index", -1) == inputs[i].value("tensor_index", -2);
    if (is_output) continue;
    EXPECT_EQ(InputPreserved(TfLiteInterpreterGetInputTensor(l.interpreter, static_cast<int32_t>(i)), inputs[i]), "");
  }

  if (e.contains("additional_signature_runs")) {
    for (const json& run : e["additional_signature_runs"]) RunSignature(e, run);
  }
}


// ---- expect_error: true ---------------------------------------------------------------------

// The model must be refused at creation, AllocateTensors or Invoke, with a
// message, and without crashing (the ASan build checks "cleanly").
void RunBad(const json& e) {
  if (e.is_null()) GTEST_SKIP() << kModelsDir << "manifest.json not found; no models to test";
  SCOPED_TRACE(e.value("notes", std::string()));

  Loaded l;
  const char* failed_at = nullptr;
  if (!l.Create(ModelPath(e))) {
    failed_at = l.model ? "TfLiteInterpreterCreate" : "TfLiteModelCreateFromFile";
  } else if (TfLiteInterpreterAllocateTensors(l.interpreter) != kTfLiteOk) {
    failed_at = "AllocateTensors";
  } else {
    for (int32_t i = 0; i < TfLiteInterpreterGetInputTensorCount(l.interpreter); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(l.interpreter, i);
      if (t && TfLiteTensorData(t)) std::memset(TfLiteTensorData(t), 0, TfLiteTensorByteSize(t));
    }
    if (TfLiteInterpreterInvoke(l.interpreter) != kTfLiteOk) failed_at = "Invoke";
  }
  ASSERT_NE(failed_at, nullptr) << "the model was accepted and ran";
  // Refusing only because an operator is missing would not show the model's
  // own defect is detected.
  const std::string missing = MissingOps(l.reporter);
  if (!missing.empty()) GTEST_SKIP() << "refused at " << failed_at << " for a missing operator: " << missing;
  EXPECT_FALSE(l.reporter.empty()) << "refused at " << failed_at << " without any message";
  std::printf("refused at %s: %s", failed_at, l.reporter.c_str());
}


// ---- golden: false, valid models ----------------------------------------------------------------

// Valid models without goldens (custom/Flex ops, string tensors, ...): the
// model must load; the interpreter may refuse it, but only cleanly.
void RunOther(const json& e) {
  if (e.is_null()) GTEST_SKIP() << kModelsDir << "manifest.json not found; no models to test";
  SCOPED_TRACE(e.value("notes", std::string()));
  Loaded l;
  const bool created = l.Create(ModelPath(e));
  ASSERT_NE(l.model, nullptr) << "a valid model was refused:\n" << l.reporter;
  if (!created) {
    EXPECT_FALSE(l.reporter.empty()) << "TfLiteInterpreterCreate failed without a message";
    return;
  }
  if (TfLiteInterpreterAllocateTensors(l.interpreter) != kTfLiteOk) {
    EXPECT_FALSE(l.reporter.empty()) << "AllocateTensors failed without a message";
    return;
  }
  EXPECT_EQ(TfLiteInterpreterGetInputTensorCount(l.interpreter),
            static_cast<int32_t>(e.value("inputs", json::array()).size()));
  EXPECT_EQ(TfLiteInterpreterGetOutputTensorCount(l.interpreter),
            static_cast<int32_t>(e.value("outputs", json::array()).size()));
}

// ---- registration ---------------------------------------------------------------------------

class ModelTest : public testing::Test {
 public:
  ModelTest(Kind kind, json entry) : kind_(kind), entry_(std::move(entry)) {}
  void TestBody() override {
    switch (kind_) {
      case Kind::kGolden: RunGolden(entry_); break;
      case Kind::kError: RunBad(entry_); break;
      case Kind::kOther: RunOther(entry_); break;
    }
  }

 private:
  Kind kind_;
  json entry_;
};

[[maybe_unused]] const bool kRegistered = [] {
  const std::pair<Kind, const char*> suites[] = {
      {Kind::kGolden, "Golden"}, {Kind::kError, "Malformed"}, {Kind::kOther, "Valid"}};
  for (const auto& [kind, suite] : suites) {
    for (const ModelCase& c : Cases(kind)) {
      const Kind k = kind;
      const json entry = c.entry;
      testing::RegisterTest(suite, c.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [k, entry]() -> ModelTest* { return new ModelTest(k, entry); });
    }
  }
  return true;
}();

}  // namespace

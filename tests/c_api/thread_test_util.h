// Helpers of the multi-threading tests (concurrency_test.cc, cancel_test.cc):
// one golden model of shared/models (bytes, golden inputs and outputs with
// their tolerances) fed to and checked against any number of interpreters,
// from any thread. Everything here is read-only after Load(), so threads may
// share one GoldenModel.
#ifndef TFLITE_C_TESTS_C_API_THREAD_TEST_UTIL_H_
#define TFLITE_C_TESTS_C_API_THREAD_TEST_UTIL_H_

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/element_value.h"
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace testing {

inline std::vector<char> SlurpFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline double MillisSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// One golden entry of shared/models/manifest.json.
class GoldenModel {
 public:
  // Reads the entry `name` and its files; false (with why()) when the shared
  // folder, the entry or a file is missing.
  bool Load(const std::string& name) {
    const std::string dir = std::string(TFLITE_C_SHARED_DIR) + "/models/";
    std::ifstream in(dir + "manifest.json");
    if (!in) return Fail(dir + "manifest.json not found (shared models absent)");
    const nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
    if (m.is_discarded() || !m.contains("models")) return Fail("manifest.json unreadable");
    for (const nlohmann::json& e : m["models"]) {
      if (e.value("name", std::string()) != name) continue;
      if (!e.value("golden", false)) return Fail(name + " has no golden outputs");
      bool ok = false;
      bytes_ = SlurpFile(dir + e["file"].get<std::string>(), &ok);
      if (!ok) return Fail("cannot read " + e["file"].get<std::string>());
      for (const nlohmann::json& i : e["inputs"]) {
        inputs_.push_back(SlurpFile(dir + i["file"].get<std::string>(), &ok));
        if (!ok) return Fail("cannot read " + i["file"].get<std::string>());
      }
      for (const nlohmann::json& o : e["outputs"]) {
        Output out;
        out.data = SlurpFile(dir + o["file"].get<std::string>(), &ok);
        if (!ok) return Fail("cannot read " + o["file"].get<std::string>());
        const nlohmann::json tol = o.value("tolerance", nlohmann::json::object());
        const nlohmann::json tol_b = o.value("tolerance_builtin", tol);
        out.atol_xnnpack = tol.value("atol", 0.0);
        out.rtol_xnnpack = tol.value("rtol", 0.0);
        out.atol_builtin = tol_b.value("atol", 0.0);
        out.rtol_builtin = tol_b.value("rtol", 0.0);
        outputs_.push_back(std::move(out));
      }
      return true;
    }
    return Fail(name + " is not in manifest.json");
  }

  const std::string& why() const { return why_; }
  const std::vector<char>& bytes() const { return bytes_; }
  size_t input_count() const { return inputs_.size(); }

  // Copies the golden inputs into `it`; with `scrambled`, bytes that differ
  // from them (same size), for invocations whose outputs are not checked.
  std::string Feed(TfLiteInterpreter* it, bool scrambled = false) const {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      TfLiteTensor* t = TfLiteInterpreterGetInputTensor(it, static_cast<int32_t>(i));
      if (t == nullptr) return "no input " + std::to_string(i);
      std::vector<char> data = inputs_[i];
      if (scrambled) {
        // Integer inputs: every byte changes. Float inputs: only the lowest
        // mantissa byte (little-endian), so values stay finite and close.
        const size_t step = TfLiteTensorType(t) == kTfLiteFloat32 ? 4 : 1;
        for (size_t k = 0; k < data.size(); k += step) data[k] = static_cast<char>(data[k] ^ 0x5a);
      }
      if (TfLiteTensorCopyFromBuffer(t, data.data(), data.size()) != kTfLiteOk)
        return "input " + std::to_string(i) + ": size mismatch";
    }
    return "";
  }

  // "" when every output of `it` matches its golden within the builtin (or
  // XNNPACK) tolerance, else what differs.
  std::string Check(const TfLiteInterpreter* it, bool xnnpack) const {
    for (size_t k = 0; k < outputs_.size(); ++k) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(it, static_cast<int32_t>(k));
      const Output& o = outputs_[k];
      if (t == nullptr || TfLiteTensorByteSize(t) != o.data.size() ||
          TfLiteTensorData(t) == nullptr)
        return "output " + std::to_string(k) + ": missing or wrong size";
      const double atol = xnnpack ? o.atol_xnnpack : o.atol_builtin;
      const double rtol = xnnpack ? o.rtol_xnnpack : o.rtol_builtin;
      const size_t es = NumericElementBytes(TfLiteTensorType(t));
      if (es == 0) continue;  // types without a numeric comparison
      const char* a = static_cast<const char*>(TfLiteTensorData(t));
      for (size_t i = 0; i < o.data.size() / es; ++i) {
        const double got = ElementValue(a + i * es, TfLiteTensorType(t));
        const double want = ElementValue(o.data.data() + i * es, TfLiteTensorType(t));
        const bool good = std::isnan(want) ? std::isnan(got)
                                           : std::fabs(got - want) <= atol + rtol * std::fabs(want);
        if (!good) {
          std::ostringstream s;
          s << "output " << k << " element " << i << ": " << got << ", golden " << want;
          return s.str();
        }
      }
    }
    return "";
  }

 private:
  struct Output {
    std::vector<char> data;
    double atol_builtin = 0, rtol_builtin = 0, atol_xnnpack = 0, rtol_xnnpack = 0;
  };

  bool Fail(const std::string& why) {
    why_ = why;
    return false;
  }

  std::string why_;
  std::vector<char> bytes_;
  std::vector<std::vector<char>> inputs_;
  std::vector<Output> outputs_;
};

#define SKIP_WITHOUT_GOLDEN(golden, name)                                                \
  do {                                                                                   \
    if (!(golden).Load(name))                                                            \
      GTEST_SKIP() << "golden model " << (name) << " unavailable: " << (golden).why()    \
                   << " (set TFLITE_C_SHARED_DIR when configuring to run this test)";    \
  } while (0)

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_C_API_THREAD_TEST_UTIL_H_

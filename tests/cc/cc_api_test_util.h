// Shared by the C++ API tests on the shared models (cc_api_test.cc,
// cc_op_resolver_test.cc, cc_simple_delegate_test.cc,
// cc_strings_reporters_test.cc): model paths and golden files, an error
// reporter that keeps every report, the CcApi fixture (a model and an
// interpreter built with the builtin resolver) and java_add's golden check.
#ifndef TFLITE_C_TESTS_CC_CC_API_TEST_UTIL_H_
#define TFLITE_C_TESTS_CC_CC_API_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/delegates/utils/simple_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/model_builder.h"
#include "tests/util/test_paths.h"

namespace tflite_c {
namespace testing {

inline const std::string kModels = std::string(TFLITE_C_SHARED_DIR) + "/models/files/";
inline const std::string kGolden = std::string(TFLITE_C_SHARED_DIR) + "/models/golden/";

inline std::string ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

inline std::vector<float> ReadFloats(const std::string& path) {
  const std::string bytes = ReadBytes(path);
  std::vector<float> v(bytes.size() / sizeof(float));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

inline bool HaveModels() {
  return !ReadBytes(kModels + "java_add.tflite").empty();
}

#define SKIP_WITHOUT_MODELS()              \
  if (!::tflite_c::testing::HaveModels()) \
  GTEST_SKIP() << "shared models not found under " << ::tflite_c::testing::kModels

// Collects every report, for the error-path tests.
class CapturingReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override {
    char buf[1024];
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    text += buf;
    text += '\n';
    ++calls;
    return n;
  }
  using tflite::ErrorReporter::Report;
  std::string text;
  int calls = 0;
};

inline std::unique_ptr<tflite::Interpreter> Build(const tflite::FlatBufferModel& model,
                                                  const tflite::OpResolver& resolver) {
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(model, resolver)(&interpreter) != kTfLiteOk) return nullptr;
  return interpreter;
}

// Each test loads one of the shared models (skipping when they are absent)
// and usually builds an interpreter for it with the builtin resolver; tests
// of the builder itself only load the model.
class CcApi : public ::testing::Test {
 protected:
  // model_ = models/files/<file>.
  void LoadModel(const std::string& file) {
    model_ = tflite::FlatBufferModel::BuildFromFile((kModels + file).c_str());
    ASSERT_NE(model_, nullptr) << file;
  }
  // model_ as above, then interpreter_ from it and resolver_ (not allocated).
  void LoadInterpreter(const std::string& file) {
    ASSERT_NO_FATAL_FAILURE(LoadModel(file));
    interpreter_ = Build(*model_, resolver_);
    ASSERT_NE(interpreter_, nullptr) << file;
  }

  tflite::ops::builtin::BuiltinOpResolver resolver_;
  std::unique_ptr<tflite::FlatBufferModel> model_;
  std::unique_ptr<tflite::Interpreter> interpreter_;  // destroyed before model_
};

// In a CcApi test: skips without the shared models, else loads `file` as
// model_ (USE_MODEL) or as model_ plus interpreter_ (USE_INTERPRETER).
#define USE_MODEL(file)   \
  SKIP_WITHOUT_MODELS(); \
  ASSERT_NO_FATAL_FAILURE(LoadModel(file))
#define USE_INTERPRETER(file) \
  SKIP_WITHOUT_MODELS();     \
  ASSERT_NO_FATAL_FAILURE(LoadInterpreter(file))

// Runs java_add's golden input through `interpreter` (already allocated).
inline void ExpectJavaAddGolden(tflite::Interpreter* interpreter) {
  const std::vector<float> in = ReadFloats(kGolden + "java_add/input_0.bin");
  const std::vector<float> expected = ReadFloats(kGolden + "java_add/output_0.bin");
  ASSERT_EQ(in.size(), 192u);
  ASSERT_EQ(expected.size(), 192u);
  float* input = interpreter->typed_input_tensor<float>(0);
  ASSERT_NE(input, nullptr);
  std::memcpy(input, in.data(), in.size() * sizeof(float));
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk);
  const float* output = interpreter->typed_output_tensor<float>(0);
  ASSERT_NE(output, nullptr);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(output[i], expected[i], 1e-3f + 1e-4f * std::fabs(expected[i])) << i;
  }
}

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_CC_CC_API_TEST_UTIL_H_

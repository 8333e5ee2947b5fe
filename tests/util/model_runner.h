// Runs a model built with ModelBuilder through the public C API, collecting
// everything the error reporters say in log().
//
//   ModelRunner r(builder);
//   ASSERT_TRUE(r.Allocate()) << r.log();
//   r.Set<float>(0, {1, 2});
//   ASSERT_TRUE(r.Invoke()) << r.log();
//   EXPECT_EQ(r.Get<float>(), (std::vector<float>{...}));
#ifndef TFLITE_C_TESTS_UTIL_MODEL_RUNNER_H_
#define TFLITE_C_TESTS_UTIL_MODEL_RUNNER_H_

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tensorflow/lite/c/c_api.h"
#include "tests/util/model_builder.h"

namespace tflite_c {
namespace testing {


class ModelRunner {
 public:
  explicit ModelRunner(const ModelBuilder& b) : bytes_(b.Finish()) {}
  ModelRunner(const ModelRunner&) = delete;
  ModelRunner& operator=(const ModelRunner&) = delete;
  ~ModelRunner();

  // Loads the model and allocates tensors; false when any step fails.
  // `configure`, when given, adjusts the interpreter options first; its
  // returning false fails Allocate.
  bool Allocate(const std::function<bool(TfLiteInterpreterOptions*)>& configure = nullptr);

  TfLiteTensor* input(int i) { return TfLiteInterpreterGetInputTensor(interpreter_, i); }
  const TfLiteTensor* output(int i) const {
    return TfLiteInterpreterGetOutputTensor(interpreter_, i);
  }
  template <typename T>
  void Set(int i, const std::vector<T>& values) {
    ASSERT_EQ(TfLiteTensorCopyFromBuffer(input(i), values.data(), values.size() * sizeof(T)),
              kTfLiteOk);
  }
  bool Invoke() { return TfLiteInterpreterInvoke(interpreter_) == kTfLiteOk; }
  // TfLiteInterpreterResetVariableTensors; false when it fails.
  bool ResetVariables();
  template <typename T>
  std::vector<T> Get(int i = 0) const {
    const TfLiteTensor* t = output(i);
    std::vector<T> values(TfLiteTensorByteSize(t) / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), TfLiteTensorData(t), values.size() * sizeof(T));
    return values;
  }
  std::vector<int> Shape(int i = 0) const;
  TfLiteInterpreter* interpreter() { return interpreter_; }
  const std::string& log() const { return log_; }

 private:
  std::vector<uint8_t> bytes_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreterOptions* options_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
  std::string log_;
};

// Expects that loading or AllocateTensors fails and the log mentions `message`.
void ExpectAllocateError(const ModelBuilder& b, const std::string& message);

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_UTIL_MODEL_RUNNER_H_

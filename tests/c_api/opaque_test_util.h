// The harness of the opaque extension API's tests (c_api_opaque_*_test.cc):
// a model and an interpreter created with the test's operators.
#ifndef TFLITE_C_TESTS_C_API_OPAQUE_TEST_UTIL_H_
#define TFLITE_C_TESTS_C_API_OPAQUE_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/core/c/c_api.h"
#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace testing {

// Owns a model built from bytes and an interpreter created with `ops`.
class Runner {
 public:
  Runner(std::vector<uint8_t> bytes, const std::vector<const TfLiteOperator*>& ops)
      : bytes_(std::move(bytes)) {
    model_ = TfLiteModelCreate(bytes_.data(), bytes_.size());
    Create(ops);
  }
  // From a file (so that the model is memory-mapped).
  Runner(const std::string& path, const std::vector<const TfLiteOperator*>& ops) {
    model_ = TfLiteModelCreateFromFile(path.c_str());
    Create(ops);
  }
  ~Runner() {
    TfLiteInterpreterDelete(interpreter_);
    TfLiteModelDelete(model_);
  }
  TfLiteInterpreter* get() const { return interpreter_; }
  const std::string& log() const { return log_; }

 private:
  void Create(const std::vector<const TfLiteOperator*>& ops) {
    if (model_ == nullptr) return;
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    for (const TfLiteOperator* op : ops) {
      TfLiteInterpreterOptionsAddOperator(options, const_cast<TfLiteOperator*>(op));
    }
    TfLiteInterpreterOptionsSetErrorReporter(options, ::tflite_c::testing::CaptureError, &log_);
    TfLiteInterpreterOptionsSetUseXNNPACK(options, false);  // probes count builtin nodes
    interpreter_ = TfLiteInterpreterCreate(model_, options);
    TfLiteInterpreterOptionsDelete(options);
  }

  std::vector<uint8_t> bytes_;
  std::string log_;
  TfLiteModel* model_ = nullptr;
  TfLiteInterpreter* interpreter_ = nullptr;
};

}  // namespace testing
}  // namespace tflite_c

#endif  // TFLITE_C_TESTS_C_API_OPAQUE_TEST_UTIL_H_

#include "tests/util/model_runner.h"

#include <cstdio>

#include "tensorflow/lite/core/c/c_api_experimental.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace testing {

ModelRunner::~ModelRunner() {
  TfLiteInterpreterDelete(interpreter_);
  TfLiteInterpreterOptionsDelete(options_);
  TfLiteModelDelete(model_);
}

bool ModelRunner::Allocate(const std::function<bool(TfLiteInterpreterOptions*)>& configure) {
  model_ = TfLiteModelCreateWithErrorReporter(bytes_.data(), bytes_.size(), CaptureError, &log_);
  if (model_ == nullptr) return false;
  options_ = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options_, CaptureError, &log_);
  if (configure && !configure(options_)) return false;
  interpreter_ = TfLiteInterpreterCreate(model_, options_);
  return interpreter_ != nullptr && TfLiteInterpreterAllocateTensors(interpreter_) == kTfLiteOk;
}

bool ModelRunner::ResetVariables() {
  return TfLiteInterpreterResetVariableTensors(interpreter_) == kTfLiteOk;
}

std::vector<int> ModelRunner::Shape(int i) const {
  const TfLiteTensor* t = output(i);
  std::vector<int> shape;
  for (int d = 0; d < TfLiteTensorNumDims(t); ++d) shape.push_back(TfLiteTensorDim(t, d));
  return shape;
}

void ExpectAllocateError(const ModelBuilder& b, const std::string& message) {
  ModelRunner r(b);
  EXPECT_FALSE(r.Allocate());
  EXPECT_NE(r.log().find(message), std::string::npos) << r.log();
}

}  // namespace testing
}  // namespace tflite_c

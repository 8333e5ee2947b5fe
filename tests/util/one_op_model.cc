#include "tests/util/one_op_model.h"

#include <cstdarg>
#include <cstdio>

#include "tensorflow/lite/c/tflite_c_experimental.h"
#include "tests/util/error_capture.h"

namespace tflite_c {
namespace testing {

OneOpModel::~OneOpModel() {
  TfLiteInterpreterDelete(interpreter_);
  TfLiteInterpreterOptionsDelete(options_);
  TfLiteModelDelete(model_);
}

int OneOpModel::Input(tflite::TensorType type, std::vector<int> shape, Quantization q) {
  const int t = builder_.AddInput(type, shape);
  if (!q.scale.empty()) builder_.SetQuantization(t, q);
  inputs_.push_back(t);
  return t;
}

int OneOpModel::Output(tflite::TensorType type, std::vector<int> shape, Quantization q) {
  const int t = builder_.AddOutput(type, shape);
  if (!q.scale.empty()) builder_.SetQuantization(t, q);
  outputs_.push_back(t);
  return t;
}

void OneOpModel::Op(tflite::BuiltinOperator op, tflite::BuiltinOptionsUnion options,
                    int version) {
  const int index = builder_.AddOperator(op, inputs_, outputs_, version);
  builder_.op(index).builtin_options = std::move(options);
}

void OneOpModel::CustomOp(const std::string& name, std::vector<uint8_t> options, int version) {
  builder_.AddCustomOperator(name, inputs_, outputs_, std::move(options), version);
}

bool OneOpModel::Allocate() {
  bytes_ = builder_.Finish();
  model_ = TfLiteModelCreate(bytes_.data(), bytes_.size());
  if (model_ == nullptr) return false;
  options_ = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options_, CaptureError, &log_);
  TfLiteInterpreterOptionsSetUseXNNPACK(options_, false);  // kernel tests: builtin kernels
  if (configure_options) configure_options(options_);
  interpreter_ = TfLiteInterpreterCreate(model_, options_);
  return interpreter_ != nullptr && TfLiteInterpreterAllocateTensors(interpreter_) == kTfLiteOk;
}

std::vector<int> OneOpModel::Shape(int output) const {
  const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interpreter_, output);
  std::vector<int> shape;
  for (int d = 0; d < TfLiteTensorNumDims(t); ++d) shape.push_back(TfLiteTensorDim(t, d));
  return shape;
}

void SameTypeOp(OneOpModel& m, tflite::BuiltinOperator op, tflite::TensorType type,
                const std::vector<std::vector<int>>& inputs, const std::vector<int>& output) {
  for (const std::vector<int>& shape : inputs) m.Input(type, shape);
  m.Output(type, output);
  m.Op(op);
}

void ExpectPrepareError(OneOpModel& m, const std::string& message) {
  EXPECT_FALSE(m.Allocate());
  EXPECT_NE(m.log().find(message), std::string::npos) << m.log();
}

}  // namespace testing
}  // namespace tflite_c

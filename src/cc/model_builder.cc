// tflite::FlatBufferModel over the core's verified Model.
#include "tensorflow/lite/model_builder.h"

#include <cstdint>
#include <utility>

#include "src/cc/cc_internal.h"
#include "src/core/model.h"

namespace tflite {
namespace {

// Extra verifiers see the same bytes the core verified; a false verdict
// rejects the model.
bool PassesExtraVerifier(TfLiteVerifier* verifier, const tflite_c::Model& model,
                         ErrorReporter* reporter) {
  if (verifier == nullptr) return true;
  if (model.size() > static_cast<size_t>(INT32_MAX)) return true;  // int length can't say
  if (verifier->Verify(reinterpret_cast<const char*>(model.bytes()),
                       static_cast<int>(model.size()), reporter)) {
    return true;
  }
  TF_LITE_REPORT_ERROR(reporter, "The model was rejected by the extra verifier.");
  return false;
}

}  // namespace

FlatBufferModel::FlatBufferModel(std::shared_ptr<const tflite_c::Model> impl,
                                 ErrorReporter* reporter)
    : impl_(std::move(impl)), error_reporter_(reporter) {}

FlatBufferModel::~FlatBufferModel() = default;

std::unique_ptr<FlatBufferModel> FlatBufferModel::VerifyAndBuildFromFile(
    const char* filename, TfLiteVerifier* extra_verifier, ErrorReporter* error_reporter) {
  if (error_reporter == nullptr) error_reporter = DefaultErrorReporter();
  if (filename == nullptr) {
    TF_LITE_REPORT_ERROR(error_reporter, "FlatBufferModel::BuildFromFile: filename is null");
    return nullptr;
  }
  tflite_c::ForwardingErrorReporter reporter(error_reporter);
  std::unique_ptr<tflite_c::Model> model = tflite_c::Model::FromFile(filename, &reporter);
  if (model == nullptr || !PassesExtraVerifier(extra_verifier, *model, error_reporter)) {
    return nullptr;
  }
  return std::unique_ptr<FlatBufferModel>(
      new FlatBufferModel(std::shared_ptr<const tflite_c::Model>(std::move(model)),
                          error_reporter));
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromFile(const char* filename,
                                                                ErrorReporter* error_reporter) {
  return VerifyAndBuildFromFile(filename, nullptr, error_reporter);
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::VerifyAndBuildFromBuffer(
    const char* caller_owned_buffer, size_t buffer_size, TfLiteVerifier* extra_verifier,
    ErrorReporter* error_reporter) {
  if (error_reporter == nullptr) error_reporter = DefaultErrorReporter();
  tflite_c::ForwardingErrorReporter reporter(error_reporter);
  std::unique_ptr<tflite_c::Model> model =
      tflite_c::Model::FromBuffer(caller_owned_buffer, buffer_size, &reporter);
  if (model == nullptr || !PassesExtraVerifier(extra_verifier, *model, error_reporter)) {
    return nullptr;
  }
  return std::unique_ptr<FlatBufferModel>(
      new FlatBufferModel(std::shared_ptr<const tflite_c::Model>(std::move(model)),
                          error_reporter));
}

std::unique_ptr<FlatBufferModel> FlatBufferModel::BuildFromBuffer(const char* caller_owned_buffer,
                                                                  size_t buffer_size,
                                                                  ErrorReporter* error_reporter) {
  return VerifyAndBuildFromBuffer(caller_owned_buffer, buffer_size, nullptr, error_reporter);
}

const ::tflite::Model* FlatBufferModel::GetModel() const { return impl_ ? impl_->fb() : nullptr; }
const void* FlatBufferModel::data() const { return impl_ ? impl_->bytes() : nullptr; }
size_t FlatBufferModel::size() const { return impl_ ? impl_->size() : 0; }

}  // namespace tflite

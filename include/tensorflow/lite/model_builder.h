// tflite::FlatBufferModel: a verified, read-only .tflite model (libtflite_cc).
//
// The bytes are never copied: BuildFromFile maps the file read-only;
// BuildFromBuffer refers to the caller's buffer, which must outlive the model
// and every interpreter built from it.
#ifndef TENSORFLOW_LITE_MODEL_BUILDER_H_
#define TENSORFLOW_LITE_MODEL_BUILDER_H_

#include <cstddef>
#include <memory>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace tflite_c {
class Model;
struct CcAccess;  // libtflite_cc's own way in (src/cc/cc_internal.h)
}  // namespace tflite_c

namespace tflite {

struct Model;  // the schema's root table (schema_generated.h)

// Accepted for source compatibility; the library always verifies a model
// (flatbuffer structure plus index and size checks), with or without one.
class TFLITE_CC_EXPORT TfLiteVerifier {
 public:
  virtual ~TfLiteVerifier() = default;
  virtual bool Verify(const char* data, int length, ErrorReporter* reporter) = 0;
};

class TFLITE_CC_EXPORT FlatBufferModel {
 public:
  // Each returns nullptr, after reporting why, when the file or buffer is
  // not a valid model. A null `error_reporter` means DefaultErrorReporter().
  static std::unique_ptr<FlatBufferModel> BuildFromFile(
      const char* filename, ErrorReporter* error_reporter = DefaultErrorReporter());
  static std::unique_ptr<FlatBufferModel> VerifyAndBuildFromFile(
      const char* filename, TfLiteVerifier* extra_verifier = nullptr,
      ErrorReporter* error_reporter = DefaultErrorReporter());
  static std::unique_ptr<FlatBufferModel> BuildFromBuffer(
      const char* caller_owned_buffer, size_t buffer_size,
      ErrorReporter* error_reporter = DefaultErrorReporter());
  static std::unique_ptr<FlatBufferModel> VerifyAndBuildFromBuffer(
      const char* caller_owned_buffer, size_t buffer_size,
      TfLiteVerifier* extra_verifier = nullptr,
      ErrorReporter* error_reporter = DefaultErrorReporter());

  ~FlatBufferModel();
  FlatBufferModel(const FlatBufferModel&) = delete;
  FlatBufferModel& operator=(const FlatBufferModel&) = delete;

  // The schema view of the model (include schema_generated.h to read it).
  const ::tflite::Model* GetModel() const;
  ErrorReporter* error_reporter() const { return error_reporter_; }
  bool initialized() const { return impl_ != nullptr; }
  // The model's bytes and their size.
  const void* data() const;
  size_t size() const;


 private:
  friend struct tflite_c::CcAccess;
  // The core model, shared with every interpreter built from it.
  const std::shared_ptr<const tflite_c::Model>& impl() const { return impl_; }
  FlatBufferModel(std::shared_ptr<const tflite_c::Model> impl, ErrorReporter* reporter);

  std::shared_ptr<const tflite_c::Model> impl_;
  ErrorReporter* error_reporter_;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_MODEL_BUILDER_H_

// tflite::SignatureRunner: runs one signature of a model, addressing its
// inputs and outputs by name (libtflite_cc). Obtained from, and owned by,
// Interpreter::GetSignatureRunner.
#ifndef TENSORFLOW_LITE_SIGNATURE_RUNNER_H_
#define TENSORFLOW_LITE_SIGNATURE_RUNNER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
class Interpreter;
class Subgraph;
struct SignatureInfo;
}  // namespace tflite_c

namespace tflite {

class Interpreter;

class TFLITE_CC_EXPORT SignatureRunner {
 public:
  const char* signature_key() const;
  size_t input_size() const { return input_names_.size(); }
  size_t output_size() const { return output_names_.size(); }
  // Names in the order upstream enumerates them (sorted by name).
  const std::vector<const char*>& input_names() const { return input_names_; }
  const std::vector<const char*>& output_names() const { return output_names_; }

  // nullptr (reported) when no input / output has that name.
  TfLiteTensor* input_tensor(const char* input_name);
  const TfLiteTensor* output_tensor(const char* output_name) const;

  TfLiteStatus ResizeInputTensor(const char* input_name, const std::vector<int>& new_size);
  TfLiteStatus ResizeInputTensorStrict(const char* input_name,
                                       const std::vector<int>& new_size);
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  TfLiteStatus Cancel();
  TfLiteStatus SetCustomAllocationForInputTensor(
      const char* input_name, const TfLiteCustomAllocation& allocation,
      int64_t flags = kTfLiteCustomAllocationFlagsNone);
  TfLiteStatus SetCustomAllocationForOutputTensor(
      const char* output_name, const TfLiteCustomAllocation& allocation,
      int64_t flags = kTfLiteCustomAllocationFlagsNone);
  void SetAllowBufferHandleOutput(bool allow) { allow_buffer_handle_output_ = allow; }

  SignatureRunner(const SignatureRunner&) = delete;
  SignatureRunner& operator=(const SignatureRunner&) = delete;

 private:
  friend class Interpreter;
  SignatureRunner(tflite_c::Interpreter* interpreter, const tflite_c::SignatureInfo* signature,
                  tflite_c::Subgraph* subgraph);
  // Tensor index for a signature name, or -1 (reported).
  int TensorIndex(const char* name, bool input) const;

  tflite_c::Interpreter* interpreter_;
  const tflite_c::SignatureInfo* signature_;
  tflite_c::Subgraph* subgraph_;
  std::vector<const char*> input_names_;
  std::vector<const char*> output_names_;
  bool allow_buffer_handle_output_ = false;
};

}  // namespace tflite

#endif  // TENSORFLOW_LITE_SIGNATURE_RUNNER_H_

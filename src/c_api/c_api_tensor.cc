// The TfLiteTensor* accessors of the stable C API (type, shape, data,
// quantization, copies to and from caller buffers).
#include <cstring>

#include "src/c_api/c_api_internal.h"
#include "tensorflow/lite/core/c/c_api.h"

using tflite_c::DefaultErrorReporter;
using tflite_c::ReportNull;

namespace {

// The checks both copies start with: a tensor, and a buffer (NULL only when
// empty) of exactly the tensor's size. Reports and returns false otherwise.
bool CopyArgumentsValid(const char* function, const TfLiteTensor* tensor, const void* buffer,
                        const char* buffer_name, size_t size) {
  if (tensor == nullptr || (buffer == nullptr && size > 0)) {
    ReportNull(function, tensor ? buffer_name : "tensor");
    return false;
  }
  if (tensor->bytes != size) {
    DefaultErrorReporter()->Reportf("%s: tensor '%s' has %zu bytes, buffer has %zu", function,
                                    tensor->name ? tensor->name : "", tensor->bytes, size);
    return false;
  }
  return true;
}

}  // namespace

extern "C" {

TfLiteType TfLiteTensorType(const TfLiteTensor* tensor) {
  return tensor ? tensor->type : kTfLiteNoType;
}

int32_t TfLiteTensorNumDims(const TfLiteTensor* tensor) {
  if (tensor == nullptr || tensor->dims == nullptr) return -1;
  return tensor->dims->size;
}

int32_t TfLiteTensorDim(const TfLiteTensor* tensor, int32_t dim_index) {
  if (tensor == nullptr || tensor->dims == nullptr || dim_index < 0 ||
      dim_index >= tensor->dims->size) {
    return -1;
  }
  return tensor->dims->data[dim_index];
}

size_t TfLiteTensorByteSize(const TfLiteTensor* tensor) { return tensor ? tensor->bytes : 0; }

void* TfLiteTensorData(const TfLiteTensor* tensor) { return tensor ? tensor->data.raw : nullptr; }

const char* TfLiteTensorName(const TfLiteTensor* tensor) { return tensor ? tensor->name : nullptr; }

TfLiteQuantizationParams TfLiteTensorQuantizationParams(const TfLiteTensor* tensor) {
  if (tensor == nullptr) return TfLiteQuantizationParams{0.0f, 0};
  return tensor->params;
}

TfLiteStatus TfLiteTensorCopyFromBuffer(TfLiteTensor* tensor, const void* input_data,
                                        size_t input_data_size) {
  if (!CopyArgumentsValid("TfLiteTensorCopyFromBuffer", tensor, input_data, "input_data", input_data_size)) return kTfLiteError;
  if (input_data_size == 0) return kTfLiteOk;
  if (tensor->data.raw == nullptr) {
    DefaultErrorReporter()->Reportf(
        "TfLiteTensorCopyFromBuffer: tensor '%s' has no memory (call AllocateTensors first)",
        tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  if (tensor->allocation_type == kTfLiteMmapRo) {
    DefaultErrorReporter()->Reportf("TfLiteTensorCopyFromBuffer: tensor '%s' is read-only",
                                    tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  std::memcpy(tensor->data.raw, input_data, input_data_size);
  return kTfLiteOk;
}

TfLiteStatus TfLiteTensorCopyToBuffer(const TfLiteTensor* tensor, void* output_data,
                                      size_t output_data_size) {
  if (!CopyArgumentsValid("TfLiteTensorCopyToBuffer", tensor, output_data, "output_data", output_data_size)) return kTfLiteError;
  if (output_data_size == 0) return kTfLiteOk;
  if (tensor->data.raw == nullptr) {
    DefaultErrorReporter()->Reportf("TfLiteTensorCopyToBuffer: tensor '%s' has no data",
                                    tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  std::memcpy(output_data, tensor->data.raw, output_data_size);
  return kTfLiteOk;
}

}  // extern "C"

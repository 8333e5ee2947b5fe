// The opaque accessors of core/c/c_api_opaque.h, used by custom-op kernels
// and delegates written against the stable extension API: tensors and the
// tensor builder here, nodes and contexts in c_api_opaque_context.cc.
//
// Inside this library the opaque handles are the plain structs of common.h
// (TfLiteOpaqueContext is a TfLiteContext whose impl_ is a
// tflite_c::Subgraph, and so on), so each accessor is a checked cast plus a
// field read or a forward to a context callback. Every entry point tolerates
// NULL handles and out-of-range indices: it returns the failure value its
// documentation names (NULL, -1, 0 or kTfLiteError) and, when a context is
// at hand, says why through the context's error reporter.
//
// TfLiteOpaqueDelegateCreate/Delete/GetData live in src/core/common.cc.
#include "tensorflow/lite/core/c/c_api_opaque.h"

#include <new>

#include "src/c_api/c_api_opaque_internal.h"
#include "src/core/string_util.h"

using tflite_c::opaque_internal::Unwrap;

extern "C" {

// ===== TfLiteOpaqueTensor =======================================================

TfLiteType TfLiteOpaqueTensorType(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return t != nullptr ? t->type : kTfLiteNoType;
}

int32_t TfLiteOpaqueTensorNumDims(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr || t->dims == nullptr) return -1;
  return t->dims->size;
}

int32_t TfLiteOpaqueTensorDim(const TfLiteOpaqueTensor* opaque_tensor, int32_t dim_index) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr || t->dims == nullptr || dim_index < 0 || dim_index >= t->dims->size) {
    return -1;
  }
  return t->dims->data[dim_index];
}

TfLiteStatus TfLiteOpaqueTensorGetNumDimsSignature(const TfLiteOpaqueTensor* opaque_tensor,
                                                   int32_t* num_dims) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr || num_dims == nullptr) return kTfLiteError;
  *num_dims = t->dims_signature != nullptr ? t->dims_signature->size : -1;
  return kTfLiteOk;
}

TfLiteStatus TfLiteOpaqueTensorGetDimSignature(const TfLiteOpaqueTensor* opaque_tensor,
                                               int32_t dim_index, int32_t* dim_length) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr || dim_length == nullptr) return kTfLiteError;
  // An empty signature means "no unknown extents": the shape itself applies.
  const TfLiteIntArray* sig =
      (t->dims_signature != nullptr && t->dims_signature->size != 0) ? t->dims_signature : t->dims;
  if (sig == nullptr || dim_index < 0 || dim_index >= sig->size) return kTfLiteError;
  *dim_length = sig->data[dim_index];
  return kTfLiteOk;
}

int TfLiteOpaqueTensorIsVariable(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return (t != nullptr && t->is_variable) ? 1 : 0;
}

size_t TfLiteOpaqueTensorByteSize(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return t != nullptr ? t->bytes : 0;
}

void* TfLiteOpaqueTensorData(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return t != nullptr ? t->data.data : nullptr;
}

TfLiteAllocationType TfLiteOpaqueTensorGetAllocationType(
    const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return t != nullptr ? t->allocation_type : kTfLiteMemNone;
}

TfLiteAllocationStrategy TfLiteOpaqueTensorGetAllocationStrategy(const TfLiteOpaqueTensor* t) {
  return TfLiteTensorGetAllocationStrategy(Unwrap(t));
}

TfLiteRunStability TfLiteOpaqueTensorGetBufferAddressStability(const TfLiteOpaqueTensor* t) {
  return TfLiteTensorGetBufferAddressStability(Unwrap(t));
}

TfLiteRunStability TfLiteOpaqueTensorGetDataStability(const TfLiteOpaqueTensor* t) {
  return TfLiteTensorGetDataStability(Unwrap(t));
}

TfLiteRunStep TfLiteOpaqueTensorGetDataKnownStep(const TfLiteOpaqueTensor* t) {
  return TfLiteTensorGetDataKnownStep(Unwrap(t));
}

TfLiteRunStep TfLiteOpaqueTensorGetShapeKnownStep(const TfLiteOpaqueTensor* t) {
  return TfLiteTensorGetShapeKnownStep(Unwrap(t));
}

const char* TfLiteOpaqueTensorName(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  return t != nullptr ? t->name : nullptr;
}

TfLiteQuantization TfLiteOpaqueTensorGetQuantization(const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr) return TfLiteQuantization{kTfLiteNoQuantization, nullptr};
  return t->quantization;
}

TfLiteQuantizationParams TfLiteOpaqueTensorGetQuantizationParams(
    const TfLiteOpaqueTensor* opaque_tensor) {
  const TfLiteTensor* t = Unwrap(opaque_tensor);
  if (t == nullptr) return TfLiteQuantizationParams{0.0f, 0};
  return t->params;
}

TfLiteStatus TfLiteOpaqueTensorCopyFromBuffer(TfLiteOpaqueTensor* opaque_tensor,
                                              const void* input_data, size_t input_data_size) {
  return TfLiteTensorCopyFromBuffer(Unwrap(opaque_tensor), input_data, input_data_size);
}

TfLiteStatus TfLiteOpaqueTensorCopyToBuffer(const TfLiteOpaqueTensor* opaque_tensor,
                                            void* output_data, size_t output_data_size) {
  return TfLiteTensorCopyToBuffer(Unwrap(opaque_tensor), output_data, output_data_size);
}

int TfLiteOpaqueTensorGetStringCount(const TfLiteOpaqueTensor* tensor) {
  return tflite_c::StringTensorCount(Unwrap(tensor));
}

TfLiteStatus TfLiteOpaqueTensorGetString(const TfLiteOpaqueTensor* tensor, int index,
                                         const char** str, int* len) {
  return tflite_c::StringTensorGet(Unwrap(tensor), index, str, len) ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus TfLiteOpaqueTensorWriteStrings(TfLiteOpaqueTensor* tensor,
                                            const char* const* str_array, int str_array_len,
                                            const int* str_n_len) {
  return tflite_c::StringTensorWrite(Unwrap(tensor), str_array, str_n_len, str_array_len);
}

TfLiteStatus TfLiteOpaqueTensorWriteString(TfLiteOpaqueTensor* tensor, const char* str,
                                           const int len) {
  return tflite_c::StringTensorWrite(Unwrap(tensor), &str, &len, 1);
}

// ----- Tensor builder ---------------------------------------------------------------

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderCreate(void) {
  return new (std::nothrow) TfLiteOpaqueTensorBuilder;
}

void TfLiteOpaqueTensorBuilderDelete(TfLiteOpaqueTensorBuilder* builder) { delete builder; }

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetType(TfLiteOpaqueTensorBuilder* builder,
                                                            TfLiteType type) {
  if (builder != nullptr) builder->type = type;
  return builder;
}

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetData(TfLiteOpaqueTensorBuilder* builder,
                                                            void* data) {
  if (builder != nullptr) builder->data = data;
  return builder;
}

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetAllocationType(
    TfLiteOpaqueTensorBuilder* builder, TfLiteAllocationType allocation_type) {
  if (builder != nullptr) builder->allocation_type = allocation_type;
  return builder;
}

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetQuantizationParams(
    TfLiteOpaqueTensorBuilder* builder, TfLiteQuantizationParams params) {
  if (builder != nullptr) builder->quantization_params = params;
  return builder;
}

TfLiteOpaqueTensorBuilder* TfLiteOpaqueTensorBuilderSetQuantization(
    TfLiteOpaqueTensorBuilder* builder, TfLiteQuantization quantization) {
  if (builder != nullptr) builder->quantization = quantization;
  return builder;
}

void TfLiteOpaqueTensorSetAllocationTypeToDynamic(TfLiteOpaqueTensor* tensor) {
  TfLiteTensor* t = Unwrap(tensor);
  if (t == nullptr || t->allocation_type == kTfLiteDynamic) return;
  // Heap data the tensor owned is released; arena or mapped memory is only
  // let go of. The tensor gets its own heap buffer when next resized.
  TfLiteTensorDataFree(t);
  t->allocation_type = kTfLiteDynamic;
}

void TfLiteOpaqueTensorSetNonCpuAllocation(TfLiteOpaqueTensor* tensor) {
  TfLiteTensor* t = Unwrap(tensor);
  if (t != nullptr) t->allocation_type = kTfLiteNonCpu;
}

}  // extern "C"

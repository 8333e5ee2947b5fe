// Shared by the two halves of the opaque API (c_api_opaque.cc: tensors and
// the tensor builder; c_api_opaque_context.cc: nodes and contexts): the
// builder's contents and the conversions between opaque handles and the
// structs of common.h they are inside this library.
#ifndef TFLITE_C_SRC_C_API_C_API_OPAQUE_INTERNAL_H_
#define TFLITE_C_SRC_C_API_C_API_OPAQUE_INTERNAL_H_

#include "tensorflow/lite/core/c/c_api_opaque.h"

// Properties collected for TfLiteOpaqueContextAddTensor.
struct TfLiteOpaqueTensorBuilder {
  TfLiteType type = kTfLiteNoType;
  void* data = nullptr;
  TfLiteAllocationType allocation_type = kTfLiteMemNone;
  TfLiteQuantizationParams quantization_params = {0.0f, 0};
  TfLiteQuantization quantization = {kTfLiteNoQuantization, nullptr};
};

namespace tflite_c {
namespace opaque_internal {

inline const TfLiteTensor* Unwrap(const TfLiteOpaqueTensor* t) {
  return reinterpret_cast<const TfLiteTensor*>(t);
}
inline TfLiteTensor* Unwrap(TfLiteOpaqueTensor* t) { return reinterpret_cast<TfLiteTensor*>(t); }
inline const TfLiteNode* Unwrap(const TfLiteOpaqueNode* n) {
  return reinterpret_cast<const TfLiteNode*>(n);
}
inline TfLiteNode* Unwrap(TfLiteOpaqueNode* n) { return reinterpret_cast<TfLiteNode*>(n); }
inline const TfLiteContext* Unwrap(const TfLiteOpaqueContext* c) {
  return reinterpret_cast<const TfLiteContext*>(c);
}
inline TfLiteContext* Unwrap(TfLiteOpaqueContext* c) { return reinterpret_cast<TfLiteContext*>(c); }

inline TfLiteOpaqueTensor* Wrap(TfLiteTensor* t) {
  return reinterpret_cast<TfLiteOpaqueTensor*>(t);
}
inline TfLiteOpaqueNode* Wrap(TfLiteNode* n) { return reinterpret_cast<TfLiteOpaqueNode*>(n); }
inline TfLiteOpaqueContext* Wrap(TfLiteContext* c) {
  return reinterpret_cast<TfLiteOpaqueContext*>(c);
}

}  // namespace opaque_internal
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_C_API_C_API_OPAQUE_INTERNAL_H_

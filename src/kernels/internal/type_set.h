// Membership of an element type in a kernel's list of supported types.
#ifndef TFLITE_C_SRC_KERNELS_INTERNAL_TYPE_SET_H_
#define TFLITE_C_SRC_KERNELS_INTERNAL_TYPE_SET_H_

#include <initializer_list>

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {
namespace internal {

using TypeSet = std::initializer_list<TfLiteType>;

inline bool TypeIn(TfLiteType type, TypeSet types) {
  for (TfLiteType t : types) {
    if (t == type) return true;
  }
  return false;
}

}  // namespace internal
}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_INTERNAL_TYPE_SET_H_

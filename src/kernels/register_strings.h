// Registrations of the string, text-feature and lookup-table kernels, added to the builtin
// resolver by RegisterStringKernels (register_strings.cc).
#ifndef TFLITE_C_SRC_KERNELS_REGISTER_STRINGS_H_
#define TFLITE_C_SRC_KERNELS_REGISTER_STRINGS_H_

#include "tensorflow/lite/core/c/common.h"

namespace tflite_c {
namespace kernels {

const TfLiteRegistration* Register_HASHTABLE();
const TfLiteRegistration* Register_HASHTABLE_FIND();
const TfLiteRegistration* Register_HASHTABLE_IMPORT();
const TfLiteRegistration* Register_HASHTABLE_SIZE();
const TfLiteRegistration* Register_HASHTABLE_LOOKUP();
const TfLiteRegistration* Register_SKIP_GRAM();       // skip_gram.cc
const TfLiteRegistration* Register_LSH_PROJECTION();  // lsh_projection.cc

}  // namespace kernels
}  // namespace tflite_c

#endif  // TFLITE_C_SRC_KERNELS_REGISTER_STRINGS_H_

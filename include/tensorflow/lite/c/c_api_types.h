/* tflite-c: public entry point for the basic C API types.
 * Everything lives in tensorflow/lite/core/c/c_api_types.h. */
#ifndef TENSORFLOW_LITE_C_C_API_TYPES_H_
#define TENSORFLOW_LITE_C_C_API_TYPES_H_

#include "tensorflow/lite/core/c/c_api_types.h"

#endif /* TENSORFLOW_LITE_C_C_API_TYPES_H_ */

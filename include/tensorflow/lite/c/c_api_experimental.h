/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Public entry header of the experimental C API; the declarations (and their
 * documentation) are in tensorflow/lite/core/c/c_api_experimental.h.
 */
#ifndef TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_

#include "tensorflow/lite/core/c/c_api_experimental.h"

#endif /* TENSORFLOW_LITE_C_C_API_EXPERIMENTAL_H_ */

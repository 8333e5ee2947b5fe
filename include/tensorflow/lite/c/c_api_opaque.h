/* tflite-c: TensorFlow Lite 2.19-compatible C runtime.
 *
 * Public entry header of the opaque-type accessor API used by custom ops and
 * delegates; the declarations (and their documentation) are in
 * tensorflow/lite/core/c/c_api_opaque.h.
 */
#ifndef TENSORFLOW_LITE_C_C_API_OPAQUE_H_
#define TENSORFLOW_LITE_C_C_API_OPAQUE_H_

#include "tensorflow/lite/core/c/c_api_opaque.h"

#endif /* TENSORFLOW_LITE_C_C_API_OPAQUE_H_ */

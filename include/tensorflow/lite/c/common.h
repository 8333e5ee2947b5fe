/* tflite-c: public entry point for the kernel/delegate data structures.
 * Everything lives in tensorflow/lite/core/c/common.h. */
#ifndef TENSORFLOW_LITE_C_COMMON_H_
#define TENSORFLOW_LITE_C_COMMON_H_

#include "tensorflow/lite/core/c/common.h"

#endif /* TENSORFLOW_LITE_C_COMMON_H_ */

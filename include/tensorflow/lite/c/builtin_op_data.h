/* tflite-c: public entry point for the builtin op option structs.
 * Everything lives in tensorflow/lite/core/c/builtin_op_data.h. */
#ifndef TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_
#define TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_

#include "tensorflow/lite/core/c/builtin_op_data.h"

#endif /* TENSORFLOW_LITE_C_BUILTIN_OP_DATA_H_ */

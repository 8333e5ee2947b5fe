/* tflite-c: legacy location of the builtin op option structs, kept for
 * source compatibility. Everything lives in
 * tensorflow/lite/core/c/builtin_op_data.h. */
#ifndef TENSORFLOW_LITE_BUILTIN_OP_DATA_H_
#define TENSORFLOW_LITE_BUILTIN_OP_DATA_H_

#include "tensorflow/lite/core/c/builtin_op_data.h"

#endif /* TENSORFLOW_LITE_BUILTIN_OP_DATA_H_ */

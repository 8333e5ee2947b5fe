// Debug printing of an interpreter's tensors and nodes (libtflite_cc).
#ifndef TENSORFLOW_LITE_OPTIONAL_DEBUG_TOOLS_H_
#define TENSORFLOW_LITE_OPTIONAL_DEBUG_TOOLS_H_

#include <cstdint>

#include "tensorflow/lite/interpreter.h"

namespace tflite {

// Prints inputs, outputs, every tensor (name, type, allocation, bytes,
// shape) and every node of the execution plan to stdout. Names longer than
// the display lengths are shortened.
TFLITE_CC_EXPORT void PrintInterpreterState(const Interpreter* interpreter,
                                            int32_t tensor_name_display_length = 25,
                                            int32_t tensor_type_display_length = 15,
                                            int32_t alloc_type_display_length = 18);

}  // namespace tflite

#endif  // TENSORFLOW_LITE_OPTIONAL_DEBUG_TOOLS_H_

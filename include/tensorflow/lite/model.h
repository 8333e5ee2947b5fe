// Model loading and interpreter building in one include, as upstream's
// tensorflow/lite/model.h offers (libtflite_cc).
#ifndef TENSORFLOW_LITE_MODEL_H_
#define TENSORFLOW_LITE_MODEL_H_

#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/model_builder.h"

#endif  // TENSORFLOW_LITE_MODEL_H_

/* Minimal NumPy .npy reading and writing for run_model (format versions 1-3,
 * little-endian, C order), using only the public C API. */
#ifndef TFLITE_C_TOOLS_RUN_MODEL_NPY_H_
#define TFLITE_C_TOOLS_RUN_MODEL_NPY_H_

#include <stddef.h>

#include "tensorflow/lite/c/c_api.h"

/* 1 when the first bytes of `path` are the .npy magic, 0 otherwise. */
int NpyIsNpyFile(const char* path);

/* Reads the array in `path` into `t`: the dtype must be the tensor's type and
 * the element count the tensor's (a differing shape with the same count is
 * accepted with a note on stderr). Returns 1, or 0 after printing why. */
int NpyReadInto(const char* path, TfLiteTensor* t);

/* Writes `t` (type, shape, bytes) as a version 1.0 .npy file. Returns 1, or 0
 * after printing why (e.g. a type .npy cannot express, such as STRING). */
int NpyWrite(const char* path, const TfLiteTensor* t);

#endif /* TFLITE_C_TOOLS_RUN_MODEL_NPY_H_ */

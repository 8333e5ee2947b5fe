/* The "ATAN" custom operator of the "Custom operators" guide, as a shared
 * library: y = atan(x), float32, elementwise, any shape.
 *
 * Written against the installed public headers and the opaque extension API
 * only, so the same .so works with any runtime that exports that API. */
#ifndef CUSTOM_OP_ATAN_ATAN_OP_H_
#define CUSTOM_OP_ATAN_ATAN_OP_H_

#include "tensorflow/lite/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ATAN_OP_EXPORT __attribute__((visibility("default")))
#else
#define ATAN_OP_EXPORT
#endif

/* The operator, registered under the custom name "ATAN", version 1. Created
 * on first use and intentionally never destroyed (interpreters keep pointers
 * to it). Pass it to TfLiteInterpreterOptionsAddRegistrationExternal(). */
ATAN_OP_EXPORT TfLiteRegistrationExternal* AtanOpRegistrationExternal(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUSTOM_OP_ATAN_ATAN_OP_H_ */

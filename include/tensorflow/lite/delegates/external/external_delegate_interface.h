/* What a delegate library loaded by TfLiteExternalDelegateCreate must
 * export. These functions are implemented by the library, not by
 * TensorFlow Lite; this header only declares them so the library can check
 * its definitions against the expected prototypes.
 *
 * Same interface as TensorFlow Lite 2.19's header of the same name. */
#ifndef TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_INTERFACE_H_
#define TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_INTERFACE_H_

#include <stddef.h>

#include "tensorflow/lite/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SWIG)
#define TFL_EXTERNAL_DELEGATE_EXPORT
#elif defined(_WIN32)
/* Define TFL_EXTERNAL_DELEGATE_COMPILE_LIBRARY when building the library. */
#ifdef TFL_EXTERNAL_DELEGATE_COMPILE_LIBRARY
#define TFL_EXTERNAL_DELEGATE_EXPORT __declspec(dllexport)
#else
#define TFL_EXTERNAL_DELEGATE_EXPORT __declspec(dllimport)
#endif
#else
#define TFL_EXTERNAL_DELEGATE_EXPORT __attribute__((visibility("default")))
#endif

/* Creates a delegate from `num_options` key/value pairs (NUL-terminated
 * strings; both arrays may be NULL when num_options is 0). Returns NULL on
 * failure, after describing it through `report_error` when that is not
 * NULL. The result is released with tflite_plugin_destroy_delegate. */
extern TFL_EXTERNAL_DELEGATE_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(
    const char* const* options_keys, const char* const* options_values, size_t num_options,
    void (*report_error)(const char*));

/* Destroys a delegate from tflite_plugin_create_delegate; NULL is a no-op. */
extern TFL_EXTERNAL_DELEGATE_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_INTERFACE_H_ */

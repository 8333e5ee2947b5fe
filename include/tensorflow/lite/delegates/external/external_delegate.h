/* External delegates: load a delegate from a shared library at run time.
 *
 * The library must export the two functions declared in
 * external_delegate_interface.h (tflite_plugin_create_delegate and
 * tflite_plugin_destroy_delegate). TfLiteExternalDelegateCreate dlopen()s
 * it, passes the key/value options to tflite_plugin_create_delegate and
 * returns a delegate that forwards to the one the library made.
 *
 * Same API as TensorFlow Lite 2.19's header of the same name. Failures
 * (library not found, symbols missing, the library's create function
 * returning NULL, bad options) return NULL and print one line naming the
 * library path and the cause (the dlerror() text) to stderr. */
#ifndef TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_
#define TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_

#include "tensorflow/lite/core/c/common.h"

#ifdef __cplusplus
extern "C" {
#endif /* __cplusplus */

/* Most key/value pairs one TfLiteExternalDelegateOptions can hold. */
#define kExternalDelegateMaxOptions 256

typedef struct TfLiteExternalDelegateOptions {
  /* Path of the delegate library, as given to dlopen(). */
  const char* lib_path;
  /* Number of used entries of keys / values. */
  int count;
  /* Option names and values; the strings are not copied and must outlive
   * TfLiteExternalDelegateCreate. */
  const char* keys[kExternalDelegateMaxOptions];
  const char* values[kExternalDelegateMaxOptions];
  /* Set to TfLiteExternalDelegateOptionsInsert by ...OptionsDefault. */
  TfLiteStatus (*insert)(struct TfLiteExternalDelegateOptions* options, const char* key,
                         const char* value);
} TfLiteExternalDelegateOptions;

/* Appends one key/value pair. kTfLiteError (options unchanged) when options
 * or key is NULL or kExternalDelegateMaxOptions pairs are already set. */
TFL_CAPI_EXPORT TfLiteStatus TfLiteExternalDelegateOptionsInsert(
    TfLiteExternalDelegateOptions* options, const char* key, const char* value);

/* Options for the library at `lib_path`, with no key/value pairs. */
TFL_CAPI_EXPORT TfLiteExternalDelegateOptions
TfLiteExternalDelegateOptionsDefault(const char* lib_path);

/* Loads the library and creates its delegate; NULL on any failure (the
 * reason is printed to stderr). Destroy with TfLiteExternalDelegateDelete,
 * after every interpreter using it. */
TFL_CAPI_EXPORT TfLiteDelegate* TfLiteExternalDelegateCreate(
    const TfLiteExternalDelegateOptions* options);

/* Destroys a delegate from TfLiteExternalDelegateCreate (through the
 * library's tflite_plugin_destroy_delegate). NULL is a no-op. */
TFL_CAPI_EXPORT void TfLiteExternalDelegateDelete(TfLiteDelegate* delegate);

#ifdef __cplusplus
} /* extern "C" */
#endif /* __cplusplus */

#endif /* TENSORFLOW_LITE_DELEGATES_EXTERNAL_EXTERNAL_DELEGATE_H_ */
